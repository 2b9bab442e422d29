// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ocount's report without a kernel: counts scaled for multiplexing
 * (which software events here never are), the table's title, columns,
 * grouping and time line, the brief lines, and events never counted.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/ocount_counters.h"
#include "daemon/ocount_print.h"

static void test_scaled(void **state)
{
	static const struct {
		int line;
		struct opd_count c;
		uint64_t want;
	} rows[] = {
		{ .line = __LINE__, .c = { 1000, 200, 200 }, .want = 1000 },
		{ .line = __LINE__, .c = { 1000, 200, 100 }, .want = 2000 },
		{ .line = __LINE__, .c = { 1000, 300, 100 }, .want = 3000 },
		{ .line = __LINE__, .c = { 1000, 200, 0 }, .want = 0 },
		{ .line = __LINE__, .c = { 0, 0, 0 }, .want = 0 },
		/* the kernel may report running a little above enabled */
		{ .line = __LINE__, .c = { 7, 100, 101 }, .want = 7 },
		{ .line = __LINE__, .c = { UINT64_MAX / 2, 1000, 1 }, .want = UINT64_MAX },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t got = ocount_scaled(&rows[i].c);

		if (got != rows[i].want)
			fail_msg("row at line %d: %llu, not %llu", rows[i].line,
				 (unsigned long long)got,
				 (unsigned long long)rows[i].want);
	}
}

static void expect(const struct ocount_report *r, const char *want, int line)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	ocount_print(&sb, r);
	if (strcmp(sb.buf, want))
		fail_msg("row at line %d: got\n%s\nwant\n%s", line, sb.buf, want);
	op_strbuf_release(&sb);
}

static void test_table(void **state)
{
	static const struct ocount_row one[] = {
		{ .label = "task-clock", .count = 1234567,
		  .raw = { 1234567, 10, 10 } },
	};
	static const struct ocount_row mux[] = {
		{ .label = "cycles", .element = 0, .count = 2000,
		  .raw = { 1000, 200, 100 }, .scaled = true },
		{ .label = "INST_RETIRED:0x1:1:0", .element = 12, .count = 0,
		  .raw = { 0, 0, 0 } },
	};
	static const struct {
		int line;
		struct ocount_report r;
		const char *want;
	} rows[] = {
		{ .line = __LINE__,
		  .r = { .subject = "for ./prog:", .elapsed_ns = 512,
			 .rows = one, .nr_rows = 1 },
		  .want = "\nEvents were actively counted for 512 nanoseconds.\n"
			  "Event counts (actual) for ./prog:\n"
			  "\tEvent             Count                    % time counted\n"
			  "\ttask-clock        1,234,567                100.00\n" },
		{ .line = __LINE__,
		  .r = { .subject = "for the whole system:", .sep = OCOUNT_SEP_CPU,
			 .elapsed_ns = 1549999999, .rows = mux, .nr_rows = 2 },
		  .want = "\nEvents were actively counted for 1.5 seconds.\n"
			  "Event counts (scaled) for the whole system:\n"
			  "\tEvent                       CPU       Count                    % time counted\n"
			  "\tcycles                      0         2,000                    50.00\n"
			  "\tINST_RETIRED:0x1:1:0        12        0                        Event not counted\n" },
		{ .line = __LINE__,
		  .r = { .subject = "for x:", .elapsed_ns = 125000000000ull,
			 .rows = one, .nr_rows = 1 },
		  .want = "\nEvents were actively counted for 2 minutes and 5 seconds.\n"
			  "Event counts (actual) for x:\n"
			  "\tEvent             Count                    % time counted\n"
			  "\ttask-clock        1,234,567                100.00\n" },
		{ .line = __LINE__,
		  .r = { .subject = "for x:", .interval = true, .elapsed_ns = 61000000000ull,
			 .sep = OCOUNT_SEP_THREAD, .rows = one, .nr_rows = 1 },
		  .want = "\nEvent counts (actual) for x:\n"
			  "\tEvent             Task ID   Count                    % time counted\n"
			  "\ttask-clock        0         1,234,567                100.00\n" },
		{ .line = __LINE__,
		  .r = { .brief = true, .rows = one, .nr_rows = 1 },
		  .want = "\ntask-clock,1234567,100.00\n" },
		{ .line = __LINE__,
		  .r = { .brief = true, .sep = OCOUNT_SEP_CPU, .rows = mux, .nr_rows = 2 },
		  .want = "\n0,cycles,2000,50.00\n"
			  "12,INST_RETIRED:0x1:1:0,0,Event not counted\n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		expect(&rows[i].r, rows[i].want, rows[i].line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
