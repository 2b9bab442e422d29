// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol tables of ELF fixtures built at check time (Makefile.am, "ELF
 * fixtures"): a PIE and a non-PIE program, a shared library, a stripped
 * library (.dynsym), stripped programs with debug files found by build-id
 * and by debuglink, a debuglink with a wrong CRC, and a fake vmlinux.
 *
 * Names, starts and addresses are compared with what
 * tests/tools/mksamples.py --symbols says OProfile uses (X.syms); ends
 * with our own rule, from the sizes nm prints (X.nm).  Then the hand-laid
 * section "zsect" and the padded functions of symfix.c, aliases, lookups
 * at edges, where binaries are looked for, what happens to missing and
 * non-ELF images and anonymous memory, and source lines.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testmark.h"

#define FIX(name) SYMFIX "/" name
#define DBGROOT FIX("dbgroot")

struct ref {			/* one symbol OProfile would use */
	uint64_t start, vma, oprofile_size, size;
	char name[128];
};

struct refs {
	struct ref *v;
	size_t nr;
};

static bool nm_find(const char *fixture, const char *name, uint64_t *vma,
		    uint64_t *size)
{
	char path[512], line[512];
	FILE *f;
	bool found = false;

	snprintf(path, sizeof(path), SYMFIX "/%s.nm", fixture);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a, s = 0;
		char type, n[256];

		if (sscanf(line, "%llx %llx %c %255s", &a, &s, &type, n) == 4 ||
		    (s = 0, sscanf(line, "%llx %c %255s", &a, &type, n) == 3)) {
			if (strcmp(n, name))
				continue;
			*vma = a;
			*size = s;
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* X.syms plus sizes from X.nm; false when mksamples.py could not run */
static bool load_refs(const char *fixture, struct refs *r)
{
	char path[512], line[512];
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), SYMFIX "/%s.syms", fixture);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long pos, vma, size;
		struct ref *x;
		char name[128];
		uint64_t a;

		if (line[0] == '#' ||
		    sscanf(line, "%llx %llx %llu %127s", &pos, &vma, &size, name) != 4)
			continue;
		r->v = realloc(r->v, (r->nr + 1) * sizeof(*r->v));
		assert_non_null(r->v);
		x = &r->v[r->nr++];
		x->start = pos;
		x->vma = vma;
		x->oprofile_size = size;
		snprintf(x->name, sizeof(x->name), "%s", name);
		if (!nm_find(fixture, name, &a, &x->size) || a != vma)
			x->size = 0;
	}
	fclose(f);
	return r->nr > 0;
}

static const struct pp_sym *find_sym(const struct pp_symtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			return &t->syms[i];
	return NULL;
}

/*
 * Our table against OProfile's list: the same names at the same starts
 * and addresses, minus symbols with no extent; ends by our rule (size,
 * else the next symbol or OProfile's section end, which agree but for the
 * last symbol, where OProfile runs to the end of the file).
 */
static void compare_refs(const struct pp_symtab *t, const struct refs *r, int line)
{
	size_t i, k = 0;

	for (i = 0; i < r->nr; i++) {
		const struct ref *x = &r->v[i];
		const struct pp_sym *s;
		uint64_t end;

		if (!x->oprofile_size)
			continue;
		if (k >= t->nr)
			fail_msg("row at line %d: %s missing", line, x->name);
		s = &t->syms[k++];
		if (strcmp(s->name, x->name) || s->start != x->start || s->vma != x->vma)
			fail_msg("row at line %d: %s at %#llx (vma %#llx), expected %s at %#llx (vma %#llx)",
				 line, s->name, (unsigned long long)s->start,
				 (unsigned long long)s->vma, x->name,
				 (unsigned long long)x->start, (unsigned long long)x->vma);
		if (i + 1 == r->nr && !x->size) {
			if (s->end <= s->start || s->end > s->start + 4096)
				fail_msg("row at line %d: last symbol %s ends at %#llx", line,
					 s->name, (unsigned long long)s->end);
			continue;
		}
		end = x->start + x->oprofile_size;
		if (x->size && x->start + x->size < end)
			end = x->start + x->size;
		if (s->end != end)
			fail_msg("row at line %d: %s ends at %#llx, expected %#llx", line,
				 s->name, (unsigned long long)s->end, (unsigned long long)end);
		if (pp_symtab_lookup(t, s->start) != s || pp_symtab_lookup(t, s->end - 1) != s ||
		    pp_symtab_vma(t, s->start) != s->vma)
			fail_msg("row at line %d: lookup or vma of %s", line, s->name);
	}
	if (k != t->nr)
		fail_msg("row at line %d: %zu symbols, expected %zu", line, t->nr, k);
}

