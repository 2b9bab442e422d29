// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport { first } { second }: the symbols of the second profile with
 * their samples and share, and a "diff %" column: how much the share of
 * each symbol changed from the first profile, in percent of its first
 * share.  Symbols are matched by image, application and symbol name; a
 * symbol only in the second profile shows "+++", one only in the first
 * "---" (with its old count).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

enum side { BOTH, OLD_ONLY, NEW_ONLY };

struct drow {
	const struct pp_row *row;	/* shown: the second's, or the first's */
	struct pp_profile *p;		/* its profile */
	enum side side;
	double *diff;			/* per class, percent */
};

static uint64_t key_hash(const struct pp_profile *p, const struct pp_row *row)
{
	return op_hash_combine(op_hash_combine(op_hash_str(p->images[row->image].id.name),
					       op_hash_str(p->apps[row->app].id.name)),
			       op_hash_str(row->sym->name));
}

static bool same_key(const struct pp_profile *pa, const struct pp_row *a,
		     const struct pp_profile *pb, const struct pp_row *b)
{
	return odb_image_id_equal(&pa->images[a->image].id, &pb->images[b->image].id) &&
	       odb_image_id_equal(&pa->apps[a->app].id, &pb->apps[b->app].id) &&
	       !strcmp(a->sym->name, b->sym->name);
}

static int by_count(const void *a, const void *b, void *arg)
{
	const struct drow *x = a, *y = b;
	uint64_t cx = x->row->counts[0], cy = y->row->counts[0];
	int r = cx < cy ? 1 : cx > cy ? -1 : 0;

	if (!r)
		r = (int)x->side - (int)y->side;
	if (!r)
		r = x->row->index < y->row->index ? -1 : x->row->index > y->row->index;
	return *(const bool *)arg ? -r : r;
}

static uint64_t *totals_of(const struct pp_rows *r)
{
	uint64_t *t = op_xcalloc(r->nr_classes, sizeof(*t));
	size_t i, c;

	for (i = 0; i < r->nr; i++)
		for (c = 0; c < r->nr_classes; c++)
			t[c] += r->rows[i].counts[c];
	return t;
}

int pp_report_diff(FILE *out, struct pp_profile *first,
		   struct pp_profile *second, const struct pp_report_opts *o,
		   struct pp_notes *n)
{
	struct pp_rows_opts ro = { .exclude_dependent = o->exclude_dependent };
	struct pp_rows r1, r2;
	struct op_hmap index = OP_HMAP_INIT;
	struct pp_names nm1, nm2;
	struct drow *rows;
	uint64_t *t1, *t2;
	size_t nr = 0, i, c, nrc = second->nr_classes;
	bool *matched, show_image = false, show_app, rev = o->reverse;
	struct pp_line l;

