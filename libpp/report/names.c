// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names shown in reports: applications and images, each made once, by
 * base name or whole path.
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

void pp_names_fill(struct pp_names *nm)
{
	size_t i;

	for (i = 0; i < nm->p->nr_apps; i++)
		pp_names_app(nm, i);
	for (i = 0; i < nm->p->nr_images; i++)
		pp_names_image(nm, i);
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