struct row {
	int line;
	const char *file;		/* fixture */
	const char *debug_root;
	enum pp_sym_source source;
	const char *refs;		/* compare with this fixture's list */
	const char *symfile;		/* where symbols come from, if not file */
	const char *missing;		/* start of t->missing */
	bool build_id;			/* has one */
};

static const struct row rows[] = {
	{ .line = __LINE__, .file = "pie", .source = PP_SYMS_SYMTAB, .refs = "pie",
	  .build_id = true },
	{ .line = __LINE__, .file = "nopie", .source = PP_SYMS_SYMTAB, .refs = "nopie",
	  .build_id = true },
	{ .line = __LINE__, .file = "lib.so", .source = PP_SYMS_SYMTAB, .refs = "lib.so",
	  .build_id = true },
	/* stripped PIE: its debug file by build-id has the same symbols */
	{ .line = __LINE__, .file = "bid", .debug_root = DBGROOT,
	  .source = PP_SYMS_DEBUG_FILE, .refs = "pie", .build_id = true },
	{ .line = __LINE__, .file = "bid", .debug_root = FIX("nowhere"),
	  .source = PP_SYMS_NONE, .missing = "no symbols in '" FIX("bid") "'",
	  .build_id = true },
	/* stripped non-PIE: debuglink to .debug/dl.debug */
	{ .line = __LINE__, .file = "dl", .debug_root = DBGROOT,
	  .source = PP_SYMS_DEBUG_FILE, .refs = "nopie", .symfile = FIX(".debug/dl.debug") },
	{ .line = __LINE__, .file = "badcrc", .debug_root = DBGROOT,
	  .source = PP_SYMS_NONE, .missing = "no symbols in '" FIX("badcrc") "'" },
	{ .line = __LINE__, .file = "lib-stripped.so", .debug_root = DBGROOT,
	  .source = PP_SYMS_DYNSYM, .build_id = true },
};

static void check_row(const struct row *r)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };
	struct pp_sym_opts opts = { .debug_root = r->debug_root };
	char path[512];
	struct pp_symtab *t;
	struct refs refs;
	struct stat st;

	snprintf(path, sizeof(path), SYMFIX "/%s", r->file);
	id.name = path;
	if (pp_symtab_load(&id, false, 0x100, &opts, &t))
		fail_msg("row at line %d: load failed", r->line);
	if (t->source != r->source)
		fail_msg("row at line %d: source %d, expected %d (%s)", r->line,
			 (int)t->source, (int)r->source, t->missing ? t->missing : "");
	assert_non_null(t->file);
	assert_string_equal(t->file, path);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(t->mtime, st.st_mtime);
	assert_int_equal(t->file_size, st.st_size);
	assert_int_equal(strlen(t->build_id), r->build_id ? 40 : 0);
	if (r->missing) {
		if (!t->missing || strncmp(t->missing, r->missing, strlen(r->missing)))
			fail_msg("row at line %d: missing is '%s'", r->line,
				 t->missing ? t->missing : "(null)");
		/* read without symbols: gaps (test_pp_gaps), no artificial one */
		assert_int_equal(t->nr, 0);
		assert_null(t->symfile);
	} else {
		assert_null(t->missing);
		assert_non_null(t->symfile);
		if (r->symfile)
			assert_string_equal(t->symfile, r->symfile);
		else if (r->source == PP_SYMS_DEBUG_FILE)
			assert_non_null(strstr(t->symfile, DBGROOT "/.build-id/"));
		else
			assert_string_equal(t->symfile, path);
	}
	if (r->refs && load_refs(r->refs, &refs)) {
		compare_refs(t, &refs, r->line);
		free(refs.v);
	}
	pp_symtab_free(t);
}

