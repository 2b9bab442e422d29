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
 * second pass names call targets from nm's sized functions alone.
 *
 * Then random bytes against objdump -b binary, "(bad)" encodings, cut
 * instructions, options, files that are not objects or are for machines
 * libopcodes lacks, silence on stdout/stderr, and the error strings.
 * Cases that need objdump or nm skip when they are missing, or when
 * objdump is not of the binutils whose libopcodes we link.
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
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define FIX(name) SYMFIX "/" name

static bool have_binutils;
static char no_binutils[200];	/* why not */
static struct op_testdir tmp;

/* ---- objdump's listing --------------------------------------------------- */

struct line {
	uint64_t addr;
	char *text;
	bool seen;		/* compared in the section sweep */
};

struct listing {
	struct line *lines;
	size_t nr_lines;
	const struct line *current;	/* being decoded, for objdump_names() */
};

static int by_addr_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The name objdump printed for vma in text ("... 401136 <name+0x4>"),
 * into sb.  objdump's choice among aliases depends on the section it
 * disassembles, so the names are looked up in the line being compared.
 */
static void name_in_line(const char *text, uint64_t vma, struct op_strbuf *sb)
{
	const char *p;

	for (p = strstr(text, " <"); p; p = strstr(p + 1, " <")) {
		const char *h = p, *end = strrchr(p, '>');

		while (h > text && isxdigit((unsigned char)h[-1]))
			h--;
		if (h == p || !end || (h > text && isalnum((unsigned char)h[-1])) ||
		    strtoull(h, NULL, 16) != vma)
			continue;
		op_strbuf_add(sb, p + 2, (size_t)(end - p - 2));
		return;
	}
}

static bool parse_line(const char *buf, uint64_t *addr, const char **text)
{
	const char *p = buf;
	char *end;

	while (*p == ' ')
		p++;
	if (!isxdigit((unsigned char)*p))
		return false;
	*addr = strtoull(p, &end, 16);
	if (end[0] != ':' || end[1] != '\t')
		return false;
	*text = end + 2;
	return true;
}

/* objdump -d -z --no-show-raw-insn ARGS, or -D -b binary for raw bytes */
static void load_listing(const char *args, struct listing *l)
{
	char cmd[1024], buf[4096];
	size_t alloc = 0;
	FILE *f;

	memset(l, 0, sizeof(*l));
	snprintf(cmd, sizeof(cmd), "objdump -z --no-show-raw-insn %s 2>/dev/null", args);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		const char *text;
		uint64_t addr;
		struct line *x;

		buf[strcspn(buf, "\n")] = '\0';
		if (!parse_line(buf, &addr, &text))
			continue;
		if (l->nr_lines == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			l->lines = realloc(l->lines, alloc * sizeof(*l->lines));
			assert_non_null(l->lines);
		}
		x = &l->lines[l->nr_lines++];
		x->addr = addr;
		x->text = strdup(text);
		x->seen = false;
		assert_non_null(x->text);
	}
	assert_int_equal(pclose(f), 0);
	if (!l->nr_lines)
		fail_msg("objdump printed no instruction for: %s", cmd);
	qsort(l->lines, l->nr_lines, sizeof(*l->lines), by_addr_line);
}

static void free_listing(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->nr_lines; i++)
		free(l->lines[i].text);
	free(l->lines);
}

static struct line *find_line(const struct listing *l, uint64_t addr)
{
	struct line key = { .addr = addr };

	return bsearch(&key, l->lines, l->nr_lines, sizeof(key), by_addr_line);
}

/* the symbolizer: objdump's name for the address, if it printed one */
static void objdump_names(void *data, uint64_t vma, struct op_strbuf *sb)
{
	const struct listing *l = data;

	if (l->current)
		name_in_line(l->current->text, vma, sb);
}

/* ---- the fixture's ELF: executable sections, sized functions ------------ */

struct section {
	uint64_t addr, size;
	unsigned char *code;
};

struct func {
	uint64_t addr, size;
	char name[1024];
};

struct image {
	struct section *secs;
	size_t nr_secs;
	struct func *funcs;	/* by address */
	size_t nr_funcs;
};

static void add_section(struct image *im, int fd, uint64_t addr, uint64_t off,
			uint64_t size)
{
	struct section *s;

	im->secs = realloc(im->secs, (im->nr_secs + 1) * sizeof(*im->secs));
	assert_non_null(im->secs);
	s = &im->secs[im->nr_secs++];
	s->addr = addr;
	s->size = size;
	s->code = malloc(size ? size : 1);
	assert_non_null(s->code);
	assert_int_equal(pread(fd, s->code, size, (off_t)off), (ssize_t)size);
}

