// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Event and unit-mask name checks, and quoting untrusted text for
 * messages: printable, one line, cut with "..." to fit.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"
#include "events/opev_int.h"

#define N63 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

static void test_check(void **state)
{
	static const struct {
		int line;
		const char *s;
		int event;		/* opev_name_check() */
		int um;			/* opev_um_name_check() */
		size_t bad;		/* offset, when not 0 */
	} rows[] = {
		{ .line = __LINE__, .s = "CPU_CLK_UNHALTED" },
		{ .line = __LINE__, .s = "cpu-clock", .um = OPEV_ERR_BAD_SYNTAX,
		  .bad = 3 },
		{ .line = __LINE__, .s = "r01c0" },
		{ .line = __LINE__, .s = N63 },
		{ .line = __LINE__, .s = N63 "x", .event = OPEV_ERR_NAME_TOO_LONG,
		  .um = OPEV_ERR_NAME_TOO_LONG, .bad = 63 },
		{ .line = __LINE__, .s = "", .event = OPEV_ERR_BAD_SYNTAX,
		  .um = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .s = "a.b", .event = OPEV_ERR_BAD_NAME,
		  .um = OPEV_ERR_BAD_SYNTAX, .bad = 1 },
		{ .line = __LINE__, .s = "ab/", .event = OPEV_ERR_BAD_NAME,
		  .um = OPEV_ERR_BAD_SYNTAX, .bad = 2 },
		{ .line = __LINE__, .s = "a:b", .event = OPEV_ERR_BAD_SYNTAX,
		  .um = OPEV_ERR_BAD_SYNTAX, .bad = 1 },
		{ .line = __LINE__, .s = "a\\", .event = OPEV_ERR_BAD_SYNTAX,
		  .um = OPEV_ERR_BAD_SYNTAX, .bad = 1 },
		{ .line = __LINE__, .s = "\xff", .event = OPEV_ERR_BAD_SYNTAX,
		  .um = OPEV_ERR_BAD_SYNTAX },
	};
	size_t i, bad;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t len = strlen(rows[i].s);
		int ev = opev_name_check(rows[i].s, len, &bad);

		if (ev != rows[i].event || (ev && bad != rows[i].bad))
			fail_msg("row at line %d: event %d at %zu", rows[i].line,
				 ev, bad);
		ev = opev_um_name_check(rows[i].s, len, &bad);
		if (ev != rows[i].um || (ev && bad != rows[i].bad))
			fail_msg("row at line %d: unit mask %d at %zu",
				 rows[i].line, ev, bad);
	}
}

static void test_quote(void **state)
{
	static const struct {
		int line;
		const char *s;
		size_t len;
		size_t size;
		const char *want;
	} rows[] = {
		{ .line = __LINE__, .s = "plain", .len = 5, .size = 64, .want = "plain" },
		{ .line = __LINE__, .s = "a\nb", .len = 3, .size = 64, .want = "a\\x0ab" },
		{ .line = __LINE__, .s = "a\\b", .len = 3, .size = 64, .want = "a\\x5cb" },
		{ .line = __LINE__, .s = "\x7f\x80", .len = 2, .size = 64,
		  .want = "\\x7f\\x80" },
		{ .line = __LINE__, .s = "a\0b", .len = 3, .size = 64, .want = "a\\x00b" },
		{ .line = __LINE__, .s = "0123456789", .len = 10, .size = 8,
		  .want = "0..." },
		{ .line = __LINE__, .s = "0123456789", .len = 10, .size = 12,
		  .want = "01234..." },
		{ .line = __LINE__, .s = "0123456789", .len = 4, .size = 12,
		  .want = "0123" },
		{ .line = __LINE__, .s = "xyz", .len = 3, .size = 7, .want = "" },
		{ .line = __LINE__, .s = "", .len = 0, .size = 8, .want = "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char buf[80];
		const char *q;

		memset(buf, '#', sizeof(buf));
		q = opev_quote(buf, rows[i].size, rows[i].s, rows[i].len);
		if (q != buf || strcmp(q, rows[i].want))
			fail_msg("row at line %d: '%s'", rows[i].line, q);
		if (buf[rows[i].size] != '#')
			fail_msg("row at line %d: wrote past the buffer",
				 rows[i].line);
	}
}

static void test_copy(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, '#', sizeof(buf));
	opev_copy(buf, 5, "abcdefgh");
	assert_string_equal(buf, "abcd");
	assert_int_equal(buf[5], '#');
	opev_copy(buf, sizeof(buf), "ab");
	assert_string_equal(buf, "ab");
	opev_copy(buf, 0, "zz");
	assert_string_equal(buf, "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
