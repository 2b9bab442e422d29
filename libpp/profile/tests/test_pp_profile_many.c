// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building profiles from many sample files: classes found by hashing and
 * sorted into column order, the values the axes error lists, groups and
 * call-graph groups with their files in list order, and the axes decided
 * from the names alone (no file is read when they conflict).
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
#include <unistd.h>
#include <cmocka.h>

#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

#define APP "{root}/bin/app/{dep}/{root}/bin/app"
#define LIB "{root}/bin/app/{dep}/{root}/lib/libx.so"
#define CG "{root}/bin/app/{dep}/{root}/bin/app/{cg}/{root}/lib/libx.so"
#define NR_PROCS 600

struct fixture {
	struct op_testdir dir;
	char old_cwd[PATH_MAX];
	struct pp_session_dir sd;
	char *current;
	struct pp_file_list list;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || op_testdir_make(&f->dir) ||
	    !getcwd(f->old_cwd, sizeof(f->old_cwd)) || chdir(f->dir.path) ||
	    op_mkdir_p("oprofile_data/samples/current", 0755) ||
	    pp_session_dir_find(&f->sd, NULL, NULL, NULL))
		return -1;
	f->current = pp_session_path(&f->sd, "current");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_file_list_release(&f->list);
	pp_session_dir_release(&f->sd);
	free(f->current);
	if (chdir(f->old_cwd))
		return -1;
	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

/* the i-th process in a shuffled order: tgids 1000 .. 1000 + NR_PROCS - 1 */
static unsigned tgid_of(unsigned i)
{
	return 1000 + (i * 7919u) % NR_PROCS;	/* 7919 is prime to 600 */
}

/* a file with keys keys, or an empty (unreadable) one */
static void sample(struct fixture *f, const char *image, unsigned tgid,
		   const char *cpu, unsigned keys, bool empty)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/cpu-clock.100000.0.%u.%u.%s", image, tgid,
		 tgid, cpu);
	if (empty)
		pp_test_file(f->current, rel, "");
	else
		pp_test_sample(f->current, rel, keys);
}

static void list(struct fixture *f)
{
	struct pp_spec spec = { 0 };

	pp_file_list_release(&f->list);
	assert_int_equal(pp_session_list(&f->sd, &spec, &f->list, NULL), 0);
}

/* one class per process, in tgid order; each group's files its own */
static void test_many_classes(void **state)
{
	struct fixture *f = *state;
	struct pp_profile p;
	struct op_err err = { "" };
	size_t i, k;

	for (i = 0; i < NR_PROCS; i++) {
		sample(f, APP, tgid_of(i), "all", 1 + i % 3, false);
		sample(f, LIB, tgid_of(i), "all", 1, false);
	}
	list(f);
	assert_int_equal(f->list.nr, 2 * NR_PROCS);
	assert_int_equal(pp_profile_build(&p, &f->list, 0, NULL, &err), 0);
	assert_int_equal(p.axis, PP_AXIS_TGID);
	assert_int_equal(p.nr_classes, NR_PROCS);
	for (i = 0; i < p.nr_classes; i++) {
		char name[32];

		assert_int_equal(p.classes[i].t.tgid, 1000 + i);
		snprintf(name, sizeof(name), "tgid:%zu", 1000 + i);
		assert_string_equal(p.classes[i].name, name);
		assert_int_equal(p.classes[i].first->name.tgid, 1000 + i);
	}
	assert_int_equal(p.nr_images, 2);
	assert_int_equal(p.nr_apps, 1);
	assert_int_equal(p.nr_groups, 2 * NR_PROCS);
	for (i = 0; i < p.nr_groups; i++) {
		const struct pp_group *g = &p.groups[i];

		assert_int_equal(g->nr_files, 1);
		assert_int_equal(g->files[0]->name.tgid, p.classes[g->cls].t.tgid);
		assert_true(odb_image_id_equal(&g->files[0]->name.image,
					       &p.images[g->image].id));
	}
	for (k = 0; k < p.nr_images; k++) {
		assert_int_equal(p.images[k].nr_groups, NR_PROCS);
		for (i = 1; i < p.images[k].nr_groups; i++)
			assert_true(p.images[k].groups[i] > p.images[k].groups[i - 1]);
	}
	/* the samples of a class add up once loaded */
	for (i = 0; i < p.nr_groups; i++)
		assert_int_equal(pp_group_load(&p, &p.groups[i], NULL), 0);
	for (i = 0; i < p.nr_classes; i++) {
		unsigned keys = 0;

		for (k = 0; k < NR_PROCS; k++)
			if (tgid_of(k) == 1000 + i)
				keys = 1 + k % 3;
		/* keys k have counts 1..keys; the library file one key */
		assert_int_equal(p.classes[i].total, keys * (keys + 1) / 2 + 1);
	}
	pp_profile_release(&p);

	/* merged: one class, one group per image with every file in list order */
	assert_int_equal(pp_profile_build(&p, &f->list, PP_MERGE_TGID, NULL, &err), 0);
	assert_int_equal(p.nr_classes, 1);
	assert_int_equal(p.nr_groups, 2);
	for (k = 0; k < 2; k++) {
		assert_int_equal(p.groups[k].nr_files, NR_PROCS);
		for (i = 1; i < NR_PROCS; i++)
			assert_true(p.groups[k].files[i] > p.groups[k].files[i - 1]);
	}
	pp_profile_release(&p);
}

