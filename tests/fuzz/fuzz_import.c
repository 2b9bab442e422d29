// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: opimport's input, a sample file of a foreign ABI, and the
 * abi file describing it.  The first byte chooses the layout: bit 7 set,
 * the abi text follows up to the first NUL and the sample file after it;
 * otherwise bits 0 and 1 pick OProfile's x86-64 or i386 layout, little-
 * or big-endian, and the rest is the sample file.  A layout that
 * odb_import_layout_init() accepts must convert any bytes without
 * crashing, reading out of bounds or leaking, and a conversion must give
 * a header with the right magic and version and no more nodes than the
 * input holds.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_abi.h"
#include "libdb/odb_import.h"
#include "tests/fuzz/fuzz.h"

static void set(struct odb_abi *abi, const char *name, uint64_t value)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (!strcmp(odb_abi_key_name(i), name))
			abi->value[i] = value;
}

static void fixed_abi(struct odb_abi *abi, unsigned flags)
{
	odb_abi_native(abi);
	set(abi, "little_endian", !(flags & 2));
	if (!(flags & 1))
		return;
	set(abi, "sizeof_struct_opd_header", 64);
	set(abi, "offsetof_header_cpu_speed", 28);
	set(abi, "offsetof_header_mtime", 36);
	set(abi, "offsetof_header_cg_to_is_kernel", 44);
	set(abi, "offsetof_header_anon_start", 48);
	set(abi, "offsetof_header_cg_to_anon_start", 56);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct odb_import_layout lay;
	struct odb_node *nodes;
	struct opd_header hdr;
	struct odb_abi abi;
	size_t nr;
	int err;

	if (!size)
		return 0;
	if (data[0] & 0x80) {
		const uint8_t *nul = memchr(data + 1, '\0', size - 1);
		size_t text_len = nul ? (size_t)(nul - data - 1) : size - 1;

		odb_abi_parse((const char *)data + 1, text_len, &abi);
		data += 1 + text_len + (nul != NULL);
		size -= 1 + text_len + (nul != NULL);
	} else {
		fixed_abi(&abi, data[0]);
		data++;
		size--;
	}
	if (odb_import_layout_init(&lay, &abi, NULL))
		return 0;
	err = odb_import_parse(&lay, data, size, &hdr, &nodes, &nr);
	if (err)
		return 0;
	if (memcmp(hdr.magic, OPD_MAGIC, 4) || hdr.version != OPD_VERSION ||
	    (nr + 1) * lay.node_size > size)
		abort();
	free(nodes);
	return 0;
}
