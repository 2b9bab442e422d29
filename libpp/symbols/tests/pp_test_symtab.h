/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the tests of a symbol table's other questions (inline chains,
 * code bytes, missing line information) share: a fresh directory per
 * test group, the table of an ELF fixture, a symbol by name, and a
 * section of an ELF file.  Each helper fails the running cmocka test on
 * error.
 */
#ifndef PP_TEST_SYMTAB_H
#define PP_TEST_SYMTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "libpp/symbols/pp_symbols.h"

#define FIX(name) SYMFIX "/" name
#define DBGROOT FIX("dbgroot")

/* cmocka group setup and teardown: *state is a struct op_testdir */
int testdir_setup(void **state);
int testdir_teardown(void **state);

/* the table of the file at path (debug files under debug_root, or NULL) */
struct pp_symtab *symtab_of(const char *path, const char *debug_root);

/* the symbol of t named name, or NULL */
const struct pp_sym *find_sym(const struct pp_symtab *t, const char *name);

/* the section of an ELF file holding a vma, or of a name */
struct elf_section {
	uint64_t addr, offset, size;
	bool clang;		/* .comment names clang */
};

/* the section of path holding vma (name NULL), or named name: found? */
bool find_section(const char *path, const char *name, uint64_t vma,
		  struct elf_section *out);

#endif
