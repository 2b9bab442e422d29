// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image-name escaping rule: ordinary paths pass unchanged; nothing can
 * climb out of a directory or read as a reserved {..} component; names
 * round-trip through odb_name_unescape(); long paths get the bounded form.
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

#include "libdb/odb_name.h"
#include "libutil/op_alloc.h"

static void test_paths(void **state)
{
	static const struct {
		int line;
		const char *in;
		const char *out;
		const char *back;	/* after unescape; NULL: same as in */
	} rows[] = {
		{ .line = __LINE__, .in = "/usr/bin/ls", .out = "/usr/bin/ls" },
		{ .line = __LINE__, .in = "/usr/lib/libc.so.6 (deleted)", .out = "/usr/lib/libc.so.6 (deleted)" },
		{ .line = __LINE__, .in = "/a//b/", .out = "/a/b", .back = "/a/b" },
		{ .line = __LINE__, .in = "/", .out = "/" },
		{ .line = __LINE__, .in = "/a/../../etc/x", .out = "/a/%2E%2E/%2E%2E/etc/x" },
		{ .line = __LINE__, .in = "/a/./b", .out = "/a/%2E/b" },
		{ .line = __LINE__, .in = "/a/..b/.c", .out = "/a/..b/.c" },
		{ .line = __LINE__, .in = "/x/{dep}/y", .out = "/x/%7Bdep}/y" },
		{ .line = __LINE__, .in = "/{root}/{kern}/{cg}/{anon:x}", .out = "/%7Broot}/%7Bkern}/%7Bcg}/%7Banon:x}" },
		{ .line = __LINE__, .in = "/a{b}", .out = "/a{b}" },
		{ .line = __LINE__, .in = "/100%/x\\y", .out = "/100%25/x%5Cy" },
		{ .line = __LINE__, .in = "/new\nline\t", .out = "/new%0Aline%09" },
		{ .line = __LINE__, .in = "/\x7f", .out = "/%7F" },
		{ .line = __LINE__, .in = "/caf\xc3\xa9 dir/x", .out = "/caf\xc3\xa9 dir/x" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf sb = OP_STRBUF_INIT;
		const char *back = rows[i].back ? rows[i].back : rows[i].in;

		assert_int_equal(odb_name_escape_path(&sb, rows[i].in), 0);
		if (strcmp(sb.buf, rows[i].out))
			fail_msg("row at line %d: got '%s'", rows[i].line, sb.buf);
		odb_name_unescape(sb.buf);
		if (strcmp(sb.buf, back))
			fail_msg("row at line %d: unescaped to '%s'", rows[i].line, sb.buf);
		op_strbuf_release(&sb);
	}
}

static void test_words(void **state)
{
	static const struct {
		int line;
		const char *in;
		const char *out;
	} rows[] = {
		{ .line = __LINE__, .in = "anon", .out = "anon" },
		{ .line = __LINE__, .in = "[heap]", .out = "[heap]" },
		{ .line = __LINE__, .in = "[anon:a/b]", .out = "[anon:a%2Fb]" },
		{ .line = __LINE__, .in = "..", .out = "%2E%2E" },
		{ .line = __LINE__, .in = "{x", .out = "%7Bx" },
		{ .line = __LINE__, .in = "", .out = "_" },
		{ .line = __LINE__, .in = "ext4", .out = "ext4" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		assert_int_equal(odb_name_escape_word(&sb, rows[i].in), 0);
		if (strcmp(sb.buf, rows[i].out))
			fail_msg("row at line %d: got '%s'", rows[i].line, sb.buf);
		op_strbuf_release(&sb);
	}
}

static void test_long(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char path[4096], comp[300];
	size_t i;

	(void)state;
	/* 300 x 'a' in one component: too long for a file system name */
	memset(comp, 'a', sizeof(comp) - 1);
	comp[sizeof(comp) - 1] = '\0';
	snprintf(path, sizeof(path), "/x/%s", comp);
	assert_int_equal(odb_name_escape_path(&sb, path), 0);
	assert_true(!strncmp(sb.buf, "/#long/", 7));
	assert_true(sb.len < 100);
	op_strbuf_reset(&sb);
	/* many short components adding up past ODB_NAME_IMAGE_MAX */
	path[0] = '\0';
	for (i = 0; i < 300; i++)
		strncat(path, "/abcdefgh", sizeof(path) - strlen(path) - 1);
	assert_int_equal(odb_name_escape_path(&sb, path), 0);
	assert_true(!strncmp(sb.buf, "/#long/", 7));
	assert_string_equal(strrchr(sb.buf, '/'), "/abcdefgh");
	op_strbuf_reset(&sb);
	/* escapes that make a path grow count too */
	assert_int_equal(odb_name_escape_path(&sb, "relative/path"), -EINVAL);
	op_strbuf_release(&sb);
	memset(comp, 'b', sizeof(comp) - 1);
	assert_int_equal(odb_name_escape_word(&sb, comp), 0);
	assert_true(!strncmp(sb.buf, "#long-", 6));
	op_strbuf_release(&sb);
}

static void test_oom(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	(void)state;
	op_alloc_fail_at(1);
	assert_int_equal(odb_name_escape_path(&sb, "/usr/bin/x"), -ENOMEM);
	op_alloc_fail_at(0);
	op_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
