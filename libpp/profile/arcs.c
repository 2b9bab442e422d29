// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Call-graph arcs between symbol rows (pp_arcs.h), shared by opreport
 * --callgraph and its XML form.  An arc end that has no samples of its
 * own still gets a row (with zero counts), so every caller and callee can
 * be listed.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_arcs.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

/* the counts of the arc (caller, callee), made zero on first use */
static uint64_t *arc_counts(struct pp_arcs *a, size_t caller, size_t callee)
{
	uint64_t h = op_hash_combine(op_hash_u64(caller), callee);
	struct op_hmap_iter it;
	void *slot;

	for (slot = op_hmap_first(&a->index, h, &it); slot;
	     slot = op_hmap_next(&a->index, h, &it)) {
		size_t i = (size_t)(uintptr_t)slot - 1;

		if (a->v[i].caller == caller && a->v[i].callee == callee)
			return &a->counts[i * a->nr_classes];
	}
	if (a->nr == a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 256;
		a->v = op_xreallocarray(a->v, a->alloc, sizeof(*a->v));
		a->counts = op_xreallocarray(a->counts, a->alloc,
					     a->nr_classes * sizeof(*a->counts));
	}
	a->v[a->nr].caller = caller;
	a->v[a->nr].callee = callee;
	a->v[a->nr].counts = NULL;	/* set once the counts stop moving */
	memset(&a->counts[a->nr * a->nr_classes], 0, a->nr_classes * sizeof(*a->counts));
	if (op_hmap_insert(&a->index, h, (void *)(uintptr_t)(a->nr + 1)))
		op_die(1, "out of memory");
	return &a->counts[a->nr++ * a->nr_classes];
}

/*
 * The key of a call-graph arc end: sample files keep 32 bits of each end
 * (oprofile-ng-formats(5)), so a table whose keys lie above 4 GiB (the
 * kernel, keyed by address) gets its high bits back from its first
 * symbol, as all of its text lies within one 4 GiB window.
 */
uint64_t pp_arc_key(const struct pp_symtab *t, uint64_t low32)
{
	uint64_t high;

	if (!t->nr || t->syms[0].start <= 0xffffffffull)
		return low32;
	high = t->syms[0].start & ~0xffffffffull;
	if ((high | low32) < t->syms[0].start && high + (1ull << 32) > high)
		high += 1ull << 32;	/* the window starts within the first 4 GiB */
	return high | low32;
}

/*
 * The records of one {cg} group, their ends resolved to rows.  The
 * callee's row is of the group's application, unless --merge=lib made
 * each image an application of its own (callee_app: the callee image's
 * application, SIZE_MAX for none): then it is of the callee's, so that a
 * library function called from elsewhere is the row of its own samples,
 * not a second row.
 */
static void walk_cg_group(struct pp_profile *p, struct pp_rows *r,
			  const struct pp_cg_group *g, size_t callee_app,
			  void (*fn)(void *data, const struct pp_arc_record *rec),
			  void *data)
{
	struct pp_symtab *from = pp_image_symtab(p, g->caller);
	struct pp_symtab *to = pp_image_symtab(p, g->callee);
	size_t app_to = callee_app == SIZE_MAX ? g->app : callee_app;
	struct pp_arc_record rec = { .cls = g->cls, .caller_image = g->caller };
	size_t k;

	for (k = 0; k < g->nr_kc; k++) {
		const struct pp_sym *x, *y;

		rec.from = pp_arc_key(from, g->kc[k].key >> 32);
		rec.to = pp_arc_key(to, g->kc[k].key & 0xffffffffull);
		x = pp_symtab_hold(from, rec.from);
		y = pp_symtab_hold(to, rec.to);
		if (!x || !y)
			op_die(1, "out of memory");
		rec.caller = pp_rows_get(r, g->caller, g->app, x)->index;
		rec.callee = pp_rows_get(r, g->callee, app_to, y)->index;
		rec.count = g->kc[k].count;
		fn(data, &rec);
	}
}

/*
 * Index the arcs by one end (the callee or the caller), a counting sort:
 * list[first[r] .. first[r + 1]) holds row r's arcs.
 */
static void index_arcs(const struct pp_arcs *a, size_t nr_rows, bool by_callee,
		       size_t **firstp, size_t **listp)
{
	size_t *first = op_xcalloc(nr_rows + 2, sizeof(*first));
	size_t *list = op_xcalloc(a->nr + 1, sizeof(*list));
	size_t i;

	for (i = 0; i < a->nr; i++)
		first[(by_callee ? a->v[i].callee : a->v[i].caller) + 2]++;
	for (i = 2; i < nr_rows + 2; i++)
		first[i] += first[i - 1];
	for (i = 0; i < a->nr; i++)
		list[first[(by_callee ? a->v[i].callee : a->v[i].caller) + 1]++] = i;
	*firstp = first;
	*listp = list;
}

