// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport { first } { second }: the symbols of the second profile with
 * their samples and share, and a "diff %" column: how much the share of
 * each symbol changed from the first profile, in percent of its first
 * share.  Symbols are matched by image, application and symbol name; a
 * symbol only in the second profile shows "+++", one only in the first
 * "---" (with its old count).  Each side is prepared on its own: -t, -i,
 * -e and -x choose a side's rows against that side's totals.
 *
 * Each change of a share is tested (op_two_prop_p(): Fisher's exact test
 * at small counts, else the pooled two-proportion z test), and the tests
 * of all rows and classes shown are corrected together by Holm's method:
 * an "adj. p" column and a marker, "*" for a change significant at
 * 1 - --confidence (5 % by default), "~" for one within noise.
 * --significant-only keeps the rows with a "*"; --confidence also gives
 * each share its interval.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_stats.h"

enum side { BOTH, OLD_ONLY, NEW_ONLY };

struct drow {
	const struct pp_row *row;	/* shown: the second's, or the first's */
	struct pp_side *s;		/* its side */
	enum side side;
	const uint64_t *old;		/* the first's counts of a row of both */
	double *diff;			/* per class, percent */
	double *p;			/* per class: the test's p-value, then
					 * Holm's adjusted one */
	bool significant;		/* in some class */
};

struct diffctx {
	struct pp_report *r;
	struct pp_side *first, *second;
	struct drow *rows;
	size_t nr;
	size_t nr_classes;
	bool show_image, show_app;
	double alpha;			/* the tests' level */
	double z;			/* --confidence: intervals at z; 0: none */
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

/* the class names of p, "a, b, c", for a message */
static void class_list(struct op_strbuf *sb, const struct pp_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_classes; i++)
		op_strbuf_addf(sb, "%s%s", i ? ", " : "",
			       p->classes[i].name && *p->classes[i].name ?
			       p->classes[i].name : "all samples");
}

/*
 * The two sides are compared column by column: they need as many
 * columns, along the same axis.
 */
static int same_columns(const struct pp_profile *a, const struct pp_profile *b,
			struct op_err *err)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	if (a->nr_classes == b->nr_classes && (a->nr_classes == 1 || a->axis == b->axis))
		return 0;
	op_strbuf_addstr(&sb, "the two profiles of the differential have different "
			 "columns: ");
	class_list(&sb, a);
	op_strbuf_addstr(&sb, " against ");
	class_list(&sb, b);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	op_err_set(err, "%s", sb.buf);
	op_strbuf_release(&sb);
	return PP_REPORT_ERR_COLUMNS;
}

/* which rows of s are shown: a flag per row index */
static bool *shown_rows(const struct pp_side *s)
{
	bool *shown = op_xcalloc(s->rows.nr + 1, sizeof(*shown));
	size_t i;

	for (i = 0; i < s->nr_sel; i++)
		shown[s->sel[i]->index] = true;
	return shown;
}

static void add(struct diffctx *d, const struct pp_row *row, struct pp_side *s,
		enum side side)
{
	d->rows[d->nr].row = row;
	d->rows[d->nr].s = s;
	d->rows[d->nr].side = side;
	d->rows[d->nr].diff = op_xcalloc(d->nr_classes + 1, sizeof(double));
	d->rows[d->nr].p = op_xcalloc(d->nr_classes + 1, sizeof(double));
	d->nr++;
}

/* the change of a symbol's share, in percent of its first share */
static void set_diff(struct diffctx *d, struct drow *dr, const struct pp_row *a)
{
	size_t c;

	dr->old = a->counts;
	for (c = 0; c < d->nr_classes; c++) {
		double p1 = pp_ratio(a->counts[c], d->first->totals[c]);
		double p2 = pp_ratio(dr->row->counts[c], d->second->totals[c]);

		dr->diff[c] = p1 > 0 ? (p2 - p1) * 100.0 / p1 : INFINITY;
	}
}

