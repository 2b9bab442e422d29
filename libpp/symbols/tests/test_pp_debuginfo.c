// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What opannotate asks a symbol table besides symbols (pp_symbols.h):
 * inline chains, code bytes, and why there is no line information.
 *
 * Inline chains of inlfix.c, built -O2 -g as a PIE, a non-PIE, a shared
 * library and a stripped PIE with its debug file by build-id (Makefile.am,
 * "ELF fixtures"), are compared at every address of .text with binutils'
 * addr2line -i (innermost function first, then each caller with the call
 * site), or llvm-symbolizer's GNU output for clang's builds (addr2line
 * 2.40 misreads clang's DW_FORM_rnglistx ranges), and with the calls
 * marked CALL: in the source.  Code bytes are
 * compared with the file at the offset its section headers give; kernel
 * symbols from kallsyms, anonymous memory, missing and non-ELF binaries
 * have none, with a reason.  Messages about missing debug information
 * name the build-id path and the dpkg package (a fake dpkg database, and
 * /usr/bin/true of the system's coreutils when dpkg has it).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/symbols_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"
#include "tests/lib/op_testmark.h"

#define FIX(name) SYMFIX "/" name
#define DBGROOT FIX("dbgroot")
#define MAX_CHAIN 8

static int setup(void **state)
{
	struct op_testdir *d = calloc(1, sizeof(*d));

	if (!d || op_testdir_make(d)) {
		free(d);
		return -1;
	}
	*state = d;
	return 0;
}

static int teardown(void **state)
{
	struct op_testdir *d = *state;

	op_testdir_remove(d);
	free(d);
	return 0;
}

static struct pp_symtab *load(const char *path, const char *debug_root)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)path };
	struct pp_sym_opts opts = { .debug_root = debug_root };
	struct pp_symtab *t;

	assert_int_equal(pp_symtab_load(&id, false, 0x100, &opts, &t), 0);
	return t;
}

static const struct pp_sym *find_sym(const struct pp_symtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			return &t->syms[i];
	return NULL;
}

/* the section of path holding vma (name NULL), or named name */
struct section {
	uint64_t addr, offset, size;
	bool clang;		/* .comment names clang */
};

