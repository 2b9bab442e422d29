// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The longnames file: a line only for paths written as long names, its
 * text parsed back to the name a parsed sample-file name carries, lines
 * that do not parse or name another hash skipped, resolution of file
 * images only, and -ENOMEM at every allocation.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb_longnames.h"
#include "libdb/odb_name.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;
static char long_path[1400];	/* five 250-byte components, then "a b%" */
static char long_comp[300];	/* "/x/" and a 260-byte component */

static int setup(void **state)
{
	size_t i, n = 0;

	(void)state;
	for (i = 0; i < 5; i++) {
		long_path[n++] = '/';
		memset(long_path + n, 'a' + (int)i, 250);
		n += 250;
	}
	memcpy(long_path + n, "/a b%", 6);
	memcpy(long_comp, "/x/", 3);
	memset(long_comp + 3, 'y', 260);
	long_comp[263] = '\0';
	return op_testdir_make(&dir);
}

static int teardown(void **state)
{
	(void)state;
	op_testdir_remove(&dir);
	return 0;
}

/* the image name a sample file of path parses to */
static char *parsed_name(const char *path)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_name n;
	char *name;

	assert_int_equal(odb_name_add_file(&sb, path), 0);
	op_strbuf_addstr(&sb, "/{dep}/");
	assert_int_equal(odb_name_add_file(&sb, path), 0);
	assert_int_equal(odb_name_add_spec(&sb, "ev", 1000, 0, ODB_ALL, ODB_ALL, ODB_ALL), 0);
	assert_int_equal(odb_name_parse(sb.buf, &n, NULL), 0);
	name = strdup(n.image.name);
	odb_name_release(&n);
	op_strbuf_release(&sb);
	return name;
}

/* a line for long paths only; parsed back, it resolves parsed names */
static void test_round_trip(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_longnames map;
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };
	char *name;

	(void)state;
	assert_int_equal(odb_longnames_add(&sb, "/usr/bin/short"), 0);
	assert_int_equal(odb_longnames_add(&sb, "relative/path"), 0);
	assert_int_equal(sb.len, 0);
	assert_int_equal(odb_longnames_add(&sb, long_path), 0);
	assert_int_equal(odb_longnames_add(&sb, long_comp), 0);
	/* "HASH PATH": the blank and '%' of the path escaped as fields */
	assert_int_equal(strspn(sb.buf, "0123456789abcdef"), 16);
	assert_non_null(strstr(sb.buf, "/a\\x20b%\n"));
	assert_int_equal(odb_longnames_parse(sb.buf, sb.len, &map), 0);
	assert_int_equal(map.nr, 2);

	name = parsed_name(long_path);
	assert_int_equal(strncmp(name, "/#long/", 7), 0);
	id.name = name;
	assert_int_equal(odb_longnames_resolve(&map, &id), 1);
	assert_string_equal(id.name, long_path);
	free(id.name);
	id.name = parsed_name(long_comp);
	assert_int_equal(odb_longnames_resolve(&map, &id), 1);
	assert_string_equal(id.name, long_comp);
	/* a path already, or another kind: left alone */
	assert_int_equal(odb_longnames_resolve(&map, &id), 0);
	free(id.name);
	id.kind = ODB_IMAGE_ANON;
	id.name = parsed_name(long_path);
	assert_int_equal(odb_longnames_resolve(&map, &id), 0);
	free(id.name);
	odb_longnames_release(&map);
	odb_longnames_release(&map);
	op_strbuf_release(&sb);
}

/* lines that do not parse, or claim a path for another name: skipped */
static void test_bad_lines(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT, good = OP_STRBUF_INIT;
	struct odb_longnames map;
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };
	char hash[17];

	(void)state;
	assert_int_equal(odb_longnames_add(&good, long_path), 0);
	memcpy(hash, good.buf, 16);
	hash[16] = '\0';
	op_strbuf_addf(&sb, "%s /etc/passwd\n", hash);	/* not that name's path */
	op_strbuf_addf(&sb, "0000000000000000 %s\n", long_path + 1);	/* relative */
	op_strbuf_addf(&sb, "%.15s %s\n", hash, long_path);	/* short hash */
	op_strbuf_addf(&sb, "%sX %s\n", hash, long_path);	/* long hash */
	op_strbuf_addf(&sb, "%s\n%s \n", hash, hash);		/* no path */
	op_strbuf_addf(&sb, "%s %s extra\n", hash, long_path);	/* a third field */
	op_strbuf_addstr(&sb, "\n\n");
	op_strbuf_add(&sb, good.buf, 10);
	op_strbuf_addch(&sb, '\0');				/* a NUL in the line */
	op_strbuf_add(&sb, good.buf + 10, good.len - 10);
	assert_int_equal(odb_longnames_parse(sb.buf, sb.len, &map), 0);
	assert_int_equal(map.nr, 0);
	id.name = parsed_name(long_path);
	assert_int_equal(odb_longnames_resolve(&map, &id), 0);
	odb_longnames_release(&map);
	/* the good line, twice and last without '\n': once */
	op_strbuf_add(&sb, good.buf, good.len);
	op_strbuf_add(&sb, good.buf, good.len - 1);
	assert_int_equal(odb_longnames_parse(sb.buf, sb.len, &map), 0);
	assert_int_equal(map.nr, 1);
	assert_int_equal(odb_longnames_resolve(&map, &id), 1);
	assert_string_equal(id.name, long_path);
	free(id.name);
	odb_longnames_release(&map);
	op_strbuf_release(&sb);
	op_strbuf_release(&good);
}

/* stored in the samples directory and read back; none: -ENOENT */
static void test_store_read(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_longnames map;
	char sub[PATH_MAX];

	(void)state;
	op_testdir_file(&dir, "current", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	assert_int_equal(odb_longnames_read(sub, &map), -ENOENT);
	assert_int_equal(map.nr, 0);
	assert_int_equal(odb_longnames_add(&sb, long_path), 0);
	{
		struct op_dir d;

		assert_int_equal(op_testdir_hold(sub, &d), 0);
		assert_int_equal(odb_session_store_longnames(&d, sb.buf, sb.len), 0);
		op_dir_close(&d);
	}
	assert_int_equal(odb_longnames_read(sub, &map), 0);
	assert_int_equal(map.nr, 1);
	assert_string_equal(map.v[0].path, long_path);
	odb_longnames_release(&map);
	op_strbuf_release(&sb);
}

/* every allocation failing in turn: -ENOMEM and nothing kept */
static void test_enomem(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };
	struct odb_longnames map;
	unsigned long k;
	int ret;

	(void)state;
	assert_int_equal(odb_longnames_add(&sb, long_path), 0);
	assert_int_equal(odb_longnames_add(&sb, long_comp), 0);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_longnames_parse(sb.buf, sb.len, &map);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_int_equal(map.nr, 0);
		assert_null(map.v);
	}
	assert_int_equal(map.nr, 2);
	id.name = parsed_name(long_path);
	op_alloc_fail_at(1);
	ret = odb_longnames_resolve(&map, &id);
	op_alloc_fail_at(0);
	assert_int_equal(ret, -ENOMEM);
	assert_int_equal(strncmp(id.name, "/#long/", 7), 0);
	free(id.name);
	odb_longnames_release(&map);
	for (k = 1;; k++) {
		struct op_strbuf out = OP_STRBUF_INIT;

		op_alloc_fail_at(k);
		ret = odb_longnames_add(&out, long_path);
		op_alloc_fail_at(0);
		op_strbuf_release(&out);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
	}
	op_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_store_read),
		cmocka_unit_test(test_enomem),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
