// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the PLT entries of an x86-64 ELF file read with libelf
 * (libpp/symbols/plt_x86_64.c), the input being the file: its sections,
 * PLT code and dynamic relocations as a corrupt or hostile file may have
 * them.  Entries must come sorted by address, each with a name ending in
 * "@plt"; nothing may crash, hang or leak.
 */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_plt.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_elf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_plt_entry *v;
	size_t nr, i;
	char *copy;
	Elf *elf = fuzz_elf_open(data, size, &copy);
	int ret;

	if (elf) {
		ret = pp_plt_x86_64(elf, &v, &nr);
		if (ret && ret != -ENOTSUP && ret != -ENOMEM)
			abort();
		for (i = 0; !ret && i < nr; i++) {
			size_t len = strlen(v[i].name);

			if (len < 4 || strcmp(v[i].name + len - 4, "@plt") ||
			    (i && v[i].vma < v[i - 1].vma))
				abort();
		}
		for (i = 0; !ret && i < nr; i++)
			free((char *)v[i].name);
		if (!ret)
			free(v);
	}
	fuzz_elf_close(elf, copy);
	return 0;
}
