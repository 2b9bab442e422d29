// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * op_dir: names beneath an open directory never go through a symlink,
 * never leave it, never block on a FIFO nor write through a hard link.
 */
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

#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

struct fixture {
	struct op_testdir top;		/* what the directory may hold */
	struct op_testdir outside;	/* what nothing may touch */
	struct op_dir d;
};

static int setup(void **state)
{
	static struct fixture f;
	char p[PATH_MAX];

	if (op_testdir_make(&f.top) || op_testdir_make(&f.outside))
		return -1;
	op_testdir_file(&f.outside, "victim", p, sizeof(p));
	if (op_write_file_atomic(p, "keep", 4, 0644))
		return -1;
	if (op_dir_open_path(&f.d, f.top.path))
		return -1;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	op_dir_close(&f->d);
	op_testdir_remove(&f->top);
	op_testdir_remove(&f->outside);
	return 0;
}

static void plant_link(struct fixture *f, const char *name, const char *target)
{
	char p[PATH_MAX];

	op_testdir_file(&f->top, name, p, sizeof(p));
	assert_int_equal(op_mkdir_parents(p, 0755), 0);
	assert_int_equal(symlink(target, p), 0);
}

static void victim_intact(struct fixture *f)
{
	char p[PATH_MAX], *text;
	size_t len;

	op_testdir_file(&f->outside, "victim", p, sizeof(p));
	assert_int_equal(op_read_file(p, 64, &text, &len), 0);
	assert_string_equal(text, "keep");
	free(text);
	op_testdir_file(&f->outside, "new", p, sizeof(p));
	assert_false(op_is_file(p));
}

static void test_symlinks_refused(void **state)
{
	struct fixture *f = *state;
	char target[PATH_MAX];
	struct op_dir sub;
	int fd;

	op_testdir_file(&f->outside, "victim", target, sizeof(target));
	plant_link(f, "file", target);
	plant_link(f, "mid", f->outside.path);
	assert_int_equal(op_dir_open_file(&f->d, "file", O_RDWR, 0), -ELOOP);
	assert_int_equal(op_dir_open_file(&f->d, "file", O_WRONLY | O_CREAT | O_TRUNC, 0644),
			 -ELOOP);
	assert_int_equal(op_dir_open_file(&f->d, "mid/victim", O_RDONLY, 0), -ELOOP);
	assert_int_equal(op_dir_open_file(&f->d, "mid/new", O_WRONLY | O_CREAT, 0644),
			 -ELOOP);
	assert_int_equal(op_dir_write_file(&f->d, "mid/new", "x", 1, 0644), -ELOOP);
	assert_int_equal(op_dir_mkparents(&f->d, "mid/a/b", 0755), -ELOOP);
	assert_int_equal(op_dir_sub(&sub, &f->d, "mid", true, 0755), -ELOOP);
	assert_int_equal(op_dir_rename(&f->d, "mid/victim", "stolen"), -ELOOP);
	assert_int_equal(op_dir_unlink(&f->d, "mid/victim"), -ELOOP);
	/* the link itself is what goes */
	assert_int_equal(op_dir_remove_tree(&f->d, "mid"), 0);
	assert_int_equal(op_dir_unlink(&f->d, "file"), 0);
	victim_intact(f);
	/* a dangling link is not created through either */
	plant_link(f, "dangling", "../nowhere-made");
	fd = op_dir_open_file(&f->d, "dangling", O_WRONLY | O_CREAT, 0644);
	assert_int_equal(fd, -ELOOP);
}

static void test_outside_names_refused(void **state)
{
	struct fixture *f = *state;
	struct op_dir sub;

	assert_int_equal(op_dir_open_file(&f->d, "/etc/passwd", O_RDONLY, 0), -EINVAL);
	assert_int_equal(op_dir_open_file(&f->d, "../x", O_RDONLY, 0), -EINVAL);
	assert_int_equal(op_dir_open_file(&f->d, "a/../../x", O_RDONLY, 0), -EINVAL);
	assert_int_equal(op_dir_open_file(&f->d, "", O_RDONLY, 0), -EINVAL);
	assert_int_equal(op_dir_sub(&sub, &f->d, "..", false, 0), -EINVAL);
	assert_int_equal(op_dir_write_file(&f->d, "..", "x", 1, 0644), -EINVAL);
}

