// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opannotate's outputs ("source", "assembly", "assembly-source" rows of
 * the table) on sessions of the PIE fixture libpp/symbols builds with -g
 * (tests/fixtures/symfix.c), run through pp_report_run().  The text
 * expected is made here from the known counts by opannotate's layout
 * (doc/opannotate.1): the comment block, a count column of width 6 and
 * opreport's percent on the lines with samples, blanks on the others,
 * " :" before each line, a function's total on the line it starts, and
 * for assembly one line per instruction under "ADDRESS <name>:".  The
 * source is symfix.c as it is; the instructions' text is the
 * disassembler's (libpp/symbols/tests compare it with objdump), so what
 * is checked here is where each count goes.
 */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb_name.h"
#include "libpp/report/pp_report.h"
#include "libpp/report/tests/pp_test_report.h"
#include "libpp/symbols/pp_disasm.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"
#include "tests/lib/op_testmark.h"

#define PIE SYMFIX "/pie"
#define BLANKS "              "	/* no samples: 6 + 1 + 7 */

/* samples at fixed offsets of a symbol of the fixture */
struct sample {
	const char *sym;
	uint64_t offset, count;
};

struct fixture {
	struct op_testdir dir;
	struct pp_symtab *t;		/* the fixture's own, to find keys */
};

static const struct pp_sym *sym_named(const struct pp_symtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			return &t->syms[i];
	fail_msg("no %s in %s", name, PIE);
	return NULL;
}

/* the session at dir/name: the program's samples in itself */
static void write_session(struct fixture *f, const char *name,
			  const struct sample *s, size_t nr)
{
	struct op_strbuf rel = OP_STRBUF_INIT, keys = OP_STRBUF_INIT, image = OP_STRBUF_INIT;
	char dir[700];
	size_t i;

	assert_int_equal(odb_name_add_file(&image, PIE), 0);
	assert_int_equal(odb_name_add_images(&rel, image.buf, image.buf, NULL), 0);
	assert_int_equal(odb_name_add_spec(&rel, "ev", 100000, 0, ODB_ALL, ODB_ALL, ODB_ALL), 0);
	for (i = 0; i < nr; i++)
		op_strbuf_addf(&keys, "%s%" PRIx64 ":%" PRIu64, i ? " " : "",
			       sym_named(f->t, s[i].sym)->start + s[i].offset, s[i].count);
	snprintf(dir, sizeof(dir), "%s/%s", f->dir.path, name);
	pp_test_odb(dir, rel.buf, keys.buf, false);
	op_strbuf_release(&rel);
	op_strbuf_release(&keys);
	op_strbuf_release(&image);
}

/* fix_alpha (one line of symfix.c) 20 and 10; fix_beta 6 and 4 */
static const struct sample alpha_samples[] = {
	{ "fix_alpha", 0, 20 }, { "fix_alpha", 6, 10 },
};
static const struct sample both_samples[] = {
	{ "fix_alpha", 0, 20 }, { "fix_alpha", 6, 10 },
	{ "fix_beta", 0xe, 6 }, { "fix_beta", 0x14, 4 },
};

static int setup(void **state)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)PIE };
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || op_testdir_make(&f->dir) || pp_symtab_load(&id, false, 0, NULL, &f->t))
		return -1;
	write_session(f, "a", alpha_samples, 2);
	write_session(f, "b", both_samples, 4);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_symtab_free(f->t);
	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

static void profile(struct fixture *f, const char *name, struct pp_test_profile *t)
{
	struct op_err err = { "" };
	char dir[700];

	snprintf(dir, sizeof(dir), "%s/%s", f->dir.path, name);
	if (pp_test_profile_build(t, dir, NULL, 0, NULL, &err))
		fail_msg("%s", err.msg);
}

/* the comment block at the top */
static void info_block(struct op_strbuf *sb, const char *what)
{
	op_strbuf_addf(sb, "/* \n"
		       " * Command line: opannotate \n"
		       " * \n"
		       " * Interpretation of command line:\n"
		       "%s"
		       " * \n"
		       " * CPU: Intel Skylake microarchitecture, speed 2400 MHz (estimated)\n"
		       " * Counted ev events with a unit mask of 0x00 count 100000\n"
		       " */\n", what);
}

/* "    30 75.0000": a count of width 6, its share of total */
static void counts(struct op_strbuf *sb, uint64_t n, uint64_t total)
{
	char pct[32];

	pp_format_percent(pct, sizeof(pct), n * 100.0 / total, false);
	op_strbuf_addf(sb, "%6" PRIu64 " %s", n, pct);
}

