/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The input of an ELF fuzz target as an ELF file in memory: a copy of
 * the bytes (libelf may write to what it reads), opened with libelf.
 */
#ifndef FUZZ_ELF_H
#define FUZZ_ELF_H

#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the input as an ELF (NULL when libelf refuses it); *copy to free after */
static inline Elf *fuzz_elf_open(const uint8_t *data, size_t size, char **copy)
{
	*copy = malloc(size + 1);
	if (!*copy)
		return NULL;
	memcpy(*copy, data, size);
	elf_version(EV_CURRENT);
	return elf_memory(*copy, size);
}

static inline void fuzz_elf_close(Elf *elf, char *copy)
{
	elf_end(elf);
	free(copy);
}

#endif
