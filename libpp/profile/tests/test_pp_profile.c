// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profiles built from fake sessions (pp_profile.h): the classes and their
 * order for each separation and each --merge, the error naming both axes
 * when the files differ along two (found from the names alone: the files
 * are garbage), applications, images and groups (the inverted profile:
 * a library used by two applications is one image with two groups),
 * call-graph groups, --merge=lib, anonymous and kernel images, a class
 * whose files are all unreadable, and loading: an unreadable file noted
 * once and skipped, none readable an error, a second load reading
 * nothing.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/profile/pp_profile.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

/* the sample files of application a in its own image */
#define A_A "{root}/opt/t/a/{dep}/{root}/opt/t/a/"

static int setup(void **state)
{
	struct op_testdir *d = calloc(1, sizeof(*d));

	if (!d)
		return -1;
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* a fresh session directory for one row (removed by done()) */
static const char *fresh(void **state)
{
	struct op_testdir *d = *state;

	assert_int_equal(op_testdir_make(d), 0);
	return d->path;
}

static void done(void **state)
{
	op_testdir_remove(*state);
}

/* "EV.COUNT.UNITMASK.TGID.TID.CPU" of a class, "all" for merged fields */
static void template_text(struct op_strbuf *sb, const struct pp_template *t)
{
	const int64_t f[4] = { t->unit_mask, t->tgid, t->tid, t->cpu };
	size_t i;

	op_strbuf_addf(sb, "%s.%d", t->event, t->count);
	for (i = 0; i < 4; i++)
		if (f[i] == ODB_ALL)
			op_strbuf_addstr(sb, ".all");
		else
			op_strbuf_addf(sb, ".%" PRId64, f[i]);
}

static void test_classes(void **state)
{
	static const struct {
		int line;
		const char *files[4];	/* EV.COUNT.UM.TGID.TID.CPU of A_A files */
		unsigned merge;
		enum pp_axis axis;
		const char *t[4];	/* each class's template, in order */
		const char *names[4];	/* and name (NULL: not checked) */
		const char *longnames[4];
	} rows[] = {
		{ .line = __LINE__, .files = { "ev.100000.0.all.all.all" },
		  .axis = PP_AXIS_EVENT, .t = { "ev.100000.0.all.all.all" },
		  .names = { "ev:100000" }, .longnames = { "" } },
		/* events by name, then count */
		{ .line = __LINE__, .files = { "inst.50000.0.all.all.all", "cyc.100000.0.all.all.all",
					       "cyc.20000.0.all.all.all" },
		  .axis = PP_AXIS_EVENT,
		  .t = { "cyc.20000.0.all.all.all", "cyc.100000.0.all.all.all",
			 "inst.50000.0.all.all.all" },
		  .names = { "cyc:20000", "cyc:100000", "inst:50000" },
		  .longnames = { "", "", "" } },
		{ .line = __LINE__, .files = { "ev.1000.2.all.all.all", "ev.1000.1.all.all.all" },
		  .axis = PP_AXIS_UNITMASK, .t = { "ev.1000.1.all.all.all", "ev.1000.2.all.all.all" },
		  .names = { "unitmask:1", "unitmask:2" },
		  .longnames = { "Samples matching a unit mask of 1",
				 "Samples matching a unit mask of 2" } },
		/* processes without threads: tid follows tgid, the axis is tgid */
		{ .line = __LINE__, .files = { "ev.1000.0.20.20.all", "ev.1000.0.10.10.all" },
		  .axis = PP_AXIS_TGID, .t = { "ev.1000.0.10.10.all", "ev.1000.0.20.20.all" },
		  .names = { "tgid:10", "tgid:20" },
		  .longnames = { "Processes with a thread group ID of 10",
				 "Processes with a thread group ID of 20" } },
		{ .line = __LINE__, .files = { "ev.1000.0.10.11.all", "ev.1000.0.10.10.all" },
		  .axis = PP_AXIS_TID, .t = { "ev.1000.0.10.10.all", "ev.1000.0.10.11.all" },
		  .names = { "tid:10", "tid:11" },
		  .longnames = { "Processes with a thread ID of 10",
				 "Processes with a thread ID of 11" } },
		/* numbers in numeric order */
		{ .line = __LINE__, .files = { "ev.1000.0.all.all.1", "ev.1000.0.all.all.10",
					       "ev.1000.0.all.all.0" },
		  .axis = PP_AXIS_CPU,
		  .t = { "ev.1000.0.all.all.0", "ev.1000.0.all.all.1", "ev.1000.0.all.all.10" },
		  .names = { "cpu:0", "cpu:1", "cpu:10" },
		  .longnames = { "Samples on CPU 0", "Samples on CPU 1", "Samples on CPU 10" } },
		/* --merge of each kind */
		{ .line = __LINE__, .files = { "ev.1000.0.all.all.1", "ev.1000.0.all.all.0" },
		  .merge = PP_MERGE_CPU, .axis = PP_AXIS_EVENT, .t = { "ev.1000.0.all.all.all" },
		  .names = { "ev:1000" } },
		{ .line = __LINE__, .files = { "ev.1000.0.20.20.all", "ev.1000.0.10.10.all" },
		  .merge = PP_MERGE_TGID, .axis = PP_AXIS_EVENT, .t = { "ev.1000.0.all.all.all" } },
		/* merging processes merges their threads */
		{ .line = __LINE__, .files = { "ev.1000.0.20.21.all", "ev.1000.0.10.11.all" },
		  .merge = PP_MERGE_TGID, .axis = PP_AXIS_EVENT, .t = { "ev.1000.0.all.all.all" } },
		{ .line = __LINE__, .files = { "ev.1000.0.10.12.all", "ev.1000.0.10.11.all" },
		  .merge = PP_MERGE_TID, .axis = PP_AXIS_EVENT, .t = { "ev.1000.0.10.all.all" } },
		/* threads merged, processes still apart */
		{ .line = __LINE__, .files = { "ev.1000.0.20.21.all", "ev.1000.0.10.11.all" },
		  .merge = PP_MERGE_TID, .axis = PP_AXIS_TGID,
		  .t = { "ev.1000.0.10.all.all", "ev.1000.0.20.all.all" },
		  .names = { "tgid:10", "tgid:20" } },
		{ .line = __LINE__, .files = { "ev.1000.2.all.all.all", "ev.1000.1.all.all.all" },
		  .merge = PP_MERGE_UNITMASK, .axis = PP_AXIS_EVENT, .t = { "ev.1000.all.all.all.all" },
		  .names = { "ev:1000" } },
		{ .line = __LINE__, .files = { "ev.1000.1.10.11.0", "ev.1000.2.20.21.1" },
		  .merge = PP_MERGE_ALL, .axis = PP_AXIS_EVENT, .t = { "ev.1000.all.all.all.all" } },
		/* events are never merged */
		{ .line = __LINE__, .files = { "b.1000.1.10.11.0", "a.1000.2.20.21.1" },
		  .merge = PP_MERGE_ALL, .axis = PP_AXIS_EVENT,
		  .t = { "a.1000.all.all.all.all", "b.1000.all.all.all.all" },
		  .names = { "a:1000", "b:1000" } },
		/* --merge=lib leaves the classes alone */
		{ .line = __LINE__, .files = { "ev.1000.0.all.all.1", "ev.1000.0.all.all.0" },
		  .merge = PP_MERGE_LIB, .axis = PP_AXIS_CPU,
		  .t = { "ev.1000.0.all.all.0", "ev.1000.0.all.all.1" } },
		/* -X: several axes at once, by tgid, tid, unit mask, event, count, cpu */
		{ .line = __LINE__, .files = { "ev.1000.0.20.21.0", "ev.1000.0.10.11.1",
					       "ev.1000.0.10.11.0", "ev.1000.3.10.11.0" },
		  .merge = PP_CLASSES_XML, .axis = PP_AXIS_NONE,
		  .t = { "ev.1000.0.10.11.0", "ev.1000.0.10.11.1", "ev.1000.3.10.11.0",
			 "ev.1000.0.20.21.0" } },
		/* one axis: -X orders as the report does */
		{ .line = __LINE__, .files = { "ev.1000.0.all.all.1", "ev.1000.0.all.all.0" },
		  .merge = PP_CLASSES_XML, .axis = PP_AXIS_CPU,
		  .t = { "ev.1000.0.all.all.0", "ev.1000.0.all.all.1" },
		  .names = { "cpu:0", "cpu:1" } },
	};
	size_t i, k;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *dir = fresh(state);
		struct pp_test_profile t;
		struct op_err err = { "" };
		size_t nr = 0;

		for (k = 0; k < 4 && rows[i].files[k]; k++) {
			char rel[256];

			snprintf(rel, sizeof(rel), A_A "%s", rows[i].files[k]);
			pp_test_odb(dir, rel, "1000:1", false);
		}
		while (nr < 4 && rows[i].t[nr])
			nr++;
		if (pp_test_profile_build(&t, dir, NULL, rows[i].merge, NULL, &err))
			fail_msg("row at line %d: %s", rows[i].line, err.msg);
		if (t.p.nr_classes != nr || t.p.axis != rows[i].axis)
			fail_msg("row at line %d: %zu classes along axis %d", rows[i].line,
				 t.p.nr_classes, t.p.axis);
		for (k = 0; k < nr; k++) {
			const struct pp_class *c = &t.p.classes[k];
			struct op_strbuf sb = OP_STRBUF_INIT;

			template_text(&sb, &c->t);
			if (strcmp(sb.buf, rows[i].t[k]))
				fail_msg("row at line %d: class %zu is %s", rows[i].line, k, sb.buf);
			if (rows[i].names[k] && strcmp(c->name, rows[i].names[k]))
				fail_msg("row at line %d: class %zu named '%s'", rows[i].line, k,
					 c->name);
			if (rows[i].longnames[k] && strcmp(c->longname, rows[i].longnames[k]))
				fail_msg("row at line %d: class %zu long name '%s'", rows[i].line,
					 k, c->longname);
			/* the header is of a file of the class */
			if (c->header.cpu_type != PP_TEST_CPU_SKYLAKE ||
			    c->header.ctr_count != (uint32_t)c->t.count)
				fail_msg("row at line %d: class %zu header", rows[i].line, k);
			op_strbuf_release(&sb);
		}
		pp_test_profile_release(&t);
		done(state);
	}
}

