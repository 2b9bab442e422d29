// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names shown in reports (images, apps), and the notes about binaries
 * that are missing or changed since profiling.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

void pp_names_init(struct pp_names *nm, struct pp_profile *p, bool long_names)
{
	nm->p = p;
	nm->long_names = long_names;
	nm->app_display = op_xcalloc(p->nr_apps + 1, sizeof(char *));
	nm->image_display = op_xcalloc(p->nr_images + 1, sizeof(char *));
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
	memset(nm, 0, sizeof(*nm));
}

/* how reports name an image; dies on allocation failure */
static char *image_display(const struct odb_image_id *id, bool long_names)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *s;

	if (odb_image_id_format(&sb, id, long_names) || !(s = op_strbuf_detach(&sb)))
		op_die(1, "out of memory");
	return s;
}

const char *pp_names_app(struct pp_names *nm, size_t app)
{
	if (!nm->app_display[app])
		nm->app_display[app] = image_display(&nm->p->apps[app].id,
							   nm->long_names);
	return nm->app_display[app];
}

const char *pp_names_image(struct pp_names *nm, size_t image)
{
	if (!nm->image_display[image])
		nm->image_display[image] = image_display(&nm->p->images[image].id,
							       nm->long_names);
	return nm->image_display[image];
}

void pp_check_images(struct pp_profile *p, struct pp_notes *n)
{
	size_t i;

	for (i = 0; i < p->nr_images; i++) {
		struct pp_image *im = &p->images[i];
		const struct pp_symtab *t;

		if (!im->symtab || im->checked)
			continue;
		im->checked = true;
		t = im->symtab;
		if (t->missing && t->file && !strstr(t->missing, t->file)) {
			/* found but unusable: the reason alone names no file */
			pp_note(n, "cannot use the binary '%s': %s; its samples are "
				"counted under the image", t->file, t->missing);
			continue;
		}
		if (t->missing) {
			pp_note(n, "%s; its samples are counted under the image", t->missing);
			continue;
		}
		if (im->id.kind == ODB_IMAGE_FILE && t->file && im->mtime && t->mtime >= 0 &&
		    (uint64_t)t->mtime != im->mtime)
			pp_note(n, "the binary '%s' was modified after it was profiled: "
				"its symbols may not match the samples", t->file);
	}
}
