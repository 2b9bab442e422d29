// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The header notes of the symbol views on samples outside every named
 * symbol: how many there are, how they are shown (gap rows, made by
 * pp_symtab_hold()), and, once per image that has them, what would give
 * them names (a debug package, a debug file by build-id).  Stripped
 * binaries keep only .dynsym, so in a distribution's libraries these are
 * most samples; saying so keeps the shares honest.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

/* images named with their hints, most outside samples first */
#define MAX_HINTS 8

int pp_image_count_cmp(const void *a, const void *b)
{
	const struct pp_image_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->image < y->image ? -1 : x->image > y->image;
}

/* per image: its samples in gap rows (all classes), images with some */
static size_t per_image(const struct pp_side *s, struct pp_image_count **out)
{
	struct pp_image_count *v = op_xcalloc(s->p->nr_images + 1, sizeof(*v));
	size_t i, c, nr = 0;

	for (i = 0; i < s->p->nr_images; i++)
		v[i].image = i;
	for (i = 0; i < s->rows.nr; i++) {
		const struct pp_row *row = &s->rows.rows[i];

		if (!row->sym || !(row->sym->flags & PP_SYM_GAP))
			continue;
		for (c = 0; c < s->rows.nr_classes; c++)
			v[row->image].count += row->counts[c];
	}
	qsort(v, s->p->nr_images, sizeof(*v), pp_image_count_cmp);
	while (nr < s->p->nr_images && v[nr].count)
		nr++;
	*out = v;
	return nr;
}

/* why image i's table names so little, with what would name more */
static const char *hint(struct pp_side *s, size_t image)
{
	struct pp_symtab *t = pp_image_symtab(s->p, image);
	const char *why = pp_symtab_no_lines(t);

	if (t->source == PP_SYMS_DYNSYM || t->source == PP_SYMS_NONE)
		return why;
	return NULL;	/* a full symbol table: gaps are padding or stubs */
}

/*
 * the reasons of the images hint() will ask about (the first MAX_HINTS + 1
 * of v with a .dynsym table or none), made at once: each is looked for in
 * dpkg's file lists, which are read once for all
 */
static void explain_first(struct pp_side *s, const struct pp_image_count *v, size_t nr)
{
	struct pp_symtab **tabs = op_xcalloc(MAX_HINTS + 2, sizeof(*tabs));
	size_t i, n = 0;

	for (i = 0; i < nr && n <= MAX_HINTS; i++) {
		struct pp_symtab *t = pp_image_symtab(s->p, v[i].image);

		if (t->source == PP_SYMS_DYNSYM || t->source == PP_SYMS_NONE)
			tabs[n++] = t;
	}
	if (pp_symtabs_explain_no_lines(tabs, n))
		op_die(1, "out of memory");
	free(tabs);
}

void pp_outside_explain(const struct pp_report *r, struct pp_side *s)
{
	struct pp_image_count *v;
	size_t nr;

	if (r->o->no_header || !s->rows.outside)
		return;
	nr = per_image(s, &v);
	explain_first(s, v, nr);
	free(v);
}

void pp_outside_header(FILE *out, const struct pp_report *r, struct pp_side *s)
{
	struct pp_image_count *v;
	uint64_t outside = 0, all = 0;
	size_t nr, i, c, hints = 0;

	if (r->o->no_header || !s->rows.outside)
		return;
	for (c = 0; c < s->rows.nr_classes; c++) {
		outside += s->rows.outside[c];
		all += s->totals[c];
	}
	if (!outside)
		return;
	fprintf(out, "Note: %" PRIu64 " of %" PRIu64 " samples (%.2f%%) are outside "
		"every named symbol: shown as [IMAGE 0xFIRST-0xLAST], a row per gap "
		"between symbols\n", outside, all,
		all ? 100.0 * (double)outside / (double)all : 0.0);
	nr = per_image(s, &v);
	explain_first(s, v, nr);
	for (i = 0; i < nr; i++) {
		const char *why = hint(s, v[i].image);

		if (!why)
			continue;
		if (hints++ == MAX_HINTS) {
			fprintf(out, "Note: and more images\n");
			break;
		}
		fprintf(out, "Note: %" PRIu64 " of them in %s: %s\n", v[i].count,
			pp_names_image(&s->names, v[i].image), why);
	}
	free(v);
}
