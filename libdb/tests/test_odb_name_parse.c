// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample-file names: every form of the grammar parses to its fields, every
 * kind of malformed name gives its own error and a one-line message naming
 * the bad part, and names written with libdb's escaping come back as the
 * paths they were made from.
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

#include "libdb/odb.h"
#include "libdb/odb_name.h"
#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"

#define SPEC "/ev.1.0.all.all.all"

struct image_row {
	enum odb_image_kind kind;
	const char *name;
	uint32_t tgid;
	uint64_t start, end;
};

#define FILE_(p) { .kind = ODB_IMAGE_FILE, .name = (p) }
#define KERN(n) { .kind = ODB_IMAGE_KERNEL, .name = (n) }
#define ANON(n, t, s, e) { .kind = ODB_IMAGE_ANON, .name = (n), .tgid = (t), .start = (s), .end = (e) }

static void check_image(int line, const char *what, const struct odb_image_id *id,
			const struct image_row *want)
{
	if (id->kind != want->kind || strcmp(id->name, want->name))
		fail_msg("row at line %d: %s is kind %d '%s', want %d '%s'", line,
			 what, id->kind, id->name, want->kind, want->name);
	if (want->kind == ODB_IMAGE_ANON &&
	    (id->anon_tgid != want->tgid || id->anon_start != want->start ||
	     id->anon_end != want->end))
		fail_msg("row at line %d: %s anon %u 0x%llx-0x%llx", line, what,
			 id->anon_tgid, (unsigned long long)id->anon_start,
			 (unsigned long long)id->anon_end);
}