static void test_special_files(void **state)
{
	struct fixture *f = *state;
	char p[PATH_MAX], q[PATH_MAX];

	op_testdir_file(&f->top, "fifo", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(op_dir_open_file(&f->d, "fifo", O_RDONLY, 0), -EINVAL);
	assert_int_equal(op_dir_open_file(&f->d, "fifo", O_WRONLY | O_APPEND, 0), -EINVAL);
	assert_int_equal(op_dir_open_file(&f->d, "fifo", O_RDWR, 0), -EINVAL);
	assert_int_equal(op_dir_open_file(&f->d, ".", O_RDONLY, 0), -EINVAL);
	/* a hard link to a file elsewhere: readable, never written */
	op_testdir_file(&f->outside, "victim", q, sizeof(q));
	op_testdir_file(&f->top, "hard", p, sizeof(p));
	if (link(q, p))
		skip();
	{
		int fd = op_dir_open_file(&f->d, "hard", O_RDONLY, 0);

		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(op_dir_open_file(&f->d, "hard", O_RDWR | O_TRUNC, 0), -EMLINK);
	victim_intact(f);
}

static void test_tree_operations(void **state)
{
	struct fixture *f = *state;
	struct op_dir sub;
	char *text;
	size_t len;
	char p[PATH_MAX];

	assert_int_equal(op_dir_sub(&sub, &f->d, "s/t", false, 0755), -ENOENT);
	assert_int_equal(op_dir_sub(&sub, &f->d, "s/t", true, 0755), 0);
	assert_int_equal(op_dir_mkparents(&sub, "a/b/c/file", 0755), 0);
	assert_int_equal(op_dir_write_file(&sub, "a/b/c/file", "hello", 5, 0644), 0);
	assert_int_equal(op_dir_write_file(&sub, "a/b/c/file", "hi", 2, 0644), 0);
	op_testdir_file(&f->top, "s/t/a/b/c/file", p, sizeof(p));
	assert_int_equal(op_read_file(p, 64, &text, &len), 0);
	assert_string_equal(text, "hi");
	free(text);
	op_testdir_file(&f->top, "s/t/a/b/c/file.tmp", p, sizeof(p));
	assert_false(op_is_file(p));
	/* a .tmp a killed writer left, readable by all: the file is 0600 */
	{
		struct stat st;
		int fd;

		op_testdir_file(&f->top, "s/t/a/b/c/private.tmp", p, sizeof(p));
		fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(fchmod(fd, 0644), 0);
		close(fd);
		assert_int_equal(op_dir_write_file(&sub, "a/b/c/private", "s", 1, 0600), 0);
		op_testdir_file(&f->top, "s/t/a/b/c/private", p, sizeof(p));
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0600);
	}
	assert_int_equal(op_dir_rename(&f->d, "s/t/a", "s/moved"), 0);
	/* sub still names its directory, whatever its parents are called now */
	assert_int_equal(op_dir_rename(&f->d, "s", "renamed"), 0);
	assert_int_equal(op_dir_write_file(&sub, "after", "z", 1, 0644), 0);
	op_testdir_file(&f->top, "renamed/t/after", p, sizeof(p));
	assert_true(op_is_file(p));
	op_dir_close(&sub);
	op_dir_close(&sub);
	assert_int_equal(op_dir_remove_tree(&f->d, "renamed"), 0);
	op_testdir_file(&f->top, "renamed", p, sizeof(p));
	assert_false(op_is_dir(p));
	assert_int_equal(op_dir_remove_tree(&f->d, "renamed"), 0);
	assert_int_equal(op_dir_unlink(&f->d, "missing"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_symlinks_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outside_names_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_special_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_operations, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