/* the rows of both sides, matched: every second row, the first's unmatched */
static void match(struct diffctx *d)
{
	const struct pp_rows *r1 = &d->first->rows, *r2 = &d->second->rows;
	struct op_hmap index = OP_HMAP_INIT;
	bool *matched = op_xcalloc(r1->nr + 1, sizeof(*matched));
	bool *shown1 = shown_rows(d->first), *shown2 = shown_rows(d->second);
	size_t i;

	for (i = 0; i < r1->nr; i++)
		if (op_hmap_insert(&index, key_hash(d->first->p, &r1->rows[i]), &r1->rows[i]))
			op_die(1, "out of memory");
	d->rows = op_xcalloc(r1->nr + r2->nr + 1, sizeof(*d->rows));
	for (i = 0; i < r2->nr; i++) {
		const struct pp_row *b = &r2->rows[i], *a = NULL, *cand;
		uint64_t h = key_hash(d->second->p, b);
		struct op_hmap_iter it;

		for (cand = op_hmap_first(&index, h, &it); cand;
		     cand = op_hmap_next(&index, h, &it))
			if (same_key(d->first->p, cand, d->second->p, b)) {
				a = cand;
				break;
			}
		if (a)
			matched[a->index] = true;
		if (!shown2[i])
			continue;
		add(d, b, d->second, a ? BOTH : NEW_ONLY);
		if (a)
			set_diff(d, &d->rows[d->nr - 1], a);
	}
	for (i = 0; i < r1->nr; i++)
		if (!matched[i] && shown1[i])
			add(d, &r1->rows[i], d->first, OLD_ONLY);
	op_hmap_release(&index);
	free(matched);
	free(shown1);
	free(shown2);
}

/* the counts before (k1) and after (k2) of row dr in class c */
static void before_after(const struct drow *dr, size_t c, uint64_t *k1, uint64_t *k2)
{
	*k1 = dr->side == OLD_ONLY ? dr->row->counts[c] : dr->old ? dr->old[c] : 0;
	*k2 = dr->side == OLD_ONLY ? 0 : dr->row->counts[c];
}

/*
 * Test every change, all rows and classes one family, and mark the rows
 * with a significant one; the number of tests
 */
static size_t test_changes(struct diffctx *d)
{
	size_t m = d->nr * d->nr_classes, i, c;
	double *all = op_xcalloc(m + 1, sizeof(*all));

	for (i = 0; i < d->nr; i++)
		for (c = 0; c < d->nr_classes; c++) {
			uint64_t k1, k2;

			before_after(&d->rows[i], c, &k1, &k2);
			all[i * d->nr_classes + c] =
				op_two_prop_p(k1, d->first->totals[c], k2,
					      d->second->totals[c]);
		}
	if (op_holm_adjust(all, all, m))
		op_die(1, "out of memory");
	for (i = 0; i < d->nr; i++)
		for (c = 0; c < d->nr_classes; c++) {
			d->rows[i].p[c] = all[i * d->nr_classes + c];
			if (d->rows[i].p[c] <= d->alpha)
				d->rows[i].significant = true;
		}
	free(all);
	return m;
}

/* a p-value in at most 7 characters: "0.0312", "3.1e-05", "1" */
static void format_p(char *buf, size_t size, double p)
{
	if (p >= 1.0)
		snprintf(buf, size, "1");
	else if (p >= 0.001)
		snprintf(buf, size, "%.4f", p);
	else if (p > 0.0)
		snprintf(buf, size, "%.1e", p);
	else
		snprintf(buf, size, "0");
}

static void header(struct diffctx *d, FILE *out)
{
	struct pp_line l;
	size_t c;

	pp_line_start(&l, out, NULL);
	for (c = 0; c < d->nr_classes; c++) {
		pp_line_field(&l, "samples", W_SAMPLES);
		pp_line_field(&l, "%", W_PERCENT);
		if (d->z > 0) {
			pp_line_field(&l, "low %", W_PERCENT);
			pp_line_field(&l, "high %", W_PERCENT);
		}
		pp_line_field(&l, "diff %", W_DIFF);
		pp_line_field(&l, "adj. p", W_PVALUE);
		pp_line_field(&l, "sig", W_SIG);
	}
	for (c = 0; c < d->second->metrics.nr; c++)
		pp_line_field(&l, d->second->metrics.m[c].name, W_METRIC);
	if (d->show_image)
		pp_line_field(&l, "image name", W_IMAGE);
	if (d->show_app)
		pp_line_field(&l, "app name", W_APP);
	pp_line_field(&l, "symbol name", W_SYMBOL);
	pp_line_end(&l);
}