static void test_good(void **state)
{
	static const struct {
		int line;
		const char *rel;
		struct image_row app, image, cg;
		bool is_cg;
		const char *event;
		int count;
		uint32_t um;
		int64_t tgid, tid, cpu;
	} rows[] = {
		{ .line = __LINE__, .rel = "{root}/usr/bin/ls/{dep}/{root}/usr/bin/ls/cpu-clock.100000.0.all.all.all",
		  .app = FILE_("/usr/bin/ls"), .image = FILE_("/usr/bin/ls"),
		  .event = "cpu-clock", .count = 100000, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/usr/bin/ls/{dep}/{root}/usr/lib/libc.so.6/CPU_CLK_UNHALTED.5000.3.123.124.2",
		  .app = FILE_("/usr/bin/ls"), .image = FILE_("/usr/lib/libc.so.6"),
		  .event = "CPU_CLK_UNHALTED", .count = 5000, .um = 3, .tgid = 123, .tid = 124, .cpu = 2 },
		{ .line = __LINE__, .rel = "{root}/bin/x/{dep}/{kern}/no-vmlinux" SPEC,
		  .app = FILE_("/bin/x"), .image = KERN("no-vmlinux"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{kern}/kthreadd/{dep}/{kern}/ext4/ev.1.0.0.0.0",
		  .app = KERN("kthreadd"), .image = KERN("ext4"),
		  .event = "ev", .count = 1 },
		{ .line = __LINE__, .rel = "{root}/usr/bin/java/{dep}/{anon:anon}/1234.0x7f0000.0x7fffff" SPEC,
		  .app = FILE_("/usr/bin/java"), .image = ANON("anon", 1234, 0x7f0000, 0x7fffff),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{anon:[heap]}/7.0x1000.0x1FFF" SPEC,
		  .app = FILE_("/a"), .image = ANON("[heap]", 7, 0x1000, 0x1fff),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{anon:x}/9.0x0.0x0/{dep}/{anon:x}/9.0x0.0x0" SPEC,
		  .app = ANON("x", 9, 0, 0), .image = ANON("x", 9, 0, 0),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{root}/a/{cg}/{root}/lib/libc.so.6" SPEC,
		  .app = FILE_("/a"), .image = FILE_("/a"), .is_cg = true, .cg = FILE_("/lib/libc.so.6"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{kern}/no-vmlinux/{cg}/{anon:anon}/5.0x10.0x20" SPEC,
		  .app = FILE_("/a"), .image = KERN("no-vmlinux"), .is_cg = true, .cg = ANON("anon", 5, 0x10, 0x20),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{anon:anon}/5.0x10.0x20/{cg}/{kern}/ext4" SPEC,
		  .app = FILE_("/a"), .image = ANON("anon", 5, 0x10, 0x20), .is_cg = true, .cg = KERN("ext4"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		/* escapes (libdb/odb_name.h) */
		{ .line = __LINE__, .rel = "{root}/tmp/%7Bdep}/x/{dep}/{root}/tmp/%7Bdep}/x" SPEC,
		  .app = FILE_("/tmp/{dep}/x"), .image = FILE_("/tmp/{dep}/x"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/100%25/a%5Cb/%2E%2E/n%0Al/{dep}/{kern}/a%2Fb" SPEC,
		  .app = FILE_("/100%/a\\b/../n\nl"), .image = KERN("a/b"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{anon:%5Banon:x%2Fy]}/1.0x1.0x1" SPEC,
		  .app = FILE_("/a"), .image = ANON("[anon:x/y]", 1, 1, 1),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		{ .line = __LINE__, .rel = "{root}/a/%ZZ/{dep}/{root}/#long/0123456789abcdef/lib.so" SPEC,
		  .app = FILE_("/a/%ZZ"), .image = FILE_("/#long/0123456789abcdef/lib.so"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		/* dots, spaces and '}' inside paths are no separators */
		{ .line = __LINE__, .rel = "{root}/x.y/ev.1.0.all.all.all/{dep}/{root}/a b}/c (deleted)" SPEC,
		  .app = FILE_("/x.y/ev.1.0.all.all.all"), .image = FILE_("/a b}/c (deleted)"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		/* the root directory itself: "{root}//{dep}" folded by the file system */
		{ .line = __LINE__, .rel = "{root}/{dep}/{root}" SPEC,
		  .app = FILE_("/"), .image = FILE_("/"),
		  .event = "ev", .count = 1, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
		/* number ranges */
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{root}/a/e-v_2.-2147483648.4294967295.4294967295.0.007",
		  .app = FILE_("/a"), .image = FILE_("/a"),
		  .event = "e-v_2", .count = INT32_MIN, .um = UINT32_MAX, .tgid = UINT32_MAX, .tid = 0, .cpu = 7 },
		{ .line = __LINE__, .rel = "{root}/a/{dep}/{root}/a/x.2147483647.0.all.all.all",
		  .app = FILE_("/a"), .image = FILE_("/a"),
		  .event = "x", .count = INT32_MAX, .tgid = ODB_ALL, .tid = ODB_ALL, .cpu = ODB_ALL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_err err = { "" };
		struct odb_name n;
		int ret = odb_name_parse(rows[i].rel, &n, &err);

		if (ret)
			fail_msg("row at line %d: error %d: %s", rows[i].line, ret, err.msg);
		check_image(rows[i].line, "app", &n.app, &rows[i].app);
		check_image(rows[i].line, "image", &n.image, &rows[i].image);
		if (n.is_cg != rows[i].is_cg)
			fail_msg("row at line %d: is_cg %d", rows[i].line, n.is_cg);
		if (n.is_cg)
			check_image(rows[i].line, "callee", &n.cg, &rows[i].cg);
		else if (n.cg.name)
			fail_msg("row at line %d: callee set", rows[i].line);
		if (strcmp(n.event, rows[i].event) || n.count != rows[i].count ||
		    n.unit_mask != rows[i].um || n.tgid != rows[i].tgid ||
		    n.tid != rows[i].tid || n.cpu != rows[i].cpu)
			fail_msg("row at line %d: fields %s %d %u %lld %lld %lld",
				 rows[i].line, n.event, n.count, n.unit_mask,
				 (long long)n.tgid, (long long)n.tid, (long long)n.cpu);
		odb_name_release(&n);
		odb_name_release(&n);	/* safe to release again */
	}
}

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

static void test_bad(void **state)
{
	static const struct {
		int line;
		const char *rel;
		int err;
		const char *msg;	/* a part of the message */
	} rows[] = {
		/* the EVENT.COUNT.UNITMASK.TGID.TID.CPU part */
		{ __LINE__, "", ODB_ERR_NAME_NO_SPEC, "last component ''" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.all.all", ODB_ERR_NAME_NO_SPEC, "'ev.1.0.all.all'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.all.all.all.x", ODB_ERR_NAME_NO_SPEC, "ev.1.0.all.all.all.x" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev..0.all.all.all", ODB_ERR_NAME_NO_SPEC, "ev..0" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/.1.0.all.all.all", ODB_ERR_NAME_NO_SPEC, "'.1.0" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.all.all.all.", ODB_ERR_NAME_NO_SPEC, "all.'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/", ODB_ERR_NAME_NO_SPEC, "last component ''" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.x.0.all.all.all", ODB_ERR_NAME_BAD_FIELD, "bad COUNT 'x'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.+1.0.all.all.all", ODB_ERR_NAME_BAD_FIELD, "bad COUNT '+1'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.2147483648.0.all.all.all", ODB_ERR_NAME_BAD_FIELD, "COUNT" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1. 0.all.all.all", ODB_ERR_NAME_BAD_FIELD, "bad UNITMASK ' 0'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0x1.all.all.all", ODB_ERR_NAME_BAD_FIELD, "UNITMASK '0x1'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.-1.all.all.all", ODB_ERR_NAME_BAD_FIELD, "UNITMASK '-1'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.4294967296.all.all.all", ODB_ERR_NAME_BAD_FIELD, "UNITMASK" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.All.all.all", ODB_ERR_NAME_BAD_FIELD, "bad TGID 'All'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.all.1x.all", ODB_ERR_NAME_BAD_FIELD, "bad TID '1x'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.all.all.-1", ODB_ERR_NAME_BAD_FIELD, "bad CPU '-1'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.1.0.all.all.4294967296", ODB_ERR_NAME_BAD_FIELD, "CPU" },
		/* the application */
		{ __LINE__, "ev.1.0.all.all.all", ODB_ERR_NAME_NO_APP, "no application" },
		{ __LINE__, "/{root}/a/{dep}/{root}/a" SPEC, ODB_ERR_NAME_NO_APP, "starts with '/'" },
		{ __LINE__, "samples/{root}/a/{dep}/{root}/a" SPEC, ODB_ERR_NAME_NO_APP, "'samples'" },
		{ __LINE__, "{dep}/{root}/a" SPEC, ODB_ERR_NAME_NO_APP, "'{dep}'" },
		{ __LINE__, "{root}/a" SPEC, ODB_ERR_NAME_NO_DEP, "no {dep}" },
		{ __LINE__, "{root}/a/{cg}/{root}/b" SPEC, ODB_ERR_NAME_NO_DEP, "'{cg}'" },
		{ __LINE__, "{kern}/x/{root}/b" SPEC, ODB_ERR_NAME_NO_DEP, "'{root}'" },
		/* images */
		{ __LINE__, "{root}/a/{dep}" SPEC, ODB_ERR_NAME_BAD_IMAGE, "no sampled image" },
		{ __LINE__, "{root}/a/{dep}/lib/x" SPEC, ODB_ERR_NAME_BAD_IMAGE, "'lib'" },
		{ __LINE__, "{root}/a/{dep}/{xyz}/x" SPEC, ODB_ERR_NAME_BAD_IMAGE, "'{xyz}'" },
		{ __LINE__, "{root}/a/{dep}/{root}/b/{dep}/{root}/c" SPEC, ODB_ERR_NAME_BAD_IMAGE, "unexpected '{dep}'" },
		{ __LINE__, "{root}/a/{dep}/{root}/b/{cg}" SPEC, ODB_ERR_NAME_BAD_IMAGE, "no callee image" },
		{ __LINE__, "{root}/a/{dep}/{root}/b/{cg}/{root}/c/{cg}/{root}/d" SPEC, ODB_ERR_NAME_BAD_IMAGE, "unexpected '{cg}' after the callee" },
		{ __LINE__, "{root}/a//b/{dep}/{root}/a" SPEC, ODB_ERR_NAME_BAD_IMAGE, "empty path component" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/" SPEC, ODB_ERR_NAME_BAD_IMAGE, "empty path component" },
		{ __LINE__, "{kern}/x/y/{dep}/{root}/a" SPEC, ODB_ERR_NAME_BAD_IMAGE, "unexpected 'y' after the application" },
		{ __LINE__, "{kern}/{dep}/{root}/a" SPEC, ODB_ERR_NAME_BAD_IMAGE, "{kern} is not followed" },
		{ __LINE__, "{root}/a/{dep}/{kern}" SPEC, ODB_ERR_NAME_BAD_IMAGE, "{kern} is not followed" },
		{ __LINE__, "{root}/a%00b/{dep}/{root}/a" SPEC, ODB_ERR_NAME_BAD_IMAGE, "escaped NUL" },
		{ __LINE__, "{root}/a/{dep}/{kern}/x%00" SPEC, ODB_ERR_NAME_BAD_IMAGE, "escaped NUL" },
		{ __LINE__, "{root}/a/{dep}/{anon:%00}/1.0x1.0x2" SPEC, ODB_ERR_NAME_BAD_IMAGE, "escaped NUL" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x1.0x2/more" SPEC, ODB_ERR_NAME_BAD_IMAGE, "unexpected 'more'" },
		/* anonymous regions */
		{ __LINE__, "{root}/a/{dep}/{anon}/1.0x1.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'{anon}' is not" },
		{ __LINE__, "{root}/a/{dep}/{anon:}/1.0x1.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'{anon:}'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x/1.0x1.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'{anon:x'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}" SPEC, ODB_ERR_NAME_BAD_ANON, "'' after '{anon:x}'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/{cg}/{root}/a" SPEC, ODB_ERR_NAME_BAD_ANON, "'{cg}' after" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x1" SPEC, ODB_ERR_NAME_BAD_ANON, "'1.0x1'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x1.0x2.0x3" SPEC, ODB_ERR_NAME_BAD_ANON, "'1.0x1.0x2.0x3'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.1.2" SPEC, ODB_ERR_NAME_BAD_ANON, "'1.1.2'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'1.0x.0x2'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0xg.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'1.0xg.0x2'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0X1.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'1.0X1.0x2'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/a.0x1.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'a.0x1.0x2'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/-1.0x1.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "'-1.0x1.0x2'" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x10000000000000000.0x2" SPEC, ODB_ERR_NAME_BAD_ANON, "0x10000000000000000" },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x2.0x1" SPEC, ODB_ERR_NAME_BAD_ANON, "ends before it starts" },
		/* messages stay on one line whatever the name holds */
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1\n.0x2.0x1" SPEC, ODB_ERR_NAME_BAD_ANON, "'1%0A.0x2.0x1'" },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.\t.0.all.all.all", ODB_ERR_NAME_BAD_FIELD, "bad COUNT '%09'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_err err = { "" };
		struct odb_name n;
		int ret = odb_name_parse(rows[i].rel, &n, &err);

		if (ret != rows[i].err)
			fail_msg("row at line %d: got %d (%s), want %d", rows[i].line,
				 ret, err.msg, rows[i].err);
		if (!strstr(err.msg, rows[i].msg) || !one_line(err.msg))
			fail_msg("row at line %d: message '%s' lacks '%s'",
				 rows[i].line, err.msg, rows[i].msg);
		if (n.event || n.app.name || n.image.name || n.cg.name || n.is_cg)
			fail_msg("row at line %d: name not left empty", rows[i].line);
		assert_string_equal(odb_strerror(ret),
				    odb_strerror(rows[i].err));
		/* err may be NULL */
		assert_int_equal(odb_name_parse(rows[i].rel, &n, NULL), rows[i].err);
	}
}

/* names written with libdb's escaping parse back to the original paths */
static void test_round_trip(void **state)
{
	static const struct {
		int line;
		const char *path;	/* a file path, or ... */
		const char *word;	/* ... a kernel or anon name */
	} rows[] = {
		{ .line = __LINE__, .path = "/usr/bin/ls" },
		{ .line = __LINE__, .path = "/tmp/{dep}/x" },
		{ .line = __LINE__, .path = "/{root}/{kern}/{cg}/{anon:x}" },
		{ .line = __LINE__, .path = "/a/../../etc/x" },
		{ .line = __LINE__, .path = "/a/./b" },
		{ .line = __LINE__, .path = "/100%/x\\y" },
		{ .line = __LINE__, .path = "/new\nline\t/\x7f" },
		{ .line = __LINE__, .path = "/caf\xc3\xa9 dir/x (deleted)" },
		{ .line = __LINE__, .path = "/x/ev.1.0.all.all.all" },
		{ .line = __LINE__, .path = "/%7B/%00" },
		{ .line = __LINE__, .word = "ext4" },
		{ .line = __LINE__, .word = "[heap]" },
		{ .line = __LINE__, .word = "[anon:a/b]" },
		{ .line = __LINE__, .word = ".." },
		{ .line = __LINE__, .word = "{x" },
		{ .line = __LINE__, .word = "a.b.c" },
		{ .line = __LINE__, .word = "100%\\" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf sb = OP_STRBUF_INIT;
		const char *want = rows[i].path ? rows[i].path : rows[i].word;
		struct op_err err = { "" };
		struct odb_name n;
		int ret;

		/* APP/{dep}/IMAGE/{cg}/CALLEE with the same image three times */
		if (rows[i].path) {
			op_strbuf_addstr(&sb, "{root}");
			assert_int_equal(odb_name_escape_path(&sb, want), 0);
			op_strbuf_addstr(&sb, "/{dep}/{root}");
			assert_int_equal(odb_name_escape_path(&sb, want), 0);
			op_strbuf_addstr(&sb, "/{cg}/{root}");
			assert_int_equal(odb_name_escape_path(&sb, want), 0);
		} else {
			op_strbuf_addstr(&sb, "{kern}/");
			assert_int_equal(odb_name_escape_word(&sb, want), 0);
			op_strbuf_addstr(&sb, "/{dep}/{kern}/");
			assert_int_equal(odb_name_escape_word(&sb, want), 0);
			op_strbuf_addstr(&sb, "/{cg}/{anon:");
			assert_int_equal(odb_name_escape_word(&sb, want), 0);
			op_strbuf_addstr(&sb, "}/42.0xa000.0xafff");
		}
		op_strbuf_addstr(&sb, "/ev.1.0.all.all.all");
		ret = odb_name_parse(sb.buf, &n, &err);
		if (ret)
			fail_msg("row at line %d: '%s': %s", rows[i].line, sb.buf, err.msg);
		if (strcmp(n.app.name, want) || strcmp(n.image.name, want) ||
		    strcmp(n.cg.name, want))
			fail_msg("row at line %d: came back as '%s' '%s' '%s'",
				 rows[i].line, n.app.name, n.image.name, n.cg.name);
		if (rows[i].word && (n.cg.kind != ODB_IMAGE_ANON || n.cg.anon_tgid != 42 ||
				     n.cg.anon_start != 0xa000 || n.cg.anon_end != 0xafff))
			fail_msg("row at line %d: anon callee", rows[i].line);
		odb_name_release(&n);
		op_strbuf_release(&sb);
	}
}

/* a path too long for a name comes back as its bounded "#long" form */
static void test_long_path(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_name n;
	char path[2048];
	size_t i;

	(void)state;
	path[0] = '\0';
	for (i = 0; i < 200; i++)
		strncat(path, "/abcdefgh", sizeof(path) - strlen(path) - 1);
	op_strbuf_addstr(&sb, "{root}");
	assert_int_equal(odb_name_escape_path(&sb, path), 0);
	op_strbuf_addstr(&sb, "/{dep}/{kern}/no-vmlinux/ev.1.0.all.all.all");
	assert_int_equal(odb_name_parse(sb.buf, &n, NULL), 0);
	assert_true(!strncmp(n.app.name, "/#long/", 7));
	assert_string_equal(strrchr(n.app.name, '/'), "/abcdefgh");
	odb_name_release(&n);
	op_strbuf_release(&sb);
}

static void test_display(void **state)
{
	static const struct {
		int line;
		struct odb_image_id id;
		bool long_names;
		const char *want;
	} rows[] = {
		{ __LINE__, { ODB_IMAGE_FILE, (char *)"/usr/lib/libc.so.6", 0, 0, 0 }, false, "libc.so.6" },
		{ __LINE__, { ODB_IMAGE_FILE, (char *)"/usr/lib/libc.so.6", 0, 0, 0 }, true, "/usr/lib/libc.so.6" },
		{ __LINE__, { ODB_IMAGE_FILE, (char *)"/", 0, 0, 0 }, false, "/" },
		{ __LINE__, { ODB_IMAGE_FILE, (char *)"/prog (deleted)", 0, 0, 0 }, false, "prog (deleted)" },
		{ __LINE__, { ODB_IMAGE_KERNEL, (char *)"no-vmlinux", 0, 0, 0 }, false, "no-vmlinux" },
		{ __LINE__, { ODB_IMAGE_KERNEL, (char *)"a/b", 0, 0, 0 }, false, "a/b" },
		/* -f: as OProfile 1.4 names the kernel */
		{ __LINE__, { ODB_IMAGE_KERNEL, (char *)"no-vmlinux", 0, 0, 0 }, true, "/no-vmlinux" },
		{ __LINE__, { ODB_IMAGE_ANON, (char *)"anon", 1234, 0x7f00, 0x7fff }, false, "anon (tgid:1234 range:0x7f00-0x7fff)" },
		{ __LINE__, { ODB_IMAGE_ANON, (char *)"[heap]", 1, 0, UINT64_MAX }, true, "[heap] (tgid:1 range:0x0-0xffffffffffffffff)" },
		{ __LINE__, { ODB_IMAGE_FILE, NULL, 0, 0, 0 }, false, "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		assert_int_equal(odb_image_id_format(&sb, &rows[i].id, rows[i].long_names), 0);
		if (strcmp(sb.buf, rows[i].want))
			fail_msg("row at line %d: got '%s'", rows[i].line, sb.buf);
		op_strbuf_release(&sb);
	}
}

static void test_copy_equal(void **state)
{
	struct odb_image_id a = { ODB_IMAGE_ANON, (char *)"anon", 5, 0x10, 0x20 };
	struct odb_image_id b, c;

	(void)state;
	odb_image_id_copy(&b, &a);
	assert_ptr_not_equal(b.name, a.name);
	assert_true(odb_image_id_equal(&a, &b));
	b.anon_end++;
	assert_false(odb_image_id_equal(&a, &b));
	b.anon_end--;
	b.kind = ODB_IMAGE_KERNEL;
	assert_false(odb_image_id_equal(&a, &b));
	odb_image_id_release(&b);
	assert_null(b.name);
	odb_image_id_release(&b);
	odb_image_id_release(NULL);

	/* kernel and file ids compare by kind and name only */
	c = (struct odb_image_id){ ODB_IMAGE_FILE, (char *)"/a", 0, 0, 0 };
	odb_image_id_copy(&b, &c);
	assert_true(odb_image_id_equal(&b, &c));
	c.name = (char *)"/b";
	assert_false(odb_image_id_equal(&b, &c));
	c.name = NULL;
	assert_false(odb_image_id_equal(&b, &c));
	assert_true(odb_image_id_equal(&c, &c));
	odb_image_id_release(&b);
	odb_name_release(NULL);
}

static void test_quote(void **state)
{
	static const struct {
		int line;
		const char *in;
		size_t size;
		const char *want;
	} rows[] = {
		{ __LINE__, "plain text", 64, "plain text" },
		{ __LINE__, "a\nb\tc\x7f\xc3\xa9", 64, "a%0Ab%09c%7F%C3%A9" },
		{ __LINE__, "0123456789abcdef", 12, "012345..." },
		{ __LINE__, "\n\n\n\n", 12, "%0A%0A..." },
		{ __LINE__, "x", 8, "x" },
		{ __LINE__, "xyz", 4, "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char buf[64];

		op_quote(buf, rows[i].size, rows[i].in);
		if (strcmp(buf, rows[i].want) || strlen(buf) >= rows[i].size)
			fail_msg("row at line %d: got '%s'", rows[i].line, buf);
	}
}

static void test_strerror(void **state)
{
	int e;

	(void)state;
	for (e = ODB_ERR_NAME_NO_SPEC; e <= ODB_ERR_NAME_BAD_ANON; e++)
		assert_true(strlen(odb_strerror(e)) > 10);
}

/*
 * Every allocation of a parse may fail: the parse then returns -ENOMEM
 * with the name left empty (valgrind's run of make check finds a leak),
 * for each k until the parse needs fewer than k allocations; names of
 * every kind of image, and malformed ones whose messages allocate too.
 */
static void test_alloc_failures(void **state)
{
	static const struct {
		int line;
		const char *rel;
		int ret;		/* without failures */
	} rows[] = {
		{ __LINE__, "{root}/usr/bin/ls/{dep}/{root}/usr/lib/libc.so.6" SPEC, 0 },
		{ __LINE__, "{root}/a/{dep}/{root}/a/{cg}/{root}/lib/libc.so.6" SPEC, 0 },
		{ __LINE__, "{root}/a/{dep}/{kern}/no-vmlinux/{cg}/{anon:anon}/5.0x10.0x20" SPEC, 0 },
		{ __LINE__, "{anon:x}/9.0x0.0x0/{dep}/{anon:%5Bheap]}/9.0x0.0x0" SPEC, 0 },
		{ __LINE__, "{root}/100%25/a%5Cb/{dep}/{kern}/a%2Fb" SPEC, 0 },
		{ __LINE__, "{root}/a/{dep}/{anon:x}/1.0x2.0x1" SPEC, ODB_ERR_NAME_BAD_ANON },
		{ __LINE__, "{root}/a/{dep}/{root}/a%00b" SPEC, ODB_ERR_NAME_BAD_IMAGE },
		{ __LINE__, "{root}/a/{dep}/{root}/a/ev.x.0.all.all.all", ODB_ERR_NAME_BAD_FIELD },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned long k;

		for (k = 1;; k++) {
			struct op_err err = { "" };
			struct odb_name n;
			int ret;

			op_alloc_fail_at(k);
			ret = odb_name_parse(rows[i].rel, &n, &err);
			if (op_alloc_count() < k) {
				op_alloc_fail_at(0);
				if (ret != rows[i].ret)
					fail_msg("row at line %d: %d without failures (%s)",
						 rows[i].line, ret, err.msg);
				odb_name_release(&n);
				break;
			}
			op_alloc_fail_at(0);
			if (ret != -ENOMEM && ret != rows[i].ret)
				fail_msg("row at line %d: allocation %lu failing gave %d (%s)",
					 rows[i].line, k, ret, err.msg);
			if (ret && (n.event || n.app.name || n.image.name || n.cg.name))
				fail_msg("row at line %d: allocation %lu failing left fields",
					 rows[i].line, k);
			odb_name_release(&n);
		}
		if (k < 2)
			fail_msg("row at line %d: no allocation failed", rows[i].line);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_long_path),
		cmocka_unit_test(test_display),
		cmocka_unit_test(test_copy_equal),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_alloc_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
