// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What --confidence adds to a report: the interval of each share (two
 * percent columns, "low %" and "high %", Wilson's score interval at the
 * level asked for), and header lines saying how many samples each class
 * holds and the smallest change a profile of that size can detect.  The
 * differential's lines on its tests are here too (diff.c marks the rows).
 * See "Reading intervals and diff markers" in oprofile-ng(7).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <stdio.h>

#include "libpp/report/report_int.h"
#include "libutil/op_stats.h"

/* the power the detectable change is given at */
#define POWER 0.8

void pp_interval_strs(char *lo, char *hi, size_t size, uint64_t count,
		      uint64_t whole, double z)
{
	double l, h;

	op_wilson(count, whole, z, &l, &h);
	pp_format_percent(lo, size, l * 100.0, false);
	pp_format_percent(hi, size, h * 100.0, false);
}

void pp_interval_fields(struct pp_line *l, uint64_t count, uint64_t whole, double z,
			struct op_wilson_n *w)
{
	struct op_wilson_n one;
	char buf[80], *o;
	double lo, hi;
	size_t n, high;

	if (!w)
		w = &one;
	if (w == &one || w->n != whole || w->z != z)
		op_wilson_prepare(w, whole, z);
	op_wilson_at(w, count, &lo, &hi);
	/*
	 * Both fields in one: "low" padded to its width, then "high", whose
	 * start plus the width leaves after it the padding two fields
	 * would.  Every -d line has them: formatted in place, in the line,
	 * they cost little more than the arithmetic.
	 */
	o = pp_line_room(l, 64);
	if (!o)
		o = buf;
	/* pp_format_percent()'s text, its common case inline */
	lo *= 100.0;
	hi *= 100.0;
	n = pp_fast_percent(o, 32, lo);
	if (!n)
		n = pp_format_percent(o, 32, lo, false);
	high = n < W_PERCENT ? W_PERCENT : n + 1;
	pp_blanks(o + n, high - n);
	n = pp_fast_percent(o + high, 32, hi);
	if (!n)
		n = pp_format_percent(o + high, 32, hi, false);
	n += high;
	if (o == buf)
		pp_line_field_len(l, buf, n, high + W_PERCENT);
	else
		pp_line_done(l, n, high + W_PERCENT);
}

/* "cpu-clock", or "class 2" for a class without a name */
static void class_name(FILE *out, const struct pp_profile *p, size_t c)
{
	const char *name = p->classes[c].name;

	if (name && *name)
		fputs(name, out);
	else
		fprintf(out, "class %zu", c + 1);
}

/* a level as a percentage without trailing zeros: "95", "99.9" */
static void put_level(FILE *out, double level)
{
	fprintf(out, "%.10g", level * 100.0);
}

void pp_confidence_header(FILE *out, const struct pp_report *r, const struct pp_side *s)
{
	const struct pp_report_opts *o = r->o;
	double zp = op_normal_quantile(POWER), za;
	size_t c;

	if (o->no_header || !(o->confidence > 0))
		return;
	za = o->z;
	fputs("Intervals: the low % and high % columns hold each share's ", out);
	put_level(out, o->confidence);
	fputs(" % Wilson score interval", out);
	if (o->threshold_lower && o->threshold > 0)
		fprintf(out, "; --threshold %g applies to the low end", o->threshold);
	fputc('\n', out);
	for (c = 0; c < s->p->nr_classes; c++) {
		uint64_t n = s->totals[c];
		double lo, hi;

		fprintf(out, "Samples: %" PRIu64 " (", n);
		class_name(out, s->p, c);
		fputs(")", out);
		if (!n) {
			fputs(": no share can be estimated\n", out);
			continue;
		}
		op_wilson((n + 50) / 100, n, za, &lo, &hi);
		fprintf(out, ": a 1 %% share is known to %.2g-%.2g %%; against a profile "
			"of this size a change of %.2g points in a 1 %% share (%.2g in a "
			"10 %%) is detectable (%g %% power)\n", lo * 100.0, hi * 100.0,
			100.0 * op_detectable_change(0.01, n, n, za, zp),
			100.0 * op_detectable_change(0.1, n, n, za, zp), POWER * 100.0);
	}
}

void pp_diff_header(FILE *out, const struct pp_report *r, const uint64_t *n1,
		    const uint64_t *n2, const struct pp_profile *p, size_t nr_tests,
		    double alpha)
{
	double zp = op_normal_quantile(POWER);
	/* Holm's first step is the strictest: alpha / m */
	double za = op_normal_quantile(1.0 - alpha / 2.0 / (double)(nr_tests ? nr_tests : 1));
	size_t c;

	if (r->o->no_header)
		return;
	fprintf(out, "Changes: each row's share tested against the first profile's "
		"(Fisher's exact test at small counts, else the pooled two-proportion z "
		"test), Holm-corrected over %zu test%s at %g %%: \"*\" significant, \"~\" "
		"within noise; adj. p is the corrected p-value\n", nr_tests,
		nr_tests == 1 ? "" : "s", alpha * 100.0);
	for (c = 0; c < p->nr_classes; c++) {
		fprintf(out, "Samples: %" PRIu64 " then %" PRIu64 " (", n1[c], n2[c]);
		class_name(out, p, c);
		fprintf(out, "): the smallest change found with %g %% power is %.2g "
			"points in a 1 %% share, %.2g in a 10 %% share\n", POWER * 100.0,
			100.0 * op_detectable_change(0.01, n1[c], n2[c], za, zp),
			100.0 * op_detectable_change(0.1, n1[c], n2[c], za, zp));
	}
}
