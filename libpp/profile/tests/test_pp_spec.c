// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profile specifications: every tag, comma lists and "\," escapes, bare
 * arguments, paths made absolute, differential sides, every error with
 * its message, and which tag rejects which sample file name.
 */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/profile/pp_spec.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define MAX_ARGS 8

static int nr_args(const char *const *args)
{
	int n = 0;

	while (n < MAX_ARGS && args[n])
		n++;
	return n;
}

/* a tag's list, or the archive as a one-item list */
static const struct pp_spec_list *list_of(const struct pp_spec *spec,
					  const char *tag,
					  struct pp_spec_list *archive)
{
	static const struct {
		const char *tag;
		size_t offset;
	} lists[] = {
		{ "session", offsetof(struct pp_spec, session) },
		{ "session-exclude", offsetof(struct pp_spec, session_exclude) },
		{ "image", offsetof(struct pp_spec, image) },
		{ "image-exclude", offsetof(struct pp_spec, image_exclude) },
		{ "lib-image", offsetof(struct pp_spec, lib_image) },
		{ "lib-image-exclude", offsetof(struct pp_spec, lib_image_exclude) },
		{ "event", offsetof(struct pp_spec, event) },
		{ "count", offsetof(struct pp_spec, count) },
		{ "unit-mask", offsetof(struct pp_spec, unit_mask) },
		{ "cpu", offsetof(struct pp_spec, cpu) },
		{ "tgid", offsetof(struct pp_spec, tgid) },
		{ "tid", offsetof(struct pp_spec, tid) },
	};
	size_t i;

	if (!strcmp(tag, "archive")) {
		archive->items = (char **)&spec->archive;
		archive->nr = spec->archive ? 1 : 0;
		return archive;
	}
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!strcmp(lists[i].tag, tag))
			return (const struct pp_spec_list *)((const char *)spec +
							     lists[i].offset);
	fail_msg("no tag %s", tag);
	return NULL;
}

/* the items joined with '|'; "$" stands for the current directory */
static char *joined(const struct pp_spec_list *list)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i;

	for (i = 0; i < list->nr; i++)
		op_strbuf_addf(&sb, "%s%s", i ? "|" : "", list->items[i]);
	return op_strbuf_detach(&sb);
}

static char *expand(const char *want, const char *cwd)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	for (; *want; want++)
		if (*want == '$')
			op_strbuf_addstr(&sb, cwd);
		else
			op_strbuf_addch(&sb, *want);
	return op_strbuf_detach(&sb);
}

struct want {
	const char *tag;
	const char *items;	/* joined with '|' */
};

/* every tag of spec holds what want says, and the other tags nothing */
static void check_spec(int line, const struct pp_spec *spec,
		       const struct want *want, const char *cwd)
{
	static const char *const all[] = {
		"archive", "session", "session-exclude", "image", "image-exclude",
		"lib-image", "lib-image-exclude", "event", "count", "unit-mask",
		"cpu", "tgid", "tid",
	};
	size_t i, j;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		struct pp_spec_list archive;
		char *got = joined(list_of(spec, all[i], &archive));
		char *exp = expand("", cwd);

		for (j = 0; want[j].tag; j++) {
			if (!strcmp(want[j].tag, all[i])) {
				free(exp);
				exp = expand(want[j].items, cwd);
			}
		}
		if (strcmp(got, exp))
			fail_msg("row at line %d: %s is '%s', want '%s'", line,
				 all[i], got, exp);
		free(got);
		free(exp);
	}
}

struct fixture {
	struct op_testdir dir;
	char old_cwd[PATH_MAX];
	char cwd[PATH_MAX];
};

