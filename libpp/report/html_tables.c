// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables of opreport --format=html: the symbol table of -l (count
 * and percent per class, image, application when several, symbol; the
 * rows the preparation selected and ordered: -t, -i/-e, -x, --sort) and
 * the image summary (per application and image, over -t).  The page's
 * script sorts them by a click on a column title (data-type says how)
 * and filters their rows.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

/* --confidence's z, 0 without it */
static double z_of(const struct pp_report *r)
{
	return r->o->confidence > 0 ? r->o->z : 0.0;
}

/* the count and percent cells of counts, per class, and with z > 0 the
 * cells of each share's interval */
static void put_counts(FILE *out, const uint64_t *counts, const uint64_t *totals,
		       size_t nr_classes, double z)
{
	char pct[32], lo[32], hi[32];
	size_t c;

	for (c = 0; c < nr_classes; c++) {
		pp_format_percent(pct, sizeof(pct), pp_ratio(counts[c], totals[c]), false);
		fprintf(out, "<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s</td>",
			counts[c], pct);
		if (z > 0) {
			pp_interval_strs(lo, hi, sizeof(lo), counts[c], totals[c], z);
			fprintf(out, "<td class=\"n\">%s</td><td class=\"n\">%s</td>",
				lo, hi);
		}
	}
}

/* --metric's cells of counts */
static void put_metrics(FILE *out, const struct pp_metrics *ms, const uint64_t *counts)
{
	char buf[64];
	bool imprecise;
	size_t k;

	for (k = 0; k < ms->nr; k++) {
		pp_metric_text(ms, k, counts, buf, sizeof(buf), &imprecise);
		fprintf(out, "<td class=\"n\"%s>%s</td>", imprecise ?
			" title=\"imprecise: an event of it has few samples here\"" : "",
			buf);
	}
}

/* the metrics' column titles, each with its expression */
static void put_metric_titles(FILE *out, const struct pp_metrics *ms)
{
	size_t k;

	for (k = 0; k < ms->nr; k++) {
		fputs("<th data-type=\"num\" title=\"", out);
		pp_html_put(out, ms->m[k].expr);
		fputs("\">", out);
		pp_html_put(out, ms->m[k].name);
		fputs("</th>", out);
	}
}

/* the column titles of the counts: samples and % per class, and with
 * --confidence the interval's low % and high % */
static void put_count_titles(FILE *out, const struct pp_report *r,
			     const struct pp_profile *p)
{
	size_t c;

	for (c = 0; c < p->nr_classes; c++) {
		fputs("<th data-type=\"num\" title=\"", out);
		pp_html_put(out, p->classes[c].name);
		fputs("\">samples", out);
		if (p->nr_classes > 1) {
			fputs("<br><small>", out);
			pp_html_put(out, p->classes[c].name);
			fputs("</small>", out);
		}
		fputs("</th><th data-type=\"num\">%</th>", out);
		if (z_of(r) > 0)
			fprintf(out, "<th data-type=\"num\" title=\"the share's %.10g %% "
				"confidence interval (Wilson)\">low %%</th><th "
				"data-type=\"num\">high %%</th>", r->o->confidence * 100.0);
	}
}

static void table_start(FILE *out, const char *id, const char *title,
			const char *what)
{
	fprintf(out, "<section id=\"%s\">\n<h2>%s</h2>\n<div class=\"controls\">"
		"<input class=\"filter\" data-table=\"%s-table\" type=\"search\" "
		"placeholder=\"Filter %s\" size=\"40\"> <span class=\"shown\"></span>"
		"</div>\n<table id=\"%s-table\" class=\"sortable\">\n<thead><tr>",
		id, title, id, what, id);
}

static bool any_count(const uint64_t *counts, size_t nr)
{
	size_t c;

	for (c = 0; c < nr; c++)
		if (counts[c])
			return true;
	return false;
}