static void test_sources(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_row(&rows[i]);
}

static struct pp_symtab *load(const char *path, const struct pp_sym_opts *opts)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)path };
	struct pp_symtab *t;

	assert_int_equal(pp_symtab_load(&id, false, 0x100, opts, &t), 0);
	return t;
}

/* the hand-laid zsect: sized and zero-sized extents, a gap, a dropped end */
static void check_zsect(const struct pp_symtab *t)
{
	const struct pp_sym *first = find_sym(t, "zs_first");
	uint64_t s;

	assert_non_null(first);
	s = first->start;
	assert_int_equal(first->end, s + 16);
	assert_int_equal(find_sym(t, "zs_sized")->start, s + 16);
	assert_int_equal(find_sym(t, "zs_sized")->end, s + 20);
	assert_null(pp_symtab_lookup(t, s + 20));
	assert_null(pp_symtab_lookup(t, s + 23));
	assert_int_equal(find_sym(t, "zs_local")->start, s + 24);
	assert_int_equal(find_sym(t, "zs_local")->end, s + 32);
	assert_false(find_sym(t, "zs_local")->flags & PP_SYM_GLOBAL);
	assert_int_equal(find_sym(t, "zs_last")->start, s + 32);
	assert_int_equal(find_sym(t, "zs_last")->end, s + 56);
	assert_ptr_equal(pp_symtab_lookup(t, s + 55), find_sym(t, "zs_last"));
	assert_null(find_sym(t, "zs_end"));
}

static void test_layout(void **state)
{
	static const char *const files[] = { "pie", "nopie" };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct pp_symtab *t = load(i ? FIX("nopie") : FIX("pie"), NULL);
		const struct pp_sym *a = find_sym(t, "fix_pad_a");
		uint64_t vma, size;

		check_zsect(t);
		/* padding after a sized function belongs to nobody */
		assert_true(nm_find(files[i], "fix_pad_a", &vma, &size));
		assert_non_null(a);
		assert_int_equal(a->vma, vma);
		assert_int_equal(a->end, a->start + size);
		assert_true(a->end < find_sym(t, "fix_pad_b")->start);
		assert_null(pp_symtab_lookup(t, a->end));
		assert_ptr_equal(pp_symtab_lookup(t, a->end - 1), a);
		/* non-PIE: file offsets differ from addresses */
		if (i)
			assert_int_equal(a->start + 0x400000, a->vma);
		assert_int_equal(pp_symtab_vma(t, a->start + 3), a->vma + 3);
		/* aliases: the weak one without '_' beats '_' and local ones */
		assert_non_null(find_sym(t, "fix_weak"));
		assert_null(find_sym(t, "_fix_under"));
		assert_null(find_sym(t, "fix_target"));
		assert_non_null(find_sym(t, "fix_strong"));
		assert_null(find_sym(t, "fix_weak2"));
		assert_true(find_sym(t, "fix_weak")->flags & PP_SYM_GLOBAL);
		assert_false(find_sym(t, "fix_local")->flags & PP_SYM_GLOBAL);
		/* before the first symbol: nothing */
		assert_null(pp_symtab_lookup(t, 0));
		assert_null(pp_symtab_lookup(t, t->syms[0].start - 1));
		assert_null(pp_symtab_lookup(t, UINT64_MAX));
		pp_symtab_free(t);
	}
}