/* each test runs in a fresh directory, for the relative paths */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || op_testdir_make(&f->dir) || !getcwd(f->old_cwd, sizeof(f->old_cwd)) ||
	    chdir(f->dir.path) || !getcwd(f->cwd, sizeof(f->cwd)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (chdir(f->old_cwd))
		return -1;
	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

static void test_tags(void **state)
{
	static const struct {
		int line;
		const char *args[MAX_ARGS];
		struct want want[8];
	} rows[] = {
		{ __LINE__, { NULL }, { { NULL } } },
		{ __LINE__, { "session:a,b" }, { { "session", "a|b" } } },
		{ __LINE__, { "session-exclude:previous" }, { { "session-exclude", "previous" } } },
		{ __LINE__, { "session:./s,/x/s" }, { { "session", "./s|/x/s" } } },
		{ __LINE__, { "image:/no/such/ls,*op*" }, { { "image", "/no/such/ls|*op*" } } },
		{ __LINE__, { "image-exclude:/no/such/x" }, { { "image-exclude", "/no/such/x" } } },
		{ __LINE__, { "lib-image:libc*" }, { { "lib-image", "libc*" } } },
		{ __LINE__, { "lib-image-exclude:[heap],anon" }, { { "lib-image-exclude", "[heap]|anon" } } },
		{ __LINE__, { "event:cpu-clock,CPU_CLK_UNHALTED" }, { { "event", "cpu-clock|CPU_CLK_UNHALTED" } } },
		{ __LINE__, { "count:100000,-1,0" }, { { "count", "100000|-1|0" } } },
		{ __LINE__, { "unit-mask:0x10,16,0,0XfF" }, { { "unit-mask", "0x10|16|0|0XfF" } } },
		{ __LINE__, { "cpu:0,1,all" }, { { "cpu", "0|1|all" } } },
		{ __LINE__, { "tgid:1234,4294967295" }, { { "tgid", "1234|4294967295" } } },
		{ __LINE__, { "tid:all" }, { { "tid", "all" } } },
		{ __LINE__, { "archive:/no/such/archive" }, { { "archive", "/no/such/archive" } } },
		{ __LINE__, { "archive:/no/such/a,b" }, { { "archive", "/no/such/a,b" } } },
		/* every tag at once */
		{ __LINE__, { "session:s", "image:i", "lib-image:l", "event:e", "cpu:1", "tid:2" },
		  { { "session", "s" }, { "image", "i" }, { "lib-image", "l" }, { "event", "e" },
		    { "cpu", "1" }, { "tid", "2" } } },
		/* escapes: only "\," is one */
		{ __LINE__, { "image:a\\,b,c" }, { { "image", "a,b|c" } } },
		{ __LINE__, { "event:x\\y,z\\" }, { { "event", "x\\y|z\\" } } },
		{ __LINE__, { "session:a\\,\\,b" }, { { "session", "a,,b" } } },
		/* a tag given twice adds to its list */
		{ __LINE__, { "image:a", "image:b,c", "cpu:1", "cpu:2" }, { { "image", "a|b|c" }, { "cpu", "1|2" } } },
		/* bare arguments: one image each */
		{ __LINE__, { "/no/such/prog" }, { { "image", "/no/such/prog" } } },
		{ __LINE__, { "prog,x", "*.so" }, { { "image", "prog,x|*.so" } } },
		{ __LINE__, { "./prog" }, { { "image", "$/prog" } } },
		{ __LINE__, { "./a:b" }, { { "image", "$/a:b" } } },
		{ __LINE__, { "/x/a:b", "image:/y" }, { { "image", "/x/a:b|/y" } } },
		/* relative and unclean paths: absolute and normalized */
		{ __LINE__, { "image:sub/../x/./y" }, { { "image", "$/x/y" } } },
		{ __LINE__, { "image:/a//b/,/../x,/,/a/b/../../.." }, { { "image", "/a/b|/x|/|/" } } },
		{ __LINE__, { "lib-image:./*.so" }, { { "lib-image", "$/*.so" } } },
		{ __LINE__, { "archive:arch/" }, { { "archive", "$/arch" } } },
		/* tag values may hold ':' */
		{ __LINE__, { "image:a:b", "event:e:x" }, { { "image", "a:b" }, { "event", "e:x" } } },
		{ __LINE__, { "image:{x}" }, { { "image", "{x}" } } },
		/* outside braces a trailing '}' is part of the name */
		{ __LINE__, { "image:x}", "/y}/" }, { { "image", "x}|/y}" } } },
	};
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_spec_set set;
		struct op_err err = { "" };
		int ret = pp_spec_parse(nr_args(rows[i].args), rows[i].args, &set, &err);

		if (ret)
			fail_msg("row at line %d: error %d: %s", rows[i].line, ret, err.msg);
		if (set.differential)
			fail_msg("row at line %d: differential", rows[i].line);
		check_spec(rows[i].line, &set.first, rows[i].want, f->cwd);
		check_spec(rows[i].line, &set.second, (struct want[]){ { NULL } }, f->cwd);
		pp_spec_set_release(&set);
		pp_spec_set_release(&set);
	}
	pp_spec_set_release(NULL);
}

