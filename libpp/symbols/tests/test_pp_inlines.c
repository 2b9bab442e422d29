// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inline chains (pp_symtab_inlines()) of inlfix.c, built -O2 -g as a PIE,
 * a non-PIE, a shared library and a stripped PIE with its debug file by
 * build-id (Makefile.am, "ELF fixtures"), compared at every address of
 * .text with binutils' addr2line -i (innermost function first, then each
 * caller with the call site), or llvm-symbolizer's GNU output for clang's
 * builds (addr2line 2.40 misreads clang's DW_FORM_rnglistx ranges), and
 * with the calls marked CALL: in the source; the outermost call site
 * alone (pp_symtab_call_site()) against the chains; no DWARF, and
 * running out of memory in a lookup.
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

#include "libpp/symbols/pp_symbols.h"
#include "libpp/symbols/tests/pp_test_symtab.h"
#include "libutil/op_alloc.h"
#include "tests/lib/op_testdir.h"
#include "tests/lib/op_testmark.h"

#define MAX_CHAIN 8

static unsigned marker_line(const char *marker)
{
	unsigned n = op_test_marker_line(SYMFIX_SRC "/inlfix.c", marker);

	if (!n)
		fail_msg("no %s in inlfix.c", marker);
	return n;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* === inline chains against addr2line ==================================== */

struct a2l_level {
	char function[128];
	char file[512];
	unsigned line;
};

struct a2l_addr {
	uint64_t vma;
	struct a2l_level v[MAX_CHAIN + 1];
	size_t nr;
};

/* "FILE:LINE" or "FILE:LINE (discriminator N)" into l */
static void parse_location(const char *s, struct a2l_level *l)
{
	const char *colon = strrchr(s, ':');
	char *end;

	l->line = 0;
	assert_true(!colon || (size_t)(colon - s) < sizeof(l->file));
	snprintf(l->file, sizeof(l->file), "%.*s", colon ? (int)(colon - s) : 0, s);
	if (colon)
		l->line = (unsigned)strtoul(colon + 1, &end, 10);
}

/*
 * addr2line -a -i -f (or llvm-symbolizer's same) over the vmas: per
 * address its "0x..." line, then function and location pairs.  Returns
 * false when the tool cannot run.
 */
static bool run_addr2line(const char *dir, const char *binary, bool clang,
			  struct a2l_addr *a, size_t nr)
{
	char in[128], out[128], cmd[1024], line[1024];
	struct a2l_addr *cur = NULL;
	size_t i, k = 0;
	FILE *f;
	int st;

	snprintf(in, sizeof(in), "%s/a2l.in", dir);
	snprintf(out, sizeof(out), "%s/a2l.out", dir);
	f = fopen(in, "w");
	assert_non_null(f);
	for (i = 0; i < nr; i++)
		fprintf(f, "%#llx\n", (unsigned long long)a[i].vma);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "%s -a -i -f -e '%s' <'%s' >'%s' 2>/dev/null",
		 clang ? "llvm-symbolizer --output-style=GNU" : "addr2line", binary, in, out);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return false;
	f = fopen(out, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "0x", 2)) {
			assert_true(k < nr);
			cur = &a[k++];
			assert_int_equal(strtoull(line, NULL, 16), cur->vma);
			cur->nr = 0;
			continue;
		}
		assert_non_null(cur);
		assert_true(cur->nr <= MAX_CHAIN);
		assert_true(strlen(line) < sizeof(cur->v[0].function));
		snprintf(cur->v[cur->nr].function, sizeof(cur->v[0].function), "%.127s", line);
		assert_non_null(fgets(line, sizeof(line), f));
		line[strcspn(line, "\n")] = '\0';
		parse_location(line, &cur->v[cur->nr++]);
	}
	fclose(f);
	assert_int_equal(k, nr);
	return true;
}

/*
 * Our chain at one address against addr2line's: its level k names our
 * inlined function k, and its level k + 1's location is our call site k
 * (the same absolute path: libdw's relative one joined to the comp_dir).
 * Level 0's location is the address's own line, which pp_symtab_line()
 * must name the same way.  Returns the chain's length.
 */
