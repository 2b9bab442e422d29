// SPDX-License-Identifier: GPL-2.0-or-later
/* op_strbuf: appends, growth, detach and the sticky allocation error. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

static void test_append(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char big[300];
	char *s;
	int i;

	(void)state;
	assert_string_equal(sb.buf, "");
	assert_int_equal(op_strbuf_addstr(&sb, "ab"), 0);
	assert_int_equal(op_strbuf_addch(&sb, 'c'), 0);
	assert_int_equal(op_strbuf_addf(&sb, "%d-%s", 42, "x"), 0);
	assert_string_equal(sb.buf, "abc42-x");
	assert_int_equal(sb.len, 7);
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < 10; i++)
		assert_int_equal(op_strbuf_addf(&sb, "%s", big), 0);
	assert_int_equal(sb.len, 7 + 10 * (sizeof(big) - 1));
	assert_int_equal(strlen(sb.buf), sb.len);
	op_strbuf_setlen(&sb, 3);
	assert_string_equal(sb.buf, "abc");
	s = op_strbuf_detach(&sb);
	assert_string_equal(s, "abc");
	assert_string_equal(sb.buf, "");
	free(s);
	s = op_strbuf_detach(&sb);
	assert_string_equal(s, "");
	free(s);
	op_strbuf_release(&sb);
	op_strbuf_release(NULL);
}

static void test_sticky_failure(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	(void)state;
	op_alloc_fail_at(1);
	assert_int_equal(op_strbuf_addstr(&sb, "abc"), -ENOMEM);
	op_alloc_fail_at(0);
	assert_true(op_strbuf_failed(&sb));
	assert_int_equal(op_strbuf_addstr(&sb, "def"), -ENOMEM);
	assert_int_equal(op_strbuf_addf(&sb, "%d", 1), -ENOMEM);
	assert_null(op_strbuf_detach(&sb));
	assert_false(op_strbuf_failed(&sb));
	/* a failed growth keeps the old content NUL-terminated */
	assert_int_equal(op_strbuf_addstr(&sb, "keep"), 0);
	op_alloc_fail_at(1);
	assert_int_equal(op_strbuf_addf(&sb, "%0200d", 5), -ENOMEM);
	op_alloc_fail_at(0);
	assert_string_equal(sb.buf, "keep");
	op_strbuf_reset(&sb);
	assert_false(op_strbuf_failed(&sb));
	assert_string_equal(sb.buf, "");
	op_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append),
		cmocka_unit_test(test_sticky_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