/*
 * Files differing along two axes: the error names both, with their
 * values (six at most), and how to get rid of each.  The files hold
 * garbage: the conflict is found before any is opened.
 */
static void test_axes(void **state)
{
	static const struct {
		int line;
		const char *files[8];	/* of A_A */
		unsigned merge;
		const char *msg;
	} rows[] = {
		{ .line = __LINE__, .files = { "a.1000.0.all.all.0", "b.1000.0.all.all.1" },
		  .msg = "the samples differ by event (a:1000, b:1000) and by cpu (0, 1); a "
			 "report can show only one of them as columns\n"
			 "hint: use 'event:' or 'count:' to pick one event, or 'cpu:' or "
			 "--merge=cpu" },
		{ .line = __LINE__, .files = { "ev.1000.1.10.10.all", "ev.1000.2.20.20.all" },
		  .msg = "the samples differ by unitmask (1, 2) and by tgid (10, 20); a report "
			 "can show only one of them as columns\n"
			 "hint: use 'unit-mask:' or --merge=unitmask, or 'tgid:' or --merge=tgid" },
		/* threads of their own: tgid and tid both */
		{ .line = __LINE__, .files = { "ev.1000.0.10.11.all", "ev.1000.0.20.21.all" },
		  .msg = "the samples differ by tgid (10, 20) and by tid (11, 21); a report "
			 "can show only one of them as columns\n"
			 "hint: use 'tgid:' or --merge=tgid, or 'tid:' or --merge=tid" },
		{ .line = __LINE__, .files = { "ev.1000.0.10.11.0", "ev.1000.0.10.12.1" },
		  .msg = "the samples differ by tid (11, 12) and by cpu (0, 1); a report can "
			 "show only one of them as columns\n"
			 "hint: use 'tid:' or --merge=tid, or 'cpu:' or --merge=cpu" },
		/* the first two of three axes; six values and "..." */
		{ .line = __LINE__, .files = { "b.1000.0.all.all.0", "a.1000.1.all.all.1",
					       "a.1000.0.all.all.2", "a.1000.0.all.all.3",
					       "a.1000.0.all.all.4", "a.1000.0.all.all.5",
					       "a.1000.0.all.all.6" },
		  .msg = "the samples differ by event (b:1000, a:1000) and by unitmask (0, 1); "
			 "a report can show only one of them as columns\n"
			 "hint: use 'event:' or 'count:' to pick one event, or 'unit-mask:' or "
			 "--merge=unitmask" },
		{ .line = __LINE__, .files = { "b.1000.0.all.all.0", "a.1000.0.all.all.1",
					       "a.1000.0.all.all.2", "a.1000.0.all.all.3",
					       "a.1000.0.all.all.4", "a.1000.0.all.all.5",
					       "a.1000.0.all.all.6" },
		  .msg = "the samples differ by event (b:1000, a:1000) and by cpu (0, 1, 2, 3, "
			 "4, 5, ...); a report can show only one of them as columns\n"
			 "hint: use 'event:' or 'count:' to pick one event, or 'cpu:' or "
			 "--merge=cpu" },
		/* a merge that leaves two axes */
		{ .line = __LINE__, .files = { "ev.1000.1.10.11.0", "ev.1000.2.10.12.1" },
		  .merge = PP_MERGE_CPU,
		  .msg = "the samples differ by unitmask (1, 2) and by tid (11, 12); a report "
			 "can show only one of them as columns\n"
			 "hint: use 'unit-mask:' or --merge=unitmask, or 'tid:' or --merge=tid" },
	};
	size_t i, k;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *dir = fresh(state);
		struct pp_test_profile t;
		struct op_err err = { "" };
		int ret;

		for (k = 0; k < 8 && rows[i].files[k]; k++) {
			char rel[256];

			snprintf(rel, sizeof(rel), PP_TEST_CURRENT A_A "%s", rows[i].files[k]);
			pp_test_file(dir, rel, "not a sample file, not even its header; "
				     "reading it would fail with a bad magic number\n");
		}
		ret = pp_test_profile_build(&t, dir, NULL, rows[i].merge, NULL, &err);
		if (ret != PP_PROFILE_ERR_AXES || strcmp(err.msg, rows[i].msg))
			fail_msg("row at line %d: %d '%s'", rows[i].line, ret, err.msg);
		/* nothing is left to release */
		if (t.p.nr_classes || t.p.classes || t.p.nr_groups || t.p.nr_images)
			fail_msg("row at line %d: the failed profile is not empty", rows[i].line);
		pp_test_profile_release(&t);
		done(state);
	}
}

