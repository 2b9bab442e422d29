// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The disassembler's interface, case by case: single instructions
 * (objdump's "(bad)", cut instructions, 32-bit wrap-around), the caller's
 * symbolizer against the binary's own names, options, files that are not
 * objects or are for machines libopcodes lacks, silence on stdout and
 * stderr, the error strings, and running out of memory while naming
 * addresses.  test_pp_disasm_objdump.c compares whole fixtures with
 * objdump.
 */
#include "config.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
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

#include "libpp/symbols/pp_disasm.h"
#include "libpp/symbols/tests/pp_test_disasm.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"


/* ---- single cases ------------------------------------------------------------ */

struct insn_row {
	int line;
	const char *file;
	const char *options;
	unsigned char code[16];
	size_t len;
	uint64_t vma;
	int ret;
	const char *text;
};

static const struct insn_row insn_rows[] = {
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0x90 }, .len = 1,
	  .ret = 1, .text = "nop" },
	/* no symbols: the target as objdump prints it then */
	{ .line = __LINE__, .file = disasm_env.nosyms64, .code = { 0xe8, 0, 0, 0, 0 }, .len = 5,
	  .vma = 0x401000, .ret = 5, .text = "call   0x401005" },
	{ .line = __LINE__, .file = FIX("nopie"), .options = "intel",
	  .code = { 0x48, 0x89, 0xe5 }, .len = 3, .ret = 3, .text = "mov    rbp,rsp" },
	{ .line = __LINE__, .file = FIX("nopie"), .options = "suffix",
	  .code = { 0xc3 }, .len = 1, .ret = 1, .text = "retq" },
	/* no instruction: objdump's "(bad)", with the bytes it takes */
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0x06 }, .len = 1,
	  .ret = 1, .text = "(bad)" },
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0x8f, 0xe8, 0x78, 0xff, 0x90 },
	  .len = 5, .ret = 4, .text = "(bad)" },
	/* the buffer ends inside the instruction */
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0xe8, 0, 0 }, .len = 3,
	  .ret = PP_SYMBOLS_ERR_BAD_INSN, .text = "(bad)" },
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0x48 }, .len = 1,
	  .ret = PP_SYMBOLS_ERR_BAD_INSN, .text = "(bad)" },
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0x0f }, .len = 1,
	  .ret = PP_SYMBOLS_ERR_BAD_INSN, .text = "(bad)" },
	{ .line = __LINE__, .file = FIX("nopie"), .code = { 0x90 }, .len = 0,
	  .ret = PP_SYMBOLS_ERR_BAD_INSN, .text = "(bad)" },
	/* 32-bit addresses wrap as objdump prints them */
	{ .line = __LINE__, .file = disasm_env.nosyms32, .code = { 0xe8, 0xf0, 0xff, 0xff, 0xff },
	  .len = 5, .vma = 0x8, .ret = 5, .text = "call   0xfffffffd" },
	{ .line = __LINE__, .file = disasm_env.nosyms64, .code = { 0xe8, 0xf0, 0xff, 0xff, 0xff },
	  .len = 5, .vma = 0x8, .ret = 5, .text = "call   0xfffffffffffffffd" },
};

static void test_insns(void **state)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(insn_rows) / sizeof(insn_rows[0]); i++) {
		const struct insn_row *r = &insn_rows[i];
		struct pp_disasm *d;
		int ret;

		if (access(r->file, R_OK))
			continue;	/* pie32: see test_objdump */
		if (pp_disasm_open(r->file, r->options, &d, NULL))
			fail_msg("row at line %d: open", r->line);
		/* text is appended to what the buffer holds */
		op_strbuf_reset(&text);
		op_strbuf_addstr(&text, "> ");
		ret = pp_disasm_insn(d, r->code, r->len, r->vma, &text);
		if (ret != r->ret || strncmp(text.buf, "> ", 2) || strcmp(text.buf + 2, r->text))
			fail_msg("row at line %d: %d '%s', expected %d '> %s'", r->line, ret,
				 text.buf, r->ret, r->text);
		pp_disasm_close(d);
	}
	op_strbuf_release(&text);
}

/* a symbolizer that names nothing leaves the bare address */
static void says_nothing(void *data, uint64_t vma, struct op_strbuf *sb)
{
	(void)data;
	(void)vma;
	(void)sb;
}

static void says_fn(void *data, uint64_t vma, struct op_strbuf *sb)
{
	(void)data;
	op_strbuf_addf(sb, "fn+0x%" PRIx64, vma - 0x401000);
}