	if (first->nr_classes != nrc) {
		pp_note(n, "the two profiles have different columns (%zu and %zu): "
			"only the first column of each is compared", first->nr_classes, nrc);
		nrc = 1;
	}
	pp_rows_build(&r1, first, &ro, n);
	pp_rows_build(&r2, second, &ro, n);
	pp_check_images(first, n);
	pp_check_images(second, n);
	t1 = totals_of(&r1);
	t2 = totals_of(&r2);
	for (i = 0; i < r1.nr; i++)
		if (op_hmap_insert(&index, key_hash(first, &r1.rows[i]), &r1.rows[i]))
			op_die(1, "out of memory");
	matched = op_xcalloc(r1.nr + 1, sizeof(*matched));
	rows = op_xcalloc(r1.nr + r2.nr + 1, sizeof(*rows));
	for (i = 0; i < r2.nr; i++) {
		const struct pp_row *b = &r2.rows[i], *a = NULL, *cand;
		uint64_t h = key_hash(second, b);
		struct op_hmap_iter it;

		for (cand = op_hmap_first(&index, h, &it); cand;
		     cand = op_hmap_next(&index, h, &it))
			if (same_key(first, cand, second, b)) {
				a = cand;
				break;
			}
		rows[nr].row = b;
		rows[nr].p = second;
		rows[nr].diff = op_xcalloc(nrc, sizeof(double));
		rows[nr].side = a ? BOTH : NEW_ONLY;
		if (a) {
			matched[a->index] = true;
			for (c = 0; c < nrc; c++) {
				double p1 = pp_ratio(a->counts[c], t1[c]);
				double p2 = pp_ratio(b->counts[c], t2[c]);

				rows[nr].diff[c] = p1 > 0 ? (p2 - p1) * 100.0 / p1 : INFINITY;
			}
		}
		nr++;
	}
	for (i = 0; i < r1.nr; i++) {
		if (matched[i])
			continue;
		rows[nr].row = &r1.rows[i];
		rows[nr].p = first;
		rows[nr].side = OLD_ONLY;
		rows[nr].diff = op_xcalloc(nrc, sizeof(double));
		nr++;
	}
	qsort_r(rows, nr, sizeof(*rows), by_count, &rev);
	for (i = 1; i < nr; i++)
		if (strcmp(rows[i].p->images[rows[i].row->image].id.name,
			   rows[0].p->images[rows[0].row->image].id.name))
			show_image = true;
	show_app = r1.multiple_apps || r2.multiple_apps;
	pp_names_init(&nm1, first, o);
	pp_names_init(&nm2, second, o);
	if (!o->no_header) {
		pp_line_start(&l, out, NULL);
		for (c = 0; c < nrc; c++) {
			pp_line_field(&l, "samples", W_SAMPLES);
			pp_line_field(&l, "%", W_PERCENT);
			pp_line_field(&l, "diff %", W_DIFF);
		}
		if (show_image)
			pp_line_field(&l, "image name", W_IMAGE);
		if (show_app)
			pp_line_field(&l, "app name", W_APP);
		pp_line_field(&l, "symbol name", W_SYMBOL);
		pp_line_end(&l);
	}
	for (i = 0; i < nr; i++) {
		const struct drow *d = &rows[i];
		struct pp_names *nm = d->p == first ? &nm1 : &nm2;
		char buf[64], *name;

		if (!pp_over_threshold(o, d->row->counts, d->side == OLD_ONLY ? t1 : t2, nrc))
			continue;
		name = pp_symbol_display(d->row->sym, o->demangle);
		if (!pp_symbol_selected(o, d->row->sym->name, name)) {
			free(name);
			continue;
		}
		pp_line_start(&l, out, NULL);
		for (c = 0; c < nrc; c++) {
			pp_format_count(buf, sizeof(buf), d->row->counts[c]);
			pp_line_field(&l, buf, W_SAMPLES);
			if (d->side == OLD_ONLY)
				snprintf(buf, sizeof(buf), "---");
			else
				pp_format_percent(buf, sizeof(buf),
						  pp_ratio(d->row->counts[c], t2[c]), false);
			pp_line_field(&l, buf, W_PERCENT);
			if (d->side == OLD_ONLY)
				snprintf(buf, sizeof(buf), "---");
			else if (d->side == NEW_ONLY || isinf(d->diff[c]))
				snprintf(buf, sizeof(buf), "+++");
			else
				pp_format_percent(buf, sizeof(buf), d->diff[c], true);
			pp_line_field(&l, buf, W_DIFF);
		}
		if (show_image)
			pp_line_field(&l, pp_names_image(nm, d->row->image), W_IMAGE);
		if (show_app)
			pp_line_field(&l, pp_names_app(nm, d->row->app), W_APP);
		pp_line_field(&l, name, W_SYMBOL);
		pp_line_end(&l);
		free(name);
	}
	for (i = 0; i < nr; i++)
		free(rows[i].diff);
	free(rows);
	free(matched);
	free(t1);
	free(t2);
	op_hmap_release(&index);
	pp_names_release(&nm1);
	pp_names_release(&nm2);
	pp_rows_release(&r1);
	pp_rows_release(&r2);
	return 0;
}
