// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opd_record: every record type decodes to its fields; every truncation
 * of a record, a callchain longer than its record and a string without
 * its NUL are refused; unknown types are told apart.
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
#include <cmocka.h>

#include "daemon/opd_record.h"
#include "daemon/tests/opd_test_records.h"

#define ST OPD_SAMPLE_TYPE
#define STC (OPD_SAMPLE_TYPE | PERF_SAMPLE_CALLCHAIN)

static void test_decode(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x402000 };
	struct opd_record r;

	(void)state;
	rec_sample(&sb, 9, 10, 11, 1, PERF_RECORD_MISC_USER, 0x401000, 12345, chain, 3);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, STC, &r), 0);
	assert_int_equal(r.type, PERF_RECORD_SAMPLE);
	assert_int_equal(r.id, 9);
	assert_int_equal(r.pid, 10);
	assert_int_equal(r.tid, 11);
	assert_int_equal(r.cpu, 1);
	assert_int_equal(r.time, 12345);
	assert_int_equal(r.u.sample.ip, 0x401000);
	assert_int_equal(r.u.sample.nr_chain, 3);
	assert_int_equal(opd_record_time(sb.buf, sb.len, STC), 12345);
	op_strbuf_reset(&sb);

	rec_mmap2(&sb, 20, 0x400000, 0x1000, 0x2000, 77, "/usr/bin/x", 555);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, ST, &r), 0);
	assert_int_equal(r.type, PERF_RECORD_MMAP2);
	assert_int_equal(r.u.mmap.pid, 20);
	assert_int_equal(r.u.mmap.start, 0x400000);
	assert_int_equal(r.u.mmap.len, 0x1000);
	assert_int_equal(r.u.mmap.pgoff, 0x2000);
	assert_int_equal(r.u.mmap.ino, 77);
	assert_string_equal(r.u.mmap.filename, "/usr/bin/x");
	assert_int_equal(r.time, 555);
	assert_int_equal(opd_record_time(sb.buf, sb.len, ST), 555);
	op_strbuf_reset(&sb);

	rec_comm(&sb, 30, 31, "worker", 1, 777);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, ST, &r), 0);
	assert_int_equal(r.u.comm.pid, 30);
	assert_int_equal(r.u.comm.tid, 31);
	assert_string_equal(r.u.comm.comm, "worker");
	assert_true(r.misc & PERF_RECORD_MISC_COMM_EXEC);
	assert_int_equal(r.time, 777);
	op_strbuf_reset(&sb);

	rec_fork(&sb, 40, 41, 42, 888);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, ST, &r), 0);
	assert_int_equal(r.u.task.pid, 40);
	assert_int_equal(r.u.task.ppid, 41);
	assert_int_equal(r.u.task.tid, 42);
	assert_int_equal(r.time, 888);
	op_strbuf_reset(&sb);

	rec_lost(&sb, 5, 1000, 999);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, ST, &r), 0);
	assert_int_equal(r.u.lost.lost, 1000);
	op_strbuf_reset(&sb);

	rec_throttle(&sb, 6, 1111);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, ST, &r), 0);
	assert_int_equal(r.type, PERF_RECORD_THROTTLE);
	assert_int_equal(r.u.throttle.id, 6);
	op_strbuf_release(&sb);
}

/* every prefix of every record type is refused, never read past */
static void test_truncated(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const uint64_t chain[] = { 1, 2, 3 };
	struct opd_record r;
	size_t len, i;
	size_t starts[8], n = 0;

	(void)state;
	starts[n++] = sb.len;
	rec_sample(&sb, 1, 2, 3, 0, PERF_RECORD_MISC_USER, 4, 5, chain, 3);
	starts[n++] = sb.len;
	rec_mmap2(&sb, 20, 0x400000, 0x1000, 0, 77, "/usr/bin/x", 555);
	starts[n++] = sb.len;
	rec_comm(&sb, 30, 31, "worker", 0, 777);
	starts[n++] = sb.len;
	rec_fork(&sb, 40, 41, 42, 888);
	starts[n++] = sb.len;
	rec_lost(&sb, 5, 1000, 999);
	starts[n] = sb.len;
	for (i = 0; i < n; i++) {
		size_t size = starts[i + 1] - starts[i];
		unsigned char *copy = malloc(size);

		for (len = 0; len < size; len++) {
			struct perf_event_header hdr;

			/* the header claims the cut length, as a bad stream might */
			memcpy(copy, sb.buf + starts[i], len);
			if (len >= sizeof(hdr)) {
				memcpy(&hdr, copy, sizeof(hdr));
				hdr.size = (uint16_t)len;
				memcpy(copy, &hdr, sizeof(hdr));
			}
			if (opd_record_decode(copy, len, STC, &r) != -EINVAL)
				fail_msg("record %zu cut to %zu bytes decoded", i, len);
		}
		free(copy);
	}
	op_strbuf_release(&sb);
}

static void test_bad(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const uint64_t chain[] = { 1, 2 };
	struct opd_record r;
	uint64_t huge = 1ull << 40;
	struct perf_event_header hdr = { .type = 999, .size = 8 };

	(void)state;
	/* a callchain claiming more entries than the record holds */
	rec_sample(&sb, 1, 2, 3, 0, PERF_RECORD_MISC_USER, 4, 5, chain, 2);
	memcpy(sb.buf + 8 + 6 * 8, &huge, 8);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, STC, &r), -EINVAL);
	op_strbuf_reset(&sb);
	/* a comm string without its NUL */
	rec_comm(&sb, 30, 31, "abcdefg", 0, 777);
	memset(sb.buf + 16, 'x', 8);
	memset(sb.buf + 24, 'x', sb.len - 24);
	assert_int_equal(opd_record_decode(sb.buf, sb.len, ST, &r), -EINVAL);
	/* a type we do not use, and a header size that disagrees */
	assert_int_equal(opd_record_decode(&hdr, 8, ST, &r), -ENOTSUP);
	assert_int_equal(opd_record_decode(&hdr, 16, ST, &r), -EINVAL);
	assert_int_equal(opd_record_time(&hdr, 4, ST), 0);
	op_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