/* the first line of objdump's listing of nopie starting with prefix and naming a target */
static const struct line *line_naming(const struct listing *l, const char *prefix)
{
	size_t i;

	for (i = 0; i < l->nr_lines; i++)
		if (!strncmp(l->lines[i].text, prefix, strlen(prefix)) &&
		    strchr(l->lines[i].text, '<'))
			return &l->lines[i];
	fail_msg("objdump names no target of a '%s' in %s", prefix, FIX("nopie"));
	return NULL;
}

/*
 * A caller's name wins; without one the name is the disassembler's, as
 * objdump prints it: for a call and for a RIP-relative data address.
 */
static void check_caller_wins(struct pp_disasm *d, const struct image *im,
			      const struct line *x)
{
	const struct section *s = section_of(im, x->addr);
	struct op_strbuf text = OP_STRBUF_INIT;
	const char *open = strrchr(x->text, '<'), *hex = open - 1;
	size_t off = (size_t)(x->addr - s->addr), len = s->size - off;
	char want[600];

	while (hex > x->text && isxdigit((unsigned char)hex[-1]))
		hex--;

	pp_disasm_set_symbolizer(d, says_nothing, NULL);
	assert_true(pp_disasm_insn(d, s->code + off, len, x->addr, &text) > 0);
	assert_string_equal(text.buf, x->text);
	pp_disasm_set_symbolizer(d, NULL, NULL);
	op_strbuf_reset(&text);
	assert_true(pp_disasm_insn(d, s->code + off, len, x->addr, &text) > 0);
	assert_string_equal(text.buf, x->text);
	pp_disasm_set_symbolizer(d, says_fn, NULL);
	op_strbuf_reset(&text);
	assert_true(pp_disasm_insn(d, s->code + off, len, x->addr, &text) > 0);
	snprintf(want, sizeof(want), "%.*s<fn+0x%llx>", (int)(open - x->text), x->text,
		 strtoull(hex, NULL, 16) - 0x401000);
	assert_string_equal(text.buf, want);
	op_strbuf_release(&text);
}

static void test_symbolizer(void **state)
{
	static const unsigned char call[] = { 0xe8, 0x31, 0x01, 0, 0 };
	static const unsigned char lea[] = { 0x48, 0x8d, 0x05, 0x10, 0, 0, 0 };
	struct op_strbuf text = OP_STRBUF_INIT;
	struct pp_disasm *d;
	struct listing l;
	struct image im;

	(void)state;
	/* a binary without symbols: objdump's "0x401136" unless the caller names it */
	assert_int_equal(pp_disasm_open(disasm_env.nosyms64, NULL, &d, NULL), 0);
	pp_disasm_set_symbolizer(d, says_nothing, NULL);
	assert_int_equal(pp_disasm_insn(d, call, sizeof(call), 0x401000, &text), 5);
	assert_string_equal(text.buf, "call   0x401136");
	pp_disasm_set_symbolizer(d, says_fn, NULL);
	op_strbuf_reset(&text);
	assert_int_equal(pp_disasm_insn(d, call, sizeof(call), 0x401000, &text), 5);
	assert_string_equal(text.buf, "call   401136 <fn+0x136>");
	op_strbuf_reset(&text);
	assert_int_equal(pp_disasm_insn(d, lea, sizeof(lea), 0x401000, &text), 7);
	assert_string_equal(text.buf, "lea    0x10(%rip),%rax        # 401017 <fn+0x17>");
	pp_disasm_set_symbolizer(d, NULL, NULL);
	op_strbuf_reset(&text);
	assert_int_equal(pp_disasm_insn(d, call, sizeof(call), 0x401000, &text), 5);
	assert_string_equal(text.buf, "call   0x401136");
	pp_disasm_close(d);
	op_strbuf_release(&text);

	if (!disasm_env.have_binutils) {
		print_message("%s: no comparison with objdump\n", disasm_env.no_binutils);
		return;
	}
	/* nopie: a call and a data reference named from its symbols, or the caller's */
	load_listing("-d " FIX("nopie"), &l);
	load_image(FIX("nopie"), &im);
	assert_int_equal(pp_disasm_open(FIX("nopie"), NULL, &d, NULL), 0);
	check_caller_wins(d, &im, line_naming(&l, "call "));
	check_caller_wins(d, &im, line_naming(&l, "mov    0x"));
	pp_disasm_close(d);
	free_image(&im);
	free_listing(&l);
}

