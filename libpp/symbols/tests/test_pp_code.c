// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Code bytes of a symbol table (pp_symtab_code()): compared with the file
 * at the offset its section headers give, for programs, a library, a
 * stripped binary with its debug file, and a vmlinux; reads at the end
 * of the file and the one descriptor a table holds; a binary changed
 * after its symbols were read; and the reasons kernel symbols from
 * kallsyms, anonymous memory, missing and non-ELF binaries have none.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <cmocka.h>

#include "libpp/symbols/pp_symbols.h"
#include "libpp/symbols/tests/pp_test_symtab.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

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
	struct elf_section sec;

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
	struct pp_symtab *t = symtab_of(FIX("pie"), NULL);
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
	t = symtab_of(path, NULL);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_code_bytes),
		cmocka_unit_test(test_code_edges),
		cmocka_unit_test(test_code_changed),
		cmocka_unit_test(test_code_none),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
