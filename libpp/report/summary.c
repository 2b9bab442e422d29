// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport's default report: each application with its samples, and
 * below it the images its samples fell in (the program, libraries, the
 * kernel), most samples first.  Totals come from the sample files alone:
 * no binary is opened.
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

static void count_line(FILE *out, uint64_t count, uint64_t total)
{
	char pct[32];

	pp_format_percent(pct, sizeof(pct), pp_ratio(count, total), false);
	fprintf(out, "%9" PRIu64 " %s ", count, pct);
}

/* OProfile's three header lines above the counts: names, titles, rule */
static void column_headers(FILE *out, const struct pp_profile *p, bool indent)
{
	const size_t colwidth = 9 + 1 + 7;
	size_t i;

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
		fputs("  samples|      %|", out);
	fputc('\n', out);
	if (indent)
		fputc('\t', out);
	for (i = 0; i < p->nr_classes; i++)
		fputs("------------------", out);
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

int pp_report_summary(FILE *out, struct pp_profile *p,
		      const struct pp_report_opts *o, struct pp_notes *n)
{
	struct app_sum *apps = op_xcalloc(p->nr_apps, sizeof(*apps));
	uint64_t *totals = op_xcalloc(p->nr_classes, sizeof(*totals));
	struct pp_names nm;
	size_t i, c;

	pp_names_init(&nm, p, o);
	for (i = 0; i < p->nr_apps; i++) {
		apps[i].app = i;
		apps[i].counts = op_xcalloc(p->nr_classes, sizeof(uint64_t));
	}
	/* the deps of each app in order of first appearance */
	for (i = 0; i < p->nr_groups; i++) {
		struct pp_group *g = &p->groups[i];
		struct app_sum *a = &apps[g->app];
		struct op_err err;
		size_t d;

		if (pp_group_load(p, g, &err))
			pp_note(n, "%s", err.msg);
		if (o->exclude_dependent &&
		    !odb_image_id_equal(&p->images[g->image].id, &p->apps[g->app].id))
			continue;
		for (d = 0; d < a->nr_deps; d++)
			if (a->deps[d].image == g->image)
				break;
		if (d == a->nr_deps) {
			a->deps = op_xreallocarray(a->deps, d + 1, sizeof(*a->deps));
			a->deps[d].image = g->image;
			a->deps[d].order = d;
			a->deps[d].counts = op_xcalloc(p->nr_classes, sizeof(uint64_t));
			a->nr_deps++;
		}
		a->deps[d].counts[g->cls] += g->total;
		a->counts[g->cls] += g->total;
		totals[g->cls] += g->total;
	}
	{
		/* apps, then each app's deps, by their first class count */
		bool rev = o->reverse;

		qsort_r(apps, p->nr_apps, sizeof(*apps), apps_by_count, &rev);
		for (i = 0; i < p->nr_apps; i++)
			qsort_r(apps[i].deps, apps[i].nr_deps, sizeof(struct dep),
				deps_by_count, &rev);
	}
	if (!o->no_header)
		column_headers(out, p, false);
	for (i = 0; i < p->nr_apps; i++) {
		struct app_sum *a = &apps[i];
		size_t d;

		if (!pp_over_threshold(o, a->counts, totals, p->nr_classes))
			continue;
		for (c = 0; c < p->nr_classes; c++)
			count_line(out, a->counts[c], totals[c]);
		fprintf(out, "%s\n", pp_names_app(&nm, a->app));
		/* an app whose only image is itself shows no dependents */
		if (a->nr_deps < 2 && (a->nr_deps == 0 ||
		    odb_image_id_equal(&p->images[a->deps[0].image].id, &p->apps[a->app].id)))
			continue;
		if (!o->no_header)
			column_headers(out, p, true);
		for (d = 0; d < a->nr_deps; d++) {
			const uint64_t *base = o->global_percent ? totals : a->counts;

			fputc('\t', out);
			for (c = 0; c < p->nr_classes; c++)
				count_line(out, a->deps[d].counts[c], base[c]);
			fprintf(out, "%s\n", pp_names_image(&nm, a->deps[d].image));
		}
	}
	for (i = 0; i < p->nr_apps; i++) {
		size_t d;

		for (d = 0; d < apps[i].nr_deps; d++)
			free(apps[i].deps[d].counts);
		free(apps[i].deps);
		free(apps[i].counts);
	}
	free(apps);
	free(totals);
	pp_names_release(&nm);
	return 0;
}
