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

/*
 * op_read_file_at(): files one after the other into one buffer, grown
 * for a bigger one and kept for a smaller one; the errors of
 * op_read_file(), the buffer still the caller's
 */
static void test_read_at(void **state)
{
	struct op_testdir *dir = *state;
	char p[PATH_MAX], big[5000];
	char *buf = NULL;
	size_t cap = 0, len, kept;
	int dfd = open(dir->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(dfd >= 0);
	memset(big, 'b', sizeof(big));
	op_testdir_file(dir, "big", p, sizeof(p));
	assert_int_equal(op_write_file_atomic(p, big, sizeof(big), 0600), 0);
	op_testdir_file(dir, "small", p, sizeof(p));
	assert_int_equal(op_write_file_atomic(p, "abc", 3, 0600), 0);
	assert_int_equal(op_read_file_at(dfd, "small", 100, &buf, &cap, &len), 0);
	assert_int_equal(len, 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(op_read_file_at(dfd, "big", 10000, &buf, &cap, &len), 0);
	assert_int_equal(len, sizeof(big));
	assert_true(cap > sizeof(big));
	assert_memory_equal(buf, big, sizeof(big));
	assert_int_equal(buf[len], '\0');
	kept = cap;
	assert_int_equal(op_read_file_at(dfd, "small", 100, &buf, &cap, &len), 0);
	assert_int_equal(len, 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(cap, kept);
	assert_int_equal(op_read_file_at(dfd, "big", 100, &buf, &cap, &len), -EFBIG);
	assert_int_equal(op_read_file_at(dfd, "missing", 100, &buf, &cap, &len), -ENOENT);
	assert_int_equal(op_read_file_at(dfd, ".", 100, &buf, &cap, &len), -EISDIR);
	/* /proc files: st_size 0, read in growing chunks */
	assert_int_equal(op_read_file_at(AT_FDCWD, "/proc/self/maps", 1 << 20, &buf, &cap, &len), 0);
	assert_true(len > 10 && strlen(buf) == len);
	free(buf);
	close(dfd);
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
		cmocka_unit_test_setup_teardown(test_read_at, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_tree, setup, teardown),
	};

	umask(022);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
