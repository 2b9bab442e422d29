// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text pp_session_explain() gives when a specification matches
 * nothing, compared whole: where it looked, what is there, which tag
 * excluded everything and the hint that goes with it.
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

#include "libpp/profile/pp_session.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define EV "/cpu-clock.100000.0.all.all.all"

struct fixture {
	struct op_testdir dir;
	char old_cwd[PATH_MAX];
	struct pp_session_dir sd;	/* DIR/oprofile_data */
};

static const char *const current[] = {
	"{root}/opt/t/prog/{dep}/{root}/opt/t/prog" EV,
	"{root}/opt/t/prog/{dep}/{root}/opt/t/lib/libx.so" EV,
	"{root}/opt/t/prog/{dep}/{kern}/no-vmlinux" EV,
	"{root}/opt/t/java/{dep}/{anon:anon}/77.0x1000.0x1fff" EV,
	"{root}/opt/t/java/{dep}/{root}/opt/t/lib/libx.so" EV,
	NULL,
};

/* separated by thread and cpu, two events */
static const char *const previous[] = {
	"{root}/bin/sh/{dep}/{root}/bin/sh/branch-misses.5000.1.12.12.0",
	"{root}/bin/sh/{dep}/{root}/bin/sh/branch-misses.5000.1.12.13.1",
	"{root}/bin/sh/{dep}/{root}/bin/sh/cpu-clock.100000.0.12.13.1",
	NULL,
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *dir;

	if (!f || op_testdir_make(&f->dir) ||
	    !getcwd(f->old_cwd, sizeof(f->old_cwd)) || chdir(f->dir.path) ||
	    op_mkdir_p("oprofile_data", 0755) ||
	    pp_session_dir_find(&f->sd, "oprofile_data", NULL, NULL))
		return -1;
	dir = pp_test_path(f->sd.dir, "samples/current");
	pp_test_samples(dir, current);
	pp_test_file(dir, "stats/lost_no_mapping", "1");
	pp_test_file(dir, "session.info", "tool operf\n");
	free(dir);
	dir = pp_test_path(f->sd.dir, "samples/previous");
	pp_test_samples(dir, previous);
	free(dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_session_dir_release(&f->sd);
	if (chdir(f->old_cwd))
		return -1;
	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

/* the lines of text joined with '\n', '@' standing for dir */
static char *expected(const char *const *lines, const char *dir)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const char *p;

	for (; *lines; lines++) {
		for (p = *lines; *p; p++)
			if (*p == '@')
				op_strbuf_addstr(&sb, dir);
			else
				op_strbuf_addch(&sb, *p);
		op_strbuf_addch(&sb, '\n');
	}
	return op_strbuf_detach(&sb);
}

#define HEAD \
	"session directory: @", \
	"sessions: current, previous"
#define CURRENT \
	"searched: current (5 sample files, 2 other files)", \
	"events: cpu-clock (count 100000)", \
	"applications: /opt/t/java, /opt/t/prog", \
	"images: /opt/t/lib/libx.so, /opt/t/prog, anon, no-vmlinux", \
	"separation: cpu all; tgid all; tid all"
#define PREVIOUS \
	"searched: previous (3 sample files)", \
	"events: branch-misses (count 5000, unit mask 0x1), cpu-clock (count 100000)", \
	"applications: /bin/sh", \
	"images: /bin/sh", \
	"separation: cpu 0, 1; tgid 12; tid 12, 13"

#define MAX_LINES 16

static void test_explain(void **state)
{
	static const struct {
		int line;
		const char *args[4];
		const char *text[MAX_LINES];
	} rows[] = {
		{ __LINE__, { "image:/opt/t/lib/libx.so" }, {
			HEAD, CURRENT,
			"excluded everything: image:/opt/t/lib/libx.so (no application matches)",
			"hint: image: selects applications; for samples in an image they use, try lib-image:/opt/t/lib/libx.so",
		} },
		{ __LINE__, { "lib-image:java,nope" }, {
			HEAD, CURRENT,
			"excluded everything: lib-image:java,nope (no image matches)",
			"hint: lib-image: selects the images samples fell in; to select applications, try image:java,nope",
		} },
		{ __LINE__, { "image:nope" }, {
			HEAD, CURRENT,
			"excluded everything: image:nope (no application matches)",
		} },
		{ __LINE__, { "image-exclude:prog,java" }, {
			HEAD, CURRENT,
			"excluded everything: image-exclude:prog,java (it excludes every application)",
		} },
		{ __LINE__, { "lib-image-exclude:/opt/*,anon,no-*" }, {
			HEAD, CURRENT,
			"excluded everything: lib-image-exclude:/opt/*,anon,no-* (it excludes every image)",
		} },
		{ __LINE__, { "event:CPU-CLOCK" }, {
			HEAD, CURRENT,
			"excluded everything: event:CPU-CLOCK (no such event)",
			"hint: event names are case-sensitive: try event:cpu-clock",
		} },
		{ __LINE__, { "count:1", "unit-mask:2" }, {
			HEAD, CURRENT,
			"excluded everything: count:1 (no file has that count)",
			"excluded everything: unit-mask:2 (no file has that unit mask)",
		} },
		{ __LINE__, { "cpu:0", "tgid:1", "tid:1" }, {
			HEAD, CURRENT,
			"excluded everything: cpu:0 (the profile is not separated by cpu: operf --separate-cpu)",
			"excluded everything: tgid:1 (the profile is not separated by process: operf --separate-thread)",
			"excluded everything: tid:1 (the profile is not separated by thread: operf --separate-thread)",
		} },
		{ __LINE__, { "session:previous", "cpu:2", "tgid:13", "tid:14" }, {
			HEAD, PREVIOUS,
			"excluded everything: cpu:2 (no file of that cpu)",
			"excluded everything: tgid:13 (no file of that process)",
			"excluded everything: tid:14 (no file of that thread)",
		} },
		/* each tag keeps some files, together none */
		{ __LINE__, { "image:java", "lib-image:no-vmlinux" }, {
			HEAD, CURRENT,
			"no file matches all of: image:java (2 files), lib-image:no-vmlinux (1 file)",
		} },
		{ __LINE__, { "session:previous", "event:cpu-clock", "cpu:0" }, {
			HEAD, PREVIOUS,
			"no file matches all of: event:cpu-clock (1 file), cpu:0 (1 file)",
		} },
		/* two sessions */
		{ __LINE__, { "session:current,previous", "event:nope" }, {
			HEAD,
			"searched: current (5 sample files, 2 other files), previous (3 sample files)",
			"events: branch-misses (count 5000, unit mask 0x1), cpu-clock (count 100000)",
			"applications: /bin/sh, /opt/t/java, /opt/t/prog",
			"images: /bin/sh, /opt/t/lib/libx.so, /opt/t/prog, anon, no-vmlinux",
			"separation: cpu all, 0, 1; tgid all, 12; tid all, 12, 13",
			"excluded everything: event:nope (no such event)",
		} },
		/* sessions */
		{ __LINE__, { "session:nope" }, {
			HEAD,
			"searched: nope (no directory '@/samples/nope')",
			"no sample files in the sessions searched",
			"hint: profile with operf first, or pick a session with session:NAME",
		} },
		{ __LINE__, { "session-exclude:current" }, {
			HEAD,
			"excluded everything: session-exclude:current (it excludes every session of session:current)",
		} },
		{ __LINE__, { "session:a,b", "session-exclude:b,a" }, {
			HEAD,
			"excluded everything: session-exclude:b,a (it excludes every session of session:a,b)",
		} },
		/* nothing filters: said so */
		{ __LINE__, { "session:previous" }, {
			HEAD, PREVIOUS,
			"every one of the 3 sample files matches",
		} },
	};
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *const *args = rows[i].args;
		struct pp_spec_set set;
		char *got, *want;
		int argc = 0;

		while (argc < 4 && args[argc])
			argc++;
		assert_int_equal(pp_spec_parse(argc, args, &set, NULL), 0);
		got = pp_session_explain(&f->sd, &set.first);
		want = expected(rows[i].text, f->sd.dir);
		if (strcmp(got, want))
			fail_msg("row at line %d: got\n%s\nwant\n%s", rows[i].line, got, want);
		free(got);
		free(want);
		pp_spec_set_release(&set);
	}
}