struct option_row {
	int line;
	const char *options;
	int ret;
	const char *bad;	/* named in the message */
};

static const struct option_row option_rows[] = {
	{ .line = __LINE__, .options = NULL },
	{ .line = __LINE__, .options = "" },
	{ .line = __LINE__, .options = "intel" },
	{ .line = __LINE__, .options = "att,suffix" },
	{ .line = __LINE__, .options = " intel , suffix " },
	{ .line = __LINE__, .options = ",,intel," },
	{ .line = __LINE__, .options = "intel-mnemonic,addr32,data16,x86-64" },
	{ .line = __LINE__, .options = "foo", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'foo'" },
	{ .line = __LINE__, .options = "intel,foo", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'foo'" },
	/* libopcodes takes prefixes ("intelx" as "intel"): we do not */
	{ .line = __LINE__, .options = "intelx", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'intelx'" },
	{ .line = __LINE__, .options = "int", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'int'" },
	{ .line = __LINE__, .options = "intel=1", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'intel=1'" },
	/* another machine's */
	{ .line = __LINE__, .options = "reg-names-raw", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'reg-names-raw'" },
	{ .line = __LINE__, .options = "no-aliases", .ret = PP_SYMBOLS_ERR_BAD_OPTIONS,
	  .bad = "'no-aliases'" },
};

static void test_options(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(option_rows) / sizeof(option_rows[0]); i++) {
		const struct option_row *r = &option_rows[i];
		struct op_err err = { "" };
		struct pp_disasm *d = (struct pp_disasm *)&err;
		int ret = pp_disasm_open(FIX("nopie"), r->options, &d, &err);

		if (ret != r->ret)
			fail_msg("row at line %d: %d (%s), expected %d", r->line, ret,
				 err.msg, r->ret);
		if (ret) {
			assert_null(d);
			if (!strstr(err.msg, r->bad) || !strstr(err.msg, "i386:x86-64"))
				fail_msg("row at line %d: message '%s'", r->line, err.msg);
		}
		pp_disasm_close(d);
	}
}

struct file_row {
	int line;
	const char *name;	/* in the test directory */
	const char *path;	/* or this file */
	const char *content;	/* written there, or NULL */
	unsigned machine;	/* or an ELF header for this machine */
	bool is64, big;
	int ret;
	int alt_ret;		/* also right (a libopcodes with more machines) */
	unsigned char nop[4];	/* then this decodes as "nop" */
};

static const struct file_row file_rows[] = {
	{ .line = __LINE__, .name = "text", .content = "not an object\n",
	  .ret = PP_SYMBOLS_ERR_NOT_OBJECT },
	{ .line = __LINE__, .name = "empty", .content = "",
	  .ret = PP_SYMBOLS_ERR_NOT_OBJECT },
	{ .line = __LINE__, .name = "missing", .ret = -ENOENT },
	{ .line = __LINE__, .name = "dir", .path = "/", .ret = -EISDIR },
	{ .line = __LINE__, .name = "device", .path = "/dev/null",
	  .ret = PP_SYMBOLS_ERR_NOT_OBJECT },
	{ .line = __LINE__, .name = "aarch64", .machine = EM_AARCH64, .is64 = true,
	  .ret = PP_SYMBOLS_ERR_NO_ARCH, .alt_ret = PP_SYMBOLS_ERR_NOT_OBJECT,
	  .nop = { 0x1f, 0x20, 0x03, 0xd5 } },
	{ .line = __LINE__, .name = "ppc64", .machine = EM_PPC64, .is64 = true, .big = true,
	  .ret = PP_SYMBOLS_ERR_NO_ARCH, .alt_ret = PP_SYMBOLS_ERR_NOT_OBJECT,
	  .nop = { 0x60, 0, 0, 0 } },
	{ .line = __LINE__, .name = "riscv", .machine = EM_RISCV, .is64 = true,
	  .ret = PP_SYMBOLS_ERR_NO_ARCH, .alt_ret = PP_SYMBOLS_ERR_NOT_OBJECT,
	  .nop = { 0x13, 0, 0, 0 } },
};

static void test_files(void **state)
{
	char path[600];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(file_rows) / sizeof(file_rows[0]); i++) {
		const struct file_row *r = &file_rows[i];
		struct op_err err = { "" };
		struct pp_disasm *d;
		int ret;

		if (r->path)
			snprintf(path, sizeof(path), "%s", r->path);
		else
			assert_non_null(op_testdir_file(&disasm_env.tmp, r->name, path, sizeof(path)));
		if (r->content)
			assert_int_equal(op_write_file_atomic(path, r->content,
							      strlen(r->content), 0644), 0);
		else if (r->machine)
			write_elf(path, r->machine, r->is64, r->big);
		ret = pp_disasm_open(path, NULL, &d, &err);
		if (!ret && r->machine) {
			/* this libopcodes has the machine: it must decode */
			struct op_strbuf text = OP_STRBUF_INIT;

			print_message("%s: libopcodes has it\n", r->name);
			assert_int_equal(pp_disasm_insn(d, r->nop, 4, 0x1000, &text), 4);
			assert_string_equal(text.buf, "nop");
			assert_int_equal(pp_disasm_addr_digits(d), r->is64 ? 16 : 8);
			pp_disasm_close(d);
			op_strbuf_release(&text);
			continue;
		}
		if (ret != r->ret && (!r->alt_ret || ret != r->alt_ret))
			fail_msg("row at line %d: %d (%s), expected %d", r->line, ret,
				 err.msg, r->ret);
		assert_null(d);
		if (!strstr(err.msg, path))
			fail_msg("row at line %d: message '%s' does not name the file",
				 r->line, err.msg);
	}
}

/* nothing reaches stdout or stderr: bad options, odd files, garbage */
static void test_silent(void **state)
{
	static const char *const odd[] = { "text", "aarch64", "ppc64", "cut" };
	unsigned char *buf = malloc(1 << 16);
	struct op_strbuf text = OP_STRBUF_INIT;
	char out[600], path[600], *data;
	struct pp_disasm *d;
	int saved[2], fd;
	size_t i, len;
	long got;

	(void)state;
	assert_non_null(buf);
	/* the first 1000 bytes of a binary: section headers past the end */
	fd = open(FIX("nopie"), O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	got = pread(fd, buf, 1000, 0);
	close(fd);
	assert_int_equal(got, 1000);
	assert_non_null(op_testdir_file(&disasm_env.tmp, "cut", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, buf, 1000, 0644), 0);
	assert_non_null(op_testdir_file(&disasm_env.tmp, "text", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, "text\n", 5, 0644), 0);
	assert_non_null(op_testdir_file(&disasm_env.tmp, "aarch64", path, sizeof(path)));
	write_elf(path, EM_AARCH64, true, false);
	assert_non_null(op_testdir_file(&disasm_env.tmp, "ppc64", path, sizeof(path)));
	write_elf(path, EM_PPC64, true, true);

	assert_non_null(op_testdir_file(&disasm_env.tmp, "stdio", out, sizeof(out)));
	fflush(stdout);
	fflush(stderr);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	saved[0] = dup(1);
	saved[1] = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		assert_non_null(op_testdir_file(&disasm_env.tmp, odd[i], path, sizeof(path)));
		if (!pp_disasm_open(path, NULL, &d, NULL))
			pp_disasm_close(d);
	}
	(void)pp_disasm_open(FIX("nopie"), "bogus,intel", &d, NULL);
	assert_int_equal(pp_disasm_open(FIX("nopie"), NULL, &d, NULL), 0);
	for (i = 0; i < (1 << 16); i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	for (i = 0; i < (1 << 16);) {
		int n;

		op_strbuf_reset(&text);
		n = pp_disasm_insn(d, buf + i, (1 << 16) - i, 0x400000 + i, &text);
		i += n > 0 ? (size_t)n : 1;
	}
	pp_disasm_close(d);

	fflush(stdout);
	fflush(stderr);
	dup2(saved[0], 1);
	dup2(saved[1], 2);
	close(saved[0]);
	close(saved[1]);
	assert_int_equal(op_read_file(out, 1 << 20, &data, &len), 0);
	if (len)
		fail_msg("libbfd or libopcodes printed: %.*s", (int)len, data);
	free(data);
	free(buf);
	op_strbuf_release(&text);
}

static void test_strerror(void **state)
{
	int e;

	(void)state;
	assert_string_equal(pp_symbols_strerror(PP_SYMBOLS_ERR_NOT_OBJECT),
			    "not an object file libbfd knows");
	assert_string_equal(pp_symbols_strerror(PP_SYMBOLS_ERR_NO_ARCH),
			    "libopcodes has no disassembler for its machine");
	assert_string_equal(pp_symbols_strerror(PP_SYMBOLS_ERR_BAD_OPTIONS),
			    "disassembler options not understood");
	assert_string_equal(pp_symbols_strerror(PP_SYMBOLS_ERR_BAD_INSN),
			    "cannot decode the bytes as an instruction");
	for (e = PP_SYMBOLS_ERR_BASE + 1; e <= PP_SYMBOLS_ERR_BAD_INSN; e++)
		assert_true(strlen(pp_symbols_strerror(e)) > 10);
	assert_string_equal(pp_symbols_strerror(-ENOENT), strerror(ENOENT));
	/* outside the list: never NULL */
	assert_non_null(pp_symbols_strerror(PP_SYMBOLS_ERR_BASE));
	assert_non_null(pp_symbols_strerror(PP_SYMBOLS_ERR_BAD_INSN + 1));
}

/* the vma of the symbol name in the table of path */
static uint64_t sym_vma(const char *path, const char *name)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)path };
	struct pp_symtab *t;
	uint64_t vma = 0;
	size_t i;

	assert_int_equal(pp_symtab_load(&id, false, 0, NULL, &t), 0);
	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			vma = t->syms[i].vma;
	pp_symtab_free(t);
	if (!vma)
		fail_msg("no %s in %s", name, path);
	return vma;
}

/* a symbolizer that allocates: "fn+0x..." grown to a long name */
static void says_long(void *data, uint64_t vma, struct op_strbuf *sb)
{
	(void)data;
	op_strbuf_addf(sb, "%0300d", 0);
	op_strbuf_addf(sb, "+0x%" PRIx64, vma);
}

/*
 * Naming a call's target with allocation k failing, for each k until
 * nothing fails: opening gives -ENOMEM, or decoding does (loading the
 * binary's names, growing the text), or the text is objdump's.  No
 * crash; the valgrind run of make check catches leaks.
 */
static void test_alloc_failures(void **state)
{
	static const struct {
		int line;
		pp_disasm_symbolizer fn;	/* NULL: the binary's names */
		const char *name;		/* of the target, as shown */
	} rows[] = {
		{ .line = __LINE__, .name = "fix_alpha" },
		{ .line = __LINE__, .fn = says_long },
	};
	uint64_t main_vma = sym_vma(FIX("nopie"), "main");
	uint64_t target = sym_vma(FIX("nopie"), "fix_alpha");
	int32_t rel = (int32_t)(target - (main_vma + 5));
	unsigned char call[5] = { 0xe8, (unsigned char)rel, (unsigned char)(rel >> 8),
				  (unsigned char)(rel >> 16), (unsigned char)(rel >> 24) };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct op_strbuf want = OP_STRBUF_INIT;
		unsigned long k, failed = 0;

		op_strbuf_addf(&want, "call   %" PRIx64 " <", target);
		if (rows[i].name)
			op_strbuf_addstr(&want, rows[i].name);
		else
			op_strbuf_addf(&want, "%0300d+0x%" PRIx64, 0, target);
		op_strbuf_addch(&want, '>');
		for (k = 1;; k++) {
			struct op_strbuf text = OP_STRBUF_INIT;
			struct pp_disasm *d = NULL;
			int ret;

			op_alloc_fail_at(k);
			ret = pp_disasm_open(FIX("nopie"), NULL, &d, NULL);
			if (!ret) {
				pp_disasm_set_symbolizer(d, rows[i].fn, NULL);
				ret = pp_disasm_insn(d, call, sizeof(call), main_vma, &text);
			}
			if (op_alloc_count() < k) {
				op_alloc_fail_at(0);
				if (ret != 5 || strcmp(text.buf, want.buf))
					fail_msg("row at line %d: %d '%s', want '%s'", rows[i].line,
						 ret, text.buf, want.buf);
				pp_disasm_close(d);
				op_strbuf_release(&text);
				break;
			}
			op_alloc_fail_at(0);
			if (ret != -ENOMEM && (ret != 5 || strcmp(text.buf, want.buf)))
				fail_msg("row at line %d: allocation %lu failing gave %d '%s'",
					 rows[i].line, k, ret, text.buf);
			failed += ret == -ENOMEM;
			pp_disasm_close(d);
			op_strbuf_release(&text);
		}
		op_strbuf_release(&want);
		if (failed < 3)
			fail_msg("row at line %d: only %lu failures reached the caller",
				 rows[i].line, failed);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insns),
		cmocka_unit_test(test_symbolizer),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_silent),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_alloc_failures),
	};

	return cmocka_run_group_tests(tests, disasm_setup, disasm_teardown);
}
