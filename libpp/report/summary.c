// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport's default report: each application with its samples, and
 * below it the images its samples fell in (the program, libraries, the
 * kernel), most samples first.  Totals come from the sample files alone
 * (rows per image): no binary is opened.  -t applies to applications.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

struct dep {
	size_t image;
	size_t order;		/* first appearance */
	uint64_t *counts;	/* per class */
};

struct app_sum {
	size_t app;
	uint64_t *counts;
	struct dep *deps;
	size_t nr_deps;
};

/* "samples %" of a class, and with --confidence the share's interval */
static void count_line(FILE *out, uint64_t count, uint64_t total, double z)
{
	char pct[32], lo[32], hi[32];

	pp_format_percent(pct, sizeof(pct), pp_ratio(count, total), false);
	fprintf(out, "%9" PRIu64 " %s ", count, pct);
	if (z > 0) {
		pp_interval_strs(lo, hi, sizeof(lo), count, total, z);
		fprintf(out, "%s %s ", lo, hi);
	}
}

/* --metric's values of counts, each 10 wide */
static void metric_line(FILE *out, const struct pp_metrics *ms, const uint64_t *counts)
{
	char buf[64];
	bool imprecise;
	size_t k;

	for (k = 0; k < ms->nr; k++) {
		pp_metric_text(ms, k, counts, buf, sizeof(buf), &imprecise);
		fprintf(out, "%9s ", buf);
	}
}

/* OProfile's three header lines above the counts: names, titles, rule;
 * the metrics' names on the titles' line */
static void column_headers(FILE *out, const struct pp_profile *p, bool indent,
			   double z, const struct pp_metrics *ms)
{
	const size_t colwidth = z > 0 ? 9 + 1 + 7 + 2 * (1 + 7) : 9 + 1 + 7;
	size_t i, k;

	if (indent)
		fputc('\t', out);
	for (i = 0; i < p->nr_classes; i++) {
		const char *name = p->classes[i].name;

		if (strlen(name) > colwidth)
			fprintf(out, "%.*s...|", (int)(colwidth - 3), name);
		else
			fprintf(out, "%*s|", (int)colwidth, name);
	}
	fputc('\n', out);
	if (indent)
		fputc('\t', out);
	for (i = 0; i < p->nr_classes; i++)
		fputs(z > 0 ? "  samples|      %|  low %| high %|" : "  samples|      %|", out);
	for (k = 0; k < ms->nr; k++)
		fprintf(out, "%9.9s|", ms->m[k].name);
	fputc('\n', out);
	if (indent)
		fputc('\t', out);
	for (i = 0; i < p->nr_classes; i++)
		for (k = 0; k <= colwidth; k++)
			fputc('-', out);
	for (k = 0; k < ms->nr; k++)
		fputs("----------", out);
	fputc('\n', out);
}

/* most samples in the first class first (last with reverse) */
static int cmp_counts(const uint64_t *x, const uint64_t *y, bool reverse)
{
	int r = x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : 0;

	return reverse ? -r : r;
}

/* ties keep the order of first appearance, as OProfile's stable sort */
static int apps_by_count(const void *a, const void *b, void *arg)
{
	const struct app_sum *x = a, *y = b;
	int r = cmp_counts(x->counts, y->counts, *(const bool *)arg);

	return r ? r : x->app < y->app ? -1 : x->app > y->app;
}

static int deps_by_count(const void *a, const void *b, void *arg)
{
	const struct dep *x = a, *y = b;
	int r = cmp_counts(x->counts, y->counts, *(const bool *)arg);

	return r ? r : x->order < y->order ? -1 : x->order > y->order;
}

/* the deps of each app, in the order the rows first name them */
static void sum_apps(struct app_sum *apps, const struct pp_side *s)
{
	size_t nr_classes = s->p->nr_classes, i, c, d;

	for (i = 0; i < s->rows.nr; i++) {
		const struct pp_row *row = &s->rows.rows[i];
		struct app_sum *a = &apps[row->app];

		for (d = 0; d < a->nr_deps; d++)
			if (a->deps[d].image == row->image)
				break;
		if (d == a->nr_deps) {
			a->deps = op_xreallocarray(a->deps, d + 1, sizeof(*a->deps));
			a->deps[d].image = row->image;
			a->deps[d].order = d;
			a->deps[d].counts = op_xcalloc(nr_classes, sizeof(uint64_t));
			a->nr_deps++;
		}
		for (c = 0; c < nr_classes; c++) {
			a->deps[d].counts[c] += row->counts[c];
			a->counts[c] += row->counts[c];
		}
	}
}

/* an app whose only image is itself shows no dependents */
static bool only_itself(const struct pp_profile *p, const struct app_sum *a)
{
	return a->nr_deps == 0 || (a->nr_deps == 1 &&
		pp_profile_own_image(p, a->app, a->deps[0].image));
}

static void put_app(FILE *out, struct pp_report *r, struct pp_side *s,
		    const struct app_sum *a)
{
	struct pp_profile *p = s->p;
	const uint64_t *base = r->o->global_percent ? s->totals : a->counts;
	double z = r->o->confidence > 0 ? r->o->z : 0.0;
	size_t d, c;

	for (c = 0; c < p->nr_classes; c++)
		count_line(out, a->counts[c], s->totals[c], z);
	metric_line(out, &s->metrics, a->counts);
	fprintf(out, "%s\n", pp_names_app(&s->names, a->app));
	if (only_itself(p, a))
		return;
	if (!r->o->no_header)
		column_headers(out, p, true, z, &s->metrics);
	for (d = 0; d < a->nr_deps; d++) {
		fputc('\t', out);
		for (c = 0; c < p->nr_classes; c++)
			count_line(out, a->deps[d].counts[c], base[c], z);
		metric_line(out, &s->metrics, a->deps[d].counts);
		fprintf(out, "%s\n", pp_names_image(&s->names, a->deps[d].image));
	}
}

int pp_write_summary(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *s = &r->sides[0];
	struct pp_profile *p = s->p;
	struct app_sum *apps = op_xcalloc(p->nr_apps + 1, sizeof(*apps));
	bool rev = r->o->reverse;
	size_t i, d;

	(void)err;
	for (i = 0; i < p->nr_apps; i++) {
		apps[i].app = i;
		apps[i].counts = op_xcalloc(p->nr_classes, sizeof(uint64_t));
	}
	sum_apps(apps, s);
	/* apps, then each app's deps, by their first class count */
	/* qsort_r() wants an array even of 0 items: an app may have no deps */
	if (p->nr_apps > 1)
		qsort_r(apps, p->nr_apps, sizeof(*apps), apps_by_count, &rev);
	for (i = 0; i < p->nr_apps; i++)
		if (apps[i].nr_deps > 1)
			qsort_r(apps[i].deps, apps[i].nr_deps, sizeof(struct dep),
				deps_by_count, &rev);
	pp_report_header(out, p, r->info, r->o);
	pp_confidence_header(out, r, s);
	if (!r->o->no_header)
		column_headers(out, p, false, r->o->confidence > 0 ? r->o->z : 0.0,
			       &s->metrics);
	for (i = 0; i < p->nr_apps; i++)
		if (pp_over_threshold(r->o, apps[i].counts, s->totals,
				      p->nr_classes))
			put_app(out, r, s, &apps[i]);
	for (i = 0; i < p->nr_apps; i++) {
		for (d = 0; d < apps[i].nr_deps; d++)
			free(apps[i].deps[d].counts);
		free(apps[i].deps);
		free(apps[i].counts);
	}
	free(apps);
	return 0;
}