static void test_empty(void **state)
{
	static const char *const spec[] = { "event:none", NULL };
	const char *dir = fresh(state);
	struct pp_test_profile t;
	struct op_err err = { "" };

	pp_test_odb(dir, A_A "ev.1000.0.all.all.all", "1000:1", false);
	assert_int_equal(pp_test_profile_build(&t, dir, spec, 0, NULL, &err),
			 PP_PROFILE_ERR_EMPTY);
	assert_string_equal(err.msg, "no sample files");
	pp_test_profile_release(&t);
	done(state);
}

/* --- applications, images, groups ----------------------------------------- */

#define EV "/ev.1000.0.all.all.all"

/* the session of test_inversion(): two applications sharing a library */
static const char *const inversion_files[] = {
	"{root}/opt/t/a/{dep}/{root}/opt/t/a" EV,
	"{root}/opt/t/a/{dep}/{root}/opt/t/lib.so" EV,
	"{root}/opt/t/a/{dep}/{anon:[heap]}/7.0x1000.0x1fff" EV,
	"{root}/opt/t/a/{dep}/{root}/opt/t/a/{cg}/{root}/opt/t/lib.so" EV,
	"{root}/opt/t/a/{dep}/{root}/opt/t/a/{cg}/{root}/opt/t/callee" EV,
	"{root}/opt/t/b/{dep}/{root}/opt/t/b" EV,
	"{root}/opt/t/b/{dep}/{root}/opt/t/lib.so" EV,
	"{root}/opt/t/b/{dep}/{kern}/no-vmlinux" EV,
	"{root}/opt/t/b/{dep}/{root}/boot/vmlinux-t" EV,
	NULL,
};

