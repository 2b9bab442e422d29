// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol rows and call-graph arcs (pp_rows.h, pp_arcs.h) of a fake
 * session whose kernel symbols come from a kallsyms file the test writes,
 * so every symbol's extent is known: keys attributed to symbols by the
 * merge walk (a group with many keys) and by binary search (few keys
 * against a big table), samples outside every symbol in gap rows, -x
 * and rows per image, which profiles have several applications per
 * class, the keys of a row merged over its groups; arcs between rows,
 * arcs into and out of gaps, -x leaving out arcs into images an
 * application merely uses, and the order of caller and callee lists.
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
#include <unistd.h>
#include <cmocka.h>

#include "libpp/profile/pp_arcs.h"
#include "libpp/profile/pp_rows.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

/*
 * Kernel symbols: four named ones, a gap (data_gap bounds gamma), then
 * 200 of 16 bytes each: s000 at 0x10000 ... s199 at 0x10c70.  A group
 * with fewer than 11 keys is looked up by binary search (204 symbols).
 */
static char *kallsyms_text(void)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	unsigned i;

	op_strbuf_addstr(&sb, "0000000000001000 T alpha\n"
			 "0000000000001100 T beta\n"
			 "0000000000001200 t gamma\n"
			 "0000000000001280 D data_gap\n"
			 "0000000000001300 T delta\n"
			 "0000000000001400 D the_end\n");
	for (i = 0; i < 200; i++)
		op_strbuf_addf(&sb, "%016x T s%03u\n", 0x10000 + 16 * i, i);
	op_strbuf_addf(&sb, "%016x D s_end\n", 0x10000 + 16 * 200);
	return op_strbuf_detach(&sb);
}

/* the applications: the kernel itself (its own image), and a program */
#define K "{kern}/no-vmlinux/{dep}/{kern}/no-vmlinux"
#define APP_K "{root}/opt/t/app/{dep}/{kern}/no-vmlinux"
#define APP "{root}/opt/t/app/{dep}/{root}/opt/t/app"
#define CPU0 "/ev.1000.0.all.all.0"
#define CPU1 "/ev.1000.0.all.all.1"

struct fixture {
	struct op_testdir dir;
	char kallsyms[600];
	struct pp_sym_opts sym_opts;
};

/* the keys of K's cpu 0 file: 7 around the named symbols, 12 in s000..s011 */
static char *k_keys(void)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	unsigned i;

	op_strbuf_addstr(&sb, "800:1 1000:10 10ff:5 1100:7 1290:3 1300:2 1400:4");
	for (i = 0; i < 12; i++)
		op_strbuf_addf(&sb, " %x:%u", 0x10000 + 16 * i + i % 3, i + 1);
	return op_strbuf_detach(&sb);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *text = kallsyms_text(), *keys = k_keys();

	if (!f || !text || !keys || op_testdir_make(&f->dir) ||
	    !op_testdir_file(&f->dir, "kallsyms", f->kallsyms, sizeof(f->kallsyms)) ||
	    op_write_file_atomic(f->kallsyms, text, strlen(text), 0644))
		return -1;
	f->sym_opts.kallsyms = f->kallsyms;
	/* K: the walk (19 keys), with 8 samples outside every symbol */
	pp_test_odb(f->dir.path, K CPU0, keys, true);
	pp_test_odb(f->dir.path, K CPU1, "1000:100", true);
	/* the program in the kernel: binary searches (3 keys, one where beta
	 * ends and gamma starts) */
	pp_test_odb(f->dir.path, APP_K CPU0, "1010:4 1200:6 10050:1", true);
	/* the program's own image: missing, one artificial symbol */
	pp_test_odb(f->dir.path, APP CPU0, "40:8 80:2", false);
	/*
	 * Call graphs, keys FROM << 32 | TO: in the kernel alpha -> beta (3 +
	 * 2, and 7 on cpu 1), beta -> gamma 4, alpha -> gamma 1, delta ->
	 * alpha 5, delta -> beta 5; from outside 6 and into the gap 2, both
	 * dropped; the program into the kernel's alpha, 9.
	 */
	pp_test_odb(f->dir.path, K "/{cg}/{kern}/no-vmlinux" CPU0,
		    "101000001100:3 102000001110:2 115000001200:4 103000001210:1 "
		    "130000001000:5 131000001100:5 90000001000:6 100000001290:2", true);
	pp_test_odb(f->dir.path, K "/{cg}/{kern}/no-vmlinux" CPU1, "101000001100:7", true);
	pp_test_odb(f->dir.path, APP "/{cg}/{kern}/no-vmlinux" CPU0, "4000001000:9", false);
	free(text);
	free(keys);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

