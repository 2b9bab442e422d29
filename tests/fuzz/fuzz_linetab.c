// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a CU's line table read from its .debug_line program
 * (libpp/symbols/elf_linetab.c), the program as a corrupt or hostile
 * debug file may have it.  The input:
 *
 *	byte 0		bit 0: 4-byte addresses, else 8; bit 1: a comp_dir
 *	bytes 1-4	n, little-endian: the .debug_line bytes that follow
 *	n bytes		.debug_line (the program read at offset 0)
 *	the rest	.debug_line_str, and .debug_str too
 *
 * A table read is looked up at addresses through its range and for its
 * files.  Nothing may crash, hang or leak; the only errors are -ENOTSUP
 * (left to libdw) and out of memory.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "libpp/symbols/pp_linetab.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_linetab_sections s = { 0 };
	struct pp_linetab *t;
	size_t n;
	uint64_t a;
	int ret, line;

	if (size < 5)
		return 0;
	n = (size_t)data[1] | (size_t)data[2] << 8 | (size_t)data[3] << 16 |
	    (size_t)data[4] << 24;
	if (n > size - 5)
		n = size - 5;
	s.line = data + 5;
	s.line_size = n;
	s.line_str = s.str = data + 5 + n;
	s.line_str_size = s.str_size = size - 5 - n;
	ret = pp_linetab_read(&s, 0, data[0] & 2 ? "/build" : NULL, data[0] & 1 ? 4 : 8, &t);
	if (ret && ret != -ENOTSUP && ret != -ENOMEM)
		abort();
	if (ret)
		return 0;
	for (a = 0; a < 0x10000; a += 0x3f) {
		const char *file;

		if (!pp_linetab_find(t, a, &file, &line) && !file)
			abort();
	}
	for (n = 0; n < 64; n++)
		(void)pp_linetab_file(t, n);
	pp_linetab_free(t);
	return 0;
}