static bool find_section(const char *path, const char *name, uint64_t vma,
			 struct section *out)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t shstrndx;
	Elf *elf;

	assert_true(fd >= 0);
	assert_true(elf_version(EV_CURRENT) != EV_NONE);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	out->clang = false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *n;

		assert_non_null(gelf_getshdr(scn, &sh));
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type != SHT_PROGBITS || !n)
			continue;
		if (!strcmp(n, ".comment") && (d = elf_getdata(scn, NULL)) && d->d_buf)
			out->clang = memmem(d->d_buf, d->d_size, "clang version", 13) != NULL;
		if (!found && (name ? !strcmp(n, name) :
				      vma >= sh.sh_addr && vma < sh.sh_addr + sh.sh_size)) {
			out->addr = sh.sh_addr;
			out->offset = sh.sh_offset;
			out->size = sh.sh_size;
			found = true;
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

/* the line of inlfix.c with marker */
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
		struct pp_symtab *t = load(row->file, row->debug_root);
		size_t depth[3] = { 0 };
		struct section text = { 0 }, oracle = { 0 };
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
	struct pp_symtab *t = load(tab->file, tab->debug_root);
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
	struct pp_symtab *t = load(tab->file, tab->debug_root);
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

/* no DWARF: -ENOENT with pp_symtab_no_lines()'s reason */
static void test_inlines_without_lines(void **state)
{
	struct odb_image_id nov = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts kopts = { .kallsyms = SYMFIX_SRC "/kallsyms" };
	struct pp_symtab *t = load(FIX("nopie"), NULL);
	struct pp_inline v[MAX_CHAIN];
	const char *why = NULL;

	(void)state;
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
	const char *why;
	unsigned long k;
	uint64_t key;
	int want = 0, n;

	(void)state;
	{
		struct pp_symtab *t = load(FIX("inl"), NULL);
		const struct pp_sym *s = find_sym(t, "inl_chain");

		for (key = s->start; key < s->end && want < 2; key++)
			want = pp_symtab_inlines(t, key, ref, MAX_CHAIN, &why);
		key--;
		assert_int_equal(want, 2);
		pp_symtab_free(t);
	}
	for (k = 1;; k++) {
		struct pp_symtab *t = load(FIX("inl"), NULL);

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
}

/* === code bytes ========================================================== */

/* len bytes of path at off, which must be there */
static void file_bytes(const char *path, uint64_t off, unsigned char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fseek(f, (long)off, SEEK_SET), 0);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
}

static bool all_zero(const unsigned char *buf, size_t len)
{
	while (len--)
		if (*buf++)
			return false;
	return true;
}

static const struct code_row {
	int line;
	const char *file;		/* the image */
	bool kernel;			/* a vmlinux: keys from _text */
	const char *vmlinux;		/* for no-vmlinux: keys are addresses */
	const char *debug_root;
	const char *symbol;
	const char *bytes_of;		/* whose section has the bytes (file if NULL) */
} code_rows[] = {
	{ .line = __LINE__, .file = FIX("pie"), .symbol = "fix_alpha" },
	{ .line = __LINE__, .file = FIX("nopie"), .symbol = "fix_alpha" },
	{ .line = __LINE__, .file = FIX("lib.so"), .symbol = "lib_one" },
	{ .line = __LINE__, .file = FIX("inl-nopie"), .symbol = "inl_both" },
	/* symbols from the debug file, code from the binary */
	{ .line = __LINE__, .file = FIX("bid"), .debug_root = DBGROOT,
	  .symbol = "fix_alpha", .bytes_of = FIX("pie") },
	{ .line = __LINE__, .file = FIX("vmlinux"), .kernel = true, .symbol = "kfix_two" },
	{ .line = __LINE__, .file = "no-vmlinux", .kernel = true, .vmlinux = FIX("vmlinux"),
	  .symbol = "kfix_two", .bytes_of = FIX("vmlinux") },
};

/* the file offset of the symbol's address, from the section headers */
static uint64_t symbol_offset(const char *path, uint64_t vma)
{
	struct section sec;

	assert_true(find_section(path, NULL, vma, &sec));
	return vma - sec.addr + sec.offset;
}

static void check_code(const struct code_row *row)
{
	struct odb_image_id id = { .kind = row->vmlinux ? ODB_IMAGE_KERNEL : ODB_IMAGE_FILE,
				  .name = (char *)row->file };
	struct pp_sym_opts opts = { .debug_root = row->debug_root, .vmlinux = row->vmlinux,
				    .kallsyms = FIX("nowhere") };
	unsigned char got[64], want[64];
	const char *why = NULL;
	const struct pp_sym *s;
	struct pp_symtab *t;
	size_t len;
	long n;

	assert_int_equal(pp_symtab_load(&id, row->kernel, 0x100, &opts, &t), 0);
	s = find_sym(t, row->symbol);
	if (!s)
		fail_msg("row at line %d: no %s", row->line, row->symbol);
	len = s->end - s->start < sizeof(got) ? s->end - s->start : sizeof(got);
	file_bytes(row->bytes_of ? row->bytes_of : row->file,
		   symbol_offset(row->bytes_of ? row->bytes_of : row->file, s->vma), want, len);
	memset(got, 0, sizeof(got));
	n = pp_symtab_code(t, s->start, got, len, &why);
	if (n != (long)len || memcmp(got, want, len) || all_zero(got, len))
		fail_msg("row at line %d: %ld bytes of %s (%s)", row->line, n, row->symbol,
			 why ? why : "");
	/* again, through the descriptor opened by the first read */
	assert_int_equal(pp_symtab_code(t, s->start + 1, got, len - 1, &why), (long)len - 1);
	assert_memory_equal(got, want + 1, len - 1);
	pp_symtab_free(t);
}

static void test_code_bytes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(code_rows) / sizeof(code_rows[0]); i++)
		check_code(&code_rows[i]);
}

static size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* reads at the end of the file; one descriptor per table, closed by free */
static void test_code_edges(void **state)
{
	struct pp_symtab *t = load(FIX("pie"), NULL);
	unsigned char buf[16], want[3];
	size_t fds = open_fds();
	const char *why;

	(void)state;
	assert_int_equal(pp_symtab_code(t, t->file_size - 3, buf, sizeof(buf), &why), 3);
	file_bytes(FIX("pie"), t->file_size - 3, want, 3);
	assert_memory_equal(buf, want, 3);
	assert_int_equal(pp_symtab_code(t, t->file_size, buf, sizeof(buf), &why), 0);
	assert_int_equal(pp_symtab_code(t, UINT64_MAX - 2, buf, sizeof(buf), &why), 0);
	assert_int_equal(pp_symtab_code(t, 0, buf, 0, &why), 0);
	assert_int_equal(pp_symtab_code(t, 0, buf, 4, &why), 4);
	assert_memory_equal(buf, "\177ELF", 4);
	assert_int_equal(open_fds(), fds + 1);
	pp_symtab_free(t);
	assert_int_equal(open_fds(), fds);
}