#define READ_SECTIONS(Ehdr, Shdr)						\
	do {									\
		Ehdr eh;							\
		Shdr sh;							\
		unsigned i;							\
										\
		assert_int_equal(pread(fd, &eh, sizeof(eh), 0), sizeof(eh));	\
		for (i = 0; i < eh.e_shnum; i++) {				\
			assert_int_equal(pread(fd, &sh, sizeof(sh),		\
					       (off_t)(eh.e_shoff + i * sizeof(sh))), \
					 sizeof(sh));				\
			if (sh.sh_type == SHT_PROGBITS &&			\
			    (sh.sh_flags & SHF_EXECINSTR))			\
				add_section(im, fd, sh.sh_addr, sh.sh_offset,	\
					    sh.sh_size);			\
		}								\
	} while (0)

static int by_addr_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const struct section *section_of(const struct image *im, uint64_t addr);

/* functions with a size, from nm -S (W: weak objects too, not in code) */
static void load_funcs(const char *path, struct image *im)
{
	char cmd[600], buf[2048];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nm -S --defined-only %s 2>/dev/null", path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		unsigned long long addr, size;
		char type, name[1024];
		struct func *x;

		if (sscanf(buf, "%llx %llx %c %1023s", &addr, &size, &type, name) != 4 ||
		    !strchr("TtWw", type) || !size || !section_of(im, addr))
			continue;
		im->funcs = realloc(im->funcs, (im->nr_funcs + 1) * sizeof(*im->funcs));
		assert_non_null(im->funcs);
		x = &im->funcs[im->nr_funcs++];
		x->addr = addr;
		x->size = size;
		snprintf(x->name, sizeof(x->name), "%s", name);
	}
	assert_int_equal(pclose(f), 0);
	if (im->nr_funcs)
		qsort(im->funcs, im->nr_funcs, sizeof(*im->funcs), by_addr_func);
}

static void load_image(const char *path, struct image *im)
{
	unsigned char ident[EI_NIDENT];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	memset(im, 0, sizeof(*im));
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, ident, sizeof(ident), 0), sizeof(ident));
	if (ident[EI_CLASS] == ELFCLASS64)
		READ_SECTIONS(Elf64_Ehdr, Elf64_Shdr);
	else
		READ_SECTIONS(Elf32_Ehdr, Elf32_Shdr);
	close(fd);
	assert_true(im->nr_secs > 0);
	load_funcs(path, im);
}

static void free_image(struct image *im)
{
	size_t i;

	for (i = 0; i < im->nr_secs; i++)
		free(im->secs[i].code);
	free(im->secs);
	free(im->funcs);
}