/* .dynsym of a stripped library: exported functions where .symtab has them */
static void test_dynsym(void **state)
{
	struct pp_symtab *full = load(FIX("lib.so"), NULL);
	struct pp_symtab *t = load(FIX("lib-stripped.so"), NULL);
	static const char *const names[] = { "lib_one", "lib_two" };
	size_t i;

	(void)state;
	assert_int_equal(t->source, PP_SYMS_DYNSYM);
	for (i = 0; i < 2; i++) {
		const struct pp_sym *a = find_sym(full, names[i]), *b = find_sym(t, names[i]);

		assert_non_null(a);
		assert_non_null(b);
		assert_int_equal(a->start, b->start);
		assert_int_equal(a->end, b->end);
		assert_int_equal(a->vma, b->vma);
	}
	assert_non_null(find_sym(full, "lib_hidden"));
	assert_null(find_sym(t, "lib_hidden"));
	pp_symtab_free(t);
	pp_symtab_free(full);
}

static void test_vmlinux(void **state)
{
	struct odb_image_id file = { .kind = ODB_IMAGE_FILE, .name = (char *)FIX("vmlinux") };
	struct odb_image_id nov = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts opts = { .vmlinux = FIX("vmlinux"), .kallsyms = FIX("nowhere") };
	uint64_t text, one, size;
	const struct pp_sym *s;
	struct pp_symtab *t;

	(void)state;
	assert_true(nm_find("vmlinux", "_text", &text, &size));
	assert_true(nm_find("vmlinux", "kfix_one", &one, &size));
	/* a vmlinux image: keys from _text */
	assert_int_equal(pp_symtab_load(&file, true, 0, NULL, &t), 0);
	assert_int_equal(t->source, PP_SYMS_SYMTAB);
	s = find_sym(t, "kfix_one");
	assert_non_null(s);
	assert_int_equal(s->start, one - text);
	assert_int_equal(s->end, one - text + size);
	assert_int_equal(s->vma, one);
	assert_int_equal(pp_symtab_vma(t, s->start + 2), one + 2);
	pp_symtab_free(t);
	/* --vmlinux for no-vmlinux samples: keys are addresses */
	assert_int_equal(pp_symtab_load(&nov, true, 0, &opts, &t), 0);
	assert_int_equal(t->source, PP_SYMS_SYMTAB);
	assert_string_equal(t->file, FIX("vmlinux"));
	s = find_sym(t, "kfix_one");
	assert_non_null(s);
	assert_int_equal(s->start, one);
	assert_ptr_equal(pp_symtab_lookup(t, one), s);
	assert_int_equal(pp_symtab_vma(t, one + 1), one + 1);
	pp_symtab_free(t);
	/* a --vmlinux that is not there: kallsyms instead, nothing of it left */
	opts.vmlinux = FIX("nowhere/vmlinux");
	opts.kallsyms = SYMFIX_SRC "/kallsyms";
	assert_int_equal(pp_symtab_load(&nov, true, 0, &opts, &t), 0);
	assert_int_equal(t->source, PP_SYMS_KALLSYMS);
	assert_null(t->missing);
	assert_null(t->file);
	assert_string_equal(t->symfile, SYMFIX_SRC "/kallsyms");
	assert_string_equal(pp_symtab_lookup(t, 0xffffffff81000010ull)->name, "fix_kfunc");
	pp_symtab_free(t);
}