static void write_inversion(const char *dir)
{
	size_t i;

	for (i = 0; inversion_files[i]; i++)
		pp_test_odb(dir, inversion_files[i], "1000:1",
			    strstr(inversion_files[i], "{dep}/{kern}") ||
			    strstr(inversion_files[i], "vmlinux-t" EV));
}

/* the groups of image i, by their apps' names: "a b" */
static void group_apps(struct op_strbuf *sb, const struct pp_profile *p, size_t i)
{
	size_t k;

	for (k = 0; k < p->images[i].nr_groups; k++) {
		const struct pp_group *g = &p->groups[p->images[i].groups[k]];

		if (g->image != i)
			fail_msg("group %zu of image %zu is of image %zu", k, i, g->image);
		op_strbuf_addf(sb, "%s%s", k ? " " : "", strrchr(p->apps[g->app].id.name, '/') + 1);
	}
}

static void test_inversion(void **state)
{
	static const struct {
		int line;
		const char *image;
		enum odb_image_kind kind;
		bool is_kernel;
		const char *apps;	/* of its groups */
		size_t files;		/* in each group */
	} rows[] = {
		{ __LINE__, "/opt/t/a", ODB_IMAGE_FILE, false, "a", 1 },
		{ __LINE__, "/opt/t/b", ODB_IMAGE_FILE, false, "b", 1 },
		/* one image, its samples in one group per application */
		{ __LINE__, "/opt/t/lib.so", ODB_IMAGE_FILE, false, "a b", 1 },
		{ __LINE__, "[heap]", ODB_IMAGE_ANON, false, "a", 1 },
		{ __LINE__, "no-vmlinux", ODB_IMAGE_KERNEL, true, "b", 1 },
		/* a file image the header says is a kernel */
		{ __LINE__, "/boot/vmlinux-t", ODB_IMAGE_FILE, true, "b", 1 },
		/* called, never sampled: an image without groups */
		{ __LINE__, "/opt/t/callee", ODB_IMAGE_FILE, false, "", 0 },
	};
	const char *dir = fresh(state);
	struct pp_test_profile t;
	struct op_err err = { "" };
	size_t i, a, cg_lib = 0, cg_callee = 0;

	write_inversion(dir);
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, 0, NULL, &err), 0);
	assert_int_equal(t.p.nr_classes, 1);
	assert_int_equal(t.p.nr_apps, 2);
	assert_int_equal(t.p.nr_images, sizeof(rows) / sizeof(rows[0]));
	assert_int_equal(t.p.nr_groups, 7);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t im = pp_test_image(&t.p, rows[i].image), k;
		struct op_strbuf sb = OP_STRBUF_INIT;

		group_apps(&sb, &t.p, im);
		if (t.p.images[im].id.kind != rows[i].kind ||
		    t.p.images[im].is_kernel != rows[i].is_kernel ||
		    strcmp(sb.buf ? sb.buf : "", rows[i].apps))
			fail_msg("row at line %d: kind %d kernel %d groups of '%s'", rows[i].line,
				 t.p.images[im].id.kind, t.p.images[im].is_kernel, sb.buf);
		for (k = 0; k < t.p.images[im].nr_groups; k++)
			if (t.p.groups[t.p.images[im].groups[k]].nr_files != rows[i].files)
				fail_msg("row at line %d: group %zu has %zu files", rows[i].line, k,
					 t.p.groups[t.p.images[im].groups[k]].nr_files);
		op_strbuf_release(&sb);
	}
	assert_int_equal(t.p.images[pp_test_image(&t.p, "[heap]")].id.anon_tgid, 7);
	/* {cg} files: groups of their own, of application a's image */
	a = pp_test_app(&t.p, "/opt/t/a");
	assert_int_equal(t.p.nr_cg, 2);
	for (i = 0; i < t.p.nr_cg; i++) {
		const struct pp_cg_group *g = &t.p.cg[i];

		assert_int_equal(g->app, a);
		assert_int_equal(g->caller, pp_test_image(&t.p, "/opt/t/a"));
		assert_int_equal(g->nr_files, 1);
		cg_lib += g->callee == pp_test_image(&t.p, "/opt/t/lib.so");
		cg_callee += g->callee == pp_test_image(&t.p, "/opt/t/callee");
	}
	assert_int_equal(cg_lib, 1);
	assert_int_equal(cg_callee, 1);
	pp_test_profile_release(&t);
	done(state);
}

