// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The disassembler against objdump.  Every executable section of the ELF
 * fixtures (Makefile.am: pie, nopie, lib.so, vmlinux, and the i386 pie32
 * and lib32.so when the compiler can build them) is decoded instruction
 * by instruction and each line compared with what `objdump -d -z
 * --no-show-raw-insn` prints at that address, in AT&T and Intel syntax;
 * then every function nm lists with a size, decoded from its own start.
 *
 * Where a target is named, the names are objdump's: the symbolizer takes
 * the "ADDR <name>" objdump printed on the line compared, so what is
 * tested is that we print addresses and names where and as objdump does
 * (which of several aliases to show is the symbolizer's business).  A
 * second pass names call targets from nm's sized functions alone.  Then
 * objdump's choice among symbols at one address, on a file assembled
 * here, and random bytes against objdump -b binary.  The cases skip when
 * objdump or nm is missing, or when objdump is not of the binutils whose
 * libopcodes we link.  test_pp_disasm.c has the cases that need no
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
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"


/* ---- comparing ------------------------------------------------------------ */

struct fixture {
	int line;
	const char *file;
	bool optional;		/* built only where the compiler can -m32 */
	unsigned digits;
};

static const struct fixture fixtures[] = {
	{ .line = __LINE__, .file = FIX("pie"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("nopie"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("lib.so"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("vmlinux"), .digits = 16 },
	/* stripped: .dynsym (and the PLT) only, or no symbols at all */
	{ .line = __LINE__, .file = FIX("lib-stripped.so"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("bid"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("dl"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("libinl.so"), .digits = 16 },
	{ .line = __LINE__, .file = FIX("pie32"), .optional = true, .digits = 8 },
	{ .line = __LINE__, .file = FIX("lib32.so"), .optional = true, .digits = 8 },
};

struct syntax {
	const char *options;	/* ours */
	const char *objdump;	/* objdump's */
};

static const struct syntax syntaxes[] = {
	{ NULL, "" },
	{ "intel", "-M intel" },
	{ "att,suffix", "-M suffix" },
};

struct counts {
	unsigned long insns;	/* compared with objdump in section sweeps */
	unsigned long func_insns;	/* again, decoded from function starts */
	unsigned long funcs;
	unsigned long by_nm;	/* call targets named from nm alone */
	unsigned long sections;
	unsigned long own_insns;	/* again, named by the disassembler */
	unsigned long own_named;	/* of which objdump names an address */
};

static struct counts totals[sizeof(syntaxes) / sizeof(syntaxes[0])];

/*
 * Decode [addr, end) of s, comparing each instruction with objdump's line
 * at its address.  Returns the instructions compared.
 */
static unsigned long compare_range(struct pp_disasm *d, const struct section *s,
				   uint64_t addr, uint64_t end, struct listing *l,
				   const char *what)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	unsigned long nr = 0;

	while (addr < end) {
		size_t off = (size_t)(addr - s->addr);
		struct line *x = find_line(l, addr);
		int n;

		op_strbuf_reset(&text);
		l->current = x;
		n = pp_disasm_insn(d, s->code + off, (size_t)(s->size - off), addr, &text);
		l->current = NULL;
		if (!x)
			fail_msg("%s: objdump shows no instruction at %#" PRIx64
				 " (we decoded '%s')", what, addr, text.buf);
		if (n == PP_SYMBOLS_ERR_BAD_INSN) {
			/* the section ends inside it: objdump shows the byte */
			assert_string_equal(text.buf, "(bad)");
			if (strncmp(x->text, ".byte ", 6))
				fail_msg("%s at %#" PRIx64 ": cut, objdump has '%s'", what,
					 addr, x->text);
			n = 1;
		} else if (n <= 0 || strcmp(text.buf, x->text)) {
			fail_msg("%s at %#" PRIx64 ": '%s' (%d), objdump '%s'", what, addr,
				 text.buf, n, x->text);
		}
		x->seen = true;
		addr += (uint64_t)n;
		nr++;
	}
	op_strbuf_release(&text);
	return nr;
}

/*
 * Every section again with no symbolizer: each name is the disassembler's
 * own, from the binary's symbols, and must be objdump's.
 */
static void compare_own_names(struct pp_disasm *d, const struct image *im,
			      struct listing *l, const char *what, struct counts *c)
{
	size_t i;

	pp_disasm_set_symbolizer(d, NULL, NULL);
	for (i = 0; i < im->nr_secs; i++) {
		const struct section *s = &im->secs[i];

		c->own_insns += compare_range(d, s, s->addr, s->addr + s->size, l, what);
	}
	for (i = 0; i < l->nr_lines; i++)
		c->own_named += strchr(l->lines[i].text, '<') != NULL;
}

/* the same, with call targets named from nm's sized functions */
struct nm_names {
	const struct image *im;
	bool named;		/* the last call named its target */
};

static void nm_names(void *data, uint64_t vma, struct op_strbuf *sb)
{
	struct nm_names *nn = data;
	const struct image *im = nn->im;
	const struct func *hit = NULL;
	size_t i;

	nn->named = false;

	for (i = 0; i < im->nr_funcs; i++) {
		const struct func *f = &im->funcs[i];

		if (vma < f->addr || vma >= f->addr + f->size)
			continue;
		if (hit)
			return;		/* aliases: objdump's choice is its own */
		hit = f;
	}
	if (!hit)
		return;
	op_strbuf_addstr(sb, hit->name);
	if (vma != hit->addr)
		op_strbuf_addf(sb, "+0x%" PRIx64, vma - hit->addr);
	nn->named = true;
}

/* calls whose target nm names unambiguously read as objdump prints them */
static unsigned long compare_nm_calls(struct pp_disasm *d, const struct image *im,
				      const struct listing *l, const char *file)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	struct nm_names nn = { .im = im };
	unsigned long nr = 0;
	size_t i;

	pp_disasm_set_symbolizer(d, nm_names, &nn);
	for (i = 0; i < l->nr_lines; i++) {
		const struct line *x = &l->lines[i];
		const struct section *s = section_of(im, x->addr);
		size_t off;
		int n;

		if (strncmp(x->text, "call", 4) || !strchr(x->text, '<') || !s)
			continue;
		off = (size_t)(x->addr - s->addr);
		op_strbuf_reset(&text);
		n = pp_disasm_insn(d, s->code + off, (size_t)(s->size - off), x->addr,
				   &text);
		assert_true(n > 0);
		if (strcmp(text.buf, x->text))
			fail_msg("%s at %#" PRIx64 ": '%s' from nm, objdump '%s'", file,
				 x->addr, text.buf, x->text);
		nr += nn.named;	/* else a PLT entry or an alias, named by d */
	}
	op_strbuf_release(&text);
	return nr;
}

static void compare_fixture(const struct fixture *fx, size_t syntax_idx)
{
	const struct syntax *sy = &syntaxes[syntax_idx];
	struct counts *c = &totals[syntax_idx];
	struct pp_disasm *d;
	struct op_err err = { "" };
	struct listing l;
	struct image im;
	char args[600], what[2048];
	size_t i;

	snprintf(args, sizeof(args), "-d %s %s", sy->objdump, fx->file);
	load_listing(args, &l);
	load_image(fx->file, &im);
	if (pp_disasm_open(fx->file, sy->options, &d, &err))
		fail_msg("row at line %d: open: %s", fx->line, err.msg);
	assert_int_equal(pp_disasm_addr_digits(d), fx->digits);
	pp_disasm_set_symbolizer(d, objdump_names, &l);
	for (i = 0; i < im.nr_secs; i++) {
		const struct section *s = &im.secs[i];

		snprintf(what, sizeof(what), "%s %s", fx->file, sy->objdump);
		c->insns += compare_range(d, s, s->addr, s->addr + s->size, &l, what);
		c->sections++;
	}
	for (i = 0; i < l.nr_lines; i++)
		if (!l.lines[i].seen)
			fail_msg("row at line %d: objdump's %#" PRIx64 " '%s' %s was not decoded",
				 fx->line, l.lines[i].addr, l.lines[i].text, sy->objdump);
	snprintf(what, sizeof(what), "%s %s, no symbolizer", fx->file, sy->objdump);
	compare_own_names(d, &im, &l, what, c);
	pp_disasm_set_symbolizer(d, objdump_names, &l);
	for (i = 0; i < im.nr_funcs; i++) {
		const struct func *f = &im.funcs[i];
		const struct section *s = section_of(&im, f->addr);

		assert_non_null(s);
		snprintf(what, sizeof(what), "%s %s %s", fx->file, f->name, sy->objdump);
		c->func_insns += compare_range(d, s, f->addr, f->addr + f->size, &l, what);
		c->funcs++;
	}
	c->by_nm += compare_nm_calls(d, &im, &l, fx->file);
	pp_disasm_close(d);
	free_image(&im);
	free_listing(&l);
}

/* more binaries to compare, from OP_TEST_DISASM_FILES (blank-separated) */
static void compare_extra(size_t syntax_idx)
{
	const char *files = getenv("OP_TEST_DISASM_FILES");
	char *list, *p, *save = NULL;

	if (!files)
		return;
	list = strdup(files);
	assert_non_null(list);
	for (p = strtok_r(list, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
		struct fixture fx = { .line = __LINE__, .file = p };
		unsigned char ident[EI_NIDENT] = "";
		int fd = open(p, O_RDONLY | O_CLOEXEC);

		assert_true(fd >= 0);
		assert_int_equal(pread(fd, ident, sizeof(ident), 0), sizeof(ident));
		close(fd);
		fx.digits = ident[EI_CLASS] == ELFCLASS64 ? 16 : 8;
		compare_fixture(&fx, syntax_idx);
	}
	free(list);
}

static void test_objdump(void **state)
{
	size_t i, k;

	(void)state;
	if (!disasm_env.have_binutils) {
		print_message("%s: no comparison with objdump\n", disasm_env.no_binutils);
		skip();
	}
	for (k = 0; k < sizeof(syntaxes) / sizeof(syntaxes[0]); k++) {
		for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
			const struct fixture *fx = &fixtures[i];

			if (fx->optional && access(fx->file, R_OK)) {
				if (!k)
					print_message("no %s: the compiler cannot build i386 "
						      "code here; not compared\n", fx->file);
				continue;
			}
			compare_fixture(fx, k);
		}
		compare_extra(k);
		print_message("objdump %s: %lu instructions in %lu sections, %lu again in "
			      "%lu functions, %lu calls named from nm; %lu instructions, "
			      "%lu of them naming an address, with our own names\n",
			      syntaxes[k].objdump[0] ? syntaxes[k].objdump : "(AT&T)",
			      totals[k].insns, totals[k].sections, totals[k].func_insns,
			      totals[k].funcs, totals[k].by_nm, totals[k].own_insns,
			      totals[k].own_named);
		assert_true(totals[k].insns > 500);
		assert_true(totals[k].by_nm > 5);
		assert_true(totals[k].own_named > 100);
	}
}

/* ---- objdump's choice among symbols at one address ----------------------- */

/*
 * Each call or data reference of _start reaches an address with two
 * symbols, the first by name being the one objdump does not show: a
 * larger function, an object, a function over a global label, global
 * over weak and local, names without a leading '.', not like a file name
 * ("g1.o") nor a compiler mark; of two at the end of .text and the start
 * of zcode, the one in the instruction's section.  --defsym makes
 * "linked" an absolute symbol of value 1, a candidate too: 0x400000 is
 * "<linked+0x3fffff>", 0 below every symbol "<linked-0x1>".  Assembled
 * and linked here (as, ld), and the object file alone (relocatable:
 * names from the instruction's section only).
 */
static const char prefs_asm[] =
	"	.text\n"
	"	.globl _start\n"
	"_start:\n"
	"	call a1_small\n"
	"	lea b1_notype(%rip), %rax\n"
	"	call c1_global\n"
	"	call d1_weak\n"
	"	call e1_local\n"
	"	call .f1_dot\n"
	"	call g1.o\n"
	"	call h1_gcc2_compiled\n"
	"	jmp a1_small+1\n"
	"	lea d_obj+4(%rip), %rax\n"
	"	.globl a1_small, a2_big\n"
	"	.type a1_small, @function\n"
	"	.type a2_big, @function\n"
	"a1_small:\n"
	"a2_big:\n"
	"	nop\n"
	"	ret\n"
	"	.size a1_small, 1\n"
	"	.size a2_big, 2\n"
	"	.globl c1_global\n"
	"	.type c2_local_func, @function\n"
	"c1_global:\n"
	"c2_local_func:\n"
	"	ret\n"
	"	.weak d1_weak\n"
	"	.globl d2_global\n"
	"d1_weak:\n"
	"d2_global:\n"
	"	ret\n"
	"e1_local:\n"
	"	.globl e2_global\n"
	"e2_global:\n"
	"	ret\n"
	"	.globl .f1_dot, f2_plain\n"
	".f1_dot:\n"
	"f2_plain:\n"
	"	ret\n"
	"	.globl g1.o, g2_plain\n"
	"g1.o:\n"
	"g2_plain:\n"
	"	ret\n"
	"	.globl h1_gcc2_compiled, h2_plain\n"
	"h1_gcc2_compiled:\n"
	"h2_plain:\n"
	"	ret\n"
	".ifdef linked\n"
	"	call 0x400000\n"
	"	call 0\n"
	"	call s_a\n"
	"	.globl s_b\n"
	"s_b:\n"
	"	.section zcode, \"ax\", @progbits\n"
	"	.globl s_a\n"
	"s_a:\n"
	"	call s_b\n"
	"	ret\n"
	".endif\n"
	"	.data\n"
	"	.globl b1_notype, b2_object, d_obj\n"
	"	.type b2_object, @object\n"
	"	.type d_obj, @object\n"
	"b1_notype:\n"
	"b2_object:\n"
	"	.long 0\n"
	"	.size b2_object, 4\n"
	"d_obj:\n"
	"	.long 1, 2\n"
	"	.size d_obj, 8\n";

/* .text ends where zcode starts: s_b and s_a share an address */
static const char prefs_ld[] =
	"SECTIONS {\n"
	"	. = 0x401000;\n"
	"	.text : { *(.text) }\n"
	"	zcode : { *(zcode) }\n"
	"	. = 0x402000;\n"
	"	.data : { *(.data) }\n"
	"}\n";

/* what objdump shows, in order: each the second name at its address */
static const char *const prefs_names[] = {
	"<a2_big>", "<b2_object>", "<c2_local_func>", "<d2_global>", "<e2_global>",
	"<f2_plain>", "<g2_plain>", "<h2_plain>", "<a2_big+0x1>", "<d_obj+0x4>",
	"<linked+0x3fffff>", "<linked-0x1>", "<s_b>", "<s_a>",
};

/* assemble (and link) prefs_asm into exe and obj; false if as or ld fail */
static bool build_prefs(char *exe, char *obj, size_t size)
{
	char src[600], script[600], linked[600], cmd[8192];

	if (!op_testdir_file(&disasm_env.tmp, "prefs.s", src, sizeof(src)) ||
	    !op_testdir_file(&disasm_env.tmp, "prefs.ld", script, sizeof(script)) ||
	    !op_testdir_file(&disasm_env.tmp, "prefs-linked.o", linked, sizeof(linked)) ||
	    !op_testdir_file(&disasm_env.tmp, "prefs", exe, size) ||
	    !op_testdir_file(&disasm_env.tmp, "prefs.o", obj, size))
		return false;
	assert_int_equal(op_write_file_atomic(src, prefs_asm, strlen(prefs_asm), 0644), 0);
	assert_int_equal(op_write_file_atomic(script, prefs_ld, strlen(prefs_ld), 0644), 0);
	snprintf(cmd, sizeof(cmd),
		 "as --64 -o %s %s && as --64 --defsym linked=1 -o %s %s && "
		 "ld -T %s -o %s %s", obj, src, linked, src, script, exe, linked);
	return !system(cmd);
}

static void test_preferences(void **state)
{
	struct fixture exe = { .line = __LINE__, .digits = 16 };
	struct fixture obj = { .line = __LINE__, .digits = 16 };
	size_t i, k, n = 0, nr_names = sizeof(prefs_names) / sizeof(prefs_names[0]);
	char exe_path[600], obj_path[600], args[700];
	struct listing l;

	(void)state;
	if (!disasm_env.have_binutils) {
		print_message("%s: no comparison with objdump\n", disasm_env.no_binutils);
		skip();
	}
	if (!build_prefs(exe_path, obj_path, sizeof(exe_path))) {
		print_message("as or ld cannot build the x86-64 fixture: not compared\n");
		skip();
	}
	exe.file = exe_path;
	obj.file = obj_path;
	/* objdump chose the names the rules above say */
	snprintf(args, sizeof(args), "-d %s", exe_path);
	load_listing(args, &l);
	for (i = 0; i < l.nr_lines && n < nr_names; i++)
		if (strstr(l.lines[i].text, prefs_names[n]))
			n++;
	if (n < nr_names)
		fail_msg("objdump does not name %s where expected", prefs_names[n]);
	free_listing(&l);
	for (k = 0; k < sizeof(syntaxes) / sizeof(syntaxes[0]); k++) {
		compare_fixture(&exe, k);
		compare_fixture(&obj, k);
	}
}

/* ---- raw bytes against objdump -b binary ---------------------------------- */

static unsigned long compare_raw(const char *elf, const char *options, const char *machine,
			const unsigned char *bytes, size_t len, const char *name)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	struct pp_disasm *d;
	struct listing l;
	char path[600], args[800];
	unsigned long nr = 0;
	size_t off = 0;

	assert_non_null(op_testdir_file(&disasm_env.tmp, name, path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, bytes, len, 0644), 0);
	snprintf(args, sizeof(args), "-D -b binary -m %s %s%s %s", machine,
		 options ? "-M " : "", options ? options : "", path);
	load_listing(args, &l);
	assert_int_equal(pp_disasm_open(elf, options, &d, NULL), 0);
	while (off < len) {
		struct line *x = find_line(&l, off);
		int n;

		op_strbuf_reset(&text);
		n = pp_disasm_insn(d, bytes + off, len - off, off, &text);
		if (!x)
			fail_msg("%s: objdump shows nothing at %#zx", name, off);
		if (n == PP_SYMBOLS_ERR_BAD_INSN) {
			assert_string_equal(text.buf, "(bad)");
			assert_int_equal(strncmp(x->text, ".byte ", 6), 0);
			n = 1;
		} else {
			if (n <= 0 || strcmp(text.buf, x->text))
				fail_msg("%s at %#zx: '%s' (%d), objdump '%s'", name, off,
					 text.buf, n, x->text);
		}
		off += (size_t)n;
		nr++;
	}
	pp_disasm_close(d);
	free_listing(&l);
	op_strbuf_release(&text);
	return nr;
}

/* undecodable encodings as objdump steps over them ("8f e8 78 ff": 4 bytes) */
static const unsigned char bad_bytes[] = {
	0x06, 0x90, 0xc4, 0xe2, 0x7d, 0x8c, 0x00, 0x90, 0x62, 0xff, 0xff, 0xff,
	0xff, 0xff, 0x90, 0x8f, 0xe8, 0x78, 0xff, 0x90, 0xd9, 0xd0, 0x0f, 0x0b,
	0xf0, 0x90, 0x48, 0x06, 0x0f, 0xff, 0x90, 0xc5, 0xfc, 0x77, 0x90, 0xe8,
};

static void test_raw_bytes(void **state)
{
	unsigned char *buf = malloc(1 << 16);
	unsigned long nr = 0;
	unsigned seed = 12345;
	size_t i;

	(void)state;
	if (!disasm_env.have_binutils) {
		print_message("%s: no comparison with objdump\n", disasm_env.no_binutils);
		free(buf);
		skip();
	}
	assert_non_null(buf);
	nr += compare_raw(disasm_env.nosyms64, NULL, "i386:x86-64", bad_bytes, sizeof(bad_bytes),
			  "bad.bin");
	for (i = 0; i < (1 << 16); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
	nr += compare_raw(disasm_env.nosyms64, NULL, "i386:x86-64", buf, 1 << 16, "random64.bin");
	nr += compare_raw(disasm_env.nosyms64, "intel", "i386:x86-64", buf, 1 << 16,
			  "random64i.bin");
	/* 32- and 16-bit code through the x86-64 handle, as objdump -M i386 does */
	nr += compare_raw(disasm_env.nosyms64, "i386", "i386:x86-64", buf, 1 << 14, "random32.bin");
	nr += compare_raw(disasm_env.nosyms64, "i8086,intel", "i386:x86-64", buf, 1 << 14,
			  "random16.bin");
	nr += compare_raw(disasm_env.nosyms32, NULL, "i386", buf, 1 << 16, "random32e.bin");
	print_message("objdump -b binary: %lu instructions from random bytes\n", nr);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objdump),
		cmocka_unit_test(test_preferences),
		cmocka_unit_test(test_raw_bytes),
	};

	return cmocka_run_group_tests(tests, disasm_setup, disasm_teardown);
}