static int check_chain(struct pp_symtab *t, uint64_t key, const struct a2l_addr *a,
		       int row)
{
	struct pp_inline v[MAX_CHAIN];
	const char *why = NULL, *file = NULL;
	int n = pp_symtab_inlines(t, key, v, MAX_CHAIN, &why), k;
	bool known = a->nr && strcmp(a->v[0].function, "??");
	size_t want = known ? a->nr - 1 : 0;
	unsigned line = 0;

	if (n < 0 || (size_t)n != want)
		fail_msg("row at line %d: %#llx: %d levels (%s), addr2line has %zu", row,
			 (unsigned long long)a->vma, n, n < 0 && why ? why : "", want);
	/* (addr2line's "??:0" is a line-0 row: we have no line there either) */
	if (known && (pp_symtab_line(t, key, &file, &line, &why) ?
		      a->v[0].line != 0 :
		      strcmp(file, a->v[0].file) || line != a->v[0].line))
		fail_msg("row at line %d: %#llx is at %s:%u, addr2line: %s:%u", row,
			 (unsigned long long)a->vma, file ? file : why, line, a->v[0].file,
			 a->v[0].line);
	for (k = 0; k < n; k++) {
		const struct a2l_level *callee = &a->v[k], *site = &a->v[k + 1];

		if (strcmp(v[k].function, callee->function) || v[k].call_line != site->line ||
		    strcmp(v[k].call_file, site->file))
			fail_msg("row at line %d: %#llx level %d: %s at %s:%u, addr2line: %s at %s:%u",
				 row, (unsigned long long)a->vma, k, v[k].function,
				 v[k].call_file, v[k].call_line, callee->function, site->file,
				 site->line);
	}
	return n;
}

static const struct inl_row {
	int line;
	const char *file;
	const char *debug_root;
	const char *oracle;	/* what addr2line reads (it has the DWARF) */
} inl_rows[] = {
	{ .line = __LINE__, .file = FIX("inl"), .oracle = FIX("inl") },
	{ .line = __LINE__, .file = FIX("inl-nopie"), .oracle = FIX("inl-nopie") },
	{ .line = __LINE__, .file = FIX("libinl.so"), .oracle = FIX("libinl.so") },
	/* stripped: the DWARF is in the debug file, the addresses are inl's */
	{ .line = __LINE__, .file = FIX("inl-bid"), .debug_root = DBGROOT,
	  .oracle = FIX("inl") },
};

static void test_inlines_addr2line(void **state)
{
	struct op_testdir *f = *state;
	size_t r, i;

	for (r = 0; r < sizeof(inl_rows) / sizeof(inl_rows[0]); r++) {
		const struct inl_row *row = &inl_rows[r];
		struct pp_symtab *t = symtab_of(row->file, row->debug_root);
		size_t depth[3] = { 0 };
		struct elf_section text = { 0 }, oracle = { 0 };
		struct a2l_addr *a;
		int n;

		assert_true(find_section(row->file, ".text", 0, &text));
		assert_true(find_section(row->oracle, ".text", 0, &oracle));
		a = calloc(text.size, sizeof(*a));
		assert_non_null(a);
		for (i = 0; i < text.size; i++) {
			a[i].vma = text.addr + i;
			if (pp_symtab_vma(t, text.offset + i) != a[i].vma)
				fail_msg("row at line %d: key %#llx is not at %#llx", row->line,
					 (unsigned long long)(text.offset + i),
					 (unsigned long long)a[i].vma);
		}
		if (!run_addr2line(f->path, row->oracle, oracle.clang, a, text.size)) {
			print_message("cannot run %s\n", oracle.clang ? "llvm-symbolizer" : "addr2line");
			free(a);
			pp_symtab_free(t);
			skip();
		}
		for (i = 0; i < text.size; i++) {
			n = check_chain(t, text.offset + i, &a[i], row->line);
			depth[n < 2 ? n : 2]++;
		}
		/* the fixture has code outside inlines, one level and two */
		if (!depth[0] || !depth[1] || !depth[2])
			fail_msg("row at line %d: %zu/%zu/%zu addresses at depth 0/1/2",
				 row->line, depth[0], depth[1], depth[2]);
		free(a);
		pp_symtab_free(t);
	}
}

/* === inline chains against the source ==================================== */

struct want_chain {
	const char *function[2];	/* innermost first; NULL ends */
	const char *marker[2];		/* CALL: marker of each call site */
};

static const struct call_row {
	int line;
	const char *caller;		/* a function of inlfix.c */
	struct want_chain chain;	/* seen at some address of it */
} call_rows[] = {
	{ .line = __LINE__, .caller = "inl_caller_a",
	  .chain = { { "inl_twice" }, { "CALL:twice_in_a" } } },
	{ .line = __LINE__, .caller = "inl_caller_b",
	  .chain = { { "inl_twice" }, { "CALL:twice_in_b" } } },
	{ .line = __LINE__, .caller = "inl_chain",
	  .chain = { { "inl_leaf", "inl_mid" }, { "CALL:leaf_in_mid", "CALL:mid_in_chain" } } },
	{ .line = __LINE__, .caller = "inl_both",
	  .chain = { { "inl_leaf", "inl_mid" }, { "CALL:leaf_in_mid", "CALL:mid_in_both" } } },
	{ .line = __LINE__, .caller = "inl_both",
	  .chain = { { "inl_twice" }, { "CALL:twice_in_both" } } },
	/* nothing is inlined into inl_plain */
	{ .line = __LINE__, .caller = "inl_plain" },
};

