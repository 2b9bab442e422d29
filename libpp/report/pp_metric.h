/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpp/report's derived metrics (--metric, metric.c): expressions over a
 * profile's event columns, each event its samples times its period, made
 * once per profile and evaluated per row.  The reports show them
 * (columns.c, summary.c, diff.c, xml_write.c, html_tables.c, callgrind.c);
 * pp_metric_check() and the presets are in pp_report.h.
 *
 * Errors: PP_REPORT_ERR_METRIC with a one-line message.  Memory: dies with
 * "out of memory", as all of libpp/report does.
 */
#ifndef PP_METRIC_H
#define PP_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/profile/pp_profile.h"
#include "libutil/op_error.h"

/* an event with fewer samples in a row makes the row's metric imprecise */
#define PP_METRIC_MIN_SAMPLES 30

struct pp_metric_node;

struct pp_metric {
	char *name;
	char *expr;			/* the user's, or the preset's */
	bool preset;
	struct pp_metric_node *nodes;
	size_t nr_nodes, root;
};

/* an event name of the expressions: per class, its sample period when
 * the class counts it, else 0 */
struct pp_metric_var {
	char *name;
	double *weight;
	size_t first_use;		/* the metric that named it first */
};

struct pp_metrics {
	struct pp_metric *m;
	size_t nr;
	struct pp_metric_var *vars;
	size_t nr_vars, nr_classes;
};

/*
 * The metrics of defs (NULL-ended, or NULL: none) over p's classes: 0,
 * or PP_REPORT_ERR_METRIC (a syntax error, or an event no class counts)
 * with err set and ms empty
 */
int pp_metrics_make(struct pp_metrics *ms, const char *const *defs, const struct pp_profile *p,
		    struct op_err *err);
void pp_metrics_release(struct pp_metrics *ms);
/* metric k of a row with counts (per class); NaN when undefined; *imprecise
 * when an event of it has fewer than PP_METRIC_MIN_SAMPLES samples */
double pp_metric_value(const struct pp_metrics *ms, size_t k, const uint64_t *counts,
		       bool *imprecise);
/* "1.234", "~1.2" (imprecise), "-" (undefined); the length */
size_t pp_metric_format(char *buf, size_t size, double v, bool imprecise);
/* v as "%.6g" (the XML's form), faster than printf; the length */
size_t pp_metric_g6(char *buf, size_t size, double v);
/* metric k of counts as pp_metric_format() writes it; the length */
size_t pp_metric_text(const struct pp_metrics *ms, size_t k, const uint64_t *counts,
		      char *buf, size_t size, bool *imprecise);
/*
 * Is metric k a sum of class samples times whole numbers, as a callgrind
 * derived event must be (KCachegrind's formulas)?  coef (per class) gets
 * them: the event's period times the expression's factor.
 */
bool pp_metric_linear(const struct pp_metrics *ms, size_t k, int64_t *coef);

#endif
