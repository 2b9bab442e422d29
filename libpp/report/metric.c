// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Derived metrics (--metric 'NAME=EXPR'): an expression of + - * /,
 * parentheses, numbers and event names over a row's event columns, each
 * event's samples times its sample period, so that the metric is in
 * event units (CPI=CPU_CLK_UNHALTED/INST_RETIRED).  An event name is a
 * class's event (case ignored, '_' for '-': cpu_clock is cpu-clock), or
 * one of perf's generic names (cycles, instructions, cache_misses, ...),
 * which counts any event libpfm4 spells for it (pp_class_counts()).  The
 * presets (CPI, IPC, ...) are such expressions of generic names.
 *
 * A row whose events have fewer than PP_METRIC_MIN_SAMPLES samples gives
 * an imprecise value, shown with two digits and a '~'; a division by
 * zero gives none, shown "-".
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"

/* the session's events, "a, b", for a message */
static void event_list(struct op_strbuf *sb, const struct pp_profile *p)
{
	size_t c, k;

	for (c = 0; c < p->nr_classes; c++) {
		const char *e = p->classes[c].t.event;

		for (k = 0; k < c; k++)
			if (p->classes[k].t.event && e && !strcmp(p->classes[k].t.event, e))
				break;
		if (e && k == c)
			op_strbuf_addf(sb, "%s%s", c ? ", " : "", e);
	}
}

/* the classes each variable counts, with their periods; 0 or an error */
static int resolve(struct pp_metrics *ms, const struct pp_profile *p, const char *const *defs,
		   struct op_err *err)
{
	size_t v, c;

	for (v = 0; v < ms->nr_vars; v++) {
		struct pp_metric_var *var = &ms->vars[v];
		bool any = false;

		var->weight = op_xcalloc(p->nr_classes + 1, sizeof(double));
		for (c = 0; c < p->nr_classes; c++)
			if (pp_class_counts(p, c, var->name)) {
				int count = p->classes[c].t.count;

				var->weight[c] = count > 0 ? (double)count : 1.0;
				any = true;
			}
		if (!any) {
			struct op_strbuf sb = OP_STRBUF_INIT;
			size_t k = var->first_use;
			char q[256];

			event_list(&sb, p);
			op_err_set(err, "--metric '%s'%s%s%s: no event of the profile counts "
				   "'%s' (it has %s): record one with operf --events",
				   op_quote(q, sizeof(q), defs[k]), ms->m[k].preset ? " (" : "",
				   ms->m[k].preset ? ms->m[k].expr : "",
				   ms->m[k].preset ? ")" : "", var->name,
				   sb.buf ? sb.buf : "no events");
			op_strbuf_release(&sb);
			return PP_REPORT_ERR_METRIC;
		}
	}
	return 0;
}

int pp_metrics_make(struct pp_metrics *ms, const char *const *defs, const struct pp_profile *p,
		    struct op_err *err)
{
	size_t n = 0, i;
	int ret;

	memset(ms, 0, sizeof(*ms));
	while (defs && defs[n])
		n++;
	if (!n)
		return 0;
	ms->m = op_xcalloc(n, sizeof(*ms->m));
	ms->nr = n;
	ms->nr_classes = p->nr_classes;
	for (i = 0; i < n; i++) {
		ret = pp_metric_parse_def(ms, &ms->m[i], defs[i], err);
		if (ret)
			goto fail;
	}
	ret = resolve(ms, p, defs, err);
	if (!ret)
		return 0;
fail:
	pp_metrics_release(ms);
	return ret;
}

void pp_metrics_release(struct pp_metrics *ms)
{
	size_t i;

	for (i = 0; i < ms->nr; i++) {
		free(ms->m[i].name);
		free(ms->m[i].expr);
		free(ms->m[i].nodes);
	}
	for (i = 0; i < ms->nr_vars; i++) {
		free(ms->vars[i].name);
		free(ms->vars[i].weight);
	}
	free(ms->m);
	free(ms->vars);
	memset(ms, 0, sizeof(*ms));
}

