// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sessions: finding the session directory (option, ./oprofile_data,
 * /var/lib/oprofile, under an archive), listing and filtering the sample
 * files of fake sessions written in a fresh directory, and reading what
 * operf recorded beside them (session.info, stats/, kernel/).
 */
#include "config.h"

#include <errno.h>
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

#include "libpp/profile/pp_session.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define EV "/cpu-clock.100000.0.all.all.all"

struct fixture {
	struct op_testdir dir;
	char old_cwd[PATH_MAX];
	char cwd[PATH_MAX];		/* the test directory, resolved */
	struct pp_session_dir sd;	/* cwd/oprofile_data */
	char *current;			/* its samples/current */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || op_testdir_make(&f->dir) ||
	    !getcwd(f->old_cwd, sizeof(f->old_cwd)) || chdir(f->dir.path) ||
	    !getcwd(f->cwd, sizeof(f->cwd)))
		return -1;
	*state = f;
	return 0;
}

/* the fixture with an oprofile_data/samples/current to fill */
static int setup_session(void **state)
{
	struct fixture *f;

	if (setup(state))
		return -1;
	f = *state;
	if (op_mkdir_p("oprofile_data/samples/current", 0755) ||
	    pp_session_dir_find(&f->sd, NULL, NULL, NULL))
		return -1;
	f->current = pp_session_path(&f->sd, "current");
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_session_dir_release(&f->sd);
	free(f->current);
	if (chdir(f->old_cwd))
		return -1;
	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

/* s with every '$' replaced by dollar (caller frees) */
static char *expand(const char *s, const char *dollar)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	for (; *s; s++)
		if (*s == '$')
			op_strbuf_addstr(&sb, dollar);
		else
			op_strbuf_addch(&sb, *s);
	return op_strbuf_detach(&sb);
}

static void test_dir_find(void **state)
{
	static const struct {
		int line;
		const char *mkdirs[3];	/* made in the test directory */
		const char *file;	/* a plain file made there */
		const char *option;
		const char *archive;
		int ret;
		const char *dir;	/* relative to the test directory */
		const char *msg;	/* a part of the message on error */
	} rows[] = {
		{ __LINE__, { "oprofile_data" }, NULL, NULL, NULL, 0, "oprofile_data", NULL },
		{ __LINE__, { "s" }, NULL, "s", NULL, 0, "s", NULL },
		{ __LINE__, { "s/t" }, NULL, "./s/../s/t/", NULL, 0, "s/t", NULL },
		{ __LINE__, { "oprofile_data", "s" }, NULL, "s", NULL, 0, "s", NULL },
		{ __LINE__, { "oprofile_data" }, NULL, "nope", NULL, -ENOENT, NULL,
		  "cannot use session directory '$/nope': No such file or directory" },
		{ __LINE__, { NULL }, "f", "f", NULL, -ENOTDIR, NULL, "'$/f': Not a directory" },
		/* a plain file named oprofile_data is passed over */
		{ __LINE__, { "a/var/lib/oprofile" }, "a$/oprofile_data", NULL, "a",
		  0, "a/var/lib/oprofile", NULL },
		/* under an archive: the same order below its root */
		{ __LINE__, { "a/var/lib/oprofile", "oprofile_data" }, NULL, NULL, "a", 0,
		  "a/var/lib/oprofile", NULL },
		{ __LINE__, { "a$/x" }, NULL, "x", "a", 0, "a$/x", NULL },
		{ __LINE__, { "a/abs/x", "a$/abs/x" }, NULL, "/abs/x", "a/", 0, "a/abs/x", NULL },
		{ __LINE__, { "a" }, NULL, NULL, "a", -ENOENT, NULL,
		  "no session directory: neither '$/a$/oprofile_data' nor '$/a/var/lib/oprofile' exists" },
		{ __LINE__, { "a" }, NULL, "x", "a", -ENOENT, NULL, "'$/a$/x'" },
		{ __LINE__, { NULL }, NULL, NULL, "nope", -ENOENT, NULL,
		  "cannot use archive '$/nope': No such file or directory" },
	};
	struct fixture *f = *state;
	size_t i, j;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_session_dir sd;
		struct op_err err = { "" };
		struct op_testdir sub;
		char *want;
		int ret;

		/* each row in its own directory */
		assert_int_equal(op_testdir_make(&sub), 0);
		assert_int_equal(chdir(sub.path), 0);
		assert_non_null(getcwd(f->cwd, sizeof(f->cwd)));
		for (j = 0; j < 3 && rows[i].mkdirs[j]; j++) {
			char *dir = expand(rows[i].mkdirs[j], f->cwd);

			assert_int_equal(op_mkdir_p(dir, 0755), 0);
			free(dir);
		}
		if (rows[i].file) {
			char *file = expand(rows[i].file, f->cwd);

			pp_test_file(f->cwd, file, "x");
			free(file);
		}
		ret = pp_session_dir_find(&sd, rows[i].option, rows[i].archive, &err);
		if (ret != rows[i].ret)
			fail_msg("row at line %d: got %d (%s)", rows[i].line, ret, err.msg);
		if (ret) {
			char *msg = expand(rows[i].msg, f->cwd);

			if (!strstr(err.msg, msg))
				fail_msg("row at line %d: message '%s' lacks '%s'",
					 rows[i].line, err.msg, msg);
			free(msg);
			assert_null(sd.dir);
		} else {
			char *rel = expand(rows[i].dir, f->cwd);

			want = pp_test_path(f->cwd, rel);
			if (strcmp(sd.dir, want))
				fail_msg("row at line %d: dir '%s', want '%s'",
					 rows[i].line, sd.dir, want);
			assert_int_equal(sd.given, rows[i].option != NULL);
			assert_int_equal(!sd.archive, !rows[i].archive);
			free(rel);
			free(want);
		}
		pp_session_dir_release(&sd);
		pp_session_dir_release(&sd);
		assert_int_equal(chdir(f->dir.path), 0);
		op_testdir_remove(&sub);
	}
}