/* the fixture's profile, loaded with symbols */
static void load(struct fixture *f, struct pp_test_profile *t)
{
	struct op_err err = { "" };

	assert_int_equal(pp_test_profile_build(t, f->dir.path, NULL, 0, &f->sym_opts, &err), 0);
	assert_int_equal(t->p.nr_classes, 2);
	assert_int_equal(pp_profile_load(&t->p, true, &t->notes, &err), 0);
}

/* the symbol of image named name, or holding key X for "@X" (a gap) */
static const struct pp_sym *sym_named(struct pp_profile *p, size_t image, const char *name)
{
	struct pp_symtab *t = pp_image_symtab(p, image);
	size_t i;

	if (name[0] == '@')
		return pp_symtab_hold(t, strtoull(name + 1, NULL, 16));
	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			return &t->syms[i];
	fail_msg("no symbol '%s' in image %zu", name, image);
	return NULL;
}

/* a row by the names of its image, application and symbol (NULL: per image) */
struct row_key {
	const char *image, *app, *sym;
};

/* a row expected, with its counts per class */
struct want_row {
	int line;
	struct row_key key;
	uint64_t counts[2];
};

static const struct pp_row *find_row(struct pp_profile *p, struct pp_rows *r,
				     const struct row_key *w)
{
	size_t image = pp_test_image(p, w->image);

	return pp_rows_find(r, image, pp_test_app(p, w->app),
			    w->sym ? sym_named(p, image, w->sym) : NULL);
}

/* r holds exactly the rows of want[0..nr) */
static void check_rows(struct pp_profile *p, struct pp_rows *r,
		       const struct want_row *want, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct pp_row *row = find_row(p, r, &want[i].key);

		if (!row || row->counts[0] != want[i].counts[0] ||
		    row->counts[1] != want[i].counts[1])
			fail_msg("row at line %d: %s, counts %" PRIu64 " %" PRIu64, want[i].line,
				 row ? "found" : "missing", row ? row->counts[0] : 0,
				 row ? row->counts[1] : 0);
		if (row != &r->rows[row->index])
			fail_msg("row at line %d: index %zu", want[i].line, row->index);
	}
	if (r->nr != nr)
		fail_msg("%zu rows, expected %zu", r->nr, nr);
}

#define KN "no-vmlinux"
#define PRG "/opt/t/app"

/* K's rows, as the walk makes them */
#define K_ROWS								\
	{ __LINE__, { KN, KN, "alpha" }, { 15, 100 } },			\
	{ __LINE__, { KN, KN, "beta" }, { 7, 0 } },				\
	{ __LINE__, { KN, KN, "delta" }, { 2, 0 } },			\
	{ __LINE__, { KN, KN, "s000" }, { 1, 0 } },				\
	{ __LINE__, { KN, KN, "s001" }, { 2, 0 } },				\
	{ __LINE__, { KN, KN, "s002" }, { 3, 0 } },				\
	{ __LINE__, { KN, KN, "s003" }, { 4, 0 } },				\
	{ __LINE__, { KN, KN, "s004" }, { 5, 0 } },				\
	{ __LINE__, { KN, KN, "s005" }, { 6, 0 } },				\
	{ __LINE__, { KN, KN, "s006" }, { 7, 0 } },				\
	{ __LINE__, { KN, KN, "s007" }, { 8, 0 } },				\
	{ __LINE__, { KN, KN, "s008" }, { 9, 0 } },				\
	{ __LINE__, { KN, KN, "s009" }, { 10, 0 } },			\
	{ __LINE__, { KN, KN, "s010" }, { 11, 0 } },			\
	{ __LINE__, { KN, KN, "s011" }, { 12, 0 } },			\
	/* the gaps below alpha, after gamma, after delta */		\
	{ __LINE__, { KN, KN, "@800" }, { 1, 0 } },				\
	{ __LINE__, { KN, KN, "@1290" }, { 3, 0 } },			\
	{ __LINE__, { KN, KN, "@1400" }, { 4, 0 } }

