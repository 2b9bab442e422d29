// SPDX-License-Identifier: GPL-2.0-or-later
/* Summing samples into symbol rows (see pp_rows.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_rows.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

static uint64_t row_hash(size_t image, size_t app, const struct pp_sym *sym)
{
	return op_hash_combine(op_hash_combine(op_hash_u64(image), app),
			       (uint64_t)(uintptr_t)sym);
}

/* index values: a row index + 1 (NULL is "none") */
static void *idx_val(size_t i)
{
	return (void *)(uintptr_t)(i + 1);
}

static size_t val_idx(const void *v)
{
	return (size_t)(uintptr_t)v - 1;
}

/* put the rows not yet in the index into it */
static void index_rows(struct pp_rows *r)
{
	for (; r->nr_indexed < r->nr; r->nr_indexed++) {
		const struct pp_row *row = &r->rows[r->nr_indexed];

		if (op_hmap_insert(&r->index, row_hash(row->image, row->app, row->sym),
				   idx_val(r->nr_indexed)))
			op_die(1, "out of memory");
	}
}

struct pp_row *pp_rows_find(struct pp_rows *r, size_t image, size_t app,
			    const struct pp_sym *sym)
{
	uint64_t h = row_hash(image, app, sym);
	struct op_hmap_iter it;
	void *v;

	index_rows(r);
	for (v = op_hmap_first(&r->index, h, &it); v;
	     v = op_hmap_next(&r->index, h, &it)) {
		struct pp_row *row = &r->rows[val_idx(v)];

		if (row->image == image && row->app == app && row->sym == sym)
			return row;
	}
	return NULL;
}

/* zeroed counts for one more row, from the current chunk */
static uint64_t *new_counts(struct pp_rows *r)
{
	size_t in_chunk = r->nr % PP_ROWS_CHUNK;

	if (!in_chunk) {
		r->chunks = op_xreallocarray(r->chunks, r->nr / PP_ROWS_CHUNK + 1,
					     sizeof(*r->chunks));
		r->chunks[r->nr / PP_ROWS_CHUNK] =
			op_xcalloc((size_t)PP_ROWS_CHUNK * r->nr_classes,
				   sizeof(uint64_t));
	}
	return r->chunks[r->nr / PP_ROWS_CHUNK] + in_chunk * r->nr_classes;
}

/*
 * A new row.  Rows grow by doubling and are addressed by index (the index
 * map stores index + 1), so growing moves no map entry; their counts come
 * from chunks that never move.  The row joins the index when it is next
 * searched.
 */
static struct pp_row *add_row(struct pp_rows *r, size_t image, size_t app,
			      const struct pp_sym *sym)
{
	struct pp_row *row;

	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? r->alloc * 2 : 256;
		r->rows = op_xreallocarray(r->rows, r->alloc, sizeof(*r->rows));
	}
	row = &r->rows[r->nr];
	row->image = image;
	row->app = app;
	row->sym = sym;
	row->counts = new_counts(r);
	row->index = r->nr++;
	return row;
}

struct pp_row *pp_rows_get(struct pp_rows *r, size_t image, size_t app,
			   const struct pp_sym *sym)
{
	struct pp_row *row = pp_rows_find(r, image, app, sym);

	return row ? row : add_row(r, image, app, sym);
}

/*
 * The index of the first symbol at or after s whose end is above key
 * (keys come in increasing order): a galloping search from s, so keys
 * close together cost a step and keys far apart a binary search over the
 * gap, never a walk over the symbols between.
 */
static size_t next_sym(const struct pp_symtab *t, size_t s, uint64_t key)
{
	size_t lo = s, hi, step = 1;

	if (lo >= t->nr || t->syms[lo].end > key)
		return lo;
	/* syms[lo].end <= key: find hi with syms[hi].end > key (or nr) */
	for (;;) {
		hi = lo + step;
		if (hi >= t->nr) {
			hi = t->nr;
			break;
		}
		if (t->syms[hi].end > key)
			break;
		lo = hi;
		step *= 2;
	}
	/* syms[lo].end <= key < syms[hi].end: the first above is in (lo, hi] */
	lo++;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].end <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Sum group g into rows.  sole: g is the only group of its (image, app),
 * so none of its symbols has a row yet and each gets a new one without a
 * search (most profiles have one class: every group is sole).
 */
static void add_group(struct pp_rows *r, const struct pp_group *g,
		      struct pp_symtab *t, bool sole)
{
	struct pp_row *row = NULL;
	const struct pp_sym *cur = NULL;
	size_t s = 0, k;

	for (k = 0; k < g->nr_kc; k++) {
		uint64_t key = g->kc[k].key;
		const struct pp_sym *sym = cur;

		if (!cur || key < cur->start || key >= cur->end) {
			s = next_sym(t, s, key);
			sym = s < t->nr && t->syms[s].start <= key ? &t->syms[s] :
								   pp_symtab_hold(t, key);
		}
		if (!sym)
			op_die(1, "out of memory");
		if (sym != cur) {
			row = sole ? add_row(r, g->image, g->app, sym) :
				     pp_rows_get(r, g->image, g->app, sym);
			cur = sym;
		}
		row->counts[g->cls] += g->kc[k].count;
		if (sym->flags & PP_SYM_GAP)
			r->outside[g->cls] += g->kc[k].count;
	}
}

/*
 * Does some class hold samples of more than one application?  (Then the
 * reports name the application of each row, as OProfile 1.4 does; with
 * --merge=lib every image is an application of its own.)
 */
