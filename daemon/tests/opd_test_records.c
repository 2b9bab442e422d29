// SPDX-License-Identifier: GPL-2.0-or-later
/* Synthetic perf records for engine tests (see opd_test_records.h). */
#include "config.h"

#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>

#include "daemon/tests/opd_test_records.h"

static size_t begin(struct op_strbuf *sb, uint32_t type, uint16_t misc)
{
	struct perf_event_header hdr = { .type = type, .misc = misc };
	size_t start = sb->len;

	op_strbuf_add(sb, &hdr, sizeof(hdr));
	return start;
}

static void end(struct op_strbuf *sb, size_t start)
{
	struct perf_event_header hdr;

	memcpy(&hdr, sb->buf + start, sizeof(hdr));
	hdr.size = (uint16_t)(sb->len - start);
	memcpy(sb->buf + start, &hdr, sizeof(hdr));
}

static void u64(struct op_strbuf *sb, uint64_t v)
{
	op_strbuf_add(sb, &v, sizeof(v));
}

static void two32(struct op_strbuf *sb, uint32_t a, uint32_t b)
{
	op_strbuf_add(sb, &a, sizeof(a));
	op_strbuf_add(sb, &b, sizeof(b));
}

static void str(struct op_strbuf *sb, const char *s)
{
	static const char pad[8];
	size_t len = strlen(s) + 1;

	op_strbuf_add(sb, s, len);
	op_strbuf_add(sb, pad, (8 - len % 8) % 8);
}

/* sample_id: pid/tid, time, cpu, identifier */
static void trailer(struct op_strbuf *sb, uint32_t pid, uint32_t tid, uint64_t time,
		    uint64_t id)
{
	two32(sb, pid, tid);
	u64(sb, time);
	two32(sb, 0, 0);
	u64(sb, id);
}

void rec_comm(struct op_strbuf *sb, uint32_t pid, uint32_t tid, const char *comm,
	      int exec, uint64_t time)
{
	size_t s = begin(sb, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

	two32(sb, pid, tid);
	str(sb, comm);
	trailer(sb, pid, tid, time, 0);
	end(sb, s);
}

void rec_mmap2(struct op_strbuf *sb, uint32_t pid, uint64_t start, uint64_t len,
	       uint64_t pgoff, uint64_t ino, const char *file, uint64_t time)
{
	size_t s = begin(sb, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);

	two32(sb, pid, pid);
	u64(sb, start);
	u64(sb, len);
	u64(sb, pgoff);
	two32(sb, 8, 1);
	u64(sb, ino);
	u64(sb, 0);
	two32(sb, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	str(sb, file);
	trailer(sb, pid, pid, time, 0);
	end(sb, s);
}

void rec_fork(struct op_strbuf *sb, uint32_t pid, uint32_t ppid, uint32_t tid,
	      uint64_t time)
{
	size_t s = begin(sb, PERF_RECORD_FORK, 0);

	two32(sb, pid, ppid);
	two32(sb, tid, ppid);
	u64(sb, time);
	trailer(sb, pid, tid, time, 0);
	end(sb, s);
}

void rec_exit(struct op_strbuf *sb, uint32_t pid, uint32_t tid, uint64_t time)
{
	size_t s = begin(sb, PERF_RECORD_EXIT, 0);

	two32(sb, pid, pid);
	two32(sb, tid, tid);
	u64(sb, time);
	trailer(sb, pid, tid, time, 0);
	end(sb, s);
}

void rec_lost(struct op_strbuf *sb, uint64_t id, uint64_t lost, uint64_t time)
{
	size_t s = begin(sb, PERF_RECORD_LOST, 0);

	u64(sb, id);
	u64(sb, lost);
	trailer(sb, 0, 0, time, id);
	end(sb, s);
}

void rec_throttle(struct op_strbuf *sb, uint64_t id, uint64_t time)
{
	size_t s = begin(sb, PERF_RECORD_THROTTLE, 0);

	u64(sb, time);
	u64(sb, id);
	u64(sb, id);
	trailer(sb, 0, 0, time, id);
	end(sb, s);
}

void rec_sample(struct op_strbuf *sb, uint64_t id, uint32_t pid, uint32_t tid,
		uint32_t cpu, uint16_t misc, uint64_t ip, uint64_t time,
		const uint64_t *chain, size_t nr_chain)
{
	size_t s = begin(sb, PERF_RECORD_SAMPLE, misc);

	u64(sb, id);
	u64(sb, ip);
	two32(sb, pid, tid);
	u64(sb, time);
	two32(sb, cpu, 0);
	u64(sb, 1);	/* period */
	if (chain) {
		u64(sb, nr_chain);
		op_strbuf_add(sb, chain, nr_chain * sizeof(*chain));
	}
	end(sb, s);
}