/* without ./oprofile_data the default is /var/lib/oprofile, if it exists */
static void test_dir_default(void **state)
{
	struct pp_session_dir sd;
	struct op_err err = { "" };
	int ret;

	(void)state;
	ret = pp_session_dir_find(&sd, NULL, NULL, &err);
	if (op_is_dir("/var/lib/oprofile")) {
		assert_int_equal(ret, 0);
		assert_string_equal(sd.dir, "/var/lib/oprofile");
	} else {
		assert_int_equal(ret, -ENOENT);
		assert_non_null(strstr(err.msg, "nor '/var/lib/oprofile' exists"));
	}
	pp_session_dir_release(&sd);
	pp_session_dir_release(NULL);
}

static void test_session_path(void **state)
{
	static const struct {
		int line;
		const char *name;
		const char *want;	/* '@': the session directory, '$': cwd */
	} rows[] = {
		{ __LINE__, "current", "@/samples/current" },
		{ __LINE__, "previous", "@/samples/previous" },
		{ __LINE__, "a/b", "@/samples/a/b" },
		{ __LINE__, "/abs/s", "/abs/s" },
		{ __LINE__, "./s", "$/./s" },
		{ __LINE__, "..", "$/.." },
	};
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf want = OP_STRBUF_INIT;
		char *path = pp_session_path(&f->sd, rows[i].name);
		const char *p;

		for (p = rows[i].want; *p; p++)
			if (*p == '@')
				op_strbuf_addstr(&want, f->sd.dir);
			else if (*p == '$')
				op_strbuf_addstr(&want, f->cwd);
			else
				op_strbuf_addch(&want, *p);
		if (strcmp(path, want.buf))
			fail_msg("row at line %d: '%s', want '%s'", rows[i].line,
				 path, want.buf);
		free(path);
		op_strbuf_release(&want);
	}
}

/* a session with every kind of file operf and others leave there */
static const char *const samples[] = {
	"{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog" EV,
	"{root}/usr/bin/prog/{dep}/{root}/usr/lib/libc.so.6" EV,
	"{root}/usr/bin/prog/{dep}/{kern}/no-vmlinux" EV,
	"{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog/{cg}/{root}/usr/lib/libc.so.6" EV,
	"{root}/usr/bin/java/{dep}/{anon:anon}/77.0x1000.0x1fff" EV,
	"{root}/tmp/%7Bdep}/x/{dep}/{root}/tmp/%7Bdep}/x" EV,
	"{kern}/kworker/{dep}/{kern}/ext4" EV,
	NULL,
};

