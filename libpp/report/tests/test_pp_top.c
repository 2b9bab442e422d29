// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live view's snapshots (pp_top.h) over a session written between
 * them: the first snapshot's gains are its totals; later ones gain what
 * was added, ordered by it; the same files keep the profile, a new file
 * makes it anew; with a slice file, its FILE records say whether new
 * files came (no walk otherwise); images and processes sum over
 * symbols; a session that does not exist yet is -ENOENT, and the view
 * starts over when it comes.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb_slices.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libpp/report/pp_top.h"
#include "libpp/report/tests/pp_test_report.h"
#include "libutil/op_dir.h"

#define EV "/ev.100000.0.all.all.all"
#define K "{kern}/no-vmlinux/{dep}/{kern}/no-vmlinux"
#define PROG_K "{root}/opt/t/prog/{dep}/{kern}/no-vmlinux"

struct live {
	struct op_testdir dir;
	char kallsyms[600];
	struct pp_sym_opts so;
	struct pp_session_dir sd;
	struct pp_spec_set spec;
	struct pp_top t;
};

static struct live *start(void)
{
	struct live *l = calloc(1, sizeof(*l));
	struct op_err err;

	assert_non_null(l);
	assert_int_equal(op_testdir_make(&l->dir), 0);
	assert_non_null(op_testdir_file(&l->dir, "kallsyms", l->kallsyms, sizeof(l->kallsyms)));
	pp_test_file(l->dir.path, "kallsyms", PP_TEST_KALLSYMS);
	pp_test_file(l->dir.path, "samples/.keep", "");
	l->so.kallsyms = l->kallsyms;
	assert_int_equal(pp_session_dir_find(&l->sd, l->dir.path, NULL, &err), 0);
	assert_int_equal(pp_spec_parse(0, NULL, &l->spec, &err), 0);
	pp_top_init(&l->t, &l->sd, &l->spec.first, &l->so);
	return l;
}

static void stop(struct live *l)
{
	pp_top_release(&l->t);
	pp_spec_set_release(&l->spec);
	pp_session_dir_release(&l->sd);
	op_testdir_remove(&l->dir);
	free(l);
}

static void snap(struct live *l, enum pp_top_view v)
{
	struct op_err err = { "" };
	int ret = pp_top_snapshot(&l->t, v, &err);

	if (ret)
		fail_msg("snapshot: %d, %s", ret, err.msg);
}

/* row i is name (in where) with total and delta */
static void row(const struct pp_top *t, size_t i, const char *name, const char *where,
		uint64_t total, uint64_t delta)
{
	assert_true(i < t->nr_rows);
	assert_string_equal(t->rows[i].name, name);
	if (where)
		assert_string_equal(t->rows[i].where, where);
	else
		assert_null(t->rows[i].where);
	assert_int_equal(t->rows[i].total, total);
	assert_int_equal(t->rows[i].delta, delta);
}

static void test_gains(void **state)
{
	struct live *l = start();

	(void)state;
	pp_test_odb(l->dir.path, K EV, "1000:10 1100:5", true);
	snap(l, PP_TOP_SYMBOLS);
	assert_true(l->t.first);
	assert_true(l->t.rebuilt);
	assert_int_equal(l->t.nr_rows, 2);
	row(&l->t, 0, "alpha", "no-vmlinux", 10, 10);
	row(&l->t, 1, "beta", "no-vmlinux", 5, 5);
	assert_string_equal(l->t.event, "ev:100000");
	/* beta gains more than alpha: it comes first */
	pp_test_odb(l->dir.path, K EV, "1000:1 1100:8", true);
	snap(l, PP_TOP_SYMBOLS);
	assert_false(l->t.first);
	assert_false(l->t.rebuilt);
	row(&l->t, 0, "beta", "no-vmlinux", 13, 8);
	row(&l->t, 1, "alpha", "no-vmlinux", 11, 1);
	assert_int_equal(l->t.total, 24);
	assert_int_equal(l->t.delta, 9);
	/* nothing added: no gains, ordered by totals */
	snap(l, PP_TOP_SYMBOLS);
	row(&l->t, 0, "beta", "no-vmlinux", 13, 0);
	row(&l->t, 1, "alpha", "no-vmlinux", 11, 0);
	/* a new file (a program's samples in the kernel): made anew */
	pp_test_odb(l->dir.path, PROG_K EV, "1200:30", true);
	snap(l, PP_TOP_SYMBOLS);
	assert_true(l->t.rebuilt);
	row(&l->t, 0, "gamma", "no-vmlinux", 30, 30);
	/* other views: sums, and a new view starts its gains over */
	snap(l, PP_TOP_IMAGES);
	assert_true(l->t.first);
	row(&l->t, 0, "no-vmlinux", NULL, 54, 54);
	snap(l, PP_TOP_PROCESSES);
	row(&l->t, 0, "prog", NULL, 30, 30);
	row(&l->t, 1, "no-vmlinux", NULL, 24, 24);
	stop(l);
}

/* FILE records of the slice file tell new files from none */
static void test_slice_file(void **state)
{
	struct live *l = start();
	struct odb_slices_writer *w;
	struct op_dir dir = OP_DIR_INIT;
	char *cur;
	uint32_t id;

	(void)state;
	pp_test_odb(l->dir.path, K EV, "1000:10", true);
	cur = pp_test_path(l->dir.path, "samples/current");
	assert_int_equal(op_dir_open_path(&dir, cur), 0);
	assert_int_equal(odb_slices_writer_open(&dir, ODB_SLICES_NAME, 1, 0, &w), 0);
	assert_int_equal(odb_slices_writer_file(w, K EV, &id), 0);
	snap(l, PP_TOP_SYMBOLS);
	assert_true(l->t.rebuilt);
	/* a file the slice file does not name yet is not looked for */
	pp_test_odb(l->dir.path, PROG_K EV, "1200:30", true);
	pp_test_odb(l->dir.path, K EV, "1000:2", true);
	snap(l, PP_TOP_SYMBOLS);
	assert_false(l->t.rebuilt);
	assert_int_equal(l->t.nr_rows, 1);
	row(&l->t, 0, "alpha", "no-vmlinux", 12, 2);
	/* once it does, the files are listed again */
	assert_int_equal(odb_slices_writer_file(w, PROG_K EV, &id), 0);
	snap(l, PP_TOP_SYMBOLS);
	assert_true(l->t.rebuilt);
	row(&l->t, 0, "gamma", "no-vmlinux", 30, 30);
	assert_int_equal(odb_slices_writer_close(w), 0);
	op_dir_close(&dir);
	free(cur);
	stop(l);
}

static void test_not_yet(void **state)
{
	struct live *l = start();
	struct op_err err = { "" };

	(void)state;
	assert_int_equal(pp_top_snapshot(&l->t, PP_TOP_SYMBOLS, &err), -ENOENT);
	assert_int_equal(l->t.nr_rows, 0);
	pp_test_odb(l->dir.path, K EV, "1000:10", true);
	snap(l, PP_TOP_SYMBOLS);
	assert_true(l->t.first);
	row(&l->t, 0, "alpha", "no-vmlinux", 10, 10);
	stop(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gains),
		cmocka_unit_test(test_slice_file),
		cmocka_unit_test(test_not_yet),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