static void test_rows(void **state)
{
	static const struct want_row want[] = {
		K_ROWS,
		/* binary searches */
		{ __LINE__, { KN, PRG, "alpha" }, { 4, 0 } },
		{ __LINE__, { KN, PRG, "gamma" }, { 6, 0 } },
		{ __LINE__, { KN, PRG, "s005" }, { 1, 0 } },
		/* a missing binary: one symbol named after it */
		{ __LINE__, { PRG, PRG, PRG }, { 10, 0 } },
	};
	struct fixture *f = *state;
	struct pp_test_profile t;
	struct pp_rows r;

	load(f, &t);
	/* the kernel's table is read beside the samples, the missing binary's
	 * made on demand */
	assert_non_null(t.p.images[pp_test_image(&t.p, KN)].symtab);
	assert_int_equal(t.p.images[pp_test_image(&t.p, KN)].symtab->source, PP_SYMS_KALLSYMS);
	pp_rows_build(&r, &t.p, NULL);
	check_rows(&t.p, &r, want, sizeof(want) / sizeof(want[0]));
	/* gaps between kallsyms symbols, cut at 4 KiB pages */
	assert_string_equal(sym_named(&t.p, pp_test_image(&t.p, KN), "@800")->name,
			    "[no-vmlinux 0x0-0xfff]");
	assert_string_equal(sym_named(&t.p, pp_test_image(&t.p, KN), "@1290")->name,
			    "[no-vmlinux 0x1280-0x12ff]");
	assert_string_equal(sym_named(&t.p, pp_test_image(&t.p, KN), "@1400")->name,
			    "[no-vmlinux 0x1400-0x1fff]");
	/* below alpha, in the gap after gamma, after delta */
	assert_int_equal(r.outside[0], 1 + 3 + 4);
	assert_int_equal(r.outside[1], 0);
	assert_int_equal(r.totals[0], 110 + 11 + 10);
	assert_int_equal(r.totals[1], 100);
	assert_true(r.multiple_apps);
	assert_int_equal(pp_image_symtab(&t.p, pp_test_image(&t.p, PRG))->source, PP_SYMS_NONE);
	pp_rows_release(&r);
	pp_rows_release(&r);
	pp_test_profile_release(&t);
}

/* -x: only each application's own image; rows per image */
static void test_rows_options(void **state)
{
	static const struct want_row own[] = {
		K_ROWS,
		{ __LINE__, { PRG, PRG, PRG }, { 10, 0 } },
	};
	static const struct want_row per_image[] = {
		{ __LINE__, { KN, KN, NULL }, { 110, 100 } },
		{ __LINE__, { KN, PRG, NULL }, { 11, 0 } },
		{ __LINE__, { PRG, PRG, NULL }, { 10, 0 } },
	};
	static const struct want_row own_per_image[] = {
		{ __LINE__, { KN, KN, NULL }, { 110, 100 } },
		{ __LINE__, { PRG, PRG, NULL }, { 10, 0 } },
	};
	static const struct {
		int line;
		struct pp_rows_opts opts;
		const struct want_row *want;
		size_t nr;
		uint64_t outside;
	} rows[] = {
		{ __LINE__, { .exclude_dependent = true }, own, sizeof(own) / sizeof(own[0]), 8 },
		{ __LINE__, { .per_image = true }, per_image,
		  sizeof(per_image) / sizeof(per_image[0]), 0 },
		{ __LINE__, { .per_image = true, .exclude_dependent = true }, own_per_image,
		  sizeof(own_per_image) / sizeof(own_per_image[0]), 0 },
	};
	struct fixture *f = *state;
	size_t i, k;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_test_profile t;
		struct pp_rows r;

		load(f, &t);
		pp_rows_build(&r, &t.p, &rows[i].opts);
		check_rows(&t.p, &r, rows[i].want, rows[i].nr);
		/* the totals are of every sample, shown or not */
		if (r.outside[0] != rows[i].outside || r.totals[0] != 131 || r.totals[1] != 100)
			fail_msg("row at line %d: outside %" PRIu64 ", totals %" PRIu64 " %" PRIu64,
				 rows[i].line, r.outside[0], r.totals[0], r.totals[1]);
		for (k = 0; k < r.nr; k++)
			if (rows[i].opts.per_image && r.rows[k].sym)
				fail_msg("row at line %d: a symbol per image", rows[i].line);
		pp_rows_release(&r);
		pp_test_profile_release(&t);
	}
}