static const struct section *section_of(const struct image *im, uint64_t addr)
{
	size_t i;

	for (i = 0; i < im->nr_secs; i++)
		if (addr >= im->secs[i].addr && addr < im->secs[i].addr + im->secs[i].size)
			return &im->secs[i];
	return NULL;
}

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
	const char *env = getenv("OP_TEST_DISASM_FILES");
	char *list, *p, *save = NULL;

	if (!env)
		return;
	list = strdup(env);
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
	if (!have_binutils) {
		print_message("%s: no comparison with objdump\n", no_binutils);
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

	if (!op_testdir_file(&tmp, "prefs.s", src, sizeof(src)) ||
	    !op_testdir_file(&tmp, "prefs.ld", script, sizeof(script)) ||
	    !op_testdir_file(&tmp, "prefs-linked.o", linked, sizeof(linked)) ||
	    !op_testdir_file(&tmp, "prefs", exe, size) ||
	    !op_testdir_file(&tmp, "prefs.o", obj, size))
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
	if (!have_binutils) {
		print_message("%s: no comparison with objdump\n", no_binutils);
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

/* a minimal ELF header for a machine, class and byte order */
static void write_elf(const char *path, unsigned machine, bool is64, bool big)
{
	unsigned char h[64] = { 0x7f, 'E', 'L', 'F' };
	size_t size = is64 ? 64 : 52;

	h[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	h[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	h[big ? 17 : 16] = ET_EXEC;
	h[big ? 19 : 18] = (unsigned char)machine;
	h[big ? 18 : 19] = (unsigned char)(machine >> 8);
	h[big ? 23 : 20] = EV_CURRENT;
	/* e_ehsize */
	h[is64 ? (big ? 53 : 52) : (big ? 41 : 40)] = (unsigned char)size;
	assert_int_equal(op_write_file_atomic(path, h, size, 0644), 0);
}

/*
 * ELF headers without sections or symbols (written by setup()): objdump
 * -b binary has no symbols either, and prints targets as "0x401136".
 */
static char nosyms64[600], nosyms32[600];


static unsigned long compare_raw(const char *elf, const char *options, const char *machine,
			const unsigned char *bytes, size_t len, const char *name)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	struct pp_disasm *d;
	struct listing l;
	char path[600], args[800];
	unsigned long nr = 0;
	size_t off = 0;

	assert_non_null(op_testdir_file(&tmp, name, path, sizeof(path)));
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
	if (!have_binutils) {
		print_message("%s: no comparison with objdump\n", no_binutils);
		free(buf);
		skip();
	}
	assert_non_null(buf);
	nr += compare_raw(nosyms64, NULL, "i386:x86-64", bad_bytes, sizeof(bad_bytes),
			  "bad.bin");
	for (i = 0; i < (1 << 16); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (unsigned char)(seed >> 16);
	}
	nr += compare_raw(nosyms64, NULL, "i386:x86-64", buf, 1 << 16, "random64.bin");
	nr += compare_raw(nosyms64, "intel", "i386:x86-64", buf, 1 << 16,
			  "random64i.bin");
	/* 32- and 16-bit code through the x86-64 handle, as objdump -M i386 does */
	nr += compare_raw(nosyms64, "i386", "i386:x86-64", buf, 1 << 14, "random32.bin");
	nr += compare_raw(nosyms64, "i8086,intel", "i386:x86-64", buf, 1 << 14,
			  "random16.bin");
	nr += compare_raw(nosyms32, NULL, "i386", buf, 1 << 16, "random32e.bin");
	print_message("objdump -b binary: %lu instructions from random bytes\n", nr);
	free(buf);
}

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
	{ .line = __LINE__, .file = nosyms64, .code = { 0xe8, 0, 0, 0, 0 }, .len = 5,
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
	{ .line = __LINE__, .file = nosyms32, .code = { 0xe8, 0xf0, 0xff, 0xff, 0xff },
	  .len = 5, .vma = 0x8, .ret = 5, .text = "call   0xfffffffd" },
	{ .line = __LINE__, .file = nosyms64, .code = { 0xe8, 0xf0, 0xff, 0xff, 0xff },
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
	assert_int_equal(pp_disasm_open(nosyms64, NULL, &d, NULL), 0);
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

	if (!have_binutils) {
		print_message("%s: no comparison with objdump\n", no_binutils);
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
			assert_non_null(op_testdir_file(&tmp, r->name, path, sizeof(path)));
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
	assert_non_null(op_testdir_file(&tmp, "cut", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, buf, 1000, 0644), 0);
	assert_non_null(op_testdir_file(&tmp, "text", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, "text\n", 5, 0644), 0);
	assert_non_null(op_testdir_file(&tmp, "aarch64", path, sizeof(path)));
	write_elf(path, EM_AARCH64, true, false);
	assert_non_null(op_testdir_file(&tmp, "ppc64", path, sizeof(path)));
	write_elf(path, EM_PPC64, true, true);

	assert_non_null(op_testdir_file(&tmp, "stdio", out, sizeof(out)));
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
		assert_non_null(op_testdir_file(&tmp, odd[i], path, sizeof(path)));
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

/* "2.40" from the libopcodes-2.40-system.so we run with; "" if not named so */
static void opcodes_version(char *buf, size_t size)
{
	char line[1024];
	FILE *f = fopen("/proc/self/maps", "r");

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "/libopcodes-");

		if (p) {
			p += strlen("/libopcodes-");
			snprintf(buf, size, "%.*s", (int)strspn(p, "0123456789."), p);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* objdump and nm present, and objdump of the binutils we link */
static void find_binutils(void)
{
	char line[256] = "", ours[32];
	FILE *f = popen("objdump --version 2>/dev/null", "r");
	const char *theirs;

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		pclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	theirs = strrchr(line, ' ');
	opcodes_version(ours, sizeof(ours));
	if (!theirs || system("nm --version >/dev/null 2>&1"))
		snprintf(no_binutils, sizeof(no_binutils), "objdump or nm not found");
	else if (ours[0] && strcmp(theirs + 1, ours))
		snprintf(no_binutils, sizeof(no_binutils),
			 "'%s' is not of binutils %s, whose libopcodes we use", line, ours);
	else
		have_binutils = true;
}

static int setup(void **state)
{
	(void)state;
	find_binutils();
	if (op_testdir_make(&tmp) ||
	    !op_testdir_file(&tmp, "nosyms64", nosyms64, sizeof(nosyms64)) ||
	    !op_testdir_file(&tmp, "nosyms32", nosyms32, sizeof(nosyms32)))
		return -1;
	write_elf(nosyms64, EM_X86_64, true, false);
	write_elf(nosyms32, EM_386, false, false);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	op_testdir_remove(&tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objdump),
		cmocka_unit_test(test_preferences),
		cmocka_unit_test(test_raw_bytes),
		cmocka_unit_test(test_insns),
		cmocka_unit_test(test_symbolizer),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_silent),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
