// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading --metric definitions (metric.c has the rest): NAME=EXPR or a
 * preset's name, EXPR by recursive descent into a tree of nodes whose
 * event names are the metrics' shared variables.  Nesting and size are
 * bounded, as evaluation recurses along the tree.
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

static size_t add_node(struct parser *ps, enum pp_metric_op op, size_t a, size_t b)
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

/* the variable of name, made (first used by metric m) when new */
static size_t var_of(struct pp_metrics *ms, const struct pp_metric *m, const char *name,
		     size_t len)
{
	size_t i;

	for (i = 0; i < ms->nr_vars; i++)
		if (strlen(ms->vars[i].name) == len && !strncasecmp(ms->vars[i].name, name, len))
			return i;
	ms->vars = op_xreallocarray(ms->vars, ms->nr_vars + 1, sizeof(*ms->vars));
	memset(&ms->vars[ms->nr_vars], 0, sizeof(*ms->vars));
	ms->vars[ms->nr_vars].name = op_xstrndup(name, len);
	ms->vars[ms->nr_vars].first_use = (size_t)(m - ms->m);
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
		return add_node(ps, PP_MOP_NEG, n, 0);
	}
	if (isdigit((unsigned char)*ps->at) || *ps->at == '.') {
		char *end;
		double v = strtod(ps->at, &end);

		if (end == ps->at || !isfinite(v))
			return fail(ps, "a bad number");
		ps->at = end;
		n = add_node(ps, PP_MOP_NUM, 0, 0);
		ps->m->nodes[n].num = v;
		return n;
	}
	if (isalpha((unsigned char)*ps->at) || *ps->at == '_') {
		const char *start = ps->at;

		while (isalnum((unsigned char)*ps->at) || *ps->at == '_')
			ps->at++;
		n = add_node(ps, PP_MOP_VAR, 0, 0);
		ps->m->nodes[n].var = var_of(ps->ms, ps->m, start, (size_t)(ps->at - start));
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
		enum pp_metric_op op = *ps->at++ == '*' ? PP_MOP_MUL : PP_MOP_DIV;

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
		enum pp_metric_op op = *ps->at++ == '+' ? PP_MOP_ADD : PP_MOP_SUB;

		n = add_node(ps, op, n, term(ps));
	}
}

/* NAME=EXPR or a preset's NAME into m; 0 or PP_REPORT_ERR_METRIC */
int pp_metric_parse_def(struct pp_metrics *ms, struct pp_metric *m, const char *def,
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
	ret = pp_metric_parse_def(&ms, &ms.m[0], def, err);
	pp_metrics_release(&ms);
	return ret;
}