void pp_html_symbols(FILE *out, struct pp_report *r, struct pp_side *s)
{
	struct pp_profile *p = s->p;
	size_t i;

	table_start(out, "symbols", "Symbols", "symbols");
	put_count_titles(out, r, p);
	put_metric_titles(out, &s->metrics);
	fputs("<th data-type=\"text\">image name</th>", out);
	if (s->show_app)
		fputs("<th data-type=\"text\">app name</th>", out);
	fputs("<th data-type=\"text\">symbol name</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < s->nr_sel; i++) {
		const struct pp_row *row = s->sel[i];

		if (!row->sym || !any_count(row->counts, p->nr_classes))
			continue;
		fputs("<tr>", out);
		put_counts(out, row->counts, s->totals, p->nr_classes, z_of(r));
		put_metrics(out, &s->metrics, row->counts);
		fputs("<td>", out);
		pp_html_put(out, pp_names_image(&s->names, row->image));
		if (s->show_app) {
			fputs("</td><td>", out);
			pp_html_put(out, pp_names_app(&s->names, row->app));
		}
		fputs("</td><td class=\"sym\">", out);
		pp_html_put(out, pp_shown_name(p, row->image, row->sym));
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	if (r->o->threshold > 0)
		fprintf(out, "<p>Symbols with at least %g%% of the samples "
			"(--threshold).</p>\n", r->o->threshold);
	fputs("</section>\n", out);
}

/* one line of the image summary: an image of an application */
struct image_line {
	size_t app, image;
	uint64_t *counts;
};

static int lines_by_count(const void *pa, const void *pb)
{
	const struct image_line *a = pa, *b = pb;

	if (a->counts[0] != b->counts[0])
		return a->counts[0] < b->counts[0] ? 1 : -1;
	return a->app != b->app ? (a->app < b->app ? -1 : 1) :
	       a->image < b->image ? -1 : a->image > b->image;
}

/* the line of (app, image) in v[0..*nr), added when new */
static size_t line_of(struct op_hmap *index, struct image_line *v, size_t *nr,
		      size_t app, size_t image, size_t nr_classes)
{
	uint64_t h = op_hash_combine(op_hash_u64(app), image);
	struct op_hmap_iter it;
	void *val;

	for (val = op_hmap_first(index, h, &it); val; val = op_hmap_next(index, h, &it)) {
		size_t k = (uintptr_t)val - 1;

		if (v[k].app == app && v[k].image == image)
			return k;
	}
	v[*nr].app = app;
	v[*nr].image = image;
	v[*nr].counts = op_xcalloc(nr_classes, sizeof(uint64_t));
	if (op_hmap_insert(index, h, (void *)(uintptr_t)(*nr + 1)))
		op_die(1, "out of memory");
	return (*nr)++;
}

/* the rows of s summed per (application, image) into *lines */
static size_t sum_images(struct pp_side *s, struct image_line **lines, uint64_t *totals)
{
	size_t nr_classes = s->p->nr_classes, nr = 0, i, k, c;
	struct image_line *v = op_xcalloc(s->rows.nr + 1, sizeof(*v));
	struct op_hmap index = OP_HMAP_INIT;

	for (i = 0; i < s->rows.nr; i++) {
		const struct pp_row *row = &s->rows.rows[i];

		if (!any_count(row->counts, nr_classes))
			continue;
		k = line_of(&index, v, &nr, row->app, row->image, nr_classes);
		for (c = 0; c < nr_classes; c++) {
			v[k].counts[c] += row->counts[c];
			totals[c] += row->counts[c];
		}
	}
	op_hmap_release(&index);
	if (nr)
		qsort(v, nr, sizeof(*v), lines_by_count);
	*lines = v;
	return nr;
}

void pp_html_images(FILE *out, struct pp_report *r, struct pp_side *s)
{
	struct pp_profile *p = s->p;
	uint64_t *totals = op_xcalloc(p->nr_classes + 1, sizeof(*totals));
	struct image_line *lines;
	size_t nr = sum_images(s, &lines, totals), i;

	table_start(out, "images", "Images", "images");
	put_count_titles(out, r, p);
	put_metric_titles(out, &s->metrics);
	fputs("<th data-type=\"text\">app name</th><th data-type=\"text\">image name"
	      "</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < nr; i++) {
		if (pp_over_threshold(r->o, lines[i].counts, totals,
				      p->nr_classes)) {
			fputs("<tr>", out);
			put_counts(out, lines[i].counts, totals, p->nr_classes, z_of(r));
			put_metrics(out, &s->metrics, lines[i].counts);
			fputs("<td>", out);
			pp_html_put(out, pp_names_app(&s->names, lines[i].app));
			fputs("</td><td>", out);
			pp_html_put(out, pp_names_image(&s->names, lines[i].image));
			fputs("</td></tr>\n", out);
		}
		free(lines[i].counts);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);
	free(lines);
	free(totals);
}