/* paths that exist are resolved, as the sample files record real paths */
static void test_realpath(void **state)
{
	struct fixture *f = *state;
	const char *args[] = { "image:./link", "lib-image:dir/link,./l*", "./dir/../link" };
	struct pp_spec_set set;
	char want[PATH_MAX * 2];
	FILE *fp;

	assert_int_equal(mkdir("dir", 0755), 0);
	fp = fopen("dir/real", "w");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(symlink("dir/real", "link"), 0);
	assert_int_equal(symlink("real", "dir/link"), 0);
	assert_int_equal(pp_spec_parse(3, args, &set, NULL), 0);
	snprintf(want, sizeof(want), "%s/dir/real", f->cwd);
	assert_int_equal(set.first.image.nr, 2);
	assert_string_equal(set.first.image.items[0], want);
	assert_string_equal(set.first.image.items[1], want);
	assert_int_equal(set.first.lib_image.nr, 2);
	assert_string_equal(set.first.lib_image.items[0], want);
	/* a glob is never resolved */
	snprintf(want, sizeof(want), "%s/l*", f->cwd);
	assert_string_equal(set.first.lib_image.items[1], want);
	pp_spec_set_release(&set);
}

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

static void test_errors(void **state)
{
	static const struct {
		int line;
		const char *args[MAX_ARGS];
		int err;
		const char *msg;	/* a part of the message */
	} rows[] = {
		{ __LINE__, { "imgae:foo" }, PP_PROFILE_ERR_UNKNOWN_TAG,
		  "unknown tag 'imgae' in 'imgae:foo' (valid tags: archive, session, "
		  "session-exclude, image, image-exclude, lib-image, lib-image-exclude, "
		  "event, count, unit-mask, cpu, tgid, tid, time)" },
		{ __LINE__, { "time:3-2" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time '3-2'" },
		{ __LINE__, { "time:-" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time '-'" },
		{ __LINE__, { "time:1-2-3" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time" },
		{ __LINE__, { "time:a-2" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time" },
		{ __LINE__, { "time:1e3" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time" },
		{ __LINE__, { "time:2-2" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time" },
		{ __LINE__, { "time:." }, PP_PROFILE_ERR_BAD_NUMBER, "bad time" },
		{ __LINE__, { "time:1,,2" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty time" },
		{ __LINE__, { "time:99999999999" }, PP_PROFILE_ERR_BAD_NUMBER, "bad time" },
		{ __LINE__, { "image:a", "Image:x" }, PP_PROFILE_ERR_UNKNOWN_TAG, "unknown tag 'Image'" },
		{ __LINE__, { ":x" }, PP_PROFILE_ERR_UNKNOWN_TAG, "unknown tag '' in ':x'" },
		{ __LINE__, { "a:b/c" }, PP_PROFILE_ERR_UNKNOWN_TAG, "unknown tag 'a'" },
		{ __LINE__, { "sample-file:x" }, PP_PROFILE_ERR_UNKNOWN_TAG, "'sample-file'" },
		{ __LINE__, { "image:" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty image value in 'image:'" },
		{ __LINE__, { "cpu:1,,2" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty cpu value in 'cpu:1,,2'" },
		{ __LINE__, { "event:a," }, PP_PROFILE_ERR_EMPTY_VALUE, "empty event value" },
		{ __LINE__, { "session:,a" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty session value" },
		{ __LINE__, { "session-exclude:" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty session-exclude value" },
		{ __LINE__, { "archive:" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty archive value" },
		{ __LINE__, { "" }, PP_PROFILE_ERR_EMPTY_VALUE, "empty image value in ''" },
		{ __LINE__, { "count:x" }, PP_PROFILE_ERR_BAD_NUMBER, "bad count 'x' in 'count:x' (a decimal number)" },
		{ __LINE__, { "count:0x10" }, PP_PROFILE_ERR_BAD_NUMBER, "bad count '0x10'" },
		{ __LINE__, { "count:2147483648" }, PP_PROFILE_ERR_BAD_NUMBER, "bad count" },
		{ __LINE__, { "count: 1" }, PP_PROFILE_ERR_BAD_NUMBER, "bad count ' 1'" },
		{ __LINE__, { "unit-mask:-1" }, PP_PROFILE_ERR_BAD_NUMBER, "bad unit-mask '-1' in 'unit-mask:-1' (a decimal or 0x hex number)" },
		{ __LINE__, { "unit-mask:0x" }, PP_PROFILE_ERR_BAD_NUMBER, "bad unit-mask '0x'" },
		{ __LINE__, { "unit-mask:0x100000000" }, PP_PROFILE_ERR_BAD_NUMBER, "bad unit-mask" },
		{ __LINE__, { "unit-mask:abc" }, PP_PROFILE_ERR_BAD_NUMBER, "bad unit-mask 'abc'" },
		{ __LINE__, { "unit-mask:0x-1" }, PP_PROFILE_ERR_BAD_NUMBER, "bad unit-mask '0x-1'" },
		{ __LINE__, { "cpu:-1" }, PP_PROFILE_ERR_BAD_NUMBER, "bad cpu '-1' in 'cpu:-1' ('all' or a decimal number)" },
		{ __LINE__, { "cpu:ALL" }, PP_PROFILE_ERR_BAD_NUMBER, "bad cpu 'ALL'" },
		{ __LINE__, { "tgid:x" }, PP_PROFILE_ERR_BAD_NUMBER, "bad tgid 'x'" },
		{ __LINE__, { "tid:1.5" }, PP_PROFILE_ERR_BAD_NUMBER, "bad tid '1.5'" },
		{ __LINE__, { "tid:4294967296" }, PP_PROFILE_ERR_BAD_NUMBER, "bad tid" },
		{ __LINE__, { "archive:/a", "archive:/b" }, PP_PROFILE_ERR_TWO_ARCHIVES, "archive: given twice, 'archive:/b' after '/a'" },
		{ __LINE__, { "{" }, PP_PROFILE_ERR_BAD_BRACES, "'{' without '}'" },
		{ __LINE__, { "}" }, PP_PROFILE_ERR_BAD_BRACES, "'}' without '{'" },
		{ __LINE__, { "{", "}", "}" }, PP_PROFILE_ERR_BAD_BRACES, "'}' without '{'" },
		{ __LINE__, { "{", "{" }, PP_PROFILE_ERR_BAD_BRACES, "'{' inside braces" },
		{ __LINE__, { "{", "{}" }, PP_PROFILE_ERR_BAD_BRACES, "'{' inside braces" },
		{ __LINE__, { "{", "a", "}" }, PP_PROFILE_ERR_BAD_BRACES, "one side in braces" },
		{ __LINE__, { "{}" }, PP_PROFILE_ERR_BAD_BRACES, "one side in braces" },
		{ __LINE__, { "{", "}", "{", "}", "{" }, PP_PROFILE_ERR_TOO_MANY_SIDES, "a third '{'" },
		{ __LINE__, { "{}", "{}", "{}" }, PP_PROFILE_ERR_TOO_MANY_SIDES, "two sides" },
		{ __LINE__, { "{image:a}", "{image:b}" }, PP_PROFILE_ERR_BAD_BRACES, "'{image:a}': braces must be arguments of their own" },
		{ __LINE__, { "{", "image:a}" }, PP_PROFILE_ERR_BAD_BRACES, "'image:a}'" },
		{ __LINE__, { "{", "}", "{", "cpu:x", "}" }, PP_PROFILE_ERR_BAD_NUMBER, "bad cpu 'x'" },
		{ __LINE__, { "{", "imgae:x", "}", "{", "}" }, PP_PROFILE_ERR_UNKNOWN_TAG, "'imgae'" },
		/* messages stay on one line */
		{ __LINE__, { "image:\n," }, PP_PROFILE_ERR_EMPTY_VALUE, "'image:%0A,'" },
		{ __LINE__, { "x\ty:z" }, PP_PROFILE_ERR_UNKNOWN_TAG, "'x%09y'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_spec_set set;
		struct op_err err = { "" };
		int n = nr_args(rows[i].args);
		int ret = pp_spec_parse(n, rows[i].args, &set, &err);

		if (ret != rows[i].err)
			fail_msg("row at line %d: got %d (%s), want %d", rows[i].line,
				 ret, err.msg, rows[i].err);
		if (!strstr(err.msg, rows[i].msg) || !one_line(err.msg))
			fail_msg("row at line %d: message '%s' lacks '%s'",
				 rows[i].line, err.msg, rows[i].msg);
		if (set.differential || set.first.image.items || set.second.cpu.items ||
		    set.first.archive)
			fail_msg("row at line %d: set not left empty", rows[i].line);
		assert_int_equal(pp_spec_parse(n, rows[i].args, &set, NULL), rows[i].err);
	}
}

static void test_differential(void **state)
{
	static const struct {
		int line;
		const char *args[MAX_ARGS];
		struct want first[3], second[3];
	} rows[] = {
		{ __LINE__, { "{", "image:a", "}", "{", "image:b", "}" },
		  { { "image", "a" } }, { { "image", "b" } } },
		{ __LINE__, { "event:e", "{", "session:s1", "}", "{", "session:s2", "}" },
		  { { "event", "e" }, { "session", "s1" } }, { { "event", "e" }, { "session", "s2" } } },
		/* a tag inside braces replaces the shared one on that side */
		{ __LINE__, { "session:x", "cpu:1", "{", "}", "{", "session:y", "}" },
		  { { "session", "x" }, { "cpu", "1" } }, { { "session", "y" }, { "cpu", "1" } } },
		/* shared arguments may come after or between the sides */
		{ __LINE__, { "{", "}", "tid:3", "{", "}", "cpu:1" },
		  { { "cpu", "1" }, { "tid", "3" } }, { { "cpu", "1" }, { "tid", "3" } } },
		{ __LINE__, { "{}", "{}" }, { { NULL } }, { { NULL } } },
		{ __LINE__, { "{}", "{", "lib-image:x", "}" }, { { NULL } }, { { "lib-image", "x" } } },
		{ __LINE__, { "archive:/no/a", "{", "}", "{", "archive:/no/b", "}" },
		  { { "archive", "/no/a" } }, { { "archive", "/no/b" } } },
	};
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_spec_set set;
		struct op_err err = { "" };
		int ret = pp_spec_parse(nr_args(rows[i].args), rows[i].args, &set, &err);

		if (ret)
			fail_msg("row at line %d: error %d: %s", rows[i].line, ret, err.msg);
		if (!set.differential)
			fail_msg("row at line %d: not differential", rows[i].line);
		check_spec(rows[i].line, &set.first, rows[i].first, f->cwd);
		check_spec(rows[i].line, &set.second, rows[i].second, f->cwd);
		pp_spec_set_release(&set);
	}
}

#define N_LIBC "{root}/usr/bin/prog/{dep}/{root}/usr/lib/libc.so.6/cpu-clock.100000.0.all.all.all"
#define N_SEP "{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog/CPU_CLK.5000.16.12.13.2"
#define N_KERN "{root}/usr/bin/prog/{dep}/{kern}/no-vmlinux/cpu-clock.100000.0.all.all.all"
#define N_HEAP "{root}/usr/bin/java/{dep}/{anon:[heap]}/7.0x1.0x2/cpu-clock.100000.0.all.all.all"
#define N_CG "{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog/{cg}/{root}/usr/lib/libm.so/e.1.0.all.all.all"

static void test_reject(void **state)
{
	static const struct {
		int line;
		const char *args[MAX_ARGS];
		const char *name;
		const char *session;
		const char *tag;	/* NULL: the file matches */
	} rows[] = {
		{ __LINE__, { NULL }, N_LIBC, "current", NULL },
		{ __LINE__, { NULL }, N_LIBC, "previous", "session" },
		{ __LINE__, { NULL }, N_LIBC, NULL, NULL },
		{ __LINE__, { "session:previous" }, N_LIBC, "previous", NULL },
		{ __LINE__, { "session:previous" }, N_LIBC, "current", "session" },
		{ __LINE__, { "session-exclude:current" }, N_LIBC, "current", "session-exclude" },
		{ __LINE__, { "session-exclude:current" }, N_LIBC, NULL, NULL },
		/* image: the application, by path or basename */
		{ __LINE__, { "image:/usr/bin/prog" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "image:prog" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "image:pro*" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "image:/usr/*" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "image:*/prog" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "image:x,prog" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "/usr/bin/prog" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "image:libc.so.6" }, N_LIBC, NULL, "image" },
		{ __LINE__, { "image:/bin/prog" }, N_LIBC, NULL, "image" },
		{ __LINE__, { "image:usr" }, N_LIBC, NULL, "image" },
		{ __LINE__, { "image:/usr" }, N_LIBC, NULL, "image" },
		{ __LINE__, { "image-exclude:prog" }, N_LIBC, NULL, "image-exclude" },
		{ __LINE__, { "image-exclude:libc*" }, N_LIBC, NULL, NULL },
		/* lib-image: the sampled image */
		{ __LINE__, { "lib-image:libc.so.6" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "lib-image:libc.so.6" }, N_SEP, NULL, "lib-image" },
		{ __LINE__, { "lib-image:/usr/lib/*" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "lib-image-exclude:libc*" }, N_LIBC, NULL, "lib-image-exclude" },
		{ __LINE__, { "lib-image-exclude:libc*" }, N_SEP, NULL, NULL },
		{ __LINE__, { "lib-image-exclude:libm.so" }, N_CG, NULL, NULL },
		{ __LINE__, { "lib-image:prog" }, N_CG, NULL, NULL },
		{ __LINE__, { "lib-image:no-vmlinux" }, N_KERN, NULL, NULL },
		{ __LINE__, { "lib-image:no-*" }, N_KERN, NULL, NULL },
		{ __LINE__, { "lib-image:/no-vmlinux" }, N_KERN, NULL, "lib-image" },
		{ __LINE__, { "lib-image:[heap]" }, N_HEAP, NULL, NULL },
		{ __LINE__, { "lib-image:\\[heap]" }, N_HEAP, NULL, NULL },
		{ __LINE__, { "lib-image:*heap*" }, N_HEAP, NULL, NULL },
		{ __LINE__, { "lib-image:heap" }, N_HEAP, NULL, "lib-image" },
		{ __LINE__, { "lib-image-exclude:[heap]" }, N_HEAP, NULL, "lib-image-exclude" },
		/* event, count, unit-mask */
		{ __LINE__, { "event:cpu-clock" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "event:cpu-clock" }, N_SEP, NULL, "event" },
		{ __LINE__, { "event:CPU-CLOCK" }, N_LIBC, NULL, "event" },
		{ __LINE__, { "event:x,CPU_CLK" }, N_SEP, NULL, NULL },
		{ __LINE__, { "count:100000" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "count:5000" }, N_LIBC, NULL, "count" },
		{ __LINE__, { "unit-mask:0x10" }, N_SEP, NULL, NULL },
		{ __LINE__, { "unit-mask:16" }, N_SEP, NULL, NULL },
		{ __LINE__, { "unit-mask:0" }, N_SEP, NULL, "unit-mask" },
		{ __LINE__, { "unit-mask:0" }, N_LIBC, NULL, NULL },
		/* cpu, tgid, tid: a file's "all" matches no number */
		{ __LINE__, { "cpu:2" }, N_SEP, NULL, NULL },
		{ __LINE__, { "cpu:1,2" }, N_SEP, NULL, NULL },
		{ __LINE__, { "cpu:3" }, N_SEP, NULL, "cpu" },
		{ __LINE__, { "cpu:0" }, N_LIBC, NULL, "cpu" },
		{ __LINE__, { "cpu:all" }, N_LIBC, NULL, NULL },
		{ __LINE__, { "cpu:5,all" }, N_SEP, NULL, NULL },
		{ __LINE__, { "tgid:12" }, N_SEP, NULL, NULL },
		{ __LINE__, { "tgid:13" }, N_SEP, NULL, "tgid" },
		{ __LINE__, { "tgid:12" }, N_LIBC, NULL, "tgid" },
		{ __LINE__, { "tid:13" }, N_SEP, NULL, NULL },
		{ __LINE__, { "tid:12" }, N_SEP, NULL, "tid" },
		/* the first rejecting tag in pp_spec_valid_tags() order */
		{ __LINE__, { "event:nope", "image:nope" }, N_LIBC, NULL, "image" },
		{ __LINE__, { "tid:5", "event:nope" }, N_LIBC, NULL, "event" },
		{ __LINE__, { "image:prog", "lib-image:libc*", "event:cpu-clock", "count:100000",
			      "unit-mask:0", "cpu:all", "tgid:all", "tid:all" }, N_LIBC, "current", NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_spec_set set;
		struct odb_name name;
		const char *tag;

		assert_int_equal(pp_spec_parse(nr_args(rows[i].args), rows[i].args,
					       &set, NULL), 0);
		assert_int_equal(odb_name_parse(rows[i].name, &name, NULL), 0);
		tag = pp_spec_reject(&set.first, rows[i].session, &name);
		if (!tag != !rows[i].tag || (tag && strcmp(tag, rows[i].tag)))
			fail_msg("row at line %d: rejected by %s, want %s", rows[i].line,
				 tag ? tag : "nothing", rows[i].tag ? rows[i].tag : "nothing");
		odb_name_release(&name);
		pp_spec_set_release(&set);
	}
}

static void test_sessions(void **state)
{
	const char *args[] = { "session:b,a" };
	struct pp_spec empty = { 0 };
	const struct pp_spec_list *l;
	struct pp_spec_set set;

	(void)state;
	l = pp_spec_sessions(&empty);
	assert_int_equal(l->nr, 1);
	assert_string_equal(l->items[0], "current");
	assert_int_equal(pp_spec_parse(1, args, &set, NULL), 0);
	l = pp_spec_sessions(&set.first);
	assert_ptr_equal(l, &set.first.session);
	pp_spec_set_release(&set);
}

/* time: items to ranges in ns */
static void test_time(void **state)
{
	static const struct {
		const char *item;
		uint64_t start, end;
	} good[] = {
		{ "2-3", 2000000000ull, 3000000000ull },
		{ "2.5-", 2500000000ull, UINT64_MAX },
		{ "-10", 0, 10000000000ull },
		{ "0.000000001-.5", 1, 500000000ull },
		{ "4", 4000000000ull, 4000000001ull },
		{ "1.1234567891-2", 1123456789ull, 2000000000ull },
	};
	struct pp_time_range r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(pp_spec_time_parse(good[i].item, &r), 0);
		assert_int_equal(r.start_ns, good[i].start);
		assert_int_equal(r.end_ns, good[i].end);
	}
}

/* every tag pp_spec_valid_tags() names is one */
static void test_valid_tags(void **state)
{
	char *tags = strdup(pp_spec_valid_tags()), *p = tags, *tag;
	size_t nr = 0;

	(void)state;
	while ((tag = strsep(&p, ","))) {
		char arg[64];
		const char *args[] = { arg };
		struct pp_spec_set set;

		while (*tag == ' ')
			tag++;
		snprintf(arg, sizeof(arg), "%s:1", tag);
		assert_int_equal(pp_spec_parse(1, args, &set, NULL), 0);
		pp_spec_set_release(&set);
		nr++;
	}
	assert_int_equal(nr, 14);
	free(tags);
}

static void test_strerror(void **state)
{
	int e;

	(void)state;
	for (e = PP_PROFILE_ERR_BASE + 1; e < PP_PROFILE_ERR_END; e++)
		assert_true(strlen(pp_profile_strerror(e)) > 10);
	assert_string_equal(pp_profile_strerror(-2), op_strerror(-2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_realpath, setup, teardown),
		cmocka_unit_test(test_errors),
		cmocka_unit_test_setup_teardown(test_differential, setup, teardown),
		cmocka_unit_test(test_reject),
		cmocka_unit_test(test_sessions),
		cmocka_unit_test(test_valid_tags),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