/* a session of only malformed names; lists cut after eight items */
static void test_explain_more(void **state)
{
	struct fixture *f = *state;
	struct pp_spec_set set;
	char *dir = pp_test_path(f->sd.dir, "samples/many"), *got, *want;
	const char *args[] = { "session:many", "image:nope" };
	int i;

	for (i = 0; i < 11; i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "{root}/app%02d/{dep}/{root}/app%02d" EV, i, i);
		pp_test_sample(dir, rel, 1);
	}
	pp_test_sample(dir, "{root}/bad" EV, 1);
	pp_test_sample(dir, "{root}/worse" EV, 1);
	assert_int_equal(pp_spec_parse(2, args, &set, NULL), 0);
	got = pp_session_explain(&f->sd, &set.first);
	{
		const char *text[] = {
			"session directory: @",
			"sessions: current, many, previous",
			"searched: many (11 sample files, 2 skipped)",
			"skipped: 2, the first '@/samples/many/{root}/bad" EV "': no {dep} after the application",
			"events: cpu-clock (count 100000)",
			"applications: /app00, /app01, /app02, /app03, /app04, /app05, /app06, /app07, and 3 more",
			"images: /app00, /app01, /app02, /app03, /app04, /app05, /app06, /app07, and 3 more",
			"separation: cpu all; tgid all; tid all",
			"excluded everything: image:nope (no application matches)",
			NULL,
		};

		want = expected(text, f->sd.dir);
	}
	if (strcmp(got, want))
		fail_msg("got\n%s\nwant\n%s", got, want);
	free(got);
	free(want);
	pp_spec_set_release(&set);
	free(dir);

	/* only malformed names: no hint to run operf */
	dir = pp_test_path(f->sd.dir, "samples/onlybad");
	pp_test_sample(dir, "{root}/x" EV, 1);
	args[0] = "session:onlybad";
	assert_int_equal(pp_spec_parse(1, args, &set, NULL), 0);
	got = pp_session_explain(&f->sd, &set.first);
	{
		const char *text[] = {
			"session directory: @",
			"sessions: current, many, onlybad, previous",
			"searched: onlybad (0 sample files, 1 skipped)",
			"skipped: 1, the first '@/samples/onlybad/{root}/x" EV "': no {dep} after the application",
			"no sample files in the sessions searched",
			NULL,
		};

		want = expected(text, f->sd.dir);
	}
	if (strcmp(got, want))
		fail_msg("got\n%s\nwant\n%s", got, want);
	free(got);
	free(want);
	pp_spec_set_release(&set);
	free(dir);
}

