// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names shown in reports: applications and images, each made once, by
 * base name or whole path.  Two different binaries with one base name
 * (/usr/bin/python3 and /opt/py/bin/python3) are shown by whole path,
 * so that they are told apart; with --comm an application is shown with
 * the name its processes had when it differs (x86_64-linux-gnu-as (as)).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_quote.h"

/* a file's path and base name, and whose it is (an app or an image) */
struct named {
	const char *path;
	const char *base;
	bool *ambiguous;	/* where to say that another has its base name */
};

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static int by_base(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int r = strcmp(x->base, y->base);

	return r ? r : strcmp(x->path, y->path);
}

/* mark the files whose base name another file (another path) has too */
static void find_ambiguous(struct pp_names *nm)
{
	const struct pp_profile *p = nm->p;
	struct named *v = op_xcalloc(p->nr_apps + p->nr_images + 1, sizeof(*v));
	size_t n = 0, i, j;

	for (i = 0; i < p->nr_apps; i++)
		if (p->apps[i].id.kind == ODB_IMAGE_FILE && p->apps[i].id.name)
			v[n++] = (struct named){ p->apps[i].id.name, base_of(p->apps[i].id.name),
						 &nm->app_ambiguous[i] };
	for (i = 0; i < p->nr_images; i++)
		if (p->images[i].id.kind == ODB_IMAGE_FILE && p->images[i].id.name)
			v[n++] = (struct named){ p->images[i].id.name,
						 base_of(p->images[i].id.name),
						 &nm->image_ambiguous[i] };
	qsort(v, n, sizeof(*v), by_base);
	for (i = 0; i < n; i = j) {
		bool several = false;

		for (j = i + 1; j < n && !strcmp(v[j].base, v[i].base); j++)
			if (strcmp(v[j].path, v[i].path))
				several = true;
		while (several && i < j)
			*v[i++].ambiguous = true;
	}
	free(v);
}

void pp_names_init(struct pp_names *nm, struct pp_profile *p, bool long_names,
		   const struct pp_comms *comms)
{
	nm->p = p;
	nm->long_names = long_names;
	nm->comms = comms;
	nm->app_display = op_xcalloc(p->nr_apps + 1, sizeof(char *));
	nm->image_display = op_xcalloc(p->nr_images + 1, sizeof(char *));
	nm->app_ambiguous = op_xcalloc(p->nr_apps + 1, sizeof(bool));
	nm->image_ambiguous = op_xcalloc(p->nr_images + 1, sizeof(bool));
	if (!long_names)
		find_ambiguous(nm);
}

void pp_names_release(struct pp_names *nm)
{
	size_t i;

	if (!nm || !nm->p)
		return;
	for (i = 0; i < nm->p->nr_apps; i++)
		free(nm->app_display[i]);
	for (i = 0; i < nm->p->nr_images; i++)
		free(nm->image_display[i]);
	free(nm->app_display);
	free(nm->image_display);
	free(nm->app_ambiguous);
	free(nm->image_ambiguous);
	memset(nm, 0, sizeof(*nm));
}

/* how reports name an image; dies on allocation failure */
static char *image_display(const struct odb_image_id *id, bool long_names)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *s, *e;
	int failed;

	if (odb_image_id_format(&sb, id, long_names) || !(s = op_strbuf_detach(&sb)))
		op_die(1, "out of memory");
	/* a path with a newline must not split a report line */
	e = op_escape_controls(s, &failed);
	if (failed)
		op_die(1, "out of memory");
	if (e) {
		free(s);
		s = e;
	}
	return s;
}

void pp_names_fill(struct pp_names *nm)
{
	size_t i;

	for (i = 0; i < nm->p->nr_apps; i++)
		pp_names_app(nm, i);
	for (i = 0; i < nm->p->nr_images; i++)
		pp_names_image(nm, i);
}

/*
 * "NAME (COMM)": an application with the name its processes had, when
 * that is not its base name (the kernel keeps 15 bytes of it)
 */
static char *with_comm(char *shown, const struct odb_image_id *id,
		       const struct pp_comms *comms)
{
	const char *comm = id->kind == ODB_IMAGE_FILE && id->name ?
			   pp_comms_app(comms, id->name) : NULL;
	struct op_strbuf sb = OP_STRBUF_INIT;
	const char *base;
	size_t len;
	char *s;

	if (!comm)
		return shown;
	base = base_of(id->name);
	len = strlen(base) < 15 ? strlen(base) : 15;
	if (strlen(comm) == len && !strncmp(base, comm, len))
		return shown;
	op_strbuf_addf(&sb, "%s (%s)", shown, comm);
	if (!(s = op_strbuf_detach(&sb)))
		op_die(1, "out of memory");
	free(shown);
	return s;
}

const char *pp_names_app(struct pp_names *nm, size_t app)
{
	if (!nm->app_display[app]) {
		const struct odb_image_id *id = &nm->p->apps[app].id;
		char *s = image_display(id, nm->long_names || nm->app_ambiguous[app]);

		nm->app_display[app] = nm->comms ? with_comm(s, id, nm->comms) : s;
	}
	return nm->app_display[app];
}

const char *pp_names_image(struct pp_names *nm, size_t image)
{
	if (!nm->image_display[image])
		nm->image_display[image] = image_display(&nm->p->images[image].id,
							 nm->long_names ||
							 nm->image_ambiguous[image]);
	return nm->image_display[image];
}

char **pp_class_ids(const struct pp_profile *p)
{
	char **ids = op_xcalloc(p->nr_classes + 1, sizeof(*ids));
	size_t i, k;

	for (i = 0; i < p->nr_classes; i++) {
		const struct pp_class *c = &p->classes[i];
		const char *s = p->axis == PP_AXIS_EVENT ? c->t.event : c->name;
		struct op_strbuf sb = OP_STRBUF_INIT;

		for (; s && *s; s++)
			op_strbuf_addch(&sb, (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
					(*s >= '0' && *s <= '9') ? *s : '_');
		if (!sb.len)
			op_strbuf_addstr(&sb, "samples");
		for (k = 0; k < i; k++)
			if (!strcmp(ids[k], sb.buf)) {
				op_strbuf_addf(&sb, "_%zu", i + 1);
				break;
			}
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		ids[i] = op_strbuf_detach(&sb);
	}
	return ids;
}
