// SPDX-License-Identifier: GPL-2.0-or-later
/* op_error: message shapes on stderr and the message levels. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libutil/op_error.h"

/* run fn with stderr sent to a pipe; return what it printed */
static char *capture(void (*fn)(void))
{
	static char buf[4096];
	int fds[2], saved;
	ssize_t n;

	if (pipe(fds))
		return NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fds[1], 2);
	close(fds[1]);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static void emit_errors(void)
{
	int r = op_error("cannot open sample file '%s'", "/x");

	if (r != -1)
		abort();
	op_error_errno(-ENOENT, "cannot open '%s'", "/y");
	op_hint("see '%s --help'", "tool");
}

static void emit_warnings(void)
{
	op_warning("plain %d", 1);
	op_warning_errno(EACCES, "with errno");
	op_debug("debug line");
	op_debug2("debug2 line");
}

static void test_shapes(void **state)
{
	char want[512];

	(void)state;
	snprintf(want, sizeof(want),
		 "%s: error: cannot open sample file '/x'\n"
		 "%s: error: cannot open '/y': %s\n"
		 "hint: see 'tool --help'\n",
		 program_invocation_short_name, program_invocation_short_name,
		 strerror(ENOENT));
	assert_string_equal(capture(emit_errors), want);
}

static void test_levels(void **state)
{
	char want[512];

	(void)state;
	op_msg_set_level(OP_MSG_QUIET);
	assert_string_equal(capture(emit_warnings), "");
	op_msg_set_level(OP_MSG_VERBOSE);
	snprintf(want, sizeof(want),
		 "%s: warning: plain 1\n%s: warning: with errno: %s\n%s: debug line\n",
		 program_invocation_short_name, program_invocation_short_name,
		 strerror(EACCES), program_invocation_short_name);
	assert_string_equal(capture(emit_warnings), want);
	op_msg_set_level(OP_MSG_NORMAL);
}

static void test_err_struct(void **state)
{
	struct op_err err;

	(void)state;
	op_err_set(&err, "line %d: bad token '%s'", 3, "x");
	assert_string_equal(err.msg, "line 3: bad token 'x'");
	op_err_set(NULL, "ignored");
	assert_string_equal(op_strerror(-ENOENT), strerror(ENOENT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_err_struct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