/* a binary rewritten after its symbols were read is not read from */
static void test_code_changed(void **state)
{
	struct op_testdir *f = *state;
	struct timeval times[2] = { { .tv_sec = 1000000 }, { .tv_sec = 1000000 } };
	char path[600], *data;
	struct pp_symtab *t;
	unsigned char buf[4];
	const char *why = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/prog", f->path);
	assert_int_equal(op_read_file(FIX("pie"), 1 << 26, &data, &len), 0);
	assert_int_equal(op_write_file_atomic(path, data, len, 0755), 0);
	t = load(path, NULL);
	assert_int_equal(utimes(path, times), 0);
	assert_int_equal(pp_symtab_code(t, 0, buf, sizeof(buf), &why), -ENOENT);
	assert_non_null(why);
	assert_non_null(strstr(why, "changed since its symbols were read"));
	assert_non_null(strstr(why, path));
	pp_symtab_free(t);
	free(data);
}

static const struct nocode_row {
	int line;
	enum odb_image_kind kind;
	bool kernel;
	const char *image;
	struct pp_sym_opts opts;
	const char *why;		/* expected, or its start with prefix */
	bool prefix;
	const char *also;		/* and somewhere in it */
} nocode_rows[] = {
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .kernel = true, .image = "no-vmlinux",
	  .opts = { .kallsyms = SYMFIX_SRC "/kallsyms" },
	  .why = "kernel symbols come from kallsyms: disassembly needs the vmlinux (operf --vmlinux=FILE)" },
	/* a --vmlinux that is not there: kallsyms, and the same reason */
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .kernel = true, .image = "no-vmlinux",
	  .opts = { .kallsyms = SYMFIX_SRC "/kallsyms", .vmlinux = FIX("nowhere/vmlinux") },
	  .why = "kernel symbols come from kallsyms: disassembly needs the vmlinux (operf --vmlinux=FILE)" },
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .kernel = true, .image = "fixmod",
	  .opts = { .kallsyms = SYMFIX_SRC "/kallsyms" },
	  .why = "module symbols come from kallsyms: there is no module file to read code from" },
	{ .line = __LINE__, .kind = ODB_IMAGE_FILE, .image = "/nonexistent/prog",
	  .opts = { .root = "/nowhere" },
	  .why = "cannot find '/nonexistent/prog' (also tried: /nowhere/nonexistent/prog): "
		 "--image-path or --root can say where it is" },
	{ .line = __LINE__, .kind = ODB_IMAGE_FILE, .image = SYMFIX_SRC "/kallsyms",
	  .why = "cannot read code from '" SYMFIX_SRC "/kallsyms': not an ELF file" },
	{ .line = __LINE__, .kind = ODB_IMAGE_ANON, .image = "anon",
	  .why = "anonymous memory has no file to read code from" },
};

static void test_code_none(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(nocode_rows) / sizeof(nocode_rows[0]); i++) {
		const struct nocode_row *r = &nocode_rows[i];
		struct odb_image_id id = { .kind = r->kind, .name = (char *)r->image,
					  .anon_start = 0x10000, .anon_end = 0x1ffff };
		unsigned char buf[16];
		const char *why = NULL;
		struct pp_symtab *t;
		long n;
		int k;

		assert_int_equal(pp_symtab_load(&id, r->kernel, 0x100, &r->opts, &t), 0);
		for (k = 0; k < 2; k++) {
			n = pp_symtab_code(t, t->syms[0].start, buf, sizeof(buf), &why);
			if (n != -ENOENT || !why || strcmp(why, r->why))
				fail_msg("row at line %d: %ld, why '%s'", r->line, n,
					 why ? why : "(null)");
		}
		pp_symtab_free(t);
	}
}

/* === why there are no lines ============================================== */

/* the build-id path of t's binary under root */
static void build_id_path(char *buf, size_t size, const char *root,
			  const struct pp_symtab *t)
{
	assert_int_equal(strlen(t->build_id), 40);
	snprintf(buf, size, "%s/.build-id/%.2s/%s.debug", root, t->build_id, t->build_id + 2);
}