/*
 * Two axes: the error lists the first six values of each in column order
 * (cpu first: the even processes ran on cpu 0), found from the names
 * alone: every file here is empty, so reading any of them would fail
 * differently.
 */
static void test_axes_from_names(void **state)
{
	struct fixture *f = *state;
	struct pp_profile p;
	struct op_err err = { "" };
	size_t i;

	for (i = 0; i < NR_PROCS; i++)
		sample(f, APP, tgid_of(i), i % 2 ? "1" : "0", 1, true);
	list(f);
	assert_int_equal(pp_profile_build(&p, &f->list, 0, NULL, &err),
			 PP_PROFILE_ERR_AXES);
	assert_string_equal(err.msg,
		"the samples differ by tgid (1000, 1002, 1004, 1006, 1008, 1010, ...) "
		"and by cpu (0, 1); a report can show only one of them as columns\n"
		"hint: use 'tgid:' or --merge=tgid, or 'cpu:' or --merge=cpu");
	/* one axis left: now the headers are read, and none can be */
	assert_int_equal(pp_profile_build(&p, &f->list, PP_MERGE_CPU, NULL, &err),
			 ODB_ERR_EMPTY);
}

/* {cg} files: one call-graph group per (app, class, caller, callee) */
static void test_cg_groups(void **state)
{
	struct fixture *f = *state;
	struct pp_profile p;
	struct op_err err = { "" };
	size_t i;

	for (i = 0; i < 50; i++) {
		sample(f, APP, tgid_of(i), "all", 1, false);
		sample(f, CG, tgid_of(i), "all", 2, false);
	}
	list(f);
	assert_int_equal(pp_profile_build(&p, &f->list, PP_MERGE_TGID | PP_MERGE_TID,
					  NULL, &err), 0);
	assert_int_equal(p.nr_cg, 1);
	assert_int_equal(p.cg[0].nr_files, 50);
	assert_int_equal(p.nr_groups, 1);
	assert_int_equal(p.nr_images, 2);
	assert_int_equal(p.images[p.cg[0].caller].nr_groups, 1);
	assert_int_equal(p.images[p.cg[0].callee].nr_groups, 0);
	pp_profile_release(&p);
	assert_int_equal(pp_profile_build(&p, &f->list, 0, NULL, &err), 0);
	assert_int_equal(p.nr_classes, 50);
	assert_int_equal(p.nr_cg, 50);
	for (i = 0; i < p.nr_cg; i++) {
		assert_int_equal(p.cg[i].nr_files, 1);
		assert_int_equal(p.cg[i].files[0]->name.tgid, p.classes[p.cg[i].cls].t.tgid);
	}
	pp_profile_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_many_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_axes_from_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cg_groups, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