static void make_session(const struct fixture *f)
{
	char *link;

	pp_test_samples(f->current, samples);
	/* not sample files */
	pp_test_sample(f->current, "{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog" EV ".tmp", 1);
	pp_test_file(f->current, "{root}/usr/bin/java/{dep}/{anon:anon}/77.jo", "ELF");
	pp_test_file(f->current, "stats/lost_no_mapping", "3");
	pp_test_file(f->current, "stats/throttled/cpu-clock", "");
	pp_test_file(f->current, "session.info", "tool operf\n");
	pp_test_file(f->current, "kernel/kallsyms", "0 T _text\n");
	pp_test_file(f->current, "junk", "");
	/* malformed names */
	pp_test_sample(f->current, "{root}/bad" EV, 1);
	pp_test_file(f->current, "{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog/garbage", "");
	/* a link is never followed, even to a sample file */
	link = pp_test_path(f->current, "{root}/link");
	assert_int_equal(symlink(f->current, link), 0);
	free(link);
}

/* the order pp_session_list() gives: each directory sorted */
static const char *const sorted[] = {
	"{kern}/kworker/{dep}/{kern}/ext4" EV,
	"{root}/tmp/%7Bdep}/x/{dep}/{root}/tmp/%7Bdep}/x" EV,
	"{root}/usr/bin/java/{dep}/{anon:anon}/77.0x1000.0x1fff" EV,
	"{root}/usr/bin/prog/{dep}/{kern}/no-vmlinux" EV,
	"{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog" EV,
	"{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog/{cg}/{root}/usr/lib/libc.so.6" EV,
	"{root}/usr/bin/prog/{dep}/{root}/usr/lib/libc.so.6" EV,
};

static void test_list_all(void **state)
{
	struct fixture *f = *state;
	struct pp_spec spec = { 0 };
	struct pp_file_list list;
	struct op_err err = { "" };
	size_t i;

	make_session(f);
	assert_int_equal(pp_session_list_all(&f->sd, &spec, &list, &err), 0);
	assert_int_equal(list.nr, sizeof(sorted) / sizeof(sorted[0]));
	for (i = 0; i < list.nr; i++) {
		char *want = pp_test_path(f->current, sorted[i]);

		assert_string_equal(list.files[i].path, want);
		assert_string_equal(list.files[i].session, "current");
		free(want);
	}
	assert_string_equal(list.files[1].name.app.name, "/tmp/{dep}/x");
	assert_int_equal(list.files[2].name.image.kind, ODB_IMAGE_ANON);
	assert_true(list.files[5].name.is_cg);
	/* .tmp, .jo, 4 files beside the samples, junk */
	assert_int_equal(list.nr_other, 7);
	assert_int_equal(list.nr_bad, 3);
	{
		char *bad0 = pp_test_path(f->current, "{root}/bad" EV);
		char *link = pp_test_path(f->current, "{root}/link");

		assert_string_equal(list.bad[0].path, bad0);
		assert_string_equal(list.bad[0].why, "no {dep} after the application");
		/* the link, skipped with what it is */
		assert_string_equal(list.bad[1].path, link);
		assert_string_equal(list.bad[1].why, "a symbolic link, not a sample file");
		assert_non_null(strstr(list.bad[2].why, "last component 'garbage'"));
		free(bad0);
		free(link);
	}
	pp_file_list_release(&list);
	pp_file_list_release(&list);
	pp_file_list_release(NULL);
}

