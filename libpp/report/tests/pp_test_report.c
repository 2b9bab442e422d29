// SPDX-License-Identifier: GPL-2.0-or-later
/* What the output tests share (see pp_test_report.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/report/tests/pp_test_report.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

#define EV "/ev.100000.0.all.all.all"
#define K "{kern}/no-vmlinux/{dep}/{kern}/no-vmlinux"
#define PROG "{root}/opt/t/prog/{dep}/{root}/opt/t/prog"
#define PROG_K "{root}/opt/t/prog/{dep}/{kern}/no-vmlinux"

static const struct {
	const char *session;
	const char *rel;
	const char *keys;	/* KEY:COUNT; {cg} keys FROM << 32 | TO */
	bool kernel;
} session_files[] = {
	{ "s", K EV, "1000:300 1010:200 1100:200 1300:50", true },
	{ "s", PROG_K EV, "1010:40 1200:60", true },
	{ "s", PROG EV, "40:100 80:50", false },
	{ "s", K "/{cg}/{kern}/no-vmlinux" EV,
	  "130000001000:20 131000001100:10 102000001100:30", true },
	{ "s", PROG "/{cg}/{kern}/no-vmlinux" EV, "4000001000:5", false },
	{ "s2", K EV, "1000:390 1100:300 1200:60", true },
	{ "c", K "/ev.100000.0.all.all.0", "1000:10", true },
	{ "c", K "/ev.100000.0.all.all.1", "1100:20", true },
	{ "t", K "/ev.100000.0.10.10.all", "1000:5", true },
	{ "t", K "/ev.100000.0.10.11.all", "1100:7", true },
	{ "n", K EV, "1000:10 1100:10 1200:10 1300:10", true },
	/* samples outside every symbol: below alpha, and after gamma */
	{ "g", K EV, "800:25 900:5 1000:60 1290:10", true },
	{ "g", K "/{cg}/{kern}/no-vmlinux" EV, "90000001000:7 100000001290:3", true },
};

int pp_test_fixture_setup(void **state)
{
	struct pp_test_fixture *f = calloc(1, sizeof(*f));
	size_t i;

	if (!f || op_testdir_make(&f->dir) ||
	    !op_testdir_file(&f->dir, "kallsyms", f->kallsyms, sizeof(f->kallsyms)) ||
	    op_write_file_atomic(f->kallsyms, PP_TEST_KALLSYMS,
				 strlen(PP_TEST_KALLSYMS), 0644))
		return -1;
	f->sym_opts.kallsyms = f->kallsyms;
	for (i = 0; i < sizeof(session_files) / sizeof(session_files[0]); i++) {
		char dir[700];

		snprintf(dir, sizeof(dir), "%s/%s", f->dir.path, session_files[i].session);
		pp_test_odb(dir, session_files[i].rel, session_files[i].keys,
			    session_files[i].kernel);
	}
	*state = f;
	return 0;
}

int pp_test_fixture_teardown(void **state)
{
	struct pp_test_fixture *f = *state;

	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

void pp_test_fixture_profile(struct pp_test_profile *t, struct pp_test_fixture *f,
			     const char *name, const char *const *spec, unsigned merge)
{
	struct op_err err = { "" };
	char dir[700];

	snprintf(dir, sizeof(dir), "%s/%s", f->dir.path, name);
	if (pp_test_profile_build(t, dir, spec, merge, &f->sym_opts, &err))
		fail_msg("cannot build the profile of session '%s': %s", name, err.msg);
}

int pp_test_report_run(const char *output, struct pp_test_profile *const *t, size_t nr,
		       const struct pp_report_opts *o, char **text, struct op_err *err)
{
	size_t len;

	return pp_test_report_run_len(output, t, nr, o, text, &len, err);
}

int pp_test_report_run_len(const char *output, struct pp_test_profile *const *t,
			   size_t nr, const struct pp_report_opts *o, char **text,
			   size_t *len, struct op_err *err)
{
	const struct pp_output *out = pp_output_find(output);
	struct pp_report_input in = {
		.nr_profiles = nr,
		.o = o,
		.notes = &t[0]->notes,
	};
	size_t i;
	FILE *mem;
	int ret;

	if (!out)
		fail_msg("no output '%s'", output);
	for (i = 0; i < nr; i++)
		in.profiles[i] = &t[i]->p;
	*text = NULL;
	*len = 0;
	mem = open_memstream(text, len);
	assert_non_null(mem);
	ret = pp_report_run(out, &in, mem, err);
	assert_int_equal(fclose(mem), 0);
	return ret;
}

/* line n (from 1) of text, up to its end, for a message */
static int line_len(const char *s)
{
	return (int)strcspn(s, "\n");
}

void pp_test_same_text(int line, const char *got, const char *want)
{
	const char *g = got, *w = want;
	unsigned n = 1;

	if (!strcmp(got, want))
		return;
	while (*g && *w && line_len(g) == line_len(w) && !strncmp(g, w, (size_t)line_len(g))) {
		g += line_len(g);
		w += line_len(w);
		g += *g == '\n';
		w += *w == '\n';
		n++;
	}
	print_message("--- got:\n%s--- expected:\n%s---\n", got, want);
	fail_msg("row at line %d: line %u differs:\n  got      '%.*s'\n  expected '%.*s'",
		 line, n, line_len(g), g, line_len(w), w);
}

void pp_test_out_rows(struct pp_test_fixture *f, const struct pp_test_out_row *rows,
		      size_t nr_rows)
{
	size_t i, k;

	for (i = 0; i < nr_rows; i++) {
		const struct pp_test_out_row *r = &rows[i];
		struct pp_test_profile sides[2], *t[2] = { &sides[0], &sides[1] };
		size_t nr = r->sessions[1] ? 2 : 1;
		struct op_err err = { "" };
		char *text;
		int ret;

		for (k = 0; k < nr; k++)
			pp_test_fixture_profile(t[k], f, r->sessions[k], r->spec, r->merge);
		ret = pp_test_report_run(r->output, t, nr, &r->o, &text, &err);
		if (ret != r->ret)
			fail_msg("row at line %d: %d (%s)", r->line, ret, err.msg);
		pp_test_same_text(r->line, ret ? err.msg : text, r->text);
		pp_test_same_text(r->line, sides[0].noted.buf ? sides[0].noted.buf : "",
				  r->notes ? r->notes : "");
		free(text);
		for (k = 0; k < nr; k++)
			pp_test_profile_release(t[k]);
	}
}