static void test_no_lines(void **state)
{
	char want[1024], path[512], real[512];
	struct pp_symtab *t;

	(void)state;
	/* DWARF in the binary, or in its debug file */
	t = load(FIX("inl"), NULL);
	assert_null(pp_symtab_no_lines(t));
	pp_symtab_free(t);
	t = load(FIX("inl-bid"), DBGROOT);
	assert_null(pp_symtab_no_lines(t));
	pp_symtab_free(t);

	/* stripped, no debug file: where one would be found */
	t = load(FIX("inl-bid"), FIX("nowhere"));
	build_id_path(path, sizeof(path), FIX("nowhere"), t);
	snprintf(want, sizeof(want), "no debug information in '%s': build it with -g, or install a debug file at %s",
		 FIX("inl-bid"), path);
	assert_string_equal(pp_symtab_no_lines(t), want);
	/* ... which is where the test's debug root has it */
	build_id_path(real, sizeof(real), DBGROOT, t);
	assert_int_equal(access(real, R_OK), 0);
	pp_symtab_free(t);

	/* no -g: the default debug root */
	t = load(FIX("nopie"), NULL);
	build_id_path(path, sizeof(path), "/usr/lib/debug", t);
	snprintf(want, sizeof(want), "no debug information in '%s': build it with -g, or install a debug file at %s",
		 FIX("nopie"), path);
	assert_string_equal(pp_symtab_no_lines(t), want);
	pp_symtab_free(t);

	/* no build-id: where its .gnu_debuglink would be found */
	t = load(FIX("dl"), FIX("nowhere"));
	assert_string_equal(pp_symtab_no_lines(t),
			    "no debug information in '" FIX("dl") "': build it with -g, or install a debug file at "
			    FIX("nowhere") SYMFIX "/dl.debug");
	pp_symtab_free(t);
}

static void test_no_lines_dpkg(void **state)
{
	static const char *const bin = "/usr/bin/true";
	char want[1024], path[512];
	const char *msg;
	struct pp_symtab *t;
	struct stat st;

	(void)state;
	if (stat(PP_DPKG_INFO "/coreutils.list", &st)) {
		print_message("no " PP_DPKG_INFO "/coreutils.list: not a dpkg system\n");
		skip();
	}
	t = load(bin, NULL);
	if (!pp_symtab_no_lines(t)) {
		print_message("%s has debug information here (coreutils-dbgsym installed?)\n", bin);
		pp_symtab_free(t);
		skip();
	}
	build_id_path(path, sizeof(path), "/usr/lib/debug", t);
	snprintf(want, sizeof(want), "no debug information in '%s': install the debug symbols of package coreutils (coreutils-dbgsym or coreutils-dbg), or a debug file at %s",
		 bin, path);
	msg = pp_symtab_no_lines(t);
	assert_string_equal(msg, want);
	assert_null(strchr(msg, '\n'));
	pp_symtab_free(t);
}

/* the reasons for tables without a binary, and pp_symtab_line()'s */
static void test_no_lines_other(void **state)
{
	struct odb_image_id anon = { .kind = ODB_IMAGE_ANON, .name = (char *)"anon",
				    .anon_start = 0x1000, .anon_end = 0x1fff };
	struct odb_image_id nov = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts kopts = { .kallsyms = SYMFIX_SRC "/kallsyms" };
	struct pp_symtab *t;
	const char *file, *why = NULL;
	unsigned line;

	(void)state;
	assert_int_equal(pp_symtab_load(&anon, false, 0x10, NULL, &t), 0);
	assert_string_equal(pp_symtab_no_lines(t), "anonymous memory has no line information");
	pp_symtab_free(t);
	assert_int_equal(pp_symtab_load(&nov, true, 0, &kopts, &t), 0);
	assert_non_null(strstr(pp_symtab_no_lines(t), "kallsyms"));
	pp_symtab_free(t);
	t = load("/nonexistent/prog", NULL);
	assert_string_equal(pp_symtab_no_lines(t), "cannot find '/nonexistent/prog'");
	pp_symtab_free(t);
	/* pp_symtab_line() gives the same reason */
	t = load(FIX("nopie"), NULL);
	assert_int_equal(pp_symtab_line(t, t->syms[0].start, &file, &line, &why), -ENOENT);
	assert_ptr_equal(why, pp_symtab_no_lines(t));
	pp_symtab_free(t);
}

/* === dpkg's file lists =================================================== */

