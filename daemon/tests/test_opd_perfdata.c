// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opd_perfdata on perf.data made here, in layouts perf writes and some
 * it could: two attrs of different sample types told apart by
 * PERF_SAMPLE_IDENTIFIER, an attr without ids, times or periods, old
 * MMAP records, LOST_SAMPLES, file mode with its features.  Every
 * replayed record is whole, decodes with the announced sample type and
 * carries its attr's index, fields intact.  Every prefix of a good input
 * opens or fails cleanly, and each corruption in the table fails with its
 * error and a message naming what is wrong.
 */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "daemon/opd_perfdata.h"
#include "daemon/opd_record.h"
#include "libutil/op_strbuf.h"

#define ST_A (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	      PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define ST_B (ST_A | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN)

static void u64(struct op_strbuf *sb, uint64_t v)
{
	op_strbuf_add(sb, &v, 8);
}

static void u32x2(struct op_strbuf *sb, uint32_t lo, uint32_t hi)
{
	u64(sb, (uint64_t)hi << 32 | lo);
}

static size_t begin(struct op_strbuf *sb, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	size_t start = sb->len;

	op_strbuf_add(sb, &h, sizeof(h));
	return start;
}

static void end(struct op_strbuf *sb, size_t start)
{
	uint16_t size = (uint16_t)(sb->len - start);

	memcpy(sb->buf + start + 6, &size, 2);
}

static void pipe_header(struct op_strbuf *sb)
{
	op_strbuf_add(sb, "PERFILE2", 8);
	u64(sb, 16);
}

static void attr_bytes(struct op_strbuf *sb, uint32_t config, uint64_t st,
		       bool id_all, uint64_t period)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = config,
		.sample_period = period, .sample_type = st, .sample_id_all = id_all,
	};

	op_strbuf_add(sb, &a, sizeof(a));
}

static void header_attr(struct op_strbuf *sb, uint32_t config, uint64_t st,
			uint64_t id)
{
	size_t s = begin(sb, 64, 0);

	attr_bytes(sb, config, st, true, 4000);
	u64(sb, id);
	end(sb, s);
}

/* the sample_id trailer of ST_A: tid, time, identifier */
static void trailer_a(struct op_strbuf *sb, uint32_t pid, uint64_t time, uint64_t id)
{
	u32x2(sb, pid, pid);
	u64(sb, time);
	u64(sb, id);
}

static void string(struct op_strbuf *sb, const char *s)
{
	static const char pad[8];
	size_t n = strlen(s) + 1;

	op_strbuf_add(sb, s, n);
	op_strbuf_add(sb, pad, (8 - n % 8) % 8);
}