static bool several_apps(const struct pp_profile *p, bool exclude)
{
	size_t *first = op_xcalloc(p->nr_classes + 1, sizeof(*first));
	bool several = false;
	size_t i;

	for (i = 0; i < p->nr_groups && !several; i++) {
		const struct pp_group *g = &p->groups[i];

		if (exclude && !pp_profile_own_image(p, g->app, g->image))
			continue;
		if (!first[g->cls])
			first[g->cls] = g->app + 1;
		else if (first[g->cls] != g->app + 1)
			several = true;
	}
	free(first);
	return several;
}

void pp_rows_build(struct pp_rows *r, struct pp_profile *p,
		   const struct pp_rows_opts *opts)
{
	bool exclude = opts && opts->exclude_dependent;
	bool per_image = opts && opts->per_image;
	size_t *per_app, i, k;	/* per app: its groups in the image at hand */

	memset(r, 0, sizeof(*r));
	r->nr_classes = p->nr_classes;
	r->totals = op_xcalloc(p->nr_classes, sizeof(*r->totals));
	r->outside = op_xcalloc(p->nr_classes, sizeof(*r->outside));
	op_hmap_init(&r->index);
	for (i = 0; i < p->nr_groups; i++) {
		const struct pp_group *g = &p->groups[i];

		r->totals[g->cls] += g->total;
		/* per image, rows come in the order of the groups */
		if (per_image && !(exclude && !pp_profile_own_image(p, g->app, g->image)))
			pp_rows_get(r, g->image, g->app, NULL)->counts[g->cls] += g->total;
	}
	per_app = per_image ? NULL : op_xcalloc(p->nr_apps + 1, sizeof(*per_app));
	for (i = 0; !per_image && i < p->nr_images; i++) {
		const struct pp_image *im = &p->images[i];
		struct pp_symtab *t;

		if (!im->nr_groups)
			continue;
		t = pp_image_symtab(p, i);
		for (k = 0; k < im->nr_groups; k++)
			per_app[p->groups[im->groups[k]].app]++;
		for (k = 0; k < im->nr_groups; k++) {
			const struct pp_group *g = &p->groups[im->groups[k]];

			if (!(exclude && !pp_profile_own_image(p, g->app, i)))
				add_group(r, g, t, per_app[g->app] == 1);
		}
		for (k = 0; k < im->nr_groups; k++)
			per_app[p->groups[im->groups[k]].app] = 0;
	}
	free(per_app);
	r->multiple_apps = several_apps(p, exclude);
}

void pp_rows_release(struct pp_rows *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i * PP_ROWS_CHUNK < r->nr; i++)
		free(r->chunks[i]);
	free(r->chunks);
	free(r->rows);
	free(r->totals);
	free(r->outside);
	op_hmap_release(&r->index);
	memset(r, 0, sizeof(*r));
}

/* the first index of g's keys at or above key */
static size_t lower_bound(const struct pp_group *g, uint64_t key)
{
	size_t lo = 0, hi = g->nr_kc;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->kc[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A row's keys, when one group of its image holds them all (one class,
 * the usual case): that group's keys inside the symbol, without a merge.
 */
static void one_group_keys(const struct pp_group *g, const struct pp_row *row,
			   uint64_t *counts,
			   void (*fn)(void *data, uint64_t key, const uint64_t *counts),
			   void *data)
{
	size_t k;

	for (k = lower_bound(g, row->sym->start);
	     k < g->nr_kc && g->kc[k].key < row->sym->end; k++) {
		counts[g->cls] = g->kc[k].count;
		fn(data, g->kc[k].key, counts);
	}
}

/* room for this many groups and classes without allocating */
#define FEW 16

void pp_rows_for_each_key(struct pp_profile *p, const struct pp_rows *r,
			  const struct pp_row *row,
			  void (*fn)(void *data, uint64_t key, const uint64_t *counts),
			  void *data)
{
	const struct pp_image *im = &p->images[row->image];
	size_t few_pos[FEW];
	const struct pp_group *few_gs[FEW];
	uint64_t few_counts[FEW];
	size_t nr = 0, k, c;
	size_t *pos = im->nr_groups <= FEW ? few_pos :
		      op_xcalloc(im->nr_groups, sizeof(*pos));
	const struct pp_group **gs = im->nr_groups <= FEW ? few_gs :
				     op_xcalloc(im->nr_groups, sizeof(*gs));
	uint64_t *counts = r->nr_classes <= FEW ? few_counts :
			   op_xcalloc(r->nr_classes, sizeof(*counts));

	memset(counts, 0, r->nr_classes * sizeof(*counts));
	for (k = 0; k < im->nr_groups; k++) {
		const struct pp_group *g = &p->groups[im->groups[k]];

		if (g->app != row->app)
			continue;
		gs[nr] = g;
		pos[nr++] = lower_bound(g, row->sym->start);
	}
	if (nr == 1) {
		one_group_keys(gs[0], row, counts, fn, data);
		goto out;
	}
	/* a merge over the groups' sorted keys inside the symbol */
	for (;;) {
		uint64_t key = UINT64_MAX;
		bool any = false;

		for (k = 0; k < nr; k++) {
			if (pos[k] < gs[k]->nr_kc && gs[k]->kc[pos[k]].key < row->sym->end &&
			    gs[k]->kc[pos[k]].key <= key) {
				key = gs[k]->kc[pos[k]].key;
				any = true;
			}
		}
		if (!any)
			break;
		for (c = 0; c < r->nr_classes; c++)
			counts[c] = 0;
		for (k = 0; k < nr; k++) {
			if (pos[k] < gs[k]->nr_kc && gs[k]->kc[pos[k]].key == key) {
				counts[gs[k]->cls] += gs[k]->kc[pos[k]].count;
				pos[k]++;
			}
		}
		fn(data, key, counts);
	}
out:
	if (pos != few_pos)
		free(pos);
	if (gs != few_gs)
		free(gs);
	if (counts != few_counts)
		free(counts);
}
