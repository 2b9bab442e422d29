// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Work shared between threads, giving what one thread would: the walk of
 * a directory of many applications (cut into runs, one per CPU; the list
 * in sorted order, bad names and other files counted, the first error in
 * walk order reported) and the loading of many groups (notes in group
 * order, class totals of the files read).  On a machine with one CPU
 * nothing is shared and the same results are required.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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

#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define EV "/cpu-clock.100000.0.all.all.all"
#define NR_APPS 3000		/* more than a directory the walk shares out */
#define DEEP 2100		/* levels of "/d": a path over PATH_MAX */

struct fixture {
	struct op_testdir dir;
	struct pp_session_dir sd;
	char *current;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char path[700];

	if (!f || op_testdir_make(&f->dir))
		return -1;
	op_testdir_file(&f->dir, "samples/current", path, sizeof(path));
	if (op_mkdir_p(path, 0755) || pp_session_dir_find(&f->sd, f->dir.path, NULL, NULL))
		return -1;
	f->current = pp_session_path(&f->sd, "current");
	*state = f;
	return 0;
}

/* remove the chain of DEEP directories "d" below dir, one level at a time */
static void remove_deep(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	/* move d/d up beside d, remove the emptied d, and rename it to d */
	while (!renameat(fd, "d/d", fd, "next")) {
		assert_int_equal(unlinkat(fd, "d", AT_REMOVEDIR), 0);
		assert_int_equal(renameat(fd, "next", fd, "d"), 0);
	}
	assert_int_equal(errno, ENOENT);
	close(fd);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_session_dir_release(&f->sd);
	free(f->current);
	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

static char *app_dir(const struct fixture *f, unsigned app)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s/{root}/opt/fleet/app%04u", f->current, app);
	return op_strbuf_detach(&sb);
}

/* a chain of DEEP directories "d" in the directory of app, a file at its end */
static void make_deep(const struct fixture *f, unsigned app)
{
	char *dir = app_dir(f, app);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), i;

	assert_true(fd >= 0);
	for (i = 0; i < DEEP; i++) {
		int sub;

		assert_int_equal(mkdirat(fd, "d", 0755), 0);
		sub = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(sub >= 0);
		close(fd);
		fd = sub;
	}
	i = openat(fd, "file", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(i >= 0);
	close(i);
	close(fd);
	free(dir);
}

/* the applications' sample files, a bad name in two, a writer's .tmp in one */
static void make_fleet(const struct fixture *f)
{
	char rel[200];
	unsigned i;

	for (i = 0; i < NR_APPS; i++) {
		snprintf(rel, sizeof(rel), "{root}/opt/fleet/app%04u/{dep}/{kern}/no-vmlinux" EV, i);
		pp_test_sample(f->current, rel, 1);
	}
	pp_test_file(f->current, "{root}/opt/fleet/app0100/junk", "");
	pp_test_file(f->current, "{root}/opt/fleet/app2500/junk", "");
	pp_test_file(f->current, "{root}/opt/fleet/app2999/{dep}/{kern}/no-vmlinux" EV ".tmp", "");
}

static void test_shared_walk(void **state)
{
	struct fixture *f = *state;
	struct pp_spec spec = { 0 };
	struct pp_file_list list;
	struct op_err err = { "" };
	char want[100];
	size_t i;

	make_fleet(f);
	assert_int_equal(pp_session_list_all(&f->sd, &spec, &list, &err), 0);
	assert_int_equal(list.nr, NR_APPS);
	for (i = 0; i < NR_APPS; i++) {
		snprintf(want, sizeof(want), "/opt/fleet/app%04zu", i);
		if (strcmp(list.files[i].name.app.name, want))
			fail_msg("file %zu is of %s, expected %s", i,
				 list.files[i].name.app.name, want);
	}
	assert_int_equal(list.nr_bad, 2);
	assert_non_null(strstr(list.bad[0].path, "/app0100/junk"));
	assert_non_null(strstr(list.bad[1].path, "/app2500/junk"));
	assert_int_equal(list.nr_other, 1);
	pp_file_list_release(&list);
}

/* the walk fails with the first unreadable directory in walk order */
static void test_shared_walk_error(void **state)
{
	struct fixture *f = *state;
	struct pp_spec spec = { 0 };
	struct pp_file_list list;
	struct op_err err = { "" };
	char *late = app_dir(f, 2600), *early = app_dir(f, 500);

	make_fleet(f);
	make_deep(f, 2600);
	assert_int_equal(pp_session_list_all(&f->sd, &spec, &list, &err), -ENAMETOOLONG);
	assert_non_null(strstr(err.msg, "/app2600/d/d/d"));
	assert_non_null(strstr(err.msg, "File name too long"));
	/* an earlier one, walked by another thread, comes first */
	make_deep(f, 500);
	err.msg[0] = '\0';
	assert_int_equal(pp_session_list_all(&f->sd, &spec, &list, &err), -ENAMETOOLONG);
	assert_non_null(strstr(err.msg, "/app0500/d/d/d"));
	remove_deep(late);
	remove_deep(early);
	free(late);
	free(early);
}

/*
 * Many groups, some of their files spoiled: each noted, in group order,
 * and the class total is that of the others.
 */
static void test_shared_load(void **state)
{
	struct fixture *f = *state;
	struct pp_test_profile t;
	struct op_err err = { "" };
	struct op_strbuf want = OP_STRBUF_INIT;
	char rel[200], dir[600];
	uint64_t total = 0;
	size_t i;

	snprintf(dir, sizeof(dir), "%s/load", f->dir.path);
	for (i = 0; i < 200; i++) {
		snprintf(rel, sizeof(rel), "{root}/opt/p%03zu/{dep}/{root}/opt/p%03zu" EV, i, i);
		pp_test_odb(dir, rel, i % 2 ? "10:3" : "20:1 30:1", false);
	}
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, 0, NULL, &err), 0);
	assert_int_equal(t.p.nr_groups, 200);
	for (i = 0; i < t.p.nr_groups; i++) {
		const char *path = t.p.groups[i].files[0]->path;
		unsigned prog;

		assert_int_equal(sscanf(strstr(path, "/opt/p"), "/opt/p%u", &prog), 1);
		if (i % 37 == 5) {
			char junk[200];

			memset(junk, 'x', sizeof(junk));
			assert_int_equal(op_write_file_atomic(path, junk, sizeof(junk), 0644), 0);
			op_strbuf_addf(&want, "cannot read sample file '%s': bad magic number\n",
				       path);
		} else {
			total += prog % 2 ? 3 : 2;	/* its keys, as written above */
		}
	}
	assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err), 0);
	assert_string_equal(t.noted.buf, want.buf);
	assert_int_equal(t.p.classes[0].total, total);
	pp_test_profile_release(&t);
	op_strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shared_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_walk_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_load, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