/* which profiles have several applications in a class (rows per image) */
static void test_multiple_apps(void **state)
{
	static const struct {
		int line;
		const char *files[3];
		unsigned merge;
		bool exclude;
		bool multiple;
	} rows[] = {
		/* one application with a library */
		{ __LINE__, { "{root}/opt/t/a/{dep}/{root}/opt/t/a" CPU0,
			      "{root}/opt/t/a/{dep}/{root}/opt/t/lib.so" CPU0 }, 0, false, false },
		/* two, each in a class of its own */
		{ __LINE__, { "{root}/opt/t/a/{dep}/{root}/opt/t/a" CPU0,
			      "{root}/opt/t/b/{dep}/{root}/opt/t/b" CPU1 }, 0, false, false },
		{ __LINE__, { "{root}/opt/t/a/{dep}/{root}/opt/t/a" CPU0,
			      "{root}/opt/t/b/{dep}/{root}/opt/t/b" CPU0 }, 0, false, true },
		/* b only in a library: -x leaves b out */
		{ __LINE__, { "{root}/opt/t/a/{dep}/{root}/opt/t/a" CPU0,
			      "{root}/opt/t/b/{dep}/{root}/opt/t/lib.so" CPU0 }, 0, false, true },
		{ __LINE__, { "{root}/opt/t/a/{dep}/{root}/opt/t/a" CPU0,
			      "{root}/opt/t/b/{dep}/{root}/opt/t/lib.so" CPU0 }, 0, true, false },
		/* --merge=lib: the library is an application */
		{ __LINE__, { "{root}/opt/t/a/{dep}/{root}/opt/t/a" CPU0,
			      "{root}/opt/t/a/{dep}/{root}/opt/t/lib.so" CPU0 }, PP_MERGE_LIB,
		  false, true },
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_rows_opts o = { .per_image = true, .exclude_dependent = rows[i].exclude };
		struct op_err err = { "" };
		struct pp_test_profile t;
		struct op_testdir dir;
		struct pp_rows r;

		assert_int_equal(op_testdir_make(&dir), 0);
		for (k = 0; k < 3 && rows[i].files[k]; k++)
			pp_test_odb(dir.path, rows[i].files[k], "10:1", false);
		assert_int_equal(pp_test_profile_build(&t, dir.path, NULL, rows[i].merge, NULL,
						       &err), 0);
		assert_int_equal(pp_profile_load(&t.p, false, &t.notes, &err), 0);
		pp_rows_build(&r, &t.p, &o);
		if (r.multiple_apps != rows[i].multiple)
			fail_msg("row at line %d: multiple_apps %d", rows[i].line, r.multiple_apps);
		pp_rows_release(&r);
		pp_test_profile_release(&t);
		op_testdir_remove(&dir);
	}
}

/* "KEY:C0/C1 ..." of a row's keys */
static void add_key(void *data, uint64_t key, const uint64_t *counts)
{
	op_strbuf_addf(data, " %" PRIx64 ":%" PRIu64 "/%" PRIu64, key, counts[0], counts[1]);
}

/* the keys of a row over its groups (one per class), its application's only */
static void test_row_keys(void **state)
{
	static const struct {
		int line;
		struct row_key row;
		const char *keys;
	} rows[] = {
		{ __LINE__, { KN, KN, "alpha" }, " 1000:10/100 10ff:5/0" },
		{ __LINE__, { KN, KN, "beta" }, " 1100:7/0" },
		{ __LINE__, { KN, KN, "s002" }, " 10022:3/0" },
		{ __LINE__, { KN, PRG, "alpha" }, " 1010:4/0" },
		{ __LINE__, { PRG, PRG, PRG }, " 40:8/0 80:2/0" },
	};
	struct fixture *f = *state;
	struct pp_test_profile t;
	struct pp_rows r;
	size_t i;

	load(f, &t);
	pp_rows_build(&r, &t.p, NULL);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pp_row *row = find_row(&t.p, &r, &rows[i].row);
		struct op_strbuf sb = OP_STRBUF_INIT;

		assert_non_null(row);
		pp_rows_for_each_key(&t.p, &r, row, add_key, &sb);
		if (strcmp(sb.buf ? sb.buf : "", rows[i].keys))
			fail_msg("row at line %d: keys%s", rows[i].line, sb.buf);
		op_strbuf_release(&sb);
	}
	pp_rows_release(&r);
	pp_test_profile_release(&t);
}

