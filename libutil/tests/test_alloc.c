// SPDX-License-Identifier: GPL-2.0-or-later
/* op_alloc: overflow checks and the failure-injection hook. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libutil/op_alloc.h"

static void test_overflow(void **state)
{
	size_t out = 7;

	(void)state;
	assert_true(op_mul_size(3, 4, &out));
	assert_int_equal(out, 12);
	assert_false(op_mul_size(SIZE_MAX / 2 + 1, 2, &out));
	assert_int_equal(out, 12);
	assert_false(op_add_size(SIZE_MAX, 1, &out));
	assert_null(op_calloc(SIZE_MAX / 4, 8));
	assert_null(op_reallocarray(NULL, SIZE_MAX / 4, 8));
}

static void test_injection(void **state)
{
	void *a, *b, *c;

	(void)state;
	op_alloc_fail_at(2);
	a = op_malloc(8);
	b = op_malloc(8);
	c = op_malloc(8);
	assert_non_null(a);
	assert_null(b);
	assert_non_null(c);
	assert_int_equal(op_alloc_count(), 3);
	free(a);
	free(c);

	op_alloc_fail_at_repeat(1);
	assert_null(op_strdup("x"));
	assert_null(op_calloc(1, 1));
	op_alloc_fail_at(0);
	a = op_strdup("abc");
	assert_string_equal(a, "abc");
	free(a);
}

static void test_strndup(void **state)
{
	char *s;

	(void)state;
	s = op_strndup("abcdef", 3);
	assert_string_equal(s, "abc");
	free(s);
	s = op_strndup("ab", 10);
	assert_string_equal(s, "ab");
	free(s);
	s = op_malloc(0);
	assert_non_null(s);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_injection),
		cmocka_unit_test(test_strndup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