static void test_list_filter(void **state)
{
	static const struct {
		int line;
		const char *args[4];
		size_t nr;
		const char *first;	/* the first file, relative to current */
	} rows[] = {
		{ __LINE__, { NULL }, 7, "{kern}/kworker/{dep}/{kern}/ext4" EV },
		{ __LINE__, { "lib-image:libc.so.6" }, 1, "{root}/usr/bin/prog/{dep}/{root}/usr/lib/libc.so.6" EV },
		{ __LINE__, { "image:prog" }, 4, "{root}/usr/bin/prog/{dep}/{kern}/no-vmlinux" EV },
		{ __LINE__, { "image:/usr/bin/*", "lib-image-exclude:prog" }, 3, "{root}/usr/bin/java/{dep}/{anon:anon}/77.0x1000.0x1fff" EV },
		{ __LINE__, { "image-exclude:prog,java" }, 2, "{kern}/kworker/{dep}/{kern}/ext4" EV },
		{ __LINE__, { "lib-image:no-vmlinux,ext4" }, 2, "{kern}/kworker/{dep}/{kern}/ext4" EV },
		{ __LINE__, { "lib-image:anon" }, 1, "{root}/usr/bin/java/{dep}/{anon:anon}/77.0x1000.0x1fff" EV },
		{ __LINE__, { "event:nope" }, 0, NULL },
		{ __LINE__, { "cpu:0" }, 0, NULL },
		{ __LINE__, { "session-exclude:current" }, 0, NULL },
	};
	struct fixture *f = *state;
	size_t i;

	make_session(f);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *const *args = rows[i].args;
		struct pp_spec_set set;
		struct pp_file_list list;
		struct op_err err = { "" };
		int argc = 0;

		while (argc < 4 && args[argc])
			argc++;
		assert_int_equal(pp_spec_parse(argc, args, &set, NULL), 0);
		if (pp_session_list(&f->sd, &set.first, &list, &err))
			fail_msg("row at line %d: %s", rows[i].line, err.msg);
		if (list.nr != rows[i].nr)
			fail_msg("row at line %d: %zu files", rows[i].line, list.nr);
		if (rows[i].first) {
			char *want = pp_test_path(f->current, rows[i].first);

			if (strcmp(list.files[0].path, want))
				fail_msg("row at line %d: first '%s'", rows[i].line,
					 list.files[0].path);
			free(want);
		}
		/* malformed names and the link are reported whatever the filter */
		if (strcmp(args[0] ? args[0] : "", "session-exclude:current") &&
		    list.nr_bad != 3)
			fail_msg("row at line %d: %zu bad", rows[i].line, list.nr_bad);
		pp_file_list_release(&list);
		pp_spec_set_release(&set);
	}
}

static void test_list_sessions(void **state)
{
	struct fixture *f = *state;
	char *previous = pp_session_path(&f->sd, "previous");
	char *abs_previous, *same_current, *nope;
	struct pp_file_list list;
	struct op_err err = { "" };
	struct pp_spec_set set;

	pp_test_sample(f->current, "{root}/a/{dep}/{root}/a" EV, 1);
	pp_test_sample(previous, "{root}/b/{dep}/{root}/b" EV, 1);
	pp_test_sample(previous, "{root}/c/{dep}/{root}/c" EV, 1);

	/* sessions in the order given */
	{
		const char *args[] = { "session:previous,current" };

		assert_int_equal(pp_spec_parse(1, args, &set, NULL), 0);
		assert_int_equal(pp_session_list(&f->sd, &set.first, &list, &err), 0);
		assert_int_equal(list.nr, 3);
		assert_string_equal(list.files[0].session, "previous");
		assert_string_equal(list.files[0].name.app.name, "/b");
		assert_string_equal(list.files[2].session, "current");
		pp_file_list_release(&list);
		pp_spec_set_release(&set);
	}
	/* minus session-exclude */
	{
		const char *args[] = { "session:current,previous", "session-exclude:current" };

		assert_int_equal(pp_spec_parse(2, args, &set, NULL), 0);
		assert_int_equal(pp_session_list(&f->sd, &set.first, &list, &err), 0);
		assert_int_equal(list.nr, 2);
		assert_string_equal(list.files[0].session, "previous");
		pp_file_list_release(&list);
		pp_spec_set_release(&set);
	}
	/* the same directory named twice is listed once; paths work as names */
	abs_previous = pp_test_path(f->sd.dir, "samples/previous");
	same_current = strdup("./oprofile_data/samples/current");
	{
		const char *args[] = { "session:current", "session:current", "session:",
				       "session:" };
		struct op_strbuf a = OP_STRBUF_INIT, b = OP_STRBUF_INIT;

		op_strbuf_addf(&a, "session:%s", same_current);
		op_strbuf_addf(&b, "session:%s", abs_previous);
		args[2] = a.buf;
		args[3] = b.buf;
		assert_int_equal(pp_spec_parse(4, args, &set, NULL), 0);
		assert_int_equal(pp_session_list(&f->sd, &set.first, &list, &err), 0);
		assert_int_equal(list.nr, 3);
		assert_string_equal(list.files[1].session, abs_previous);
		pp_file_list_release(&list);
		pp_spec_set_release(&set);
		op_strbuf_release(&a);
		op_strbuf_release(&b);
	}
	/* a session that does not exist */
	nope = pp_session_path(&f->sd, "nope");
	{
		const char *args[] = { "session:current,nope" };
		struct op_strbuf want = OP_STRBUF_INIT;

		assert_int_equal(pp_spec_parse(1, args, &set, NULL), 0);
		assert_int_equal(pp_session_list(&f->sd, &set.first, &list, &err), -ENOENT);
		op_strbuf_addf(&want, "session 'nope' not found: '%s': No such file "
			       "or directory", nope);
		assert_string_equal(err.msg, want.buf);
		assert_int_equal(list.nr, 0);
		assert_null(list.files);
		op_strbuf_release(&want);
		pp_spec_set_release(&set);
	}
	/* a session that is a file */
	pp_test_file(f->sd.dir, "samples/plain", "");
	{
		const char *args[] = { "session:plain" };

		assert_int_equal(pp_spec_parse(1, args, &set, NULL), 0);
		assert_int_equal(pp_session_list_all(&f->sd, &set.first, &list, &err),
				 -ENOTDIR);
		pp_spec_set_release(&set);
	}
	free(nope);
	free(abs_previous);
	free(same_current);
	free(previous);
}