/* --merge=lib: every image its own application, its files one group */
static void test_merge_lib(void **state)
{
	static const char *const apps[] = {
		"/opt/t/a", "/opt/t/lib.so", "[heap]", "/opt/t/b", "no-vmlinux",
		"/boot/vmlinux-t",
	};
	const char *dir = fresh(state);
	struct pp_test_profile t;
	struct op_err err = { "" };
	size_t i, lib;

	write_inversion(dir);
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, PP_MERGE_LIB, NULL, &err), 0);
	assert_int_equal(t.p.nr_apps, sizeof(apps) / sizeof(apps[0]));
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++) {
		size_t im = pp_test_image(&t.p, apps[i]);

		/* each image's groups are of the application that is the image */
		assert_int_equal(t.p.images[im].nr_groups, 1);
		assert_true(odb_image_id_equal(&t.p.apps[t.p.groups[t.p.images[im].groups[0]].app].id,
					       &t.p.images[im].id));
	}
	lib = pp_test_image(&t.p, "/opt/t/lib.so");
	assert_int_equal(t.p.groups[t.p.images[lib].groups[0]].nr_files, 2);
	assert_int_equal(t.p.nr_groups, 6);
	/* a call graph's application is its caller image */
	for (i = 0; i < t.p.nr_cg; i++)
		assert_int_equal(t.p.cg[i].app, pp_test_app(&t.p, "/opt/t/a"));
	pp_test_profile_release(&t);
	done(state);
}

