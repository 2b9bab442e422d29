// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a session's longnames file from untrusted bytes.
 * odb_longnames_parse() must take any input; every entry it keeps must
 * be a long name ("/#long/...") whose path odb_longnames_add() writes
 * with that very hash, names sorted and distinct; each name resolves to
 * its path.  Nothing may crash or leak.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libdb/odb_longnames.h"
#include "tests/fuzz/fuzz.h"

static void check_entry(const struct odb_longnames *map, size_t i)
{
	const struct odb_longname *e = &map->v[i];
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };

	if (strncmp(e->name, "/#long/", 7) || e->path[0] != '/')
		abort();
	if (i && strcmp(map->v[i - 1].name, e->name) >= 0)
		abort();
	if (!odb_longnames_add(&sb, e->path) &&
	    (sb.len < 17 || memcmp(sb.buf, e->name + 7, 16) || sb.buf[16] != ' '))
		abort();
	op_strbuf_release(&sb);
	id.name = strdup(e->name);
	if (!id.name)
		return;
	if (odb_longnames_resolve(map, &id) == 1 && strcmp(id.name, e->path))
		abort();
	free(id.name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct odb_longnames map;
	size_t i;

	if (odb_longnames_parse((const char *)data, size, &map))
		return 0;
	for (i = 0; i < map.nr; i++)
		check_entry(&map, i);
	odb_longnames_release(&map);
	return 0;
}