/* deep image paths: the walk holds one directory open at a time */
static void test_list_deep(void **state)
{
	struct fixture *f = *state;
	struct op_strbuf rel = OP_STRBUF_INIT;
	struct pp_spec spec = { 0 };
	struct pp_file_list list;
	struct op_err err = { "" };
	int i;

	op_strbuf_addstr(&rel, "{root}");
	for (i = 0; i < 1200; i++)
		op_strbuf_addstr(&rel, "/d");
	op_strbuf_addstr(&rel, "/{dep}/{kern}/no-vmlinux" EV);
	if (rel.len + strlen(f->current) + 2 >= PATH_MAX)
		skip();
	pp_test_sample(f->current, rel.buf, 1);
	assert_int_equal(pp_session_list_all(&f->sd, &spec, &list, &err), 0);
	assert_int_equal(list.nr, 1);
	assert_int_equal(strlen(list.files[0].name.app.name), 2 * 1200);
	pp_file_list_release(&list);
	op_strbuf_release(&rel);
}

static void test_list_empty(void **state)
{
	struct fixture *f = *state;
	struct pp_spec spec = { 0 };
	struct pp_file_list list;

	assert_int_equal(pp_session_list(&f->sd, &spec, &list, NULL), 0);
	assert_int_equal(list.nr + list.nr_bad + list.nr_other, 0);
	pp_file_list_release(&list);
}

