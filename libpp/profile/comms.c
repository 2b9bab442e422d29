// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session's comms file (pp_session.h): "TGID TID COMM PATH" lines,
 * COMM and PATH with \xHH escapes, PATH "-" when unknown.  A line that
 * does not parse is skipped: the names only label a report.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_session.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/profile_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_field.h"

#define COMMS_MAX ((size_t)64 << 20)

/* field f's text; NULL for "-" (dies when memory runs out) */
static char *field(const char *f)
{
	char *s;

	if (!strcmp(f, "-"))
		return NULL;
	if (!(s = op_field_text(f)))
		op_die(1, "out of memory");
	return s;
}

/* "TGID TID COMM PATH" into e; false when the line is not one */
static bool parse_line(char *line, struct pp_comm *e)
{
	char *f[4], *save = NULL, *end;
	unsigned long tgid, tid;
	size_t i;

	for (i = 0; i < 4; i++)
		if (!(f[i] = strtok_r(i ? NULL : line, " ", &save)))
			return false;
	if (strtok_r(NULL, " ", &save))
		return false;
	errno = 0;
	tgid = strtoul(f[0], &end, 10);
	if (errno || *end || tgid > UINT32_MAX)
		return false;
	tid = strtoul(f[1], &end, 10);
	if (errno || *end || tid > UINT32_MAX)
		return false;
	e->tgid = (uint32_t)tgid;
	e->tid = (uint32_t)tid;
	e->comm = field(f[2]);
	e->app = field(f[3]);
	if (!e->comm) {
		free(e->app);
		return false;
	}
	return true;
}

struct comms_reader {
	struct pp_comms *c;
	size_t alloc;
};

static void comms_line(void *data, char *line)
{
	struct comms_reader *r = data;
	struct pp_comm e;

	if (!parse_line(line, &e))
		return;
	if (r->c->nr == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 64;
		r->c->v = op_xreallocarray(r->c->v, r->alloc, sizeof(*r->c->v));
	}
	r->c->v[r->c->nr++] = e;
}

void pp_comms_read(const char *dir, struct pp_comms *c)
{
	struct comms_reader r = { c, 0 };

	memset(c, 0, sizeof(*c));
	pp_session_lines(dir, ODB_SESSION_COMMS, COMMS_MAX, comms_line, &r);
}

void pp_comms_release(struct pp_comms *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr; i++) {
		free(c->v[i].comm);
		free(c->v[i].app);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

const char *pp_comms_thread(const struct pp_comms *c, uint32_t tid)
{
	size_t i;

	for (i = c ? c->nr : 0; i-- > 0;)
		if (c->v[i].tid == tid)
			return c->v[i].comm;
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *pp_comms_app(const struct pp_comms *c, const char *path)
{
	const char **names, *best = NULL;
	size_t i, j, n = 0, best_n = 0;

	if (!c || !c->nr)
		return NULL;
	names = op_xcalloc(c->nr, sizeof(*names));
	for (i = 0; i < c->nr; i++)
		if (c->v[i].app && !strcmp(c->v[i].app, path))
			names[n++] = c->v[i].comm;
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i = j) {	/* the most frequent; ties: the first in order */
		for (j = i + 1; j < n && !strcmp(names[j], names[i]); j++)
			;
		if (j - i > best_n) {
			best = names[i];
			best_n = j - i;
		}
	}
	free(names);
	return best;
}
