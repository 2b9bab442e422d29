// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opev_parse_list() and opev_parse_count_list(): good lists and what they give, every kind of bad
 * list with its error code and (for some) its exact message, messages
 * staying one printable line, and allocation failures.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"
#include "libutil/op_alloc.h"

#define N63 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
#define N64 N63 "x"
#define Z30 "000000000000000000000000000000"

/* a spec as rows write it: name, count, unit mask, flags */
struct want {
	const char *name;
	uint64_t count;
	bool no_count;			/* no count written (the default) */
	bool has_um;
	uint64_t um;
	const char *um_name;
	bool no_kernel;
	bool no_user;
};

static void check_spec(int line, size_t i, const struct opev_spec *got,
		       const struct want *w)
{
	if (strcmp(got->name, w->name) || got->count != w->count ||
	    got->has_count != (!w->no_count) ||
	    got->has_unit_mask != w->has_um || got->unit_mask != w->um ||
	    strcmp(got->um_name, w->um_name ? w->um_name : "") ||
	    got->kernel != !w->no_kernel || got->user != !w->no_user)
		fail_msg("row at line %d, spec %zu: got '%s' count %d/%llu um %d "
			 "%llu '%s' k%d u%d", line, i, got->name, got->has_count,
			 (unsigned long long)got->count, got->has_unit_mask,
			 (unsigned long long)got->unit_mask, got->um_name,
			 got->kernel, got->user);
}

static void test_good(void **state)
{
	static const struct {
		int line;
		const char *list;
		size_t nr;
		struct want want[3];
	} rows[] = {
		{ .line = __LINE__, .list = "cycles", .nr = 1,
		  .want = { { .name = "cycles", .no_count = true } } },
		{ .line = __LINE__, .list = "CPU_CLK_UNHALTED:100000:0:1:1", .nr = 1,
		  .want = { { .name = "CPU_CLK_UNHALTED", .count = 100000,
			      .has_um = true } } },
		{ .line = __LINE__, .list = "cpu-clock:250000", .nr = 1,
		  .want = { { .name = "cpu-clock", .count = 250000 } } },
		{ .line = __LINE__, .list = "INST_RETIRED::ANY_P", .nr = 1,
		  .want = { { .name = "INST_RETIRED", .no_count = true,
			      .has_um = true, .um_name = "ANY_P" } } },
		{ .line = __LINE__, .list = "LLC:100000:0x41", .nr = 1,
		  .want = { { .name = "LLC", .count = 100000, .has_um = true,
			      .um = 0x41 } } },
		{ .line = __LINE__, .list = "LLC:100000:0X4f", .nr = 1,
		  .want = { { .name = "LLC", .count = 100000, .has_um = true,
			      .um = 0x4f } } },
		{ .line = __LINE__, .list = "LLC:100000:65", .nr = 1,
		  .want = { { .name = "LLC", .count = 100000, .has_um = true,
			      .um = 65 } } },
		/* leading zeros are decimal, not octal */
		{ .line = __LINE__, .list = "LLC:100000:010", .nr = 1,
		  .want = { { .name = "LLC", .count = 100000, .has_um = true,
			      .um = 10 } } },
		{ .line = __LINE__, .list = "x:1:4294967295", .nr = 1,
		  .want = { { .name = "x", .count = 1, .has_um = true,
			      .um = 0xffffffffu } } },
		{ .line = __LINE__, .list = "x:1:0x" Z30 "1", .nr = 1,
		  .want = { { .name = "x", .count = 1, .has_um = true, .um = 1 } } },
		{ .line = __LINE__, .list = "x:" Z30 "2147483647", .nr = 1,
		  .want = { { .name = "x", .count = 2147483647 } } },
		/* a written 0 is kept as written: opev_encode() refuses it */
		{ .line = __LINE__, .list = "x:0", .nr = 1,
		  .want = { { .name = "x" } } },
		{ .line = __LINE__, .list = "x:1000:0:0", .nr = 1,
		  .want = { { .name = "x", .count = 1000, .has_um = true,
			      .no_kernel = true } } },
		{ .line = __LINE__, .list = "x:1000:0:1:0", .nr = 1,
		  .want = { { .name = "x", .count = 1000, .has_um = true,
			      .no_user = true } } },
		{ .line = __LINE__, .list = "x:::0", .nr = 1,
		  .want = { { .name = "x", .no_count = true,
			      .no_kernel = true } } },
		{ .line = __LINE__, .list = "a,b:2000,c::0x1:1:0", .nr = 3,
		  .want = { { .name = "a", .no_count = true },
			    { .name = "b", .count = 2000 },
			    { .name = "c", .no_count = true, .has_um = true,
			      .um = 1, .no_user = true } } },
		{ .line = __LINE__, .list = N63 ":1:" N63, .nr = 1,
		  .want = { { .name = N63, .count = 1, .has_um = true,
			      .um_name = N63 } } },
		{ .line = __LINE__, .list = "L1-dcache-load-misses", .nr = 1,
		  .want = { { .name = "L1-dcache-load-misses",
			      .no_count = true } } },
		/* the parser does not look events up, nor merge repeats */
		{ .line = __LINE__, .list = "NO_SUCH_EVENT,NO_SUCH_EVENT", .nr = 2,
		  .want = { { .name = "NO_SUCH_EVENT", .no_count = true },
			    { .name = "NO_SUCH_EVENT", .no_count = true } } },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_spec *specs;
		struct op_err err = { "" };
		size_t nr;
		int ret;

		ret = opev_parse_list(rows[i].list, &specs, &nr, &err);
		if (ret || nr != rows[i].nr)
			fail_msg("row at line %d: ret %d nr %zu: %s", rows[i].line,
				 ret, nr, err.msg);
		for (j = 0; j < nr; j++)
			check_spec(rows[i].line, j, &specs[j], &rows[i].want[j]);
		free(specs);
	}
}