/* --- headers and loading ------------------------------------------------ */

static char *current_path(const char *dir, const char *rel)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s/" PP_TEST_CURRENT "%s", dir, rel);
	return op_strbuf_detach(&sb);
}

/* garbage at the place of a sample file */
static void spoil(const char *dir, const char *rel)
{
	char buf[200];
	char *path = current_path(dir, rel);

	memset(buf, 'x', sizeof(buf));
	assert_int_equal(op_write_file_atomic(path, buf, sizeof(buf), 0644), 0);
	free(path);
}

/*
 * A class whose every file is unreadable takes another class's header;
 * loading skips its files with a note each, and its column is empty.
 * When no file at all has a header, building fails.
 */
static void test_unreadable_class(void **state)
{
	const char *dir = fresh(state);
	struct pp_test_profile t;
	struct op_err err = { "" };
	char *bad = current_path(dir, A_A "ev.1000.0.all.all.1"), want[1024];

	pp_test_odb(dir, A_A "ev.1000.0.all.all.0", "1000:3 1008:4", false);
	spoil(dir, A_A "ev.1000.0.all.all.1");
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, 0, NULL, &err), 0);
	assert_int_equal(t.p.nr_classes, 2);
	assert_string_equal(t.p.classes[1].name, "cpu:1");
	assert_int_equal(t.p.classes[1].header.cpu_type, PP_TEST_CPU_SKYLAKE);
	assert_int_equal(t.p.classes[1].header.ctr_count, 1000);
	assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err), 0);
	snprintf(want, sizeof(want), "cannot read sample file '%s': bad magic number\n", bad);
	assert_string_equal(t.noted.buf, want);
	assert_int_equal(t.p.classes[0].total, 7);
	assert_int_equal(t.p.classes[1].total, 0);
	pp_test_profile_release(&t);

	/* now every file */
	spoil(dir, A_A "ev.1000.0.all.all.0");
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, 0, NULL, &err),
			 ODB_ERR_BAD_MAGIC);
	assert_true(!strncmp(err.msg, "cannot read sample file '", 25));
	assert_non_null(strstr(err.msg, ": bad magic number"));
	assert_int_equal(t.p.nr_classes, 0);
	pp_test_profile_release(&t);
	free(bad);
	done(state);
}