/* the text of symfix.c, line by line (a copy the caller frees) */
static char **source_lines(size_t *nr, char **text)
{
	char **lines, *p;
	size_t len, n = 0;

	assert_int_equal(op_read_file(SYMFIX_SRC "/symfix.c", 1 << 20, text, &len), 0);
	lines = calloc(len + 1, sizeof(*lines));
	assert_non_null(lines);
	for (p = *text; *p; ) {
		char *nl = strchr(p, '\n');

		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	*nr = n;
	return lines;
}

/* --source: every line of symfix.c, fix_alpha's with its 30 samples */
static void test_source(void **state)
{
	struct fixture *f = *state;
	const struct pp_sym *alpha = sym_named(f->t, "fix_alpha");
	unsigned line = op_test_marker_line(SYMFIX_SRC "/symfix.c", "LINE:fix_alpha"), l;
	struct op_strbuf want = OP_STRBUF_INIT;
	struct pp_report_opts o = { 0 };
	struct pp_test_profile t, *tp = &t;
	const char *file, *why;
	struct op_err err = { "" };
	char *got, *text, **lines;
	unsigned at;
	size_t nr, i;

	/* where the debug information puts fix_alpha: its one line */
	assert_true(line > 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(pp_symtab_line(f->t, alpha->start + alpha_samples[i].offset,
						&file, &at, &why), 0);
		assert_int_equal(at, line);
	}
	lines = source_lines(&nr, &text);
	info_block(&want, " * Output annotated source file with samples\n * Output all files\n");
	op_strbuf_addf(&want, "/* \n * Total samples for file : \"%s\"\n * \n * ", file);
	counts(&want, 30, 30);
	op_strbuf_addstr(&want, "\n */\n\n\n");
	for (l = 1; l <= nr; l++) {
		if (l != line) {
			op_strbuf_addf(&want, BLANKS " :%s\n", lines[l - 1]);
			continue;
		}
		counts(&want, 30, 30);
		op_strbuf_addf(&want, " :%s /* fix_alpha total: ", lines[l - 1]);
		counts(&want, 30, 30);
		op_strbuf_addstr(&want, " */\n");
	}
	profile(f, "a", &t);
	assert_int_equal(pp_test_report_run("source", &tp, 1, &o, &got, &err), 0);
	pp_test_same_text(__LINE__, got, want.buf);
	pp_test_same_text(__LINE__, t.noted.buf ? t.noted.buf : "", "");
	free(got);
	free(text);
	free(lines);
	op_strbuf_release(&want);
	pp_test_profile_release(&t);
}

/*
 * One symbol as --assembly shows it: a blank line, "ADDRESS <name>:"
 * with its total, then each instruction with the samples of its bytes.
 * With source, the line of symfix.c above its first instruction.
 */
static void asm_symbol(struct op_strbuf *sb, struct fixture *f, struct pp_disasm *d,
		       const char *name, const struct sample *s, size_t nr,
		       uint64_t total, const char *source)
{
	const struct pp_sym *sym = sym_named(f->t, name);
	struct op_strbuf insn = OP_STRBUF_INIT;
	unsigned char code[256];
	uint64_t sum = 0, off;
	size_t len = sym->end - sym->start, i;
	const char *why;

	for (i = 0; i < nr; i++)
		if (!strcmp(s[i].sym, name))
			sum += s[i].count;
	assert_true(len <= sizeof(code));
	assert_int_equal(pp_symtab_code(f->t, sym->start, code, len, &why), (long)len);
	op_strbuf_addf(sb, BLANKS " :\n%016" PRIx64 " <%s>: /* %s total: ", sym->vma, name,
		       name);
	counts(sb, sum, total);
	op_strbuf_addstr(sb, " */\n");
	if (source)
		op_strbuf_addf(sb, BLANKS " :%s\n", source);
	for (off = 0; off < len;) {
		int n;
		uint64_t here = 0;

		op_strbuf_reset(&insn);
		n = pp_disasm_insn(d, code + off, len - off, sym->vma + off, &insn);
		assert_true(n > 0);
		for (i = 0; i < nr; i++)
			if (!strcmp(s[i].sym, name) && s[i].offset >= off &&
			    s[i].offset < off + (uint64_t)n)
				here += s[i].count;
		if (here)
			counts(sb, here, total);
		else
			op_strbuf_addstr(sb, BLANKS);
		op_strbuf_addf(sb, " :  %" PRIx64 ":\t%s\n", sym->vma + off, insn.buf);
		off += (uint64_t)n;
	}
	op_strbuf_release(&insn);
}

static void test_assembly(void **state)
{
	static const struct {
		int line;
		const char *output;
		const char *session;
		const struct sample *samples;
		size_t nr;
		bool source;
	} rows[] = {
		{ __LINE__, "assembly", "a", alpha_samples, 2, false },
		/* most samples first */
		{ __LINE__, "assembly", "b", both_samples, 4, false },
		/* with the source line above an instruction where it changes */
		{ __LINE__, "assembly-source", "a", alpha_samples, 2, true },
	};
	struct fixture *f = *state;
	size_t i, k;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf want = OP_STRBUF_INIT;
		struct pp_report_opts o = { 0 };
		struct pp_test_profile t, *tp = &t;
		struct op_err err = { "" };
		struct pp_disasm *d;
		char *got = NULL, *text = NULL, **lines = NULL;
		uint64_t total = 0;
		size_t nr_lines;

		for (k = 0; k < rows[i].nr; k++)
			total += rows[i].samples[k].count;
		assert_int_equal(pp_disasm_open(PIE, NULL, &d, NULL), 0);
		info_block(&want, rows[i].source ?
			   " * Output annotated assembly listing with samples\n"
			   " * Interleaved with the source lines of each instruction\n" :
			   " * Output annotated assembly listing with samples\n");
		op_strbuf_addstr(&want, BLANKS " :\n" BLANKS " :Disassembly of " PIE ":\n");
		if (rows[i].source)
			lines = source_lines(&nr_lines, &text);
		asm_symbol(&want, f, d, "fix_alpha", rows[i].samples, rows[i].nr, total,
			   lines ? lines[op_test_marker_line(SYMFIX_SRC "/symfix.c",
							     "LINE:fix_alpha") - 1] : NULL);
		if (rows[i].nr > 2)
			asm_symbol(&want, f, d, "fix_beta", rows[i].samples, rows[i].nr, total,
				   NULL);
		pp_disasm_close(d);
		profile(f, rows[i].session, &t);
		if (pp_test_report_run(rows[i].output, &tp, 1, &o, &got, &err))
			fail_msg("row at line %d: %s", rows[i].line, err.msg);
		pp_test_same_text(rows[i].line, got, want.buf);
		pp_test_same_text(rows[i].line, t.noted.buf ? t.noted.buf : "", "");
		free(got);
		free(text);
		free(lines);
		op_strbuf_release(&want);
		pp_test_profile_release(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_assembly),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
