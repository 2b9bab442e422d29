// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opev_strerror(): every error code has its own message, the codes sit
 * below -4096 apart from errno values, and errno values and unknown codes
 * get text too.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"

static void test_distinct(void **state)
{
	int a, b;

	(void)state;
	assert_true(OPEV_ERR_BASE < -4096);
	assert_int_equal(OPEV_ERR_END - OPEV_ERR_BASE - 1, 13);
	for (a = OPEV_ERR_BASE + 1; a < OPEV_ERR_END; a++) {
		const char *m = opev_strerror(a);

		assert_non_null(m);
		assert_true(m[0] != '\0');
		assert_null(strchr(m, '\n'));
		assert_string_not_equal(m, "unknown error");
		for (b = a + 1; b < OPEV_ERR_END; b++)
			if (!strcmp(m, opev_strerror(b)))
				fail_msg("codes %d and %d share '%s'", a, b, m);
	}
}

static void test_other_codes(void **state)
{
	static const struct {
		int line;
		int err;
		const char *msg;
	} rows[] = {
		{ .line = __LINE__, .err = OPEV_ERR_BAD_COUNT, .msg = "bad sample count" },
		{ .line = __LINE__, .err = OPEV_ERR_PFM_INIT,
		  .msg = "cannot initialise libpfm4" },
		{ .line = __LINE__, .err = OPEV_ERR_BASE, .msg = "unknown error" },
		{ .line = __LINE__, .err = OPEV_ERR_END, .msg = "unknown error" },
		{ .line = __LINE__, .err = 0, .msg = "unknown error" },
		{ .line = __LINE__, .err = 5, .msg = "unknown error" },
		{ .line = __LINE__, .err = -4096, .msg = "unknown error" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(opev_strerror(rows[i].err), rows[i].msg))
			fail_msg("row at line %d: '%s'", rows[i].line,
				 opev_strerror(rows[i].err));
	assert_string_equal(opev_strerror(-ENOMEM), strerror(ENOMEM));
	assert_string_equal(opev_strerror(-EINVAL), strerror(EINVAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distinct),
		cmocka_unit_test(test_other_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
