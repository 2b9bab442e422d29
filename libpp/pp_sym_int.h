/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal interfaces of libpp's symbol area (pp_symbols.h): the files
 * that read ELF files, debug files, DWARF lines and kallsyms, and the one
 * that builds tables from what they read.  Included by those libpp files
 * only.
 *
 * Loading a table goes in three steps: a reader (elf_symtab.c for ELF
 * symbol tables, pp_kallsyms.c for kallsyms text) appends candidates with
 * their addresses; pp_symtab.c turns addresses into keys and drops those
 * outside the file; pp_cands_finish() (pp_symsel.c) sorts them, keeps one
 * symbol per key and computes the extents.  Names are borrowed from the
 * mapped string table or the kallsyms text, never copied; the few names
 * made up here ("??.text", the artificial symbol) live in a pp_strpool.
 */
#ifndef PP_SYM_INT_H
#define PP_SYM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the few strings a table owns itself */
struct pp_strpool {
	char **strs;
	size_t nr;
	size_t alloc;
};

/* adopt s (from op_malloc and friends); returns s, or NULL after freeing s
 * when the pool cannot grow (s may be NULL: a failed allocation) */
char *pp_strpool_adopt(struct pp_strpool *pool, char *s);
void pp_strpool_release(struct pp_strpool *pool);

enum pp_bind {
	PP_BIND_LOCAL,
	PP_BIND_GLOBAL,
	PP_BIND_WEAK,
};

struct pp_sym_cand {
	uint64_t vma;		/* link-time address (kallsyms: the address) */
	uint64_t size;		/* st_size; 0 when unknown */
	uint64_t limit;		/* one past the end of its section or region */
	uint64_t start;		/* key of vma, set by the caller of the reader */
	const char *name;	/* borrowed */
	uint8_t bind;		/* enum pp_bind */
	bool boundary;		/* only ends the symbol before it (kallsyms data) */
};

struct pp_cands {
	struct pp_sym_cand *v;
	size_t nr;
	size_t alloc;
};

/* room for extra more candidates; 0 or -ENOMEM */
int pp_cands_reserve(struct pp_cands *c, size_t extra);
void pp_cands_release(struct pp_cands *c);

/*
 * Sort c by start, keep one candidate per start (formats.md §4.2's
 * preference; of equal ones the first in c, so readers append in table
 * order), drop boundaries, compute extents and return the symbols in a
 * new array (*syms, caller frees; NULL when *nr is 0).  Starts and limits
 * must already be in key space.  c's order is kept, its sizes may change.
 * 0 or -ENOMEM.
 */
struct pp_sym;
int pp_cands_finish(struct pp_cands *c, struct pp_sym **syms, size_t *nr);

/* extent of a last symbol whose region end is unknown (kallsyms) */
#define PP_SYM_LAST_EXTENT 4096

/* elf_symtab.c: an ELF file mapped read-only */
struct Elf;

struct pp_elf_load {		/* a PT_LOAD with file contents */
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
};

struct pp_elf {
	struct Elf *elf;	/* libelf handle; the file is mmap'd */
	char *path;
	uint64_t size;		/* file bytes */
	int64_t mtime;		/* st_mtime */
	bool has_symtab;	/* a .symtab section */
	bool has_dynsym;	/* a .dynsym section */
	bool has_dwarf;		/* a .debug_info (or .zdebug_info) section */
	char build_id[41];	/* hex, "" when none */
	const char *debuglink;	/* .gnu_debuglink file name, or NULL */
	uint32_t debuglink_crc;
	struct pp_elf_load *loads;
	size_t nr_loads;
};

/*
 * Open path and map it.  Returns 0, a negative errno from open(), -ENOEXEC
 * when it is not an ELF file (or not a regular file: -EISDIR for a
 * directory), -EIO when libelf rejects it, or -ENOMEM.
 */
int pp_elf_open(const char *path, struct pp_elf **out);
void pp_elf_close(struct pp_elf *e);

/*
 * Append the symbols of e's .symtab (dynsym false) or .dynsym that may
 * become report symbols: defined, in an executable section, not a
 * section/file symbol, not ".L*", ARM "$a"-style or "gcc2_compiled.".
 * vma, size, limit (end of the section), name and bind are set;
 * start is left 0.  Unnamed symbols are named "??SECTION" in pool.
 * Returns 0, -EIO (a corrupt table) or -ENOMEM.
 */
int pp_elf_symbols(const struct pp_elf *e, bool dynsym, struct pp_cands *out,
		   struct pp_strpool *pool);

/*
 * elf_debugfile.c: open the separate debug file of e: by build-id under
 * debug_root (NULL: /usr/lib/debug), then by .gnu_debuglink next to
 * e->path, in its .debug/ directory and under debug_root + its directory,
 * checking the CRC.  0, -ENOENT when there is none, or -ENOMEM.
 */
int pp_debugfile_open(const struct pp_elf *e, const char *debug_root,
		      struct pp_elf **out);

/* the CRC-32 .gnu_debuglink uses (zlib's), continued from crc */
uint32_t pp_debuglink_crc32(uint32_t crc, const void *data, size_t len);

/* elf_lines.c: source lines from the DWARF of an ELF file */
struct pp_lines;

/* 0, -ENOENT (no usable DWARF) or -ENOMEM; e must outlive *out */
int pp_lines_open(const struct pp_elf *e, struct pp_lines **out);
/* file and line of the instruction at addr: 0 or -ENOENT; file is borrowed
 * until pp_lines_close() */
int pp_lines_find(struct pp_lines *l, uint64_t addr, const char **file,
		  unsigned *line);
void pp_lines_close(struct pp_lines *l);

/* pp_kallsyms.c: kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines) */
struct pp_kallsyms_info {
	uint64_t text;		/* _text (else _stext) of the core kernel, or 0 */
	uint64_t lowest;	/* lowest address of the wanted module's lines */
};

/*
 * Append the text symbols of module (NULL: the core kernel) as candidates
 * (vma = address, limit UINT64_MAX), and its other symbols as boundaries.
 * Lines are cut in place: names point into text, which must outlive the
 * candidates.  0 or -ENOMEM.
 */
int pp_kallsyms_symbols(char *text, const char *module, struct pp_cands *out,
			struct pp_kallsyms_info *info);

/* true when text has a line with a non-zero address (kptr_restrict) */
bool pp_kallsyms_usable(const char *text);

/* base address and size of module in /proc/modules text: 0 or -ENOENT */
int pp_modules_find(const char *text, const char *module, uint64_t *base,
		    uint64_t *size);

#endif
