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

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"

static const struct {
	const char *name, *expr, *what;
} presets[] = {
	{ "CPI", "cycles / instructions", "cycles per instruction" },
	{ "IPC", "instructions / cycles", "instructions per cycle" },
	{ "LLC_MPKI", "1000 * cache_misses / instructions",
	  "last-level cache misses per thousand instructions" },
	{ "LLC_MISS_PCT", "100 * cache_misses / cache_references",
	  "last-level cache misses in percent of references" },
	{ "BRANCH_MPKI", "1000 * branch_misses / instructions",
	  "mispredicted branches per thousand instructions" },
	{ "BRANCH_MISS_PCT", "100 * branch_misses / branches",
	  "mispredicted branches in percent of branches" },
};

#define NR_PRESETS (sizeof(presets) / sizeof(presets[0]))

const char *pp_metric_preset(const char *name)
{
	size_t i;

	for (i = 0; i < NR_PRESETS; i++)
		if (!strcasecmp(presets[i].name, name))
			return presets[i].expr;
	return NULL;
}

void pp_metric_presets(struct op_strbuf *sb)
{
	size_t i;

	for (i = 0; i < NR_PRESETS; i++)
		op_strbuf_addf(sb, "%s%s", i ? ", " : "", presets[i].name);
}

enum op { NUM, VAR, ADD, SUB, MUL, DIV, NEG };

struct pp_metric_node {
	enum op op;
	double num;		/* NUM */
	size_t var;		/* VAR: index into the metrics' variables */
	size_t a, b;		/* operands (node indexes) */
};

/* the parser's state: the text, where it is, and what it built */
struct parser {
	const char *text, *at;
	struct pp_metric *m;
	struct pp_metrics *ms;	/* variables are shared by the metrics */
	struct op_err *err;
	int failed;
	unsigned depth;		/* of parentheses and signs, bounded */
};

/* deeper nesting is refused, not parsed on an ever deeper stack */
#define MAX_DEPTH 100
#define MAX_NODES 2000

static size_t fail(struct parser *ps, const char *what);

static size_t add_node(struct parser *ps, enum op op, size_t a, size_t b)
{
	struct pp_metric *m = ps->m;

	/* evaluation recurses along the tree: its size is bounded too */
	if (m->nr_nodes >= MAX_NODES)
		return fail(ps, "too long an expression");
	m->nodes = op_xreallocarray(m->nodes, m->nr_nodes + 1, sizeof(*m->nodes));
	memset(&m->nodes[m->nr_nodes], 0, sizeof(*m->nodes));
	m->nodes[m->nr_nodes].op = op;
	m->nodes[m->nr_nodes].a = a;
	m->nodes[m->nr_nodes].b = b;
	return m->nr_nodes++;
}

static void skip_blanks(struct parser *ps)
{
	while (*ps->at == ' ' || *ps->at == '\t')
		ps->at++;
}

static size_t fail(struct parser *ps, const char *what)
{
	char q[256];

	if (!ps->failed)
		op_err_set(ps->err, "--metric '%s': %s at column %zu",
			   op_quote(q, sizeof(q), ps->text), what,
			   (size_t)(ps->at - ps->text) + 1);
	ps->failed = 1;
	return 0;
}

static size_t var_of(struct pp_metrics *ms, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ms->nr_vars; i++)
		if (strlen(ms->vars[i].name) == len && !strncasecmp(ms->vars[i].name, name, len))
			return i;
	ms->vars = op_xreallocarray(ms->vars, ms->nr_vars + 1, sizeof(*ms->vars));
	memset(&ms->vars[ms->nr_vars], 0, sizeof(*ms->vars));
	ms->vars[ms->nr_vars].name = op_xstrndup(name, len);
	return ms->nr_vars++;
}

static size_t expr(struct parser *ps);

/* a number, an event name, a parenthesised expression, or -primary */
static size_t primary(struct parser *ps)
{
	size_t n;

	skip_blanks(ps);
	if ((*ps->at == '(' || *ps->at == '-') && ps->depth >= MAX_DEPTH)
		return fail(ps, "nested too deeply");
	if (*ps->at == '(') {
		ps->at++;
		ps->depth++;
		n = expr(ps);
		ps->depth--;
		skip_blanks(ps);
		if (ps->failed)
			return 0;
		if (*ps->at != ')')
			return fail(ps, "')' expected");
		ps->at++;
		return n;
	}
	if (*ps->at == '-') {
		ps->at++;
		ps->depth++;
		n = primary(ps);
		ps->depth--;
		return add_node(ps, NEG, n, 0);
	}
	if (isdigit((unsigned char)*ps->at) || *ps->at == '.') {
		char *end;
		double v = strtod(ps->at, &end);

		if (end == ps->at || !isfinite(v))
			return fail(ps, "a bad number");
		ps->at = end;
		n = add_node(ps, NUM, 0, 0);
		ps->m->nodes[n].num = v;
		return n;
	}
	if (isalpha((unsigned char)*ps->at) || *ps->at == '_') {
		const char *start = ps->at;

		while (isalnum((unsigned char)*ps->at) || *ps->at == '_')
			ps->at++;
		n = add_node(ps, VAR, 0, 0);
		ps->m->nodes[n].var = var_of(ps->ms, start, (size_t)(ps->at - start));
		return n;
	}
	return fail(ps, *ps->at ? "a number, an event name or '(' expected" :
		    "the expression ends early");
}

