/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the disassembler tests share: objdump's listing of a file, the
 * executable sections and sized functions of an ELF fixture, minimal ELF
 * headers for a machine, and the test environment (a fresh directory,
 * whether objdump and nm of our binutils are there, two ELF headers
 * without symbols).  Each helper fails the running cmocka test on error.
 */
#ifndef PP_TEST_DISASM_H
#define PP_TEST_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define FIX(name) SYMFIX "/" name

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

/* objdump -z --no-show-raw-insn ARGS (-d FILE, or -D -b binary for raw bytes) */
void load_listing(const char *args, struct listing *l);
void free_listing(struct listing *l);
/* the line at addr, or NULL */
struct line *find_line(const struct listing *l, uint64_t addr);
/* a symbolizer (data: the listing): objdump's name for the address in
 * the line being decoded (l->current), if it printed one */
void objdump_names(void *data, uint64_t vma, struct op_strbuf *sb);

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

/* the executable sections of path with their bytes, and nm's sized functions */
void load_image(const char *path, struct image *im);
void free_image(struct image *im);
/* the section holding addr, or NULL */
const struct section *section_of(const struct image *im, uint64_t addr);

/* a minimal ELF header for a machine, class and byte order, at path */
void write_elf(const char *path, unsigned machine, bool is64, bool big);

/* ---- the environment ------------------------------------------------------ */

struct disasm_env {
	bool have_binutils;	/* objdump and nm of the binutils we link */
	char no_binutils[200];	/* why not */
	struct op_testdir tmp;	/* a fresh directory */
	/*
	 * ELF headers without sections or symbols: objdump -b binary has no
	 * symbols either, and prints targets as "0x401136".
	 */
	char nosyms64[600], nosyms32[600];
};

extern struct disasm_env disasm_env;

/* cmocka group setup and teardown: fill disasm_env (0 or -1), remove its
 * directory */
int disasm_setup(void **state);
int disasm_teardown(void **state);

#endif
