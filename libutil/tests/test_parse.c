// SPDX-License-Identifier: GPL-2.0-or-later
/* op_parse: every accepted and rejected form, as table rows. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "libutil/op_parse.h"

static void test_u64(void **state)
{
	static const struct {
		int line;
		const char *in;
		int base;
		uint64_t max;
		int ret;
		uint64_t out;
	} rows[] = {
		{ .line = __LINE__, .in = "0", .base = 10, .max = 10, .ret = 0, .out = 0 },
		{ .line = __LINE__, .in = "10", .base = 10, .max = 10, .ret = 0, .out = 10 },
		{ .line = __LINE__, .in = "11", .base = 10, .max = 10, .ret = -ERANGE },
		{ .line = __LINE__, .in = "0x1f", .base = 0, .max = UINT64_MAX, .ret = 0, .out = 31 },
		{ .line = __LINE__, .in = "1f", .base = 16, .max = UINT64_MAX, .ret = 0, .out = 31 },
		{ .line = __LINE__, .in = "18446744073709551615", .base = 10, .max = UINT64_MAX, .ret = 0, .out = UINT64_MAX },
		{ .line = __LINE__, .in = "18446744073709551616", .base = 10, .max = UINT64_MAX, .ret = -ERANGE },
		{ .line = __LINE__, .in = "", .base = 10, .max = 10, .ret = -EINVAL },
		{ .line = __LINE__, .in = " 1", .base = 10, .max = 10, .ret = -EINVAL },
		{ .line = __LINE__, .in = "1 ", .base = 10, .max = 10, .ret = -EINVAL },
		{ .line = __LINE__, .in = "-1", .base = 10, .max = UINT64_MAX, .ret = -EINVAL },
		{ .line = __LINE__, .in = "+1", .base = 10, .max = UINT64_MAX, .ret = -EINVAL },
		{ .line = __LINE__, .in = "12abc", .base = 10, .max = UINT64_MAX, .ret = -EINVAL },
		{ .line = __LINE__, .in = "0x", .base = 0, .max = UINT64_MAX, .ret = -EINVAL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t out = 12345;
		int ret = op_parse_u64(rows[i].in, rows[i].base, rows[i].max, &out);

		if (ret != rows[i].ret || (!ret && out != rows[i].out))
			fail_msg("row at line %d: '%s' gave %d/%llu", rows[i].line,
				 rows[i].in, ret, (unsigned long long)out);
	}
}

static void test_u32_int(void **state)
{
	uint32_t u;
	int v;

	(void)state;
	assert_int_equal(op_parse_u32("4294967295", 10, &u), 0);
	assert_int_equal(u, UINT32_MAX);
	assert_int_equal(op_parse_u32("4294967296", 10, &u), -ERANGE);
	assert_int_equal(op_parse_int("-5", 10, -10, 10, &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(op_parse_int("-11", 10, -10, 10, &v), -ERANGE);
	assert_int_equal(op_parse_int("--1", 10, -10, 10, &v), -EINVAL);
	assert_int_equal(op_parse_int("99999999999999999999", 10, -10, 10, &v), -ERANGE);
	assert_int_equal(op_parse_int(NULL, 10, -10, 10, &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u64),
		cmocka_unit_test(test_u32_int),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