/* where a binary is looked for: archive, root, the path, --image-path */
static void test_lookup_paths(void **state)
{
	static const char *const dirs[] = { "/nonexistent", SYMFIX, NULL };
	static const struct {
		int line;
		const char *name;
		struct pp_sym_opts opts;
	} cases[] = {
		{ .line = __LINE__, .name = "/pie", .opts = { .root = SYMFIX } },
		{ .line = __LINE__, .name = "/pie",
		  .opts = { .archive = SYMFIX, .root = "/nonexistent" } },
		{ .line = __LINE__, .name = "/no/such/dir/pie", .opts = { .image_path = dirs } },
		{ .line = __LINE__, .name = FIX("pie"), .opts = { .root = "/nonexistent" } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_symtab *t = load(cases[i].name, &cases[i].opts);

		if (!t->file || strcmp(t->file, FIX("pie")) || t->source != PP_SYMS_SYMTAB)
			fail_msg("row at line %d: found %s, source %d", cases[i].line,
				 t->file ? t->file : "(nothing)", (int)t->source);
		pp_symtab_free(t);
	}
}

struct tmp {
	char dir[64];
};

static int setup(void **state)
{
	struct tmp *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_pp_symtab.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *f = *state;

	op_remove_tree(f->dir);
	free(f);
	return 0;
}

/* images without symbols: one artificial symbol and the reason */
static void test_missing(void **state)
{
	struct tmp *f = *state;
	char text[128], empty[128], dir[128], secret[128], img_a[128], img_b[128];
	char want[1024], long_text[1000] = "not ELF";
	const char *dirs[] = { img_a, img_b, NULL };
	struct pp_sym_opts opts = { .root = f->dir, .image_path = dirs };
	const char *file, *why;
	struct pp_symtab *t;
	unsigned line;

	snprintf(text, sizeof(text), "%s/text", f->dir);
	snprintf(empty, sizeof(empty), "%s/empty", f->dir);
	snprintf(dir, sizeof(dir), "%s/dir", f->dir);
	snprintf(secret, sizeof(secret), "%s/secret", f->dir);
	snprintf(img_a, sizeof(img_a), "%s/a", f->dir);
	snprintf(img_b, sizeof(img_b), "%s/b", f->dir);
	assert_int_equal(op_write_file_atomic(text, "#!/bin/sh\nexit 0\n", 17, 0755), 0);
	assert_int_equal(op_write_file_atomic(empty, "", 0, 0644), 0);
	assert_int_equal(op_write_file_atomic(secret, "\177ELF", 4, 0), 0);
	assert_int_equal(op_mkdir_p(dir, 0755), 0);

	t = load("/nonexistent/dir/prog", &opts);
	snprintf(want, sizeof(want), "cannot find '/nonexistent/dir/prog' (also tried: %s/nonexistent/dir/prog, %s/prog, %s/prog)",
		 f->dir, img_a, img_b);
	assert_string_equal(t->missing, want);
	assert_null(t->file);
	assert_int_equal(t->mtime, -1);
	assert_int_equal(t->source, PP_SYMS_NONE);
	assert_int_equal(t->nr, 1);
	assert_string_equal(t->syms[0].name, "/nonexistent/dir/prog");
	assert_int_equal(t->syms[0].start, 0);
	assert_int_equal(t->syms[0].end, 0x100);
	assert_true(t->syms[0].flags & PP_SYM_ARTIFICIAL);
	assert_ptr_equal(pp_symtab_lookup(t, 0xff), &t->syms[0]);
	assert_null(pp_symtab_lookup(t, 0x100));
	assert_int_equal(pp_symtab_line(t, 0x10, &file, &line, &why), -ENOENT);
	assert_string_equal(why, want);
	pp_symtab_free(t);

	t = load("/nonexistent/dir/prog", NULL);
	assert_string_equal(t->missing, "cannot find '/nonexistent/dir/prog'");
	pp_symtab_free(t);

	/* found, but not ELF: covers the file (or key_limit when larger) */
	t = load(text, NULL);
	assert_string_equal(t->missing, "not an ELF file");
	assert_string_equal(t->file, text);
	assert_int_equal(t->file_size, 17);
	assert_true(t->mtime > 0);
	assert_string_equal(t->syms[0].name, text);
	assert_int_equal(t->syms[0].end, 0x100);
	pp_symtab_free(t);
	assert_int_equal(op_write_file_atomic(text, long_text, sizeof(long_text), 0644), 0);
	t = load(text, NULL);
	assert_string_equal(t->missing, "not an ELF file");
	assert_int_equal(t->syms[0].end, sizeof(long_text));
	pp_symtab_free(t);
	t = load(empty, NULL);
	assert_string_equal(t->missing, "not an ELF file");
	pp_symtab_free(t);
	t = load(dir, NULL);
	assert_string_equal(t->missing, "not an ELF file");
	pp_symtab_free(t);
	/* only an unprivileged user is refused */
	if (geteuid()) {
		t = load(secret, NULL);
		assert_string_equal(t->missing, "permission denied");
		pp_symtab_free(t);
	}
}

static void test_anon(void **state)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_ANON, .name = (char *)"anon", .anon_tgid = 2000,
				  .anon_start = 0x7f1234560000, .anon_end = 0x7f1234570fff };
	const char *file, *why;
	struct pp_symtab *t;
	unsigned line;

	(void)state;
	assert_int_equal(pp_symtab_load(&id, false, 0x10, NULL, &t), 0);
	assert_int_equal(t->nr, 1);
	assert_string_equal(t->syms[0].name, "anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff)");
	assert_int_equal(t->syms[0].end, 0x11000);
	/* addresses in the region are offsets into it, as OProfile shows them */
	assert_int_equal(t->syms[0].vma, 0);
	assert_int_equal(pp_symtab_vma(t, 0x10), 0x10);
	assert_null(t->missing);
	assert_null(t->file);
	assert_int_equal(pp_symtab_line(t, 0x10, &file, &line, &why), -ENOENT);
	assert_non_null(why);
	pp_symtab_free(t);
	/* keys beyond the region still land in it */
	assert_int_equal(pp_symtab_load(&id, false, 0x20000, NULL, &t), 0);
	assert_int_equal(t->syms[0].end, 0x20000);
	pp_symtab_free(t);
}

