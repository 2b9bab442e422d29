// SPDX-License-Identifier: GPL-2.0-or-later
/* op_file: mkdir -p, whole-file read and atomic write, tree removal. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

static int setup(void **state)
{
	static struct op_testdir dir;

	if (op_testdir_make(&dir))
		return -1;
	*state = &dir;
	return 0;
}

static int teardown(void **state)
{
	op_testdir_remove(*state);
	return 0;
}

static void test_mkdir_p(void **state)
{
	struct op_testdir *dir = *state;
	char p[PATH_MAX], f[PATH_MAX];
	struct stat st;

	op_testdir_file(dir, "a/b//c/d", p, sizeof(p));
	assert_int_equal(op_mkdir_p(p, 0700), 0);
	assert_true(op_is_dir(p));
	assert_int_equal(op_mkdir_p(p, 0700), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700 & ~0);
	op_testdir_file(dir, "a/file", f, sizeof(f));
	assert_int_equal(op_write_file_atomic(f, "x", 1, 0644), 0);
	op_testdir_file(dir, "a/file/sub", p, sizeof(p));
	assert_int_equal(op_mkdir_p(p, 0755), -ENOTDIR);
	op_testdir_file(dir, "x/y/z/leaf", p, sizeof(p));
	assert_int_equal(op_mkdir_parents(p, 0755), 0);
	op_testdir_file(dir, "x/y/z", p, sizeof(p));
	assert_true(op_is_dir(p));
	assert_int_equal(op_mkdir_p("", 0755), -ENOENT);
	assert_int_equal(op_mkdir_parents("nodir", 0755), 0);
}

static void test_read_write(void **state)
{
	struct op_testdir *dir = *state;
	char p[PATH_MAX], tmp[PATH_MAX];
	char *data;
	size_t len;
	int64_t mtime;

	op_testdir_file(dir, "f", p, sizeof(p));
	assert_int_equal(op_write_file_atomic(p, "hello\n", 6, 0600), 0);
	op_testdir_file(dir, "f.tmp", tmp, sizeof(tmp));
	assert_false(op_is_file(tmp));
	assert_true(op_is_file(p));
	assert_int_equal(op_read_file(p, 100, &data, &len), 0);
	assert_int_equal(len, 6);
	assert_string_equal(data, "hello\n");
	free(data);
	assert_int_equal(op_read_file(p, 5, &data, &len), -EFBIG);
	assert_int_equal(op_read_file(p, 6, &data, &len), 0);
	free(data);
	assert_int_equal(op_file_mtime(p, &mtime), 0);
	assert_true(mtime > 0);
	/* /proc files have st_size 0 but content */
	assert_int_equal(op_read_file("/proc/self/stat", 1 << 20, &data, &len), 0);
	assert_true(len > 10);
	free(data);
	assert_int_equal(op_read_file(dir->path, 100, &data, &len), -EISDIR);
	op_testdir_file(dir, "missing", p, sizeof(p));
	assert_int_equal(op_read_file(p, 100, &data, &len), -ENOENT);
	assert_int_equal(op_file_mtime(p, &mtime), -ENOENT);
	op_testdir_file(dir, "nodir/f", p, sizeof(p));
	assert_int_equal(op_write_file_atomic(p, "x", 1, 0644), -ENOENT);
}

static void test_remove_tree(void **state)
{
	struct op_testdir *dir = *state;
	char p[PATH_MAX], f[PATH_MAX];

	op_testdir_file(dir, "t/u/v", p, sizeof(p));
	assert_int_equal(op_mkdir_p(p, 0755), 0);
	op_testdir_file(dir, "t/u/v/file", f, sizeof(f));
	assert_int_equal(op_write_file_atomic(f, "x", 1, 0644), 0);
	op_testdir_file(dir, "t", p, sizeof(p));
	assert_int_equal(op_remove_tree(p), 0);
	assert_false(op_is_dir(p));
	assert_int_equal(op_remove_tree(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mkdir_p, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_tree, setup, teardown),
	};

	umask(022);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