/* COMM, MMAP (the old kind), a sample of each attr and of no attr, a round */
static void records(struct op_strbuf *sb)
{
	size_t s = begin(sb, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);

	u32x2(sb, 42, 42);
	string(sb, "prog");
	trailer_a(sb, 42, 10, 100);
	end(sb, s);
	s = begin(sb, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	u32x2(sb, 42, 42);
	u64(sb, 0x400000);
	u64(sb, 0x1000);
	u64(sb, 0);
	string(sb, "/usr/bin/prog");
	trailer_a(sb, 42, 11, 100);
	end(sb, s);
	s = begin(sb, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);	/* attr 1 */
	u64(sb, 200);
	u64(sb, 0x400100);
	u32x2(sb, 42, 43);
	u64(sb, 30);
	u32x2(sb, 1, 0);
	u64(sb, 7);
	u64(sb, 2);
	u64(sb, (uint64_t)PERF_CONTEXT_USER);
	u64(sb, 0x400100);
	end(sb, s);
	s = begin(sb, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);	/* attr 0 */
	u64(sb, 100);
	u64(sb, 0x400200);
	u32x2(sb, 42, 42);
	u64(sb, 20);
	u64(sb, 9);
	end(sb, s);
	s = begin(sb, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);	/* no attr */
	u64(sb, 999);
	u64(sb, 0x400300);
	u32x2(sb, 42, 42);
	u64(sb, 25);
	u64(sb, 1);
	end(sb, s);
	s = begin(sb, 68, 0);		/* FINISHED_ROUND */
	end(sb, s);
}

/* pipe mode: cpu-clock (ST_A, id 100), task-clock (ST_B, id 200), records() */
static void pipe_data(struct op_strbuf *sb)
{
	pipe_header(sb);
	header_attr(sb, PERF_COUNT_SW_CPU_CLOCK, ST_A, 100);
	header_attr(sb, PERF_COUNT_SW_TASK_CLOCK, ST_B, 200);
	records(sb);
}

/* the replayed records, back to back, and the rounds */
struct got {
	struct op_strbuf recs;
	unsigned rounds;
};

static void got_queue(void *arg, uint32_t q, const void *recs, size_t len)
{
	struct got *g = arg;

	assert_true(q < OPD_PERFDATA_QUEUES);
	op_strbuf_add(&g->recs, recs, len);
}

static void got_round(void *arg)
{
	((struct got *)arg)->rounds++;
}

/* decode the replayed records into out[], at most max; returns how many */
static size_t replay(struct opd_perfdata *pd, struct got *g, struct opd_record *out,
		     size_t max)
{
	struct opd_perfdata_sink sink = { got_queue, got_round, g };
	uint64_t st = opd_perfdata_info(pd)->sample_type;
	size_t off = 0, n = 0;

	op_strbuf_init(&g->recs);
	g->rounds = 0;
	opd_perfdata_replay(pd, &sink);
	while (off < g->recs.len) {
		struct perf_event_header h;

		memcpy(&h, g->recs.buf + off, sizeof(h));
		assert_true(h.size >= sizeof(h) && h.size <= g->recs.len - off);
		assert_true(n < max);
		assert_int_equal(opd_record_decode(g->recs.buf + off, h.size, st, &out[n]), 0);
		off += h.size;
		n++;
	}
	return n;
}

static void test_pipe_two_layouts(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const struct opd_perfdata_info *info;
	struct opd_perfdata *pd;
	struct opd_record r[8];
	struct op_err err = { "" };
	struct got g;

	(void)state;
	pipe_data(&sb);
	assert_int_equal(opd_perfdata_open(sb.buf, sb.len, &pd, &err), 0);
	info = opd_perfdata_info(pd);
	assert_true(info->pipe);
	assert_int_equal(info->nr_attrs, 2);
	assert_int_equal(info->attrs[1].config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(info->sample_type, OPD_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN);
	assert_int_equal(info->nr_samples, 2);
	assert_int_equal(info->nr_dropped, 1);
	assert_string_equal(info->hostname, "");
	assert_int_equal(replay(pd, &g, r, 8), 4);
	assert_int_equal(g.rounds, 1);
	assert_int_equal(r[0].type, PERF_RECORD_COMM);
	assert_int_equal(r[0].misc, PERF_RECORD_MISC_COMM_EXEC);
	assert_string_equal(r[0].u.comm.comm, "prog");
	assert_int_equal(r[0].time, 10);
	assert_int_equal(r[1].type, PERF_RECORD_MMAP2);
	assert_int_equal(r[1].u.mmap.start, 0x400000);
	assert_int_equal(r[1].u.mmap.prot, PROT_EXEC);
	assert_string_equal(r[1].u.mmap.filename, "/usr/bin/prog");
	assert_int_equal(r[2].id, 1);
	assert_int_equal(r[2].u.sample.ip, 0x400100);
	assert_int_equal(r[2].tid, 43);
	assert_int_equal(r[2].cpu, 1);
	assert_int_equal(r[2].u.sample.period, 7);
	assert_int_equal(r[2].u.sample.nr_chain, 2);
	assert_int_equal(r[3].id, 0);
	assert_int_equal(r[3].u.sample.ip, 0x400200);
	assert_int_equal(r[3].time, 20);
	assert_int_equal(r[3].u.sample.period, 9);
	assert_int_equal(r[3].u.sample.nr_chain, 0);
	op_strbuf_release(&g.recs);
	opd_perfdata_free(pd);
	op_strbuf_release(&sb);
}

/*
 * One attr, no ids, no time, no period (a fixed one), no sample_id_all;
 * perf's LOST_SAMPLES becomes the LOST record the engine counts
 */
static void test_bare_layout(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_perfdata *pd;
	struct opd_record r[2];
	struct op_err err = { "" };
	struct got g;
	size_t s;

	(void)state;
	pipe_header(&sb);
	s = begin(&sb, 64, 0);
	attr_bytes(&sb, PERF_COUNT_SW_CPU_CLOCK, PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		   false, 50000);
	end(&sb, s);
	s = begin(&sb, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	u64(&sb, 0x1234);
	u32x2(&sb, 5, 6);
	end(&sb, s);
	s = begin(&sb, PERF_RECORD_LOST_SAMPLES, 0);
	u64(&sb, 5);
	end(&sb, s);
	assert_int_equal(opd_perfdata_open(sb.buf, sb.len, &pd, &err), 0);
	assert_int_equal(replay(pd, &g, r, 2), 2);
	assert_int_equal(r[1].type, PERF_RECORD_LOST);
	assert_int_equal(r[1].u.lost.lost, 5);
	assert_int_equal(r[1].id, 0);
	assert_int_equal(r[0].id, 0);
	assert_int_equal(r[0].u.sample.ip, 0x1234);
	assert_int_equal(r[0].pid, 5);
	assert_int_equal(r[0].tid, 6);
	assert_int_equal(r[0].u.sample.period, 50000);
	op_strbuf_release(&g.recs);
	opd_perfdata_free(pd);
	op_strbuf_release(&sb);
}

/*
 * File mode: header, attrs (attr + ids section each), ids, data, then
 * the feature table (HOSTNAME and OSRELEASE) and the features
 */
static void file_data(struct op_strbuf *sb)
{
	struct op_strbuf data = OP_STRBUF_INIT;
	uint64_t attr_size = sizeof(struct perf_event_attr) + 16;
	uint64_t attrs = 104, ids = attrs + 2 * attr_size, data_off = ids + 16;
	uint64_t feat_table, f1, f2;
	static const char host[8] = "box", rel[8] = "6.1.0";

	records(&data);
	op_strbuf_add(sb, "PERFILE2", 8);
	u64(sb, 104);
	u64(sb, attr_size);
	u64(sb, attrs);
	u64(sb, 2 * attr_size);
	u64(sb, data_off);
	u64(sb, data.len);
	u64(sb, 0);
	u64(sb, 0);
	u64(sb, 1u << 3 | 1u << 4);	/* HOSTNAME, OSRELEASE */
	u64(sb, 0);
	u64(sb, 0);
	u64(sb, 0);
	attr_bytes(sb, PERF_COUNT_SW_CPU_CLOCK, ST_A, true, 4000);
	u64(sb, ids);
	u64(sb, 8);
	attr_bytes(sb, PERF_COUNT_SW_TASK_CLOCK, ST_B, true, 4000);
	u64(sb, ids + 8);
	u64(sb, 8);
	u64(sb, 100);
	u64(sb, 200);
	op_strbuf_add(sb, data.buf, data.len);
	feat_table = sb->len;
	f1 = feat_table + 32;
	f2 = f1 + 12;
	u64(sb, f1);
	u64(sb, 12);
	u64(sb, f2);
	u64(sb, 12);
	op_strbuf_add(sb, &(uint32_t){ 8 }, 4);
	op_strbuf_add(sb, host, 8);
	op_strbuf_add(sb, &(uint32_t){ 8 }, 4);
	op_strbuf_add(sb, rel, 8);
	op_strbuf_release(&data);
}

static void test_file_mode(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct op_err err = { "" };
	const struct opd_perfdata_info *info;
	struct opd_record r[8];
	struct opd_perfdata *pd;
	struct got g;

	(void)state;
	file_data(&sb);
	assert_int_equal(opd_perfdata_open(sb.buf, sb.len, &pd, &err), 0);
	info = opd_perfdata_info(pd);
	assert_false(info->pipe);
	assert_int_equal(info->nr_attrs, 2);
	assert_string_equal(info->hostname, "box");
	assert_string_equal(info->osrelease, "6.1.0");
	assert_int_equal(replay(pd, &g, r, 8), 4);
	assert_int_equal(r[2].id, 1);
	assert_int_equal(r[3].id, 0);
	op_strbuf_release(&g.recs);
	opd_perfdata_free(pd);
	op_strbuf_release(&sb);
}

/* every prefix of good input opens (cut between records) or fails cleanly */
static void test_prefixes(void **state)
{
	struct op_strbuf sb[2] = { OP_STRBUF_INIT, OP_STRBUF_INIT };
	struct opd_perfdata *pd;
	struct op_err err;
	size_t i, len;
	int ret;

	(void)state;
	pipe_data(&sb[0]);
	file_data(&sb[1]);
	for (i = 0; i < 2; i++)
		for (len = 0; len < sb[i].len; len++) {
			ret = opd_perfdata_open(sb[i].buf, len, &pd, &err);
			assert_true(ret == 0 || ret == -EINVAL);
			assert_true(ret || pd);
			opd_perfdata_free(pd);
		}
	op_strbuf_release(&sb[0]);
	op_strbuf_release(&sb[1]);
}

/* a good pipe input with the bytes at off replaced by value (size bytes) */
struct bad_case {
	int line;
	bool file;		/* the file-mode input, else the pipe one */
	size_t off;
	uint64_t value;
	size_t size;
	int ret;
	const char *msg;	/* in err */
};

/* pipe: header 16, attr records of 8 + attr + 8 each, then COMM */
#define ATTR_REC (8 + sizeof(struct perf_event_attr) + 8)
#define FIRST_REC (16 + 2 * ATTR_REC)

static const struct bad_case bad_cases[] = {
	{ .line = __LINE__, .off = 0, .value = 0x50455246494c4532ull, .size = 8,
	  .ret = -ENOTSUP, .msg = "other byte order" },
	{ .line = __LINE__, .off = 0, .value = 0x4c4946524550, .size = 8,
	  .ret = -EINVAL, .msg = "bad magic at offset 0" },
	{ .line = __LINE__, .off = 8, .value = 17, .size = 8,
	  .ret = -EINVAL, .msg = "bad header size 17" },
	{ .line = __LINE__, .off = FIRST_REC + 6, .value = 4, .size = 2,
	  .ret = -EINVAL, .msg = "too small for its header" },
	{ .line = __LINE__, .off = FIRST_REC + 6, .value = 60000, .size = 2,
	  .ret = -EINVAL, .msg = "past the end of the data" },
	{ .line = __LINE__, .off = FIRST_REC, .value = 81, .size = 4,
	  .ret = -ENOTSUP, .msg = "compressed records" },
	/* the COMM record, too short for a THROTTLE's fields and trailer */
	{ .line = __LINE__, .off = FIRST_REC, .value = PERF_RECORD_THROTTLE, .size = 4,
	  .ret = -EINVAL, .msg = "bad PERF_RECORD_THROTTLE (48 bytes) at offset" },
	{ .line = __LINE__, .off = 16 + 8 + 24, .value = ST_A | PERF_SAMPLE_READ,
	  .size = 8, .ret = -ENOTSUP, .msg = "PERF_SAMPLE_READ" },
	/* the first attr record made a SAMPLE: before any attr */
	{ .line = __LINE__, .off = 16, .value = PERF_RECORD_SAMPLE, .size = 4,
	  .ret = -EINVAL, .msg = "before any event attr" },
	{ .line = __LINE__, .file = true, .off = 16, .value = 7, .size = 8,
	  .ret = -EINVAL, .msg = "bad attr size 7" },
	{ .line = __LINE__, .file = true, .off = 48, .value = 1u << 30, .size = 8,
	  .ret = -EINVAL, .msg = "past the end of the file" },
	{ .line = __LINE__, .file = true, .off = 32, .value = 1, .size = 8,
	  .ret = -EINVAL, .msg = "bad attrs section" },
	{ .line = __LINE__, .file = true, .off = 104 + sizeof(struct perf_event_attr),
	  .value = 1u << 30, .size = 8, .ret = -EINVAL, .msg = "bad ids section" },
};

static void test_bad(void **state)
{
	struct op_strbuf sb[2] = { OP_STRBUF_INIT, OP_STRBUF_INIT };
	size_t i;

	(void)state;
	pipe_data(&sb[0]);
	file_data(&sb[1]);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		const struct op_strbuf *good = &sb[c->file];
		unsigned char *copy = malloc(good->len);
		struct op_err err = { "" };
		struct opd_perfdata *pd;
		int ret;

		assert_non_null(copy);
		memcpy(copy, good->buf, good->len);
		memcpy(copy + c->off, &c->value, c->size);
		ret = opd_perfdata_open(copy, good->len, &pd, &err);
		if (ret != c->ret || !strstr(err.msg, c->msg))
			fail_msg("line %d: got %d '%s', expected %d '%s'", c->line, ret,
				 err.msg, c->ret, c->msg);
		assert_null(pd);
		free(copy);
	}
	/* an attr after the records, which were read without it */
	header_attr(&sb[0], PERF_COUNT_SW_CPU_CLOCK, ST_A, 300);
	{
		struct op_err err = { "" };
		struct opd_perfdata *pd;

		assert_int_equal(opd_perfdata_open(sb[0].buf, sb[0].len, &pd, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "comes after records"));
	}
	op_strbuf_release(&sb[0]);
	op_strbuf_release(&sb[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_two_layouts),
		cmocka_unit_test(test_bare_layout),
		cmocka_unit_test(test_file_mode),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
