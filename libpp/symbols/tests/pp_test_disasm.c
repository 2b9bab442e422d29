// SPDX-License-Identifier: GPL-2.0-or-later
/* What the disassembler tests share (see pp_test_disasm.h). */
#include "config.h"

#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/tests/pp_test_disasm.h"
#include "libutil/op_file.h"

/* ---- objdump's listing --------------------------------------------------- */

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

void load_listing(const char *args, struct listing *l)
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

void free_listing(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->nr_lines; i++)
		free(l->lines[i].text);
	free(l->lines);
}

struct line *find_line(const struct listing *l, uint64_t addr)
{
	struct line key = { .addr = addr };

	return bsearch(&key, l->lines, l->nr_lines, sizeof(key), by_addr_line);
}

void objdump_names(void *data, uint64_t vma, struct op_strbuf *sb)
{
	const struct listing *l = data;

	if (l->current)
		name_in_line(l->current->text, vma, sb);
}

/* ---- the fixture's ELF: executable sections, sized functions ------------ */

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

void load_image(const char *path, struct image *im)
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

void free_image(struct image *im)
{
	size_t i;

	for (i = 0; i < im->nr_secs; i++)
		free(im->secs[i].code);
	free(im->secs);
	free(im->funcs);
}

const struct section *section_of(const struct image *im, uint64_t addr)
{
	size_t i;

	for (i = 0; i < im->nr_secs; i++)
		if (addr >= im->secs[i].addr && addr < im->secs[i].addr + im->secs[i].size)
			return &im->secs[i];
	return NULL;
}

void write_elf(const char *path, unsigned machine, bool is64, bool big)
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
static void find_binutils(struct disasm_env *env)
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
		snprintf(env->no_binutils, sizeof(env->no_binutils), "objdump or nm not found");
	else if (ours[0] && strcmp(theirs + 1, ours))
		snprintf(env->no_binutils, sizeof(env->no_binutils),
			 "'%s' is not of binutils %s, whose libopcodes we use", line, ours);
	else
		env->have_binutils = true;
}

struct disasm_env disasm_env;

int disasm_setup(void **state)
{
	struct disasm_env *env = &disasm_env;

	(void)state;
	memset(env, 0, sizeof(*env));
	find_binutils(env);
	if (op_testdir_make(&env->tmp) ||
	    !op_testdir_file(&env->tmp, "nosyms64", env->nosyms64, sizeof(env->nosyms64)) ||
	    !op_testdir_file(&env->tmp, "nosyms32", env->nosyms32, sizeof(env->nosyms32)))
		return -1;
	write_elf(env->nosyms64, EM_X86_64, true, false);
	write_elf(env->nosyms32, EM_386, false, false);
	return 0;
}

int disasm_teardown(void **state)
{
	(void)state;
	op_testdir_remove(&disasm_env.tmp);
	return 0;
}
