/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's symbol and module lists as /proc shows them and sessions
 * store them (kernel/kallsyms and kernel/modules, odb_session.h): the
 * one reader of their lines, used by the daemon (where the kernel's text
 * and the modules lie) and by the report tools (kernel symbols).
 *
 * kallsyms, one symbol a line ("ADDR TYPE NAME", a tab and "[MODULE]"
 * after the name of a module's symbol):
 *
 *	ffffffff81000000 T _text
 *	ffffffffc0201000 t ext4_fill_super	[ext4]
 *
 * modules, one module a line ("NAME SIZE REFS DEPS STATE ADDR ..."):
 *
 *	ext4 1036288 1 - Live 0xffffffffc0200000
 *
 * Addresses of 0 are what kptr_restrict shows.  Nothing here allocates,
 * prints or exits; the texts are only read.
 */
#ifndef ODB_KALLSYMS_H
#define ODB_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* one line of kallsyms; strings point into the text, not NUL-ended */
struct odb_ksym {
	uint64_t addr;		/* 0: not a symbol line (or a hidden address) */
	char type;		/* 'T', 't', 'D', ...; 0 when not a symbol line */
	const char *name;
	size_t name_len;
	const char *module;	/* NULL: the core kernel */
	size_t module_len;
};

/*
 * Read the line at p into *k; returns the start of the next line, or NULL
 * when p is at the end of the text.
 */
const char *odb_kallsyms_next(const char *p, struct odb_ksym *k);

/* the address of the core kernel's symbol name, 0 when absent or hidden */
uint64_t odb_kallsyms_find(const char *text, const char *name);

/* does text show an address that is not 0 (kptr_restrict hides them)? */
bool odb_kallsyms_usable(const char *text);

/* one line of the modules list */
struct odb_kmodule {
	const char *name;	/* points into the text, not NUL-ended */
	size_t name_len;
	uint64_t size;		/* bytes */
	uint64_t addr;		/* load address; 0 when hidden */
	bool valid;		/* false: a line that is not a module's */
};

/* as odb_kallsyms_next(), for the modules list */
const char *odb_modules_next(const char *p, struct odb_kmodule *m);

#endif