/* the line of fix_alpha in symfix.c, from its LINE: comment */
static unsigned marker_line(const char *marker)
{
	unsigned n = op_test_marker_line(SYMFIX_SRC "/symfix.c", marker);

	if (!n)
		fail_msg("no %s in symfix.c", marker);
	return n;
}

static void test_lines(void **state)
{
	static const struct {
		int line;
		const char *file;
		const char *debug_root;
		const char *why;	/* NULL: lines expected; else its start */
	} cases[] = {
		{ .line = __LINE__, .file = FIX("pie") },
		/* DWARF from the debug file found by build-id */
		{ .line = __LINE__, .file = FIX("bid"), .debug_root = DBGROOT },
		/* (test_pp_nolines.c checks these messages whole) */
		{ .line = __LINE__, .file = FIX("nopie"),
		  .why = "no debug information in '" FIX("nopie") "': build it with -g, or install a debug file at /usr/lib/debug/.build-id/" },
		{ .line = __LINE__, .file = FIX("dl"), .debug_root = FIX("nowhere"),
		  .why = "no debug information in '" FIX("dl") "': build it with -g, or install a debug file at " FIX("nowhere") SYMFIX "/dl.debug" },
	};
	unsigned want = marker_line("LINE:fix_alpha");
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_sym_opts opts = { .debug_root = cases[i].debug_root };
		struct pp_symtab *t = load(cases[i].file, &opts);
		const struct pp_sym *s = find_sym(t, "fix_alpha");
		const char *file = NULL, *why = NULL;
		unsigned line = 0;
		int ret, k;

		if (!s)
			fail_msg("row at line %d: no fix_alpha", cases[i].line);
		/* twice: the second lookup uses the cached DWARF */
		for (k = 0; k < 2; k++) {
			ret = pp_symtab_line(t, s->start, &file, &line, &why);
			if (cases[i].why) {
				if (ret != -ENOENT || !why ||
				    strncmp(why, cases[i].why, strlen(cases[i].why)))
					fail_msg("row at line %d: %d, why '%s'", cases[i].line,
						 ret, why ? why : "(null)");
				continue;
			}
			if (ret || !file || line != want ||
			    strcmp(file + strlen(file) - strlen("symfix.c"), "symfix.c"))
				fail_msg("row at line %d: %d, %s:%u (why %s), expected symfix.c:%u",
					 cases[i].line, ret, file ? file : "?", line,
					 why ? why : "-", want);
		}
		pp_symtab_free(t);
	}
}

/*
 * Lines looked up ahead (pp_symtab_lines_ahead() with keys, as a report's
 * second thread does) are the lines asked for afterwards: every key of
 * every symbol, given out of order and twice, and keys that were not
 * given, answer as in a table that looked nothing up ahead; so does a
 * table without line information.
 */
