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
	assert_null(op_calloc_written(SIZE_MAX / 4, 8));
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
	assert_null(op_calloc_written(1, 1));
	op_alloc_fail_at(0);
	a = op_strdup("abc");
	assert_string_equal(a, "abc");
	free(a);
}

/* op_calloc_written(): zeroed, dirtied first where malloc() reuses memory */
static void test_calloc_written(void **state)
{
	unsigned char *a = op_malloc(1 << 20), *b;
	size_t i;

	(void)state;
	assert_non_null(a);
	memset(a, 0xa5, 1 << 20);
	free(a);
	b = op_calloc_written(1 << 18, 4);
	assert_non_null(b);
	for (i = 0; i < 1 << 20; i++)
		assert_int_equal(b[i], 0);
	free(b);
	b = op_calloc_written(0, 8);	/* one byte, so NULL means failure */
	assert_non_null(b);
	free(b);
}

/* scratch memory: zeroed, grows keeping its bytes, failures injected */
static void test_scratch(void **state)
{
	size_t small = 100, big = 3u << 20, i;
	unsigned char *p, *q;

	(void)state;
	p = op_scratch_alloc(small);
	assert_non_null(p);
	for (i = 0; i < small; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0xa5, small);
	q = op_scratch_realloc(p, small, big);
	assert_non_null(q);
	for (i = 0; i < small; i++)
		assert_int_equal(q[i], 0xa5);
	assert_int_equal(q[big - 1], 0);
	q[big - 1] = 1;
	op_scratch_free(q, big);
	op_scratch_free(NULL, 0);

	p = op_scratch_realloc(NULL, 0, 10);	/* as op_scratch_alloc() */
	assert_non_null(p);
	op_alloc_fail_at(1);
	assert_null(op_scratch_realloc(p, 10, big));
	op_alloc_fail_at(0);
	p[9] = 7;				/* p is still valid */
	op_scratch_free(p, 10);
	op_alloc_fail_at(1);
	assert_null(op_scratch_alloc(10));
	op_alloc_fail_at(0);
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
		cmocka_unit_test(test_calloc_written),
		cmocka_unit_test(test_scratch),
		cmocka_unit_test(test_strndup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
