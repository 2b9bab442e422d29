// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source files for opannotate (report_int.h): found from the name the debug
 * information gives, loaded once, split into lines.
 *
 * Where a file is looked for, first readable wins: when the name starts
 * with a --base-dirs prefix, the rest of the name under each --search-dirs
 * directory; else the name itself under each search directory (so an
 * absolute /build/x.c is found as DIR/build/x.c); then the name as it is.
 * A file that is not found is reported once, with every path tried.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"

#define SRC_MAX_SIZE (256u << 20)	/* sources bigger than this are refused */

void pp_srcfiles_init(struct pp_srcfiles *s, const struct pp_annotate_opts *o,
		      struct pp_notes *n)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->n = n;
	op_hmap_init(&s->index);
}

static void srcfile_free(struct pp_srcfile *f)
{
	if (!f)
		return;
	free(f->name);
	free(f->path);
	free(f->text);
	free(f->lines);
	free(f);
}

void pp_srcfiles_release(struct pp_srcfiles *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		srcfile_free(s->v[i]);
	free(s->v);
	op_hmap_release(&s->index);
	memset(s, 0, sizeof(*s));
}

/* name with a --base-dirs prefix taken off, or NULL when none matches */
static const char *strip_base(const struct pp_annotate_opts *o, const char *name)
{
	size_t i;

	for (i = 0; o->base_dirs && o->base_dirs[i]; i++) {
		const char *b = o->base_dirs[i];
		size_t len = strlen(b);

		while (len > 1 && b[len - 1] == '/')
			len--;
		if (!strncmp(name, b, len) && name[len] == '/')
			return name + len + 1;
	}
	return NULL;
}

/* try path: on success it becomes f->path */
static bool try_path(struct pp_srcfile *f, struct op_strbuf *tried, char *path)
{
	if (op_is_file(path) && !access(path, R_OK)) {
		f->path = path;
		return true;
	}
	op_strbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", path);
	free(path);
	return false;
}

static char *join(const char *dir, const char *rest)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s%s%s", dir, rest[0] == '/' || !*dir ? "" : "/", rest);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

static void locate(struct pp_srcfile *f, const struct pp_annotate_opts *o,
		   struct op_strbuf *tried)
{
	const char *rest = strip_base(o, f->name);
	size_t i;

	for (i = 0; o->search_dirs && o->search_dirs[i]; i++)
		if (try_path(f, tried, join(o->search_dirs[i], rest ? rest : f->name)))
			return;
	try_path(f, tried, op_xstrdup(f->name));
}

/* split text into lines (without their '\n') */
static void split_lines(struct pp_srcfile *f)
{
	size_t alloc = 0, i;
	char *p = f->text;

	for (i = 0; i < f->len; i++)
		alloc += f->text[i] == '\n';
	f->lines = op_xcalloc(alloc + 2, sizeof(*f->lines));
	while (p < f->text + f->len) {
		char *nl = memchr(p, '\n', (size_t)(f->text + f->len - p));

		f->lines[f->nr_lines++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

struct pp_srcfile *pp_srcfiles_get(struct pp_srcfiles *s, const char *name)
{
	uint64_t h = op_hash_str(name);
	struct op_strbuf tried = OP_STRBUF_INIT;
	struct op_hmap_iter it;
	struct pp_srcfile *f;
	int ret;

	for (f = op_hmap_first(&s->index, h, &it); f; f = op_hmap_next(&s->index, h, &it))
		if (!strcmp(f->name, name))
			return f;
	f = op_xcalloc(1, sizeof(*f));
	f->name = op_xstrdup(name);
	locate(f, s->o, &tried);
	if (!f->path) {
		pp_note(s->n, "cannot find the source file '%s' (tried %s)%s", name,
			tried.buf, s->o->search_dirs ? "" :
			"; give its directory with --search-dirs (and --base-dirs)");
	} else if ((ret = op_read_file(f->path, SRC_MAX_SIZE, &f->text, &f->len))) {
		pp_note(s->n, "cannot read the source file '%s': %s", f->path,
			op_strerror(ret));
		free(f->path);
		f->path = NULL;
	} else {
		split_lines(f);
	}
	op_strbuf_release(&tried);
	s->v = op_xreallocarray(s->v, s->nr + 1, sizeof(*s->v));
	s->v[s->nr++] = f;
	if (op_hmap_insert(&s->index, h, f))
		op_die(1, "out of memory");
	return f;
}

const char *pp_srcfile_line(const struct pp_srcfile *f, unsigned line)
{
	if (!f->path || !line || line > f->nr_lines)
		return NULL;
	return f->lines[line - 1];
}