/* --- arcs ------------------------------------------------------------------ */

struct want_arc {
	int line;
	struct row_key from, to;
	uint64_t counts[2];
};

#define K_ARCS								\
	{ __LINE__, { KN, KN, "alpha" }, { KN, KN, "beta" }, { 5, 7 } },	\
	{ __LINE__, { KN, KN, "beta" }, { KN, KN, "gamma" }, { 4, 0 } },	\
	{ __LINE__, { KN, KN, "alpha" }, { KN, KN, "gamma" }, { 1, 0 } },	\
	{ __LINE__, { KN, KN, "delta" }, { KN, KN, "alpha" }, { 5, 0 } },	\
	{ __LINE__, { KN, KN, "delta" }, { KN, KN, "beta" }, { 5, 0 } },	\
	/* from below alpha, and into the gap after gamma: gap rows */	\
	{ __LINE__, { KN, KN, "@900" }, { KN, KN, "alpha" }, { 6, 0 } },	\
	{ __LINE__, { KN, KN, "alpha" }, { KN, KN, "@1290" }, { 2, 0 } }

static void check_arcs(struct pp_profile *p, struct pp_rows *r,
		       const struct pp_arcs *a, const struct want_arc *want, size_t nr)
{
	size_t i, k;

	for (i = 0; i < nr; i++) {
		const struct pp_row *from = find_row(p, r, &want[i].from);
		const struct pp_row *to = find_row(p, r, &want[i].to);

		if (!from || !to)
			fail_msg("arc at line %d: no row", want[i].line);
		for (k = 0; k < a->nr; k++)
			if (a->v[k].caller == from->index && a->v[k].callee == to->index)
				break;
		if (k == a->nr || a->v[k].counts[0] != want[i].counts[0] ||
		    a->v[k].counts[1] != want[i].counts[1])
			fail_msg("arc at line %d: %s", want[i].line, k == a->nr ? "missing" :
				 "wrong counts");
	}
	if (a->nr != nr)
		fail_msg("%zu arcs, expected %zu", a->nr, nr);
}

static void test_arcs(void **state)
{
	static const struct want_arc all[] = {
		K_ARCS,
		{ __LINE__, { PRG, PRG, PRG }, { KN, PRG, "alpha" }, { 9, 0 } },
	};
	static const struct want_arc own[] = { K_ARCS };
	static const struct {
		int line;
		bool exclude;
		const struct want_arc *want;
		size_t nr;
	} rows[] = {
		{ __LINE__, false, all, sizeof(all) / sizeof(all[0]) },
		/* -x: not the program's call into the kernel */
		{ __LINE__, true, own, sizeof(own) / sizeof(own[0]) },
	};
	static const struct row_key gamma = { KN, KN, "gamma" };
	struct fixture *f = *state;
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_rows_opts o = { .exclude_dependent = rows[i].exclude };
		struct pp_test_profile t;
		const struct pp_row *row;
		struct pp_arcs a;
		struct pp_rows r;
		size_t nr_rows;

		load(f, &t);
		pp_rows_build(&r, &t.p, &o);
		nr_rows = r.nr;
		/* gamma has no samples of the kernel's own: an arc end only */
		assert_null(find_row(&t.p, &r, &gamma));
		pp_arcs_build(&a, &t.p, &r, rows[i].exclude, false, &t.notes);
		check_arcs(&t.p, &r, &a, rows[i].want, rows[i].nr);
		row = find_row(&t.p, &r, &gamma);
		if (!row || row->counts[0] || row->counts[1] || r.nr != nr_rows + 1)
			fail_msg("row at line %d: gamma's row", rows[i].line);
		assert_int_equal(t.notes.nr, 0);
		pp_arcs_release(&a);
		pp_arcs_release(&a);
		pp_rows_release(&r);
		pp_test_profile_release(&t);
	}
}

/* "NAME[self]:C0/C1 ..." of a caller or callee list */
static void list_text(struct op_strbuf *sb, const struct pp_arc_entry *e, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		op_strbuf_addf(sb, "%s%s%s:%" PRIu64 "/%" PRIu64, i ? " " : "", e[i].row->sym->name,
			       e[i].self ? "[self]" : "", e[i].counts[0], e[i].counts[1]);
}

/* callers and callees most calls first (fewest with reverse), the row's
 * own samples among its callees, ties in row order */
