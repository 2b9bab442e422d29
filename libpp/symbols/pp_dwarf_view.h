/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An ELF image in memory with the debug sections that source lines and
 * inline chains read, inflated (elf_dwarf_view.c): for dwarf_begin_elf()
 * instead of a file whose debug sections are compressed, which libdw
 * would inflate whole, and more slowly.  Nothing here prints or exits.
 */
#ifndef PP_DWARF_VIEW_H
#define PP_DWARF_VIEW_H

#include <libelf.h>

struct pp_dwarf_view;

/*
 * The image of elf's line sections, when elf has compressed ones that it
 * can hold: 0 and *out; -ENOTSUP when elf is not for it (nothing
 * compressed, another class or byte order than the host's, another
 * compression, a dwz link, a relocatable object, a section libdw would
 * judge better: use elf itself), -EINVAL for compressed data that does
 * not inflate to its size, -ENOMEM.
 */
int pp_dwarf_view_make(Elf *elf, struct pp_dwarf_view **out);
/* the image, for libdw; valid until pp_dwarf_view_free() */
Elf *pp_dwarf_view_elf(const struct pp_dwarf_view *v);
/* after dwarf_end() of what read it; NULL is fine */
void pp_dwarf_view_free(struct pp_dwarf_view *v);

struct pp_linetab_sections;
/*
 * The sections pp_linetab_read() reads, from elf (the view's image or the
 * file libdw reads), when they are there as libdw sees them:
 * uncompressed, in this host's byte order, in an executable or shared
 * object (libdw does not relocate an object's); else all NULL, and every
 * line table is libdw's to read.  elf NULL: none.
 */
void pp_dwarf_view_sections(Elf *elf, struct pp_linetab_sections *out);

#endif
