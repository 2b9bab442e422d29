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
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"
#include "libutil/op_strbuf.h"

#define COMMS_MAX ((size_t)64 << 20)

/* field f unescaped (a NUL from \x00 ends it); NULL for "-" */
static char *unescape(const char *f)
{
	char *out, *w;

	if (!strcmp(f, "-"))
		return NULL;
	out = w = op_xmalloc(strlen(f) + 1);
	while (*f) {
		int hi, lo;

		if (f[0] == '\\' && f[1] == 'x' && (hi = op_hex_digit(f[2])) >= 0 &&
		    (lo = op_hex_digit(f[3])) >= 0) {
			*w++ = (char)(hi * 16 + lo);
			f += 4;
		} else {
			*w++ = *f++;
		}
	}
	*w = '\0';
	return out;
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
	e->comm = unescape(f[2]);
	e->app = unescape(f[3]);
	if (!e->comm) {
		free(e->app);
		return false;
	}
	return true;
}

void pp_comms_read(const char *dir, struct pp_comms *c)
{
	struct op_strbuf path = OP_STRBUF_INIT;
	char *text = NULL, *line, *next;
	size_t len, alloc = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	op_strbuf_addf(&path, "%s/" ODB_SESSION_COMMS, dir);
	if (op_strbuf_failed(&path))
		op_die(1, "out of memory");
	ret = op_read_owned_file(path.buf, COMMS_MAX, &text, &len);
	op_strbuf_release(&path);
	if (ret == -ENOMEM)
		op_die(1, "out of memory");
	for (line = text; !ret && line && *line; line = next) {
		struct pp_comm e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!parse_line(line, &e))
			continue;
		if (c->nr == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			c->v = op_xreallocarray(c->v, alloc, sizeof(*c->v));
		}
		c->v[c->nr++] = e;
	}
	free(text);
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
