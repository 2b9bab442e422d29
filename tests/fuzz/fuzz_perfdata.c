// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: perf.data (file or pipe mode) from untrusted bytes,
 * checked by opd_perfdata_open() and, when accepted, replayed as
 * opimport --perf-data does.  Nothing may crash, hang or leak, and every
 * record handed on must be whole and decode with the sample type the
 * reader announces: that is all the engine is given (its own handling
 * of such records is fuzzed by fuzz_stream).
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_perfdata.h"
#include "daemon/opd_record.h"
#include "tests/fuzz/fuzz.h"

struct seen {
	uint64_t sample_type;
	size_t nr_attrs;
};

static void queue(void *arg, uint32_t q, const void *recs, size_t len)
{
	const struct seen *s = arg;
	struct perf_event_header h;
	struct opd_record rec;

	if (q >= OPD_PERFDATA_QUEUES || len < sizeof(h))
		abort();
	memcpy(&h, recs, sizeof(h));
	if (h.size != len || opd_record_decode(recs, len, s->sample_type, &rec))
		abort();
	if (rec.id >= s->nr_attrs)
		abort();
}

static void round_end(void *arg)
{
	(void)arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct opd_perfdata_info *info;
	struct opd_perfdata_sink sink = { queue, round_end, NULL };
	struct opd_perfdata *pd;
	struct seen seen;
	struct op_err err;

	if (opd_perfdata_open(data, size, &pd, &err))
		return 0;
	info = opd_perfdata_info(pd);
	seen.sample_type = info->sample_type;
	seen.nr_attrs = info->nr_attrs;
	sink.arg = &seen;
	opd_perfdata_replay(pd, &sink);
	opd_perfdata_free(pd);
	return 0;
}