static double eval(const struct pp_metrics *ms, const struct pp_metric *m, size_t n,
		   const uint64_t *counts, bool *imprecise)
{
	const struct pp_metric_node *x = &m->nodes[n];
	double a, b, v = 0.0;
	uint64_t samples = 0;
	size_t c;

	switch (x->op) {
	case PP_MOP_NUM:
		return x->num;
	case PP_MOP_VAR:
		for (c = 0; c < ms->nr_classes; c++)
			if (ms->vars[x->var].weight[c] > 0) {
				v += (double)counts[c] * ms->vars[x->var].weight[c];
				samples += counts[c];
			}
		if (samples < PP_METRIC_MIN_SAMPLES)
			*imprecise = true;
		return v;
	case PP_MOP_NEG:
		return -eval(ms, m, x->a, counts, imprecise);
	default:
		break;
	}
	a = eval(ms, m, x->a, counts, imprecise);
	b = eval(ms, m, x->b, counts, imprecise);
	switch (x->op) {
	case PP_MOP_ADD:
		return a + b;
	case PP_MOP_SUB:
		return a - b;
	case PP_MOP_MUL:
		return a * b;
	default:
		return b == 0.0 ? NAN : a / b;
	}
}

double pp_metric_value(const struct pp_metrics *ms, size_t k, const uint64_t *counts,
		       bool *imprecise)
{
	*imprecise = false;
	return eval(ms, &ms->m[k], ms->m[k].root, counts, imprecise);
}

/* node n as sum(coef[c] * class c) + *k; false when it is not linear */
static bool linear(const struct pp_metrics *ms, const struct pp_metric *m, size_t n,
		   double *coef, double *k)
{
	const struct pp_metric_node *x = &m->nodes[n];
	size_t nr = ms->nr_classes, c;
	double *ca, *cb, ka = 0.0, kb = 0.0;
	bool ok, a_const, b_const;

	memset(coef, 0, nr * sizeof(*coef));
	*k = 0.0;
	switch (x->op) {
	case PP_MOP_NUM:
		*k = x->num;
		return true;
	case PP_MOP_VAR:
		memcpy(coef, ms->vars[x->var].weight, nr * sizeof(*coef));
		return true;
	case PP_MOP_NEG:
		if (!linear(ms, m, x->a, coef, k))
			return false;
		for (c = 0; c < nr; c++)
			coef[c] = -coef[c];
		*k = -*k;
		return true;
	default:
		break;
	}
	ca = op_xcalloc(nr + 1, sizeof(*ca));
	cb = op_xcalloc(nr + 1, sizeof(*cb));
	ok = linear(ms, m, x->a, ca, &ka) && linear(ms, m, x->b, cb, &kb);
	a_const = b_const = true;
	for (c = 0; c < nr; c++) {
		a_const = a_const && ca[c] == 0.0;
		b_const = b_const && cb[c] == 0.0;
	}
	for (c = 0; ok && c < nr; c++)
		switch (x->op) {
		case PP_MOP_ADD:
			coef[c] = ca[c] + cb[c];
			break;
		case PP_MOP_SUB:
			coef[c] = ca[c] - cb[c];
			break;
		case PP_MOP_MUL:
			coef[c] = b_const ? ca[c] * kb : a_const ? cb[c] * ka : 0.0;
			break;
		default:
			coef[c] = b_const && kb != 0.0 ? ca[c] / kb : 0.0;
			break;
		}
	if (ok)
		switch (x->op) {
		case PP_MOP_ADD:
			*k = ka + kb;
			break;
		case PP_MOP_SUB:
			*k = ka - kb;
			break;
		case PP_MOP_MUL:
			ok = a_const || b_const;
			*k = ka * kb;
			break;
		default:
			ok = b_const && kb != 0.0;
			*k = ok ? ka / kb : 0.0;
			break;
		}
	free(ca);
	free(cb);
	return ok;
}

bool pp_metric_linear(const struct pp_metrics *ms, size_t k, int64_t *coef)
{
	const struct pp_metric *m = &ms->m[k];
	double *d = op_xcalloc(ms->nr_classes + 1, sizeof(*d)), constant;
	bool ok = linear(ms, m, m->root, d, &constant) && constant == 0.0;
	size_t c;

	for (c = 0; ok && c < ms->nr_classes; c++) {
		double r = nearbyint(d[c]);

		ok = fabs(d[c] - r) < 1e-9 * fmax(1.0, fabs(d[c])) && fabs(r) < 9e18;
		coef[c] = ok ? (int64_t)r : 0;
	}
	free(d);
	return ok;
}
