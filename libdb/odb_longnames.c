// SPDX-License-Identifier: GPL-2.0-or-later
/* The longnames file of a session: written and read (odb_longnames.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_int.h"
#include "libdb/odb_longnames.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_field.h"
#include "libutil/op_file.h"

#define LONGNAMES_MAX ((size_t)64 << 20)
#define LONG_PREFIX "/#long/"
#define HASH_DIGITS 16

/*
 * The image name of path as a parsed sample-file name carries it
 * (escaped, then unescaped), new memory; NULL with *err -ENOMEM, or with
 * *err 0 when path is not written as a long name
 */
static char *long_name(const char *path, int *err)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *name = NULL;

	*err = 0;
	if (path[0] != '/')
		return NULL;
	*err = odb_name_escape_path(&sb, path);
	if (!*err && !strncmp(sb.buf, LONG_PREFIX, strlen(LONG_PREFIX))) {
		name = op_strbuf_detach(&sb);
		if (name)
			odb_name_unescape(name);
		else
			*err = -ENOMEM;
	}
	op_strbuf_release(&sb);
	return name;
}

int odb_longnames_add(struct op_strbuf *sb, const char *path)
{
	int err;
	char *name = long_name(path, &err);

	if (!name)
		return err;
	op_strbuf_add(sb, name + strlen(LONG_PREFIX), HASH_DIGITS);
	op_strbuf_addch(sb, ' ');
	op_field_add(sb, path);
	op_strbuf_addch(sb, '\n');
	free(name);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct odb_longname *)a)->name,
		      ((const struct odb_longname *)b)->name);
}

static bool is_hash(const char *s, size_t len)
{
	return len == HASH_DIGITS && strspn(s, "0123456789abcdef") >= HASH_DIGITS;
}

/* one line (NUL-terminated, no '\n'): 0 added or skipped, or -ENOMEM */
static int parse_line(char *line, struct odb_longnames *map, size_t *alloc)
{
	char *blank = strchr(line, ' '), *path, *name;
	int err;

	if (!blank || !is_hash(line, (size_t)(blank - line)) || !blank[1] ||
	    strchr(blank + 1, ' '))
		return 0;
	path = op_field_text(blank + 1);
	if (!path)
		return -ENOMEM;
	name = long_name(path, &err);
	/* believed only when the path is written as this very hash */
	if (!name || memcmp(name + strlen(LONG_PREFIX), line, HASH_DIGITS)) {
		free(path);
		free(name);
		return err;
	}
	if (map->nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 16;
		struct odb_longname *v = op_reallocarray(map->v, n, sizeof(*v));

		if (!v) {
			free(path);
			free(name);
			return -ENOMEM;
		}
		map->v = v;
		*alloc = n;
	}
	map->v[map->nr].name = name;
	map->v[map->nr++].path = path;
	return 0;
}

/* by name, then path: the order does not depend on the lines' order */
static int by_name_path(const void *a, const void *b)
{
	const struct odb_longname *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->path, y->path);
}

/* of equal names (paths whose hashes collide), the first path in order */
static void drop_repeats(struct odb_longnames *map)
{
	size_t i, out = 0;

	for (i = 0; i < map->nr; i++) {
		if (out && !strcmp(map->v[out - 1].name, map->v[i].name)) {
			free(map->v[i].name);
			free(map->v[i].path);
			continue;
		}
		map->v[out++] = map->v[i];
	}
	map->nr = out;
}

int odb_longnames_parse(const char *text, size_t len, struct odb_longnames *map)
{
	char *copy = op_malloc(len + 1), *line, *next;
	size_t alloc = 0;
	int ret = 0;

	memset(map, 0, sizeof(*map));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (line = copy; !ret && line < copy + len; line = next) {
		next = memchr(line, '\n', (size_t)(copy + len - line));
		next = next ? next : copy + len;
		*next++ = '\0';
		/* a NUL inside the line ends it early: then it does not parse */
		if (strlen(line) == (size_t)(next - 1 - line))
			ret = parse_line(line, map, &alloc);
	}
	free(copy);
	if (ret) {
		odb_longnames_release(map);
		return ret;
	}
	if (map->nr) {
		qsort(map->v, map->nr, sizeof(*map->v), by_name_path);
		drop_repeats(map);
	}
	return 0;
}

int odb_longnames_read(const char *dir, struct odb_longnames *map)
{
	char *text = NULL;
	size_t len;
	int ret;

	memset(map, 0, sizeof(*map));
	ret = odb_session_read(dir, ODB_SESSION_LONGNAMES, LONGNAMES_MAX, &text, &len);
	if (!ret)
		ret = odb_longnames_parse(text, len, map);
	free(text);
	return ret;
}

void odb_longnames_release(struct odb_longnames *map)
{
	size_t i;

	if (!map)
		return;
	for (i = 0; i < map->nr; i++) {
		free(map->v[i].name);
		free(map->v[i].path);
	}
	free(map->v);
	memset(map, 0, sizeof(*map));
}

int odb_longnames_resolve(const struct odb_longnames *map, struct odb_image_id *id)
{
	struct odb_longname key = { .name = id->name };
	const struct odb_longname *hit;
	char *path;

	if (!map || !map->nr || id->kind != ODB_IMAGE_FILE ||
	    strncmp(id->name, LONG_PREFIX, strlen(LONG_PREFIX)))
		return 0;
	hit = bsearch(&key, map->v, map->nr, sizeof(*map->v), by_name);
	if (!hit)
		return 0;
	path = op_strdup(hit->path);
	if (!path)
		return -ENOMEM;
	free(id->name);
	id->name = path;
	return 1;
}