/* nothing there at all */
static void test_explain_empty(void **state)
{
	struct pp_session_dir sd;
	struct pp_spec spec = { 0 };
	char *got, *want;
	const char *text[] = {
		"session directory: @",
		"sessions: none (no directory '@/samples')",
		"searched: current (no directory '@/samples/current')",
		"no sample files in the sessions searched",
		"hint: profile with operf first, or pick a session with session:NAME",
		NULL,
	};

	(void)state;
	assert_int_equal(op_mkdir_p("empty", 0755), 0);
	assert_int_equal(pp_session_dir_find(&sd, "empty", NULL, NULL), 0);
	got = pp_session_explain(&sd, &spec);
	want = expected(text, sd.dir);
	if (strcmp(got, want))
		fail_msg("got\n%s\nwant\n%s", got, want);
	free(got);
	free(want);
	/* a session with only the files beside the samples */
	pp_test_file(sd.dir, "samples/current/stats/lost_kernel", "1");
	got = pp_session_explain(&sd, &spec);
	{
		const char *text2[] = {
			"session directory: @",
			"sessions: current",
			"searched: current (0 sample files, 1 other file)",
			"no sample files in the sessions searched",
			"hint: profile with operf first, or pick a session with session:NAME",
			NULL,
		};

		want = expected(text2, sd.dir);
	}
	if (strcmp(got, want))
		fail_msg("got\n%s\nwant\n%s", got, want);
	free(got);
	free(want);
	pp_session_dir_release(&sd);
}

/* under an archive the text says so */
static void test_explain_archive(void **state)
{
	struct op_strbuf want = OP_STRBUF_INIT;
	struct pp_session_dir sd;
	struct pp_spec spec = { 0 };
	char *got;

	(void)state;
	assert_int_equal(op_mkdir_p("arch/s", 0755), 0);
	assert_int_equal(pp_session_dir_find(&sd, "/s", "arch", NULL), 0);
	got = pp_session_explain(&sd, &spec);
	op_strbuf_addf(&want, "session directory: %s/s\narchive: %s\n"
		       "sessions: none (no directory '%s/s/samples')\n",
		       sd.archive, sd.archive, sd.archive);
	if (strncmp(got, want.buf, want.len))
		fail_msg("got\n%s\nwant\n%s", got, want.buf);
	free(got);
	op_strbuf_release(&want);
	pp_session_dir_release(&sd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_explain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain_more, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain_archive, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