static bool chain_is(const struct pp_inline *v, int n, const struct want_chain *w)
{
	int k;

	for (k = 0; k < 2 && w->function[k]; k++)
		if (k >= n || strcmp(v[k].function, w->function[k]) ||
		    v[k].call_line != marker_line(w->marker[k]) ||
		    strcmp(base_name(v[k].call_file), "inlfix.c"))
			return false;
	return k == n;
}

static void check_calls(const struct inl_row *tab, const struct call_row *row)
{
	struct pp_symtab *t = symtab_of(tab->file, tab->debug_root);
	const struct pp_sym *s = find_sym(t, row->caller);
	struct pp_inline v[MAX_CHAIN];
	const char *why;
	bool seen = false;
	uint64_t key;
	int n;

	if (!s)
		fail_msg("row at line %d: no %s in %s", row->line, row->caller, tab->file);
	for (key = s->start; key < s->end; key++) {
		n = pp_symtab_inlines(t, key, v, MAX_CHAIN, &why);
		assert_true(n >= 0);
		if (!row->chain.function[0] && n)
			fail_msg("row at line %d: %s inlined in %s", row->line, v[0].function,
				 row->caller);
		seen |= chain_is(v, n, &row->chain);
	}
	if (row->chain.function[0] && !seen)
		fail_msg("row at line %d: no address of %s in %s has the chain", row->line,
			 row->caller, tab->file);
	pp_symtab_free(t);
}

/* a two-level chain: the innermost first; max cuts what is stored */
static void check_truncation(const struct inl_row *tab)
{
	struct pp_symtab *t = symtab_of(tab->file, tab->debug_root);
	const struct pp_sym *s = find_sym(t, "inl_chain");
	struct pp_inline v[2], one[2] = { { .function = "x" }, { .function = "y" } };
	const char *why;
	uint64_t key;

	assert_non_null(s);
	for (key = s->start; key < s->end; key++)
		if (pp_symtab_inlines(t, key, v, 2, &why) == 2)
			break;
	assert_true(key < s->end);
	assert_string_equal(v[0].function, "inl_leaf");
	assert_string_equal(v[1].function, "inl_mid");
	assert_int_equal(pp_symtab_inlines(t, key, one, 1, &why), 2);
	assert_string_equal(one[0].function, "inl_leaf");
	assert_string_equal(one[1].function, "y");
	assert_int_equal(pp_symtab_inlines(t, key, NULL, 0, &why), 2);
	pp_symtab_free(t);
}

static void test_inlines_source(void **state)
{
	size_t r, i;

	(void)state;
	for (r = 0; r < sizeof(inl_rows) / sizeof(inl_rows[0]); r++) {
		for (i = 0; i < sizeof(call_rows) / sizeof(call_rows[0]); i++)
			check_calls(&inl_rows[r], &call_rows[i]);
		check_truncation(&inl_rows[r]);
	}
}

/* t's call site at key is the last of chains' chain: 1 when key is inlined */
static size_t same_call_site(struct pp_symtab *t, struct pp_symtab *chains, uint64_t key)
{
	struct pp_inline v[64];
	const char *file = NULL;
	unsigned line = 0;
	int n = pp_symtab_inlines(chains, key, v, 64, NULL);

	assert_true(n >= 0 && n <= 64);
	assert_int_equal(pp_symtab_call_site(t, key, &file, &line), n > 0);
	if (!n)
		return 0;
	assert_string_equal(file, v[n - 1].call_file);
	assert_int_equal(line, v[n - 1].call_line);
	return 1;
}

/*
 * pp_symtab_call_site() against the chains at every step-th key of the
 * symbols of a system library with a debug file (libc6-dbg's for the C
 * library), when it has one
 */
static void compare_call_sites(const char *path, uint64_t step)
{
	struct pp_symtab *t = symtab_of(path, NULL), *chains = symtab_of(path, NULL);
	size_t i, inlined = 0;

	if (pp_symtab_no_lines(t)) {
		print_message("no line information for %s: not compared\n", path);
	} else {
		for (i = 0; i < t->nr; i++) {
			uint64_t key;

			for (key = t->syms[i].start; key < t->syms[i].end; key += step)
				inlined += same_call_site(t, chains, key);
		}
		assert_true(inlined > 0);
	}
	pp_symtab_free(t);
	pp_symtab_free(chains);
}

/*
 * pp_symtab_call_site(), from a table of outermost scopes only, at every
 * key of .text: the call site of the last entry of pp_symtab_inlines()'s
 * chain, from another table of the same file (so neither reads the
 * other's scopes); 0 where there is no chain
 */