static void test_lines_ahead(void **state)
{
	static const char *const files[] = { FIX("pie"), FIX("nopie") };
	size_t f;

	(void)state;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct pp_symtab *ahead = load(files[f], NULL), *plain = load(files[f], NULL);
		uint64_t *keys, first = UINT64_MAX, last = 0, key;
		size_t i, nr = 0;

		for (i = 0; i < ahead->nr; i++) {
			if (ahead->syms[i].start < first)
				first = ahead->syms[i].start;
			if (ahead->syms[i].end > last)
				last = ahead->syms[i].end;
		}
		assert_true(first < last);
		keys = calloc(2 * (last - first) + 1, sizeof(*keys));
		assert_non_null(keys);
		/* every other key, from the end, then the same again */
		for (key = last; key > first; key -= 2)
			keys[nr++] = key - 1;
		for (key = last; key > first; key -= 2)
			keys[nr++] = key - 1;
		pp_symtab_lines_ahead(ahead, keys, nr);
		for (key = first > 16 ? first - 16 : 0; key < last + 16; key++) {
			const char *fa = NULL, *fp = NULL, *wa = NULL, *wp = NULL;
			unsigned la = 0, lp = 0;
			int ra = pp_symtab_line(ahead, key, &fa, &la, &wa);
			int rp = pp_symtab_line(plain, key, &fp, &lp, &wp);

			if (ra != rp || la != lp || !fa != !fp || (fa && strcmp(fa, fp)) ||
			    !wa != !wp || (wa && strcmp(wa, wp)))
				fail_msg("%s, key 0x%" PRIx64 ": ahead %d %s:%u (%s), plain %d %s:%u (%s)",
					 files[f], key, ra, fa ? fa : "-", la, wa ? wa : "-",
					 rp, fp ? fp : "-", lp, wp ? wp : "-");
		}
		free(keys);
		pp_symtab_free(ahead);
		pp_symtab_free(plain);
	}
}

/*
 * Allocation k failing, for every k: -ENOMEM and nothing leaked (ASan and
 * valgrind runs check that), or, once no allocation failed, the table a
 * plain load gives.
 */
static void test_out_of_memory(void **state)
{
	static const char *const dirs[] = { "/nonexistent", NULL };
	static const struct {
		int line;
		const char *file;
		struct pp_sym_opts opts;
	} cases[] = {
		{ .line = __LINE__, .file = FIX("pie") },
		{ .line = __LINE__, .file = FIX("bid"), .opts = { .debug_root = DBGROOT } },
		{ .line = __LINE__, .file = FIX("dl") },
		{ .line = __LINE__, .file = FIX("lib-stripped.so") },
		{ .line = __LINE__, .file = "/nonexistent/prog",
		  .opts = { .root = "/nowhere", .image_path = dirs } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)cases[i].file };
		struct pp_symtab *ref = load(cases[i].file, &cases[i].opts), *t;
		unsigned long k;

		for (k = 1;; k++) {
			int ret;

			op_alloc_fail_at(k);
			ret = pp_symtab_load(&id, false, 0x100, &cases[i].opts, &t);
			if (op_alloc_count() < k) {
				op_alloc_fail_at(0);
				break;
			}
			op_alloc_fail_at(0);
			if (ret != -ENOMEM)
				fail_msg("row at line %d: allocation %lu failing gave %d",
					 cases[i].line, k, ret);
			assert_null(t);
		}
		if (t->nr != ref->nr || t->source != ref->source)
			fail_msg("row at line %d: %zu symbols from %d, expected %zu from %d",
				 cases[i].line, t->nr, (int)t->source, ref->nr, (int)ref->source);
		assert_true(k > 3);
		pp_symtab_free(t);
		pp_symtab_free(ref);
	}
}