/* three files in two groups: a's own (tid 1 and 2 merged) and lib.so's */
static const char *const load_files[] = {
	"{root}/opt/t/a/{dep}/{root}/opt/t/a/ev.1000.0.1.1.all",
	"{root}/opt/t/a/{dep}/{root}/opt/t/a/ev.1000.0.1.2.all",
	"{root}/opt/t/a/{dep}/{root}/opt/t/lib.so/ev.1000.0.1.1.all",
};

static const char *const load_keys[] = {
	"1000:1 1010:2 1030:5",
	"1000:3 1020:4 1010:6",
	"2000:100",
};

static struct pp_group *group_of_image(struct pp_profile *p, const char *image)
{
	size_t im = pp_test_image(p, image);

	assert_int_equal(p->images[im].nr_groups, 1);
	return &p->groups[p->images[im].groups[0]];
}

/* a group's keys summed over its files, sorted, each once */
static void test_load(void **state)
{
	static const struct pp_kc want[] = {
		{ 0x1000, 4 }, { 0x1010, 8 }, { 0x1020, 4 }, { 0x1030, 5 },
	};
	const char *dir = fresh(state);
	struct pp_test_profile t;
	struct op_err err = { "" };
	struct pp_group *g;
	size_t i;

	for (i = 0; i < 3; i++)
		pp_test_odb(dir, load_files[i], load_keys[i], false);
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, PP_MERGE_TID, NULL, &err), 0);
	assert_int_equal(t.p.nr_groups, 2);
	g = group_of_image(&t.p, "/opt/t/a");
	assert_int_equal(g->nr_files, 2);
	assert_false(g->loaded);
	assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err), 0);
	assert_true(g->loaded);
	assert_int_equal(g->nr_read, 2);
	assert_int_equal(g->nr_kc, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < g->nr_kc; i++)
		if (g->kc[i].key != want[i].key || g->kc[i].count != want[i].count)
			fail_msg("key %zu: %#" PRIx64 ":%" PRIu64, i, g->kc[i].key,
				 g->kc[i].count);
	assert_int_equal(g->total, 21);
	assert_int_equal(t.p.classes[0].total, 121);
	assert_int_equal(t.notes.nr, 0);
	pp_test_profile_release(&t);
	done(state);
}