struct dpkg_fix {
	char info[600];
	char real[600], link[600];
};

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(op_write_file_atomic(path, text, strlen(text), 0644), 0);
}

static void make_dpkg(const struct op_testdir *f, struct dpkg_fix *d)
{
	char text[700];

	snprintf(d->info, sizeof(d->info), "%s/info", f->path);
	snprintf(d->real, sizeof(d->real), "%s/real-prog", f->path);
	snprintf(d->link, sizeof(d->link), "%s/link-prog", f->path);
	assert_int_equal(op_mkdir_p(d->info, 0755), 0);
	write_file(d->info, "aa.list", "/.\n/usr\n/usr/bin\n/usr/bin/aa\n/usr/share/doc/aa\n");
	write_file(d->info, "bb.list", "/.\n/usr/bin/aaa\n/bin/bb\n");
	write_file(d->info, "libz1:amd64.list", "/.\n/lib/x86_64-linux-gnu/libz.so.1\n");
	/* not lists: never read as such */
	write_file(d->info, "cc.md5sums", "0123  /usr/bin/cc\n");
	write_file(d->info, "cc.list.bak", "/usr/bin/cc\n");
	/* the last line without a newline */
	snprintf(text, sizeof(text), "/.\n%s", d->real);
	write_file(d->info, "real.list", text);
	write_file(f->path, "real-prog", "x");
	unlink(d->link);
	assert_int_equal(symlink(d->real, d->link), 0);
}

static void test_dpkg_package(void **state)
{
	struct op_testdir *f = *state;
	struct dpkg_fix d;
	const struct {
		int line;
		const char *path;
		const char *pkg;	/* NULL: -ENOENT */
	} rows[] = {
		{ .line = __LINE__, .path = "/usr/bin/aa", .pkg = "aa" },
		/* the other side of the /usr merge, both ways */
		{ .line = __LINE__, .path = "/bin/aa", .pkg = "aa" },
		{ .line = __LINE__, .path = "/usr/bin/bb", .pkg = "bb" },
		{ .line = __LINE__, .path = "/usr/lib/x86_64-linux-gnu/libz.so.1", .pkg = "libz1" },
		/* whole lines only */
		{ .line = __LINE__, .path = "/usr/bin/a" },
		{ .line = __LINE__, .path = "/usr/bin/aaa", .pkg = "bb" },
		{ .line = __LINE__, .path = "/usr/share/doc" },
		{ .line = __LINE__, .path = "/usr/bin/cc" },
		{ .line = __LINE__, .path = d.real, .pkg = "real" },
		/* through the link to the listed file */
		{ .line = __LINE__, .path = d.link, .pkg = "real" },
	};
	size_t i;

	make_dpkg(f, &d);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *pkg = (char *)"untouched";
		int ret = pp_dpkg_package(d.info, rows[i].path, &pkg);

		if (rows[i].pkg ? ret || !pkg || strcmp(pkg, rows[i].pkg) : ret != -ENOENT || pkg)
			fail_msg("row at line %d: %d, '%s'", rows[i].line, ret,
				 pkg ? pkg : "(null)");
		free(pkg);
	}
	assert_int_equal(pp_dpkg_package(FIX("nowhere"), "/usr/bin/aa", &(char *){ NULL }),
			 -ENOENT);
}

static void test_dpkg_out_of_memory(void **state)
{
	struct op_testdir *f = *state;
	struct dpkg_fix d;
	unsigned long k;
	char *pkg;
	int ret;

	make_dpkg(f, &d);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = pp_dpkg_package(d.info, d.link, &pkg);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, ret);
		assert_null(pkg);
	}
	assert_int_equal(ret, 0);
	assert_string_equal(pkg, "real");
	free(pkg);
	assert_true(k > 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inlines_addr2line),
		cmocka_unit_test(test_inlines_source),
		cmocka_unit_test(test_inlines_without_lines),
		cmocka_unit_test(test_inlines_out_of_memory),
		cmocka_unit_test(test_code_bytes),
		cmocka_unit_test(test_code_edges),
		cmocka_unit_test(test_code_changed),
		cmocka_unit_test(test_code_none),
		cmocka_unit_test(test_no_lines),
		cmocka_unit_test(test_no_lines_dpkg),
		cmocka_unit_test(test_no_lines_other),
		cmocka_unit_test(test_dpkg_package),
		cmocka_unit_test(test_dpkg_out_of_memory),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
