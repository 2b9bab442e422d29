// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's buildids file (pp_session.h): "BUILDID PATH" lines, PATH
 * escaped as op_field.h writes it.  A line that does not parse is
 * skipped: a missing id only costs the check that uses it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libdb/odb_buildid.h"
#include "libdb/odb_session.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/profile_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_field.h"

#define BUILDIDS_MAX ((size_t)64 << 20)

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct pp_buildid *)a)->path,
		      ((const struct pp_buildid *)b)->path);
}

/* a lower-case hex build-id of at most 40 digits? */
static bool is_id(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n && n < ODB_BUILD_ID_HEX && !s[n];
}

struct buildids_reader {
	struct pp_buildids *b;
	size_t alloc;
};

static void buildid_line(void *data, char *line)
{
	struct buildids_reader *r = data;
	char *blank = strchr(line, ' '), *file;

	if (!blank || strchr(blank + 1, ' '))
		return;
	*blank = '\0';
	if (!is_id(line) || !blank[1])
		return;
	if (!(file = op_field_text(blank + 1)))
		op_die(1, "out of memory");
	if (r->b->nr == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 64;
		r->b->v = op_xreallocarray(r->b->v, r->alloc, sizeof(*r->b->v));
	}
	r->b->v[r->b->nr].path = file;
	memcpy(r->b->v[r->b->nr++].id, line, strlen(line) + 1);
}

void pp_buildids_read(const char *dir, struct pp_buildids *b)
{
	struct buildids_reader r = { b, 0 };

	memset(b, 0, sizeof(*b));
	pp_session_lines(dir, ODB_SESSION_BUILDIDS, BUILDIDS_MAX, buildid_line, &r);
	if (b->nr)
		qsort(b->v, b->nr, sizeof(*b->v), by_path);
}

void pp_buildids_release(struct pp_buildids *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr; i++)
		free(b->v[i].path);
	free(b->v);
	memset(b, 0, sizeof(*b));
}

const char *pp_buildids_find(const struct pp_buildids *b, const char *path)
{
	struct pp_buildid key = { .path = (char *)path };
	const struct pp_buildid *hit;

	if (!b || !b->nr)
		return NULL;
	hit = bsearch(&key, b->v, b->nr, sizeof(*b->v), by_path);
	return hit ? hit->id : NULL;
}
