/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A compile unit's line table read from its .debug_line program, for the
 * address lookups of elf_lines.c, without libdw's dwarf_getsrclines():
 * libdw 0.188 allocates each row of a big table on its own and sorts the
 * rows with qsort(), a fifth of the callgrind export's time on a Python
 * build's libpython.  Here the rows are decoded into one array and sorted
 * by a radix sort.
 *
 * The answers are libdw's: the rows sorted as read_srclines() sorts them
 * (by address, an end of sequence before a row at its address, else in
 * program order, the last row an end of sequence), the row of an address
 * found as dwarf_getsrc_die() finds it, its file named as dwarf_linesrc()
 * names it (an absolute name as it is, else its directory entry, "/", the
 * name; directory 0 of DWARF 2-4 is the CU's comp_dir) and its line as
 * dwarf_lineno() gives it.  What this reader does not handle the same way
 * it refuses, for libdw to read: 64-bit DWARF, several operations per
 * instruction, DW_LNE_define_file, forms other than strings, string
 * offsets and constants, values libdw rejects (columns over 16 bits,
 * discriminators over 24), and anything malformed (libdw fails on it).
 *
 * Nothing here prints or exits.
 */
#ifndef PP_LINETAB_H
#define PP_LINETAB_H

#include <stddef.h>
#include <stdint.h>

/* the sections a line program reads (borrowed); a missing one is NULL, 0 */
struct pp_linetab_sections {
	const unsigned char *line;	/* .debug_line */
	size_t line_size;
	const unsigned char *line_str;	/* .debug_line_str */
	size_t line_str_size;
	const unsigned char *str;	/* .debug_str */
	size_t str_size;
};

struct pp_linetab;

/*
 * The table of the line program at offset off of s->line, for a CU of
 * address_size (4 or 8) bytes per address whose DW_AT_comp_dir is
 * comp_dir (NULL: none).  Returns 0 with *out set, -ENOTSUP for a program
 * left to libdw (above), or -ENOMEM.  s's data is borrowed until
 * pp_linetab_free(); comp_dir is copied.
 */
int pp_linetab_read(const struct pp_linetab_sections *s, uint64_t off, const char *comp_dir,
		    unsigned address_size, struct pp_linetab **out);

/*
 * The file (borrowed until pp_linetab_free(), the same pointer for every
 * row of a file) and line of the row of addr.  Returns 0, or -ENOENT when
 * no row covers addr (dwarf_getsrc_die() finds none) or its file is not
 * in the table (dwarf_linesrc() gives none).
 */
int pp_linetab_find(const struct pp_linetab *t, uint64_t addr, const char **file, int *line);

/*
 * File idx of the table (borrowed until pp_linetab_free()), as
 * dwarf_filesrc() names it, or NULL past the last
 */
const char *pp_linetab_file(const struct pp_linetab *t, uint64_t idx);

/* rows in the table (its end-of-sequence rows included) */
size_t pp_linetab_rows(const struct pp_linetab *t);

void pp_linetab_free(struct pp_linetab *t);

#endif