static size_t term(struct parser *ps)
{
	size_t n = primary(ps);

	for (;;) {
		skip_blanks(ps);
		if (ps->failed || (*ps->at != '*' && *ps->at != '/'))
			return n;
		enum op op = *ps->at++ == '*' ? MUL : DIV;

		n = add_node(ps, op, n, primary(ps));
	}
}

static size_t expr(struct parser *ps)
{
	size_t n = term(ps);

	for (;;) {
		skip_blanks(ps);
		if (ps->failed || (*ps->at != '+' && *ps->at != '-'))
			return n;
		enum op op = *ps->at++ == '+' ? ADD : SUB;

		n = add_node(ps, op, n, term(ps));
	}
}

/* NAME=EXPR or a preset's NAME into m; 0 or PP_REPORT_ERR_METRIC */
static int parse_def(struct pp_metrics *ms, struct pp_metric *m, const char *def,
		     struct op_err *err)
{
	const char *eq = strchr(def, '='), *preset, *p;
	struct parser ps = { .m = m, .ms = ms, .err = err };
	char q[256];

	if (!eq) {
		preset = pp_metric_preset(def);
		if (!preset) {
			struct op_strbuf sb = OP_STRBUF_INIT;

			pp_metric_presets(&sb);
			op_err_set(err, "--metric '%s': not NAME=EXPRESSION, and no preset "
				   "has that name (the presets: %s)", op_quote(q, sizeof(q), def),
				   sb.buf ? sb.buf : "");
			op_strbuf_release(&sb);
			return PP_REPORT_ERR_METRIC;
		}
		m->name = op_xstrdup(def);
		for (char *c = m->name; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		m->expr = op_xstrdup(preset);
		m->preset = true;
	} else {
		m->name = op_xstrndup(def, (size_t)(eq - def));
		m->expr = op_xstrdup(eq + 1);
	}
	for (p = m->name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
			break;
	if (!*m->name || *p) {
		op_err_set(err, "--metric '%s': a name is letters, digits, '_', '.' and "
			   "'-', before the '='", op_quote(q, sizeof(q), def));
		return PP_REPORT_ERR_METRIC;
	}
	ps.text = ps.at = m->expr;
	m->root = expr(&ps);
	skip_blanks(&ps);
	if (!ps.failed && *ps.at)
		fail(&ps, "an operator expected");
	return ps.failed ? PP_REPORT_ERR_METRIC : 0;
}

int pp_metric_check(const char *def, struct op_err *err)
{
	struct pp_metrics ms = { 0 };
	int ret;

	ms.m = op_xcalloc(1, sizeof(*ms.m));
	ms.nr = 1;
	ret = parse_def(&ms, &ms.m[0], def, err);
	pp_metrics_release(&ms);
	return ret;
}

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
			char q[256];
			size_t k;

			/* the first definition that uses it */
			for (k = 0; k + 1 < ms->nr && !strcasestr(ms->m[k].expr, var->name); k++)
				;
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
		ret = parse_def(ms, &ms->m[i], defs[i], err);
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
	case NUM:
		return x->num;
	case VAR:
		for (c = 0; c < ms->nr_classes; c++)
			if (ms->vars[x->var].weight[c] > 0) {
				v += (double)counts[c] * ms->vars[x->var].weight[c];
				samples += counts[c];
			}
		if (samples < PP_METRIC_MIN_SAMPLES)
			*imprecise = true;
		return v;
	case NEG:
		return -eval(ms, m, x->a, counts, imprecise);
	default:
		break;
	}
	a = eval(ms, m, x->a, counts, imprecise);
	b = eval(ms, m, x->b, counts, imprecise);
	switch (x->op) {
	case ADD:
		return a + b;
	case SUB:
		return a - b;
	case MUL:
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

/*
 * "%.Pg" (P 2, 4 or 6) without printf, which costs more than the rest of a
 * report line: 0 when v is out of the common range or within a hair of
 * a rounding tie (then printf decides), else the length written
 */
static size_t fast_g(char *buf, size_t size, double v, int prec)
{
	static const double p10[] = { 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
				      1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
				      1e7, 1e8, 1e9, 1e10, 1e11, 1e12 };
	const unsigned lo = prec == 2 ? 10 : prec == 4 ? 1000 : 100000, hi = lo * 10;
	char digits[6], *o = buf;
	double a = fabs(v), m, frac;
	unsigned r;
	int e, nd, i;

	if (size < 16 || (prec != 2 && prec != 4 && prec != 6) || !(a >= 1e-4) ||
	    !(a < 1e12))
		return 0;
	for (e = -4; e < 11 && a >= p10[e + 10 + 1]; e++)
		;
	/* a = m * 10^(e - prec + 1) with lo <= m < hi; p10[k] is 10^(k - 10) */
	m = a / p10[e - prec + 1 + 10];
	r = (unsigned)m;
	frac = m - (double)r;
	if (frac > 0.4999 && frac < 0.5001)
		return 0;
	if (frac >= 0.5)
		r++;
	if (r >= hi) {
		r /= 10;
		e++;
	}
	if (r < lo)
		return 0;
	for (i = prec - 1; i >= 0; i--, r /= 10)
		digits[i] = (char)('0' + r % 10);
	for (nd = prec; nd > 1 && digits[nd - 1] == '0'; nd--)
		;
	if (v < 0)
		*o++ = '-';
	if (e < -4 || e >= prec) {
		*o++ = digits[0];
		if (nd > 1) {
			*o++ = '.';
			for (i = 1; i < nd; i++)
				*o++ = digits[i];
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		e = e < 0 ? -e : e;
		*o++ = (char)('0' + e / 10);
		*o++ = (char)('0' + e % 10);
	} else if (e >= 0) {
		for (i = 0; i <= e; i++)
			*o++ = digits[i];
		if (nd > e + 1) {
			*o++ = '.';
			for (i = e + 1; i < nd; i++)
				*o++ = digits[i];
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (i = -1; i > e; i--)
			*o++ = '0';
		for (i = 0; i < nd; i++)
			*o++ = digits[i];
	}
	*o = '\0';
	return (size_t)(o - buf);
}

size_t pp_metric_format(char *buf, size_t size, double v, bool imprecise)
{
	size_t fast;
	int n;

	if (isnan(v) || isinf(v))
		n = snprintf(buf, size, "-");
	else if (imprecise && size > 1 && (fast = fast_g(buf + 1, size - 1, v, 2))) {
		buf[0] = '~';
		return fast + 1;
	} else if (imprecise)
		n = snprintf(buf, size, "~%.2g", v);
	else if ((fast = fast_g(buf, size, v, 4)))
		return fast;
	else
		n = snprintf(buf, size, "%.4g", v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t pp_metric_g6(char *buf, size_t size, double v)
{
	size_t fast = fast_g(buf, size, v, 6);
	int n;

	if (fast)
		return fast;
	n = snprintf(buf, size, "%.6g", v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t pp_metric_text(const struct pp_metrics *ms, size_t k, const uint64_t *counts,
		      char *buf, size_t size, bool *imprecise)
{
	double v = pp_metric_value(ms, k, counts, imprecise);

	return pp_metric_format(buf, size, v, *imprecise);
}

void pp_metric_fields(struct pp_line *l, const struct pp_metrics *ms, const uint64_t *counts)
{
	char buf[64];
	bool imprecise;
	size_t k;

	for (k = 0; k < ms->nr; k++)
		pp_line_field_len(l, buf, pp_metric_text(ms, k, counts, buf, sizeof(buf),
							 &imprecise), W_METRIC);
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
	case NUM:
		*k = x->num;
		return true;
	case VAR:
		memcpy(coef, ms->vars[x->var].weight, nr * sizeof(*coef));
		return true;
	case NEG:
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
		case ADD:
			coef[c] = ca[c] + cb[c];
			break;
		case SUB:
			coef[c] = ca[c] - cb[c];
			break;
		case MUL:
			coef[c] = b_const ? ca[c] * kb : a_const ? cb[c] * ka : 0.0;
			break;
		default:
			coef[c] = b_const && kb != 0.0 ? ca[c] / kb : 0.0;
			break;
		}
	if (ok)
		switch (x->op) {
		case ADD:
			*k = ka + kb;
			break;
		case SUB:
			*k = ka - kb;
			break;
		case MUL:
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