static void test_bad(void **state)
{
	static const struct {
		int line;
		const char *list;
		int ret;
		const char *msg;	/* exact message, when given */
	} rows[] = {
		{ .line = __LINE__, .list = NULL, .ret = OPEV_ERR_EMPTY_LIST,
		  .msg = "empty event list" },
		{ .line = __LINE__, .list = "", .ret = OPEV_ERR_EMPTY_LIST },
		{ .line = __LINE__, .list = ",", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "empty event specification 1 in ','" },
		{ .line = __LINE__, .list = "cycles,", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "empty event specification 2 in 'cycles,'" },
		{ .line = __LINE__, .list = ",cycles", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "a,,b", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = ":100", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "missing event name in ':100'" },
		{ .line = __LINE__, .list = "cycles:", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "trailing ':' in 'cycles:'" },
		{ .line = __LINE__, .list = "cycles:100:", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "a:1:2:1:1:1", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "too many fields '1' in 'a:1:2:1:1:1': at most "
			 "NAME:count:unitmask:kernel:user" },
		{ .line = __LINE__, .list = "a:1:2:1:1:", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "a.b", .ret = OPEV_ERR_BAD_NAME,
		  .msg = "bad event name 'a.b' in 'a.b': '.' is not allowed" },
		{ .line = __LINE__, .list = "cycles,a/b:100", .ret = OPEV_ERR_BAD_NAME,
		  .msg = "bad event name 'a/b' in 'a/b:100': '/' is not allowed" },
		{ .line = __LINE__, .list = "a b", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "bad event name 'a b' in 'a b': ' ' is not allowed" },
		{ .line = __LINE__, .list = " cycles", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "cyc\001les", .ret = OPEV_ERR_BAD_SYNTAX,
		  .msg = "bad event name 'cyc\\x01les' in 'cyc\\x01les': "
			 "'\\x01' is not allowed" },
		{ .line = __LINE__, .list = "a\\b", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "a\nb", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "{dep}", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "caf\xc3\xa9", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = N64, .ret = OPEV_ERR_NAME_TOO_LONG },
		{ .line = __LINE__, .list = "cycles:x12", .ret = OPEV_ERR_BAD_COUNT,
		  .msg = "bad sample count 'x12' in 'cycles:x12'" },
		{ .line = __LINE__, .list = "cycles:12x", .ret = OPEV_ERR_BAD_COUNT },
		{ .line = __LINE__, .list = "cycles:-1", .ret = OPEV_ERR_BAD_COUNT },
		{ .line = __LINE__, .list = "cycles:+1", .ret = OPEV_ERR_BAD_COUNT },
		{ .line = __LINE__, .list = "cycles:0x10", .ret = OPEV_ERR_BAD_COUNT },
		{ .line = __LINE__, .list = "cycles:1 ", .ret = OPEV_ERR_BAD_COUNT },
		{ .line = __LINE__, .list = "cycles:1e5", .ret = OPEV_ERR_BAD_COUNT },
		{ .line = __LINE__, .list = "cycles:2147483648",
		  .ret = OPEV_ERR_COUNT_RANGE,
		  .msg = "sample count out of range '2147483648' in "
			 "'cycles:2147483648': at most 2147483647" },
		{ .line = __LINE__, .list = "cycles:18446744073709551616",
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .list = "cycles:1" Z30, .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .list = "x:1:0xzz", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:0x", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:12ab", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:0x0x1", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:0x100000000",
		  .ret = OPEV_ERR_BAD_UNIT_MASK,
		  .msg = "unit mask out of range '0x100000000' in "
			 "'x:1:0x100000000': at most 0xffffffff" },
		{ .line = __LINE__, .list = "x:1:4294967296", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:0x1" Z30, .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:A.B", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:A-B", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:A B", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "x:1:" N64, .ret = OPEV_ERR_NAME_TOO_LONG },
		{ .line = __LINE__, .list = "x:1:0:2", .ret = OPEV_ERR_BAD_FLAG,
		  .msg = "bad kernel flag '2' in 'x:1:0:2': must be 0 or 1" },
		{ .line = __LINE__, .list = "x:1:0:1:yes", .ret = OPEV_ERR_BAD_FLAG,
		  .msg = "bad user flag 'yes' in 'x:1:0:1:yes': must be 0 or 1" },
		{ .line = __LINE__, .list = "x:1:0::1", .ret = OPEV_ERR_BAD_FLAG },
		{ .line = __LINE__, .list = "x:1:0:01", .ret = OPEV_ERR_BAD_FLAG },
		{ .line = __LINE__, .list = "x:1:0:0:0", .ret = OPEV_ERR_NO_MODE,
		  .msg = "event 'x:1:0:0:0' counts in neither kernel nor user mode" },
		/* a bad item after good ones still fails the whole list */
		{ .line = __LINE__, .list = "a,b,c:x", .ret = OPEV_ERR_BAD_COUNT },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_spec *specs = (void *)1;
		struct op_err err = { "" };
		size_t nr = 99;
		int ret;

		ret = opev_parse_list(rows[i].list, &specs, &nr, &err);
		if (ret != rows[i].ret || specs || nr)
			fail_msg("row at line %d: ret %d (%s), want %d: %s",
				 rows[i].line, ret, opev_strerror(ret),
				 rows[i].ret, err.msg);
		if (!err.msg[0] || strchr(err.msg, '\n'))
			fail_msg("row at line %d: message '%s'", rows[i].line,
				 err.msg);
		if (rows[i].msg && strcmp(err.msg, rows[i].msg))
			fail_msg("row at line %d: message '%s', want '%s'",
				 rows[i].line, err.msg, rows[i].msg);
		/* the detail is optional */
		assert_int_equal(opev_parse_list(rows[i].list, &specs, &nr, NULL),
				 rows[i].ret);
	}
}

