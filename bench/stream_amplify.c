// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark input maker: repeat the samples of a recorded operf stream
 * (operf --lazy-conversion) until the output holds at least N samples.
 * The first copy keeps every record but exits; each later copy repeats
 * the sample records only, shifted in time by the recording's span, so
 * the processes, mappings and address distribution stay those of the
 * real run and time order still holds.
 *
 * usage: stream_amplify IN OUT N
 */
#include "config.h"

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_record.h"
#include "daemon/opd_stream.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_parse.h"

struct copy_state {
	uint64_t shift;		/* added to every sample time */
	uint64_t max_time;
	uint64_t samples;
	int first;		/* copy side-band records too */
};

/* rewrite one chunk's records into out; returns the bytes written */
static size_t copy_chunk(const unsigned char *in, size_t len, unsigned char *out,
			 struct copy_state *st)
{
	size_t off = 0, n = 0;

	while (off + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;

		memcpy(&h, in + off, sizeof(h));
		if (h.size < sizeof(h) || off + h.size > len)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= 40) {
			uint64_t t;

			memcpy(out + n, in + off, h.size);
			memcpy(&t, out + n + 32, 8);
			if (t > st->max_time)
				st->max_time = t;
			t += st->shift;
			memcpy(out + n + 32, &t, 8);
			n += h.size;
			st->samples++;
		} else if (st->first && h.type != PERF_RECORD_EXIT) {
			memcpy(out + n, in + off, h.size);
			n += h.size;
		}
		off += h.size;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct opd_stream_reader *r;
	struct opd_stream_writer *w;
	struct opd_stream_info info;
	struct opd_stream_chunk_view c;
	struct copy_state st = { .first = 1 };
	struct op_err err;
	unsigned char *buf = NULL;
	size_t buf_size = 0;
	uint64_t want;
	int ret;

	if (argc != 4 || op_parse_u64(argv[3], 10, UINT64_MAX, &want)) {
		fprintf(stderr, "usage: stream_amplify IN OUT N\n");
		return 2;
	}
	if (opd_stream_open(argv[1], &r, &err))
		op_die(1, "cannot open '%s': %s", argv[1], err.msg);
	if ((opd_stream_reader_info(r)->sample_type & ~(uint64_t)PERF_SAMPLE_CALLCHAIN) !=
	    OPD_SAMPLE_TYPE)
		op_die(1, "'%s' was not recorded by this operf", argv[1]);
	info = *opd_stream_reader_info(r);
	if (opd_stream_create(argv[2], &info, &w))
		op_die(1, "cannot create '%s'", argv[2]);
	while (st.samples < want) {
		uint64_t before = st.samples;

		opd_stream_rewind(r);
		while ((ret = opd_stream_next_chunk(r, &c, &err)) == 1) {
			if (c.type == OPD_CHUNK_ROUND) {
				opd_stream_round(w);
				continue;
			}
			if (c.len > buf_size)
				buf = op_xrealloc(buf, buf_size = c.len);
			opd_stream_write(w, c.cpu, buf, copy_chunk(c.data, c.len, buf, &st));
		}
		if (st.samples == before)
			op_die(1, "'%s' holds no samples", argv[1]);
		/* the next copy starts after the recording's last sample */
		st.shift += st.max_time + 1;
		st.first = 0;
	}
	if (opd_stream_close_writer(w))
		op_die(1, "cannot write '%s'", argv[2]);
	fprintf(stderr, "stream_amplify: %" PRIu64 " samples\n", st.samples);
	opd_stream_close(r);
	free(buf);
	return 0;
}