static void test_info(void **state)
{
	struct fixture *f = *state;
	struct pp_session_info info;
	char *kallsyms;

	pp_test_file(f->current, "session.info",
		     "tool operf 0.1\n"
		     "started 2024-01-01 00:00:00\n"
		     "target command ./prog -x\n"
		     "event cpu-clock software 100000 99 0 0 CPU clock timer, in ns\n"
		     "event CPU_CLK_UNHALTED hardware 1000003 115 60 0 Clock cycles when not halted\n"
		     "event broken software x 1 2 3 bad period\n"
		     "event short hardware 1 2\n"
		     "event nodesc hardware 5 1 2 3\n"
		     "fallback cycles not supported: no PMU\n"
		     "kernel-excluded perf_event_paranoid\n"
		     "separate-thread 0\nseparate-cpu 0\ncallgraph 0\n"
		     "vmlinux /boot/vmlinux with space\n"
		     "unknown line\n"
		     "fallbacks are not this\n");
	pp_test_file(f->current, "stats/lost_no_mapping", "3");
	pp_test_file(f->current, "stats/lost_kernel", "4\n");
	pp_test_file(f->current, "stats/lost_samplefile", "junk");
	pp_test_file(f->current, "stats/lost_bt_no_mapping", "5");
	pp_test_file(f->current, "stats/lost_unknown", "9");
	pp_test_file(f->current, "stats/total_samples", "1000");
	pp_test_file(f->current, "stats/throttled/zeta", "");
	pp_test_file(f->current, "stats/throttled/alpha", "");
	pp_test_file(f->current, "kernel/kallsyms", "0 T _text\n");
	pp_session_info_read(&f->sd, "current", &info);
	assert_true(info.run.fallback);
	assert_string_equal(info.run.fallback_reason, "cycles not supported: no PMU");
	assert_true(info.run.kernel_excluded);
	assert_int_equal(info.stats.count[ODB_STAT_TOTAL_SAMPLES], 1000);
	/* arcs are not samples; unknown and unreadable counters count nothing */
	assert_int_equal(odb_stats_lost_samples(&info.stats), 7);
	assert_int_equal(odb_stats_lost_arcs(&info.stats), 5);
	assert_int_equal(info.stats.nr_throttled, 2);
	assert_string_equal(info.stats.throttled[0], "alpha");
	assert_string_equal(info.stats.throttled[1], "zeta");
	kallsyms = pp_test_path(f->current, "kernel/kallsyms");
	assert_string_equal(info.kallsyms, kallsyms);
	free(kallsyms);
	assert_string_equal(info.run.vmlinux, "/boot/vmlinux with space");
	assert_int_equal(info.run.target, ODB_TARGET_COMMAND);
	assert_string_equal(info.run.command, "./prog -x");
	assert_int_equal(info.run.nr_events, 3);
	assert_string_equal(info.run.events[0].name, "cpu-clock");
	assert_true(info.run.events[0].software);
	assert_int_equal(info.run.events[0].period, 100000);
	assert_int_equal(info.run.events[0].cpu_type, 99);
	assert_string_equal(info.run.events[0].desc, "CPU clock timer, in ns");
	assert_string_equal(info.run.events[1].name, "CPU_CLK_UNHALTED");
	assert_false(info.run.events[1].software);
	assert_int_equal(info.run.events[1].cpu_type, 115);
	assert_int_equal(info.run.events[1].code, 60);
	assert_string_equal(info.run.events[2].name, "nodesc");
	assert_int_equal(info.run.events[2].unit_mask, 3);
	assert_string_equal(info.run.events[2].desc, "");
	pp_session_info_release(&info);
	pp_session_info_release(&info);
	pp_session_info_release(NULL);
}

/* a session of OProfile 1.4, or a missing one: empty fields */
static void test_info_missing(void **state)
{
	struct fixture *f = *state;
	struct pp_session_info info, zero;

	memset(&zero, 0, sizeof(zero));
	pp_session_info_read(&f->sd, "nope", &info);
	assert_memory_equal(&info, &zero, sizeof(info));
	pp_session_info_read(&f->sd, "current", &info);
	assert_memory_equal(&info, &zero, sizeof(info));
	/* a bare "fallback" still says so; counters add up without wrapping */
	pp_test_file(f->current, "session.info", "fallback\nvmlinux\nkernel-excluded");
	pp_test_file(f->current, "stats/lost_kernel", "18446744073709551615");
	pp_test_file(f->current, "stats/lost_no_mapping", "2");
	pp_test_file(f->current, "stats/total_samples", "-1");
	pp_session_info_read(&f->sd, "current", &info);
	assert_true(info.run.fallback);
	assert_string_equal(info.run.fallback_reason, "");
	assert_true(info.run.kernel_excluded);
	assert_null(info.run.vmlinux);
	assert_int_equal(odb_stats_lost_samples(&info.stats), UINT64_MAX);
	assert_int_equal(info.stats.count[ODB_STAT_TOTAL_SAMPLES], 0);
	assert_false(info.stats.present[ODB_STAT_TOTAL_SAMPLES]);
	assert_null(info.kallsyms);
	pp_session_info_release(&info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dir_find, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dir_default, setup, teardown),
		cmocka_unit_test_setup_teardown(test_session_path, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_list_all, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_list_filter, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_list_sessions, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_list_deep, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_list_empty, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_info, setup_session, teardown),
		cmocka_unit_test_setup_teardown(test_info_missing, setup_session, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