/*
 * A file that cannot be read when the samples are loaded: noted once and
 * skipped, the others counted; loading again reads nothing (the files
 * are gone by then); none readable: PP_PROFILE_ERR_UNREADABLE, each noted.
 */
static void test_load_unreadable(void **state)
{
	const char *dir = fresh(state);
	struct pp_test_profile t;
	struct op_err err = { "" };
	struct op_strbuf want = OP_STRBUF_INIT;
	char *path;
	size_t i;

	for (i = 0; i < 3; i++)
		pp_test_odb(dir, load_files[i], load_keys[i], false);
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, PP_MERGE_TID, NULL, &err), 0);
	spoil(dir, load_files[1]);
	assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err), 0);
	path = current_path(dir, load_files[1]);
	op_strbuf_addf(&want, "cannot read sample file '%s': bad magic number\n", path);
	free(path);
	assert_string_equal(t.noted.buf, want.buf);
	assert_int_equal(t.notes.nr, 1);
	assert_int_equal(group_of_image(&t.p, "/opt/t/a")->nr_read, 1);
	assert_int_equal(group_of_image(&t.p, "/opt/t/a")->total, 8);
	assert_int_equal(t.p.classes[0].total, 108);
	/* once per report: the groups are not read again */
	path = pp_test_path(dir, "samples");
	assert_int_equal(op_remove_tree(path), 0);
	free(path);
	assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err), 0);
	assert_int_equal(t.notes.nr, 1);
	assert_int_equal(t.p.classes[0].total, 108);
	pp_test_profile_release(&t);
	op_strbuf_release(&want);

	/* none readable */
	for (i = 0; i < 3; i++)
		pp_test_odb(dir, load_files[i], load_keys[i], false);
	assert_int_equal(pp_test_profile_build(&t, dir, NULL, PP_MERGE_TID, NULL, &err), 0);
	for (i = 0; i < 3; i++)
		spoil(dir, load_files[i]);
	assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err),
			 PP_PROFILE_ERR_UNREADABLE);
	assert_string_equal(err.msg, "no sample file could be read (3 skipped)");
	assert_int_equal(t.notes.nr, 3);
	for (i = 0; i < 3; i++) {
		path = current_path(dir, load_files[i]);
		assert_non_null(strstr(t.noted.buf, path));
		free(path);
	}
	assert_int_equal(t.p.classes[0].total, 0);
	pp_test_profile_release(&t);
	done(state);
}

static void test_merge_parse(void **state)
{
	static const struct {
		int line;
		const char *list;
		int ret;
		unsigned merge;
	} rows[] = {
		{ __LINE__, "lib", 0, PP_MERGE_LIB },
		{ __LINE__, "cpu,tid", 0, PP_MERGE_CPU | PP_MERGE_TID },
		{ __LINE__, "tgid,unitmask", 0, PP_MERGE_TGID | PP_MERGE_UNITMASK },
		{ __LINE__, "all", 0, PP_MERGE_ALL },
		{ __LINE__, "", PP_PROFILE_ERR_BAD_MERGE, 0 },
		{ __LINE__, "cpus", PP_PROFILE_ERR_BAD_MERGE, 0 },
		{ __LINE__, "lib,,x", PP_PROFILE_ERR_BAD_MERGE, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_err err = { "" };
		unsigned merge = 99;
		int ret = pp_merge_parse(rows[i].list, &merge, &err);

		if (ret != rows[i].ret || (!ret && merge != rows[i].merge))
			fail_msg("row at line %d: %d %#x (%s)", rows[i].line, ret, merge, err.msg);
		if (ret && !strstr(err.msg, "valid: lib, cpu, tid, tgid, unitmask, all"))
			fail_msg("row at line %d: message '%s'", rows[i].line, err.msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_axes),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_inversion),
		cmocka_unit_test(test_merge_lib),
		cmocka_unit_test(test_unreadable_class),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_unreadable),
		cmocka_unit_test(test_merge_parse),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
