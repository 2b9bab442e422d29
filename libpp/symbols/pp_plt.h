/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PLT entries read with libelf (plt_x86_64.c): for the symbol tables of
 * this directory (symtab_plt.c), and for its fuzz target and tests.
 */
#ifndef PP_PLT_H
#define PP_PLT_H

#include <stddef.h>
#include <stdint.h>

struct Elf;

struct pp_plt_entry {
	uint64_t vma;
	const char *name;	/* "memcmp@plt" */
};

/*
 * The named PLT entries of the x86-64 binary elf, sorted by vma, names
 * allocated: *out (NULL when none) and *nr.  Returns 0, -ENOMEM, or
 * -ENOTSUP when elf is not an x86-64 binary or a PLT section is not laid
 * out as this reader knows (libbfd is then asked: symtab_plt.c).
 */
int pp_plt_x86_64(struct Elf *elf, struct pp_plt_entry **out, size_t *nr);

#endif