static void test_call_site(void **state)
{
	size_t r;

	(void)state;
	for (r = 0; r < sizeof(inl_rows) / sizeof(inl_rows[0]); r++) {
		const struct inl_row *row = &inl_rows[r];
		struct pp_symtab *t = symtab_of(row->file, row->debug_root);
		struct pp_symtab *chains = symtab_of(row->file, row->debug_root);
		struct elf_section text = { 0 };
		size_t i, inlined = 0;

		assert_true(find_section(row->file, ".text", 0, &text));
		for (i = 0; i < text.size; i++)
			inlined += same_call_site(t, chains, text.offset + i);
		assert_true(inlined > 0);
		pp_symtab_free(t);
		pp_symtab_free(chains);
	}
	compare_call_sites("/usr/lib/x86_64-linux-gnu/libc.so.6", 97);
}

/* no DWARF: -ENOENT with pp_symtab_no_lines()'s reason */
static void test_inlines_without_lines(void **state)
{
	struct odb_image_id nov = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts kopts = { .kallsyms = SYMFIX_SRC "/kallsyms" };
	struct pp_symtab *t = symtab_of(FIX("nopie"), NULL);
	struct pp_inline v[MAX_CHAIN];
	const char *why = NULL;
	unsigned line;

	(void)state;
	assert_int_equal(pp_symtab_inlines(t, t->syms[0].start, v, MAX_CHAIN, &why), -ENOENT);
	assert_int_equal(pp_symtab_call_site(t, t->syms[0].start, &why, &line), -ENOENT);
	why = NULL;
	assert_int_equal(pp_symtab_inlines(t, t->syms[0].start, v, MAX_CHAIN, &why), -ENOENT);
	assert_non_null(why);
	assert_ptr_equal(why, pp_symtab_no_lines(t));
	pp_symtab_free(t);
	assert_int_equal(pp_symtab_load(&nov, true, 0, &kopts, &t), 0);
	assert_int_equal(pp_symtab_inlines(t, 0xffffffff81000010ull, v, MAX_CHAIN, &why),
			 -ENOENT);
	assert_string_equal(why, pp_symtab_no_lines(t));
	pp_symtab_free(t);
}

/*
 * Allocation k failing in the first lookup: -ENOMEM, or no lines at all
 * ("out of memory" when opening them failed); a lookup after -ENOMEM
 * gives the chain (a half-built CU table is not kept).
 */
static void test_inlines_out_of_memory(void **state)
{
	struct pp_inline v[MAX_CHAIN], ref[MAX_CHAIN];
	char ref_file[512];
	unsigned ref_line;
	const char *why;
	unsigned long k;
	uint64_t key;
	int want = 0, n;

	(void)state;
	{
		struct pp_symtab *t = symtab_of(FIX("inl"), NULL);
		const struct pp_sym *s = find_sym(t, "inl_chain");

		for (key = s->start; key < s->end && want < 2; key++)
			want = pp_symtab_inlines(t, key, ref, MAX_CHAIN, &why);
		key--;
		assert_int_equal(want, 2);
		/* the table's strings go with it */
		snprintf(ref_file, sizeof(ref_file), "%s", ref[1].call_file);
		ref_line = ref[1].call_line;
		pp_symtab_free(t);
	}
	for (k = 1;; k++) {
		struct pp_symtab *t = symtab_of(FIX("inl"), NULL);

		op_alloc_fail_at(k);
		n = pp_symtab_inlines(t, key, v, MAX_CHAIN, &why);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(n, want);
			assert_string_equal(v[1].function, ref[1].function);
			pp_symtab_free(t);
			break;
		}
		op_alloc_fail_at(0);
		if (n == -ENOENT)
			assert_string_equal(why, "out of memory");
		else if (n != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, n);
		else
			assert_int_equal(pp_symtab_inlines(t, key, v, MAX_CHAIN, &why), want);
		pp_symtab_free(t);
	}
	assert_true(k > 3);
	/* the call site alone, likewise: -ENOMEM, then the answer */
	for (k = 1;; k++) {
		struct pp_symtab *t = symtab_of(FIX("inl"), NULL);
		const char *file = NULL;
		unsigned line = 0;

		op_alloc_fail_at(k);
		n = pp_symtab_call_site(t, key, &file, &line);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(n, 1);
			assert_string_equal(file, ref_file);
			assert_int_equal(line, ref_line);
			pp_symtab_free(t);
			break;
		}
		op_alloc_fail_at(0);
		if (n != -ENOENT && n != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, n);
		if (n == -ENOMEM)
			assert_int_equal(pp_symtab_call_site(t, key, &file, &line), 1);
		pp_symtab_free(t);
	}
	assert_true(k > 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlines_addr2line),
		cmocka_unit_test(test_inlines_source),
		cmocka_unit_test(test_call_site),
		cmocka_unit_test(test_inlines_without_lines),
		cmocka_unit_test(test_inlines_out_of_memory),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
