// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What selects rows: -t (a share of at least the threshold in some
 * class, or the low end of its interval with --threshold-lower; in a
 * call graph also of the callers and callees of a block) and -i/-e
 * (symbol names, raw or as shown, literally or as globs).
 */
#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_stats.h"

bool pp_over_threshold(const struct pp_report_opts *o, const uint64_t *counts,
		       const uint64_t *totals, size_t nr_classes)
{
	size_t c;

	if (o->threshold <= 0)
		return true;
	for (c = 0; c < nr_classes; c++) {
		double lo, hi;

		if (!o->threshold_lower) {
			if (pp_ratio(counts[c], totals[c]) >= o->threshold)
				return true;
			continue;
		}
		op_wilson(counts[c], totals[c], o->z, &lo, &hi);
		if (lo * 100.0 >= o->threshold)
			return true;
	}
	return false;
}

size_t pp_arcs_over_threshold(const struct pp_report_opts *o, struct pp_arc_entry *list,
			      size_t nr, uint64_t *sum, size_t nr_classes)
{
	size_t i, c, kept = 0;

	memset(sum, 0, nr_classes * sizeof(*sum));
	for (i = 0; i < nr; i++)
		for (c = 0; c < nr_classes; c++)
			sum[c] += list[i].counts[c];
	for (i = 0; i < nr; i++)
		if (pp_over_threshold(o, list[i].counts, sum, nr_classes))
			list[kept++] = list[i];
	return kept;
}

static bool in_list(const char *const *list, const char *raw, const char *shown)
{
	size_t i;

	for (i = 0; list[i]; i++) {
		if (!strcmp(list[i], raw) || (shown && !strcmp(list[i], shown)))
			return true;
		/* a name without glob characters matched above or not at all */
		if (strpbrk(list[i], "*?[\\") && !fnmatch(list[i], shown ? shown : raw, 0))
			return true;
	}
	return false;
}

static bool selected(const char *const *include, const char *const *exclude,
		     const char *raw, const char *shown)
{
	if (include && !in_list(include, raw, shown))
		return false;
	if (exclude && in_list(exclude, raw, shown))
		return false;
	return true;
}

bool pp_sym_passes(const char *const *include, const char *const *exclude,
		   const char *raw, const char *shown)
{
	return selected(include, exclude, raw, shown);
}