/* gcc's .L labels, kept in .symtab by -Wa,-L, never become symbols */
static void test_local_labels(void **state)
{
	struct pp_symtab *t = load(FIX("nopie"), NULL);
	char line[512];
	bool labels = false;
	FILE *f = fopen(FIX("nopie.nm"), "r");
	size_t i;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		labels |= strstr(line, " t .L") != NULL;
	fclose(f);
	assert_true(labels);
	for (i = 0; i < t->nr; i++)
		if (t->syms[i].name[0] == '.')
			fail_msg("%s in the table", t->syms[i].name);
	pp_symtab_free(t);
}

/* copy the file from to to, making to's directories */
static void copy_file(const char *from, const char *to)
{
	char *data;
	size_t len;

	assert_int_equal(op_read_file(from, 64 << 20, &data, &len), 0);
	assert_int_equal(op_mkdir_parents(to, 0755), 0);
	assert_int_equal(op_write_file_atomic(to, data, len, 0644), 0);
	free(data);
}

/* what oparchive learns of a binary: build-id, debug file and how found */
static void test_identify(void **state)
{
	struct pp_binary_id id;
	char want[512];

	(void)state;
	assert_int_equal(pp_binary_identify(FIX("bid"), DBGROOT, &id), 0);
	assert_int_equal(strlen(id.build_id), 40);
	assert_int_equal(id.how, PP_DEBUG_BY_BUILD_ID);
	snprintf(want, sizeof(want), DBGROOT "/.build-id/%.2s/%s.debug", id.build_id,
		 id.build_id + 2);
	assert_string_equal(id.debug_file, want);
	pp_binary_id_release(&id);
	assert_int_equal(pp_binary_identify(FIX("dl"), DBGROOT, &id), 0);
	assert_int_equal(id.how, PP_DEBUG_BY_LINK);
	assert_string_equal(id.debug_file, FIX(".debug/dl.debug"));
	assert_string_equal(id.debuglink, "dl.debug");
	pp_binary_id_release(&id);
	/* a wrong CRC is no debug file */
	assert_int_equal(pp_binary_identify(FIX("badcrc"), DBGROOT, &id), 0);
	assert_int_equal(id.how, PP_DEBUG_NONE);
	assert_null(id.debug_file);
	pp_binary_id_release(&id);
	assert_int_equal(pp_binary_identify(FIX("nopie.c.nosuch"), NULL, &id), -ENOENT);
	assert_null(id.debug_file);
	assert_int_equal(pp_binary_identify(FIX("pie.nm"), NULL, &id), -ENOEXEC);
	pp_binary_id_release(NULL);
}

/*
 * An archive's binary finds its debug file by build-id under the
 * archive's own usr/lib/debug (as oparchive writes it), not only under
 * the local debug root.
 */
static void test_archive_debug(void **state)
{
	struct tmp *f = *state;
	struct pp_sym_opts opts = { 0 };
	char arch[128], bin[512], dbg[512];
	struct pp_binary_id id;
	struct pp_symtab *t;

	assert_int_equal(pp_binary_identify(FIX("bid"), DBGROOT, &id), 0);
	snprintf(arch, sizeof(arch), "%s/arch", f->dir);
	snprintf(bin, sizeof(bin), "%s%s", arch, FIX("bid"));
	snprintf(dbg, sizeof(dbg), "%s/usr/lib/debug/.build-id/%.2s/%s.debug", arch,
		 id.build_id, id.build_id + 2);
	copy_file(FIX("bid"), bin);
	opts.archive = arch;
	t = load(FIX("bid"), &opts);
	assert_string_equal(t->file, bin);
	assert_int_equal(t->source, PP_SYMS_NONE);	/* no debug file yet */
	pp_symtab_free(t);
	copy_file(id.debug_file, dbg);
	t = load(FIX("bid"), &opts);
	assert_int_equal(t->source, PP_SYMS_DEBUG_FILE);
	assert_string_equal(t->symfile, dbg);
	pp_symtab_free(t);
	pp_binary_id_release(&id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_dynsym),
		cmocka_unit_test(test_vmlinux),
		cmocka_unit_test(test_lookup_paths),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_anon),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_lines_ahead),
		cmocka_unit_test(test_out_of_memory),
		cmocka_unit_test(test_local_labels),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_archive_debug),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