static void test_arc_lists(void **state)
{
	static const struct {
		int line;
		struct row_key row;
		bool callees, reverse;
		const char *list;
	} rows[] = {
		{ __LINE__, { KN, KN, "alpha" }, false, false,
		  "[no-vmlinux 0x0-0xfff]:6/0 delta:5/0" },
		{ __LINE__, { KN, KN, "alpha" }, true, false,
		  "alpha[self]:15/100 beta:5/7 [no-vmlinux 0x1280-0x12ff]:2/0 gamma:1/0" },
		{ __LINE__, { KN, KN, "alpha" }, true, true,
		  "gamma:1/0 [no-vmlinux 0x1280-0x12ff]:2/0 beta:5/7 alpha[self]:15/100" },
		{ __LINE__, { KN, KN, "beta" }, false, false, "alpha:5/7 delta:5/0" },
		{ __LINE__, { KN, KN, "beta" }, true, false, "beta[self]:7/0 gamma:4/0" },
		{ __LINE__, { KN, KN, "gamma" }, false, false, "beta:4/0 alpha:1/0" },
		{ __LINE__, { KN, KN, "gamma" }, false, true, "alpha:1/0 beta:4/0" },
		{ __LINE__, { KN, KN, "gamma" }, true, false, "gamma[self]:0/0" },
		{ __LINE__, { KN, KN, "delta" }, false, false, "" },
		{ __LINE__, { KN, PRG, "alpha" }, false, false, PRG ":9/0" },
		{ __LINE__, { PRG, PRG, PRG }, true, false, PRG "[self]:10/0 alpha:9/0" },
	};
	struct fixture *f = *state;
	struct pp_test_profile t;
	struct pp_arc_entry *buf;
	struct pp_arcs a;
	struct pp_rows r;
	size_t i;

	load(f, &t);
	pp_rows_build(&r, &t.p, NULL);
	pp_arcs_build(&a, &t.p, &r, false, false, &t.notes);
	buf = calloc(a.nr + 1, sizeof(*buf));
	assert_non_null(buf);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pp_row *row = find_row(&t.p, &r, &rows[i].row);
		struct op_strbuf sb = OP_STRBUF_INIT;
		size_t nr = pp_arcs_list(&a, &r, row, rows[i].callees, rows[i].reverse, buf);

		list_text(&sb, buf, nr);
		if (strcmp(sb.buf ? sb.buf : "", rows[i].list))
			fail_msg("row at line %d: '%s'", rows[i].line, sb.buf);
		op_strbuf_release(&sb);
	}
	free(buf);
	pp_arcs_release(&a);
	pp_rows_release(&r);
	pp_test_profile_release(&t);
}

/* a {cg} file that cannot be read when the arcs are built: noted, skipped */
static void test_arcs_unreadable(void **state)
{
	struct fixture *f = *state;
	static const char rel[] = APP "/{cg}/{kern}/no-vmlinux" CPU0;
	char *path = pp_test_path(f->dir.path, PP_TEST_CURRENT APP "/{cg}/{kern}/no-vmlinux" CPU0);
	struct op_strbuf want = OP_STRBUF_INIT;
	static const struct want_arc own[] = { K_ARCS };
	struct pp_test_profile t;
	struct pp_arcs a;
	struct pp_rows r;

	load(f, &t);
	pp_rows_build(&r, &t.p, NULL);
	assert_int_equal(op_write_file_atomic(path, "garbage", 7, 0644), 0);
	pp_arcs_build(&a, &t.p, &r, false, false, &t.notes);
	check_arcs(&t.p, &r, &a, own, sizeof(own) / sizeof(own[0]));
	op_strbuf_addf(&want, "cannot read sample file '%s': %s\n", path,
		       odb_strerror(ODB_ERR_TRUNCATED));
	assert_string_equal(t.noted.buf, want.buf);
	pp_arcs_release(&a);
	pp_rows_release(&r);
	pp_test_profile_release(&t);
	/* the fixture as it was */
	assert_int_equal(unlink(path), 0);
	pp_test_odb(f->dir.path, rel, "4000001000:9", false);
	op_strbuf_release(&want);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_rows_options),
		cmocka_unit_test(test_multiple_apps),
		cmocka_unit_test(test_row_keys),
		cmocka_unit_test(test_arcs),
		cmocka_unit_test(test_arc_lists),
		cmocka_unit_test(test_arcs_unreadable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