/* a long bad item is cut in the message, which stays one line */
static void test_long_message(void **state)
{
	struct opev_spec *specs;
	struct op_err err;
	char list[4000];
	size_t nr;

	(void)state;
	memset(list, 'A', sizeof(list));
	memcpy(list + 2000, ":x\n", 3);
	list[sizeof(list) - 1] = '\0';
	assert_int_equal(opev_parse_list(list, &specs, &nr, &err),
			 OPEV_ERR_NAME_TOO_LONG);
	assert_non_null(strstr(err.msg, "..."));
	assert_null(strchr(err.msg, '\n'));
	assert_true(strlen(err.msg) < 400);
	list[60] = ':';
	assert_int_equal(opev_parse_list(list, &specs, &nr, &err),
			 OPEV_ERR_BAD_COUNT);
	assert_non_null(strstr(err.msg, "..."));
	assert_null(strchr(err.msg, '\n'));
}

static void test_alloc_failures(void **state)
{
	unsigned long k;

	(void)state;
	for (k = 1;; k++) {
		struct opev_spec *specs = (void *)1;
		struct op_err err;
		size_t nr = 99;
		int ret;

		op_alloc_fail_at(k);
		ret = opev_parse_list("a:1000,b::0x1,c", &specs, &nr, &err);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_int_equal(nr, 3);
			free(specs);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM || specs || nr)
			fail_msg("allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 1);
}

/* ocount's grammar: no count field, so the second field is the unit mask */
static void test_count_list(void **state)
{
	static const struct {
		int line;
		const char *list;
		int ret;
		size_t nr;
		struct want want[2];
	} rows[] = {
		{ .line = __LINE__, .list = "task-clock", .nr = 1,
		  .want = { { .name = "task-clock", .no_count = true } } },
		{ .line = __LINE__, .list = "INST_RETIRED:ANY_P:1:0", .nr = 1,
		  .want = { { .name = "INST_RETIRED", .no_count = true,
			      .has_um = true, .um_name = "ANY_P",
			      .no_user = true } } },
		{ .line = __LINE__, .list = "LLC:0x41,cpu-clock:0:0", .nr = 2,
		  .want = { { .name = "LLC", .no_count = true, .has_um = true,
			      .um = 0x41 },
			    { .name = "cpu-clock", .no_count = true,
			      .has_um = true, .no_kernel = true } } },
		{ .line = __LINE__, .list = "x::0", .nr = 1,
		  .want = { { .name = "x", .no_count = true, .no_kernel = true } } },
		{ .line = __LINE__, .list = "x:0:1:1:1", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "x:", .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .list = "x:0:0:0", .ret = OPEV_ERR_NO_MODE },
		{ .line = __LINE__, .list = "x:0:2", .ret = OPEV_ERR_BAD_FLAG },
		{ .line = __LINE__, .list = "x:0x", .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .list = "", .ret = OPEV_ERR_EMPTY_LIST },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_spec *specs;
		struct op_err err = { "" };
		size_t nr;
		int ret;

		ret = opev_parse_count_list(rows[i].list, &specs, &nr, &err);
		if (ret != rows[i].ret || nr != rows[i].nr)
			fail_msg("row at line %d: ret %d nr %zu: %s", rows[i].line,
				 ret, nr, err.msg);
		for (j = 0; j < nr; j++)
			check_spec(rows[i].line, j, &specs[j], &rows[i].want[j]);
		free(specs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_count_list),
		cmocka_unit_test(test_long_message),
		cmocka_unit_test(test_alloc_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