static void put_row(struct diffctx *d, FILE *out, const struct drow *dr)
{
	struct pp_line l;
	char buf[64];
	size_t c;

	pp_line_start(&l, out, NULL);
	for (c = 0; c < d->nr_classes; c++) {
		pp_format_count(buf, sizeof(buf), dr->row->counts[c]);
		pp_line_field(&l, buf, W_SAMPLES);
		if (dr->side == OLD_ONLY)
			snprintf(buf, sizeof(buf), "---");
		else
			pp_format_percent(buf, sizeof(buf),
					  pp_ratio(dr->row->counts[c], d->second->totals[c]),
					  false);
		pp_line_field(&l, buf, W_PERCENT);
		if (d->z > 0 && dr->side == OLD_ONLY) {
			pp_line_field(&l, "---", W_PERCENT);
			pp_line_field(&l, "---", W_PERCENT);
		} else if (d->z > 0) {
			pp_interval_fields(&l, dr->row->counts[c], d->second->totals[c],
					   d->z, NULL);
		}
		if (dr->side == OLD_ONLY)
			snprintf(buf, sizeof(buf), "---");
		else if (dr->side == NEW_ONLY || isinf(dr->diff[c]))
			snprintf(buf, sizeof(buf), "+++");
		else
			pp_format_percent(buf, sizeof(buf), dr->diff[c], true);
		pp_line_field(&l, buf, W_DIFF);
		format_p(buf, sizeof(buf), dr->p[c]);
		pp_line_field(&l, buf, W_PVALUE);
		pp_line_field(&l, dr->p[c] <= d->alpha ? "*" : "~", W_SIG);
	}
	/* a row's metrics are of its own side's counts */
	pp_metric_fields(&l, &dr->s->metrics, dr->row->counts);
	if (d->show_image)
		pp_line_field(&l, pp_names_image(&dr->s->names, dr->row->image), W_IMAGE);
	if (d->show_app)
		pp_line_field(&l, pp_names_app(&dr->s->names, dr->row->app), W_APP);
	pp_line_field(&l, pp_shown_name(dr->s->p, dr->row->image, dr->row->sym),
		      W_SYMBOL);
	pp_line_end(&l);
}

int pp_write_diff(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct diffctx d = { .r = r, .first = &r->sides[0], .second = &r->sides[1] };
	bool rev = r->o->reverse;
	size_t i, nr_tests;
	int ret;

	ret = same_columns(d.first->p, d.second->p, err);
	if (ret)
		return ret;
	d.nr_classes = d.second->p->nr_classes;
	d.alpha = 1.0 - (r->o->confidence > 0 ? r->o->confidence : 0.95);
	d.z = r->o->confidence > 0 ? r->o->z : 0.0;
	match(&d);
	nr_tests = test_changes(&d);
	if (d.nr > 1)
		qsort_r(d.rows, d.nr, sizeof(*d.rows), by_count, &rev);
	for (i = 1; i < d.nr; i++)
		if (strcmp(d.rows[i].s->p->images[d.rows[i].row->image].id.name,
			   d.rows[0].s->p->images[d.rows[0].row->image].id.name))
			d.show_image = true;
	d.show_app = d.first->rows.multiple_apps || d.second->rows.multiple_apps;
	/* the columns are the second profile's */
	pp_report_header(out, d.second->p, r->info, r->o);
	pp_diff_header(out, r, d.first->totals, d.second->totals, d.second->p, nr_tests,
		       d.alpha);
	if (!r->o->no_header)
		header(&d, out);
	for (i = 0; i < d.nr; i++)
		if (d.rows[i].significant || !r->o->significant_only)
			put_row(&d, out, &d.rows[i]);
	for (i = 0; i < d.nr; i++) {
		free(d.rows[i].diff);
		free(d.rows[i].p);
	}
	free(d.rows);
	return 0;
}