void pp_arcs_for_each_record(struct pp_profile *p, struct pp_rows *r,
			     bool exclude_dependent, struct pp_notes *n,
			     void (*fn)(void *data, const struct pp_arc_record *rec),
			     void *data)
{
	size_t *app_of_image = op_xcalloc(p->nr_images + 1, sizeof(*app_of_image));
	size_t i;

	for (i = 0; i < p->nr_images; i++)
		app_of_image[i] = SIZE_MAX;
	for (i = 0; (p->merge & PP_MERGE_LIB) && i < p->nr_apps; i++)
		if (p->apps[i].own_image != SIZE_MAX)
			app_of_image[p->apps[i].own_image] = i;
	for (i = 0; i < p->nr_cg; i++) {
		const struct pp_cg_group *g = &p->cg[i];

		/* -x: calls into or out of libraries are not shown either */
		if (exclude_dependent && (!pp_profile_own_image(p, g->app, g->caller) ||
					  !pp_profile_own_image(p, g->app, g->callee)))
			continue;
		pp_cg_group_load(p, &p->cg[i], n);
		walk_cg_group(p, r, g, app_of_image[g->callee], fn, data);
	}
	free(app_of_image);
}

struct sum_ctx {
	struct pp_arcs *a;
	bool keep;
};

static void sum_record(void *data, const struct pp_arc_record *rec)
{
	struct sum_ctx *ctx = data;
	struct pp_arcs *a = ctx->a;

	arc_counts(a, rec->caller, rec->callee)[rec->cls] += rec->count;
	if (!ctx->keep)
		return;
	if (a->nr_records == a->alloc_records) {
		a->alloc_records = a->alloc_records ? 2 * a->alloc_records : 256;
		a->records = op_xreallocarray(a->records, a->alloc_records,
					      sizeof(*a->records));
	}
	a->records[a->nr_records++] = *rec;
}

void pp_arcs_build(struct pp_arcs *a, struct pp_profile *p, struct pp_rows *r,
		   bool exclude_dependent, bool keep_records, struct pp_notes *n)
{
	struct sum_ctx ctx = { a, keep_records };
	size_t i;

	memset(a, 0, sizeof(*a));
	a->nr_classes = p->nr_classes ? p->nr_classes : 1;
	op_hmap_init(&a->index);
	pp_arcs_for_each_record(p, r, exclude_dependent, n, sum_record, &ctx);
	for (i = 0; i < a->nr; i++)
		a->v[i].counts = &a->counts[i * a->nr_classes];
	/* no rows are added from here on: the indexes stay valid */
	index_arcs(a, r->nr, true, &a->in_first, &a->in_list);
	index_arcs(a, r->nr, false, &a->out_first, &a->out_list);
}

void pp_arcs_release(struct pp_arcs *a)
{
	if (!a)
		return;
	free(a->v);
	free(a->counts);
	free(a->records);
	op_hmap_release(&a->index);
	free(a->in_first);
	free(a->in_list);
	free(a->out_first);
	free(a->out_list);
	memset(a, 0, sizeof(*a));
}

static int entries_by_count(const void *pa, const void *pb, void *arg)
{
	const struct pp_arc_entry *x = pa, *y = pb;
	int r = x->counts[0] < y->counts[0] ? 1 : x->counts[0] > y->counts[0] ? -1 : 0;

	if (!r)
		r = x->row->index < y->row->index ? -1 : x->row->index > y->row->index;
	return *(const bool *)arg ? -r : r;
}

size_t pp_arcs_list(const struct pp_arcs *a, const struct pp_rows *r,
		    const struct pp_row *row, bool callees, bool reverse,
		    struct pp_arc_entry *buf)
{
	const size_t *first = callees ? a->out_first : a->in_first;
	const size_t *list = callees ? a->out_list : a->in_list;
	size_t nr = 0, i;

	if (callees) {
		buf[nr].row = row;
		buf[nr].counts = row->counts;
		buf[nr++].self = true;
	}
	for (i = first[row->index]; i < first[row->index + 1]; i++) {
		const struct pp_arc *arc = &a->v[list[i]];

		buf[nr].row = &r->rows[callees ? arc->callee : arc->caller];
		buf[nr].counts = arc->counts;
		buf[nr++].self = false;
	}
	qsort_r(buf, nr, sizeof(*buf), entries_by_count, &reverse);
	return nr;
}
