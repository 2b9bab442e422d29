// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the inflated image of an ELF file's compressed debug
 * sections (libpp/symbols/elf_dwarf_view.c), the input being the file:
 * its section headers, compression headers and zlib data as a corrupt
 * or hostile file may have them.  When an image is made, libdw opens it
 * and walks its compile units and their line tables.  Nothing may crash,
 * hang or leak; the only errors are "not for it", "does not inflate" and
 * out of memory.
 */
#include "config.h"

#include <errno.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_dwarf_view.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_elf.h"

/* every CU's line table, as line look-ups read them */
static void walk(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int cus = 0;

	while (cus++ < 256 && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nr;

		if (dwarf_offdie(dw, off + hsize, &cu))
			(void)dwarf_getsrclines(&cu, &lines, &nr);
		off = next;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_dwarf_view *v = NULL;
	char *copy;
	Elf *elf = fuzz_elf_open(data, size, &copy);
	int ret;

	if (elf) {
		ret = pp_dwarf_view_make(elf, &v);
		if (ret && ret != -ENOTSUP && ret != -EINVAL && ret != -ENOMEM)
			abort();
		if (!ret) {
			Dwarf *dw = dwarf_begin_elf(pp_dwarf_view_elf(v), DWARF_C_READ, NULL);

			if (dw) {
				walk(dw);
				dwarf_end(dw);
			}
			pp_dwarf_view_free(v);
		}
	}
	fuzz_elf_close(elf, copy);
	return 0;
}
