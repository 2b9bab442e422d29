// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names shown in reports (images, apps), row sorting, and the warnings
 * about binaries that are missing or changed since profiling.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/pp_report_int.h"
#include "libutil/op_alloc.h"

void pp_names_init(struct pp_names *nm, struct pp_profile *p,
		   const struct pp_report_opts *o)
{
	nm->p = p;
	nm->o = o;
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

const char *pp_names_app(struct pp_names *nm, size_t app)
{
	if (!nm->app_display[app])
		nm->app_display[app] = pp_image_id_display(&nm->p->apps[app].id,
							   nm->o->long_filenames);
	return nm->app_display[app];
}

const char *pp_names_image(struct pp_names *nm, size_t image)
{
	if (!nm->image_display[image])
		nm->image_display[image] = pp_image_id_display(&nm->p->images[image].id,
							       nm->o->long_filenames);
	return nm->image_display[image];
}

int pp_sort_parse(const char *list, struct pp_report_opts *o, struct op_err *err)
{
	static const struct { const char *name; enum pp_sort_key key; } words[] = {
		{ "sample", PP_SORT_SAMPLE }, { "vma", PP_SORT_VMA },
		{ "symbol", PP_SORT_SYMBOL }, { "debug", PP_SORT_DEBUG },
		{ "image", PP_SORT_IMAGE }, { "app-name", PP_SORT_APP },
	};
	const char *p = list;

	o->nr_sort = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].name) == len && !strncmp(p, words[i].name, len))
				break;
		if (i == sizeof(words) / sizeof(words[0])) {
			op_err_set(err, "unknown --sort key '%.*s' (valid: sample, vma, "
				   "symbol, debug, image, app-name)", (int)len, p);
			return -EINVAL;
		}
		if (o->nr_sort == PP_MAX_SORT_KEYS) {
			op_err_set(err, "too many --sort keys");
			return -EINVAL;
		}
		o->sort[o->nr_sort++] = words[i].key;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* what rows are compared by, computed once per row */
struct sort_item {
	struct pp_row *row;
	char *symbol;		/* shown name, when sorting by symbol */
	char *file;		/* source file, when sorting by debug */
	unsigned line;
};

struct sort_ctx {
	struct pp_profile *p;
	struct pp_names *nm;
	const struct pp_report_opts *o;
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_items(const void *pa, const void *pb, void *arg)
{
	const struct sort_item *a = pa, *b = pb;
	const struct sort_ctx *c = arg;
	size_t k, nr = c->o->nr_sort ? c->o->nr_sort : 1;
	int r = 0;

	for (k = 0; k < nr && !r; k++) {
		enum pp_sort_key key = c->o->nr_sort ? c->o->sort[k] : PP_SORT_SAMPLE;

		switch (key) {
		case PP_SORT_SAMPLE:	/* most first */
			r = cmp_u64(b->row->counts[0], a->row->counts[0]);
			break;
		case PP_SORT_VMA:
			r = cmp_u64(a->row->sym->vma, b->row->sym->vma);
			break;
		case PP_SORT_SYMBOL:
			r = cmp_str(a->symbol, b->symbol);
			break;
		case PP_SORT_DEBUG:
			r = cmp_str(a->file, b->file);
			if (!r)
				r = a->line < b->line ? -1 : a->line > b->line;
			break;
		case PP_SORT_IMAGE:
			r = cmp_str(pp_names_image(c->nm, a->row->image),
				    pp_names_image(c->nm, b->row->image));
			break;
		case PP_SORT_APP:
			r = cmp_str(pp_names_app(c->nm, a->row->app),
				    pp_names_app(c->nm, b->row->app));
			break;
		}
	}
	if (!r)		/* stable: first seen first */
		r = a->row->index < b->row->index ? -1 : a->row->index > b->row->index;
	return c->o->reverse ? -r : r;
}

void pp_rows_sort(struct pp_row **rows, size_t nr, struct pp_profile *p,
		  struct pp_names *nm, const struct pp_report_opts *o)
{
	struct sort_item *items = op_xcalloc(nr ? nr : 1, sizeof(*items));
	struct sort_ctx ctx = { .p = p, .nm = nm, .o = o };
	bool by_symbol = false, by_debug = false;
	size_t i;

	for (i = 0; i < o->nr_sort; i++) {
		by_symbol |= o->sort[i] == PP_SORT_SYMBOL;
		by_debug |= o->sort[i] == PP_SORT_DEBUG;
	}
	for (i = 0; i < nr; i++) {
		items[i].row = rows[i];
		if (by_symbol)
			items[i].symbol = pp_symbol_display(rows[i]->sym, o->demangle);
		if (by_debug) {
			const char *file, *why;

			if (!pp_symtab_line(pp_image_symtab(p, rows[i]->image),
					    rows[i]->sym->start, &file, &items[i].line, &why))
				items[i].file = op_xstrdup(file);
		}
	}
	qsort_r(items, nr, sizeof(*items), cmp_items, &ctx);
	for (i = 0; i < nr; i++) {
		rows[i] = items[i].row;
		free(items[i].symbol);
		free(items[i].file);
	}
	free(items);
}

void pp_check_images(struct pp_profile *p, const struct pp_notes *n)
{
	size_t i;

	for (i = 0; i < p->nr_images; i++) {
		struct pp_image *im = &p->images[i];
		const struct pp_symtab *t;

		if (!im->symtab || im->checked)
			continue;
		im->checked = true;
		t = im->symtab;
		if (t->missing) {
			pp_note(n, "%s; its samples are counted under the image", t->missing);
			continue;
		}
		if (im->id.kind == PP_IMAGE_FILE && t->file && im->mtime && t->mtime >= 0 &&
		    (uint64_t)t->mtime != im->mtime)
			pp_note(n, "the binary '%s' was modified after it was profiled: "
				"its symbols may not match the samples", t->file);
	}
}
