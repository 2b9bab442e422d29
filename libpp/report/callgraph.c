// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --callgraph: for every symbol shown, its callers (with the
 * share of the calls each made), itself with its own samples, and its
 * callees plus a "[self]" entry (with the share of the symbol's own and
 * callees' counts), separated by lines of dashes as OProfile 1.4 prints
 * them.  Every line has the columns of -l (columns.c): -w, -a, -g and the
 * image and app columns apply here as there.  The cumulative columns run
 * over the symbols shown, and within each list of callers or callees.
 * The blocks of many symbols are made by every CPU (pp_write_ordered()).
 */
#include "config.h"

#include <inttypes.h>

#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_stacks.h"
#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

#define RULE "-------------------------------------------------------------------------------"

/* what all threads writing blocks share */
struct cgshared {
	struct pp_report *r;
	struct pp_side *s;
	struct pp_cols cols;
};

/* what each keeps (pp_write_ordered()) */
struct cgctx {
	FILE *out;
	struct pp_report *r;
	struct pp_side *s;
	const struct pp_cols *cols;
	struct pp_cum cum;		/* over the symbols shown */
	struct pp_cum list_cum;		/* within a list of callers or callees */
	struct pp_arc_entry *buf;	/* room for any list */
	uint64_t *sum;			/* per class: a list's total */
};

static void entry_line(struct cgctx *x, const char *prefix, const struct pp_row *row,
		       const uint64_t *counts, const uint64_t *whole,
		       struct pp_cum *cum, const char *suffix)
{
	struct pp_cols_row w = {
		.prefix = prefix,
		.row = row,
		.vma = row->sym->vma,
		.key = row->sym->start,
		.counts = counts,
		.whole = whole,
		.name = pp_shown_name(x->s->p, row->image, row->sym),
		.suffix = suffix,
	};

	pp_cols_line(x->out, x->cols, x->s, &w, cum);
}

/* the callers (callees false) or callees of row, each as a share of all */
static void put_list(struct cgctx *x, const struct pp_row *row, bool callees)
{
	const struct pp_report_opts *o = x->r->o;
	size_t nr_classes = x->s->p->nr_classes, nr, i;

	/* callers smallest first: the biggest sits next to the symbol (gprof) */
	nr = pp_arcs_list(&x->s->arcs, &x->s->rows, row, callees,
			  !callees, x->buf);
	/* shares stay those of the whole list */
	nr = pp_arcs_over_threshold(o, x->buf, nr, x->sum, nr_classes);
	pp_cum_reset(&x->list_cum);
	for (i = 0; i < nr; i++)
		entry_line(x, "  ", x->buf[i].row, x->buf[i].counts,
			   o->global_percent ? x->s->totals : x->sum, &x->list_cum,
			   x->buf[i].self ? " [self]" : NULL);
}

static void block(struct cgctx *x, const struct pp_row *row)
{
	put_list(x, row, false);
	entry_line(x, NULL, row, row->counts, x->s->totals, &x->cum, NULL);
	put_list(x, row, true);
	fprintf(x->out, "%s\n", RULE);
}

static void *cg_local_new(void *ctx)
{
	struct cgshared *sh = ctx;
	struct cgctx *x = op_xcalloc(1, sizeof(*x));
	size_t nr_classes = sh->s->p->nr_classes;

	x->r = sh->r;
	x->s = sh->s;
	x->cols = &sh->cols;
	pp_cum_init(&x->cum, nr_classes);
	pp_cum_init(&x->list_cum, nr_classes);
	x->sum = op_xcalloc(nr_classes + 1, sizeof(*x->sum));
	x->buf = op_xcalloc(x->s->arcs.nr + 2, sizeof(*x->buf));
	return x;
}

static void cg_local_free(void *local)
{
	struct cgctx *x = local;

	free(x->buf);
	free(x->sum);
	pp_cum_release(&x->cum);
	pp_cum_release(&x->list_cum);
	free(x);
}

static const uint64_t *cg_counts(void *ctx, size_t i)
{
	return ((struct cgshared *)ctx)->s->sel[i]->counts;
}

static void cg_chunk(void *ctx, void *local, const uint64_t *before)
{
	struct cgctx *x = local;

	memcpy(x->cum.sum, before, x->cum.nr * sizeof(*before));
	(void)ctx;
}

static void cg_item(void *ctx, void *local, size_t i, FILE *out)
{
	struct cgctx *x = local;

	x->out = out;
	block(x, x->s->sel[i]);
	(void)ctx;
}

/*
 * Arcs operf could not record (their caller was in no mapping it knew):
 * how many, why that happens and what helps, in the header
 */
static void arcs_note(FILE *out, const struct pp_report *r, const struct pp_side *s)
{
	uint64_t n = r->info ? odb_stats_lost_arcs(&r->info->stats) : 0;

	if (r->o->no_header)
		return;
	if (!s->p->nr_cg) {
		fputs("Note: the profile has no call-graph samples, so no callers or "
		      "callees are listed: record with operf --callgraph (-g)\n", out);
		return;
	}
	if (!n)
		return;
	fprintf(out, "Note: %" PRIu64 " call-graph arc%s not recorded: the caller "
		"was in no known mapping, as happens when the stack of code built "
		"without frame pointers is walked by frame pointer (rebuild with "
		"-fno-omit-frame-pointer, or profile with --callgraph where the code "
		"keeps them)\n", n, n == 1 ? " was" : "s were");
}

int pp_write_callgraph(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct cgshared sh = { .r = r, .s = &r->sides[0] };
	struct pp_stacks st;
	bool stacks;
	const struct pp_ordered w = {
		.ctx = &sh,
		.nr_classes = sh.s->p->nr_classes,
		.counts = cg_counts,
		.local_new = cg_local_new,
		.local_free = cg_local_free,
		.chunk = cg_chunk,
		.item = cg_item,
	};

	(void)err;
	/* a stack file that cannot be read is noted; the blocks are the arcs' */
	stacks = pp_stacks_load(&st, sh.s->p, PP_STACKS_ALONE, r->notes) == 0;
	pp_report_header(out, sh.s->p, r->info, r->o);
	pp_confidence_header(out, r, sh.s);
	pp_outside_header(out, r, sh.s);
	arcs_note(out, r, sh.s);
	if (stacks && !r->o->no_header)
		fputs("Note: self and total samples per symbol, after the blocks, come "
		      "from the whole call stacks of the session's stack file\n", out);
	else if (sh.s->p->nr_cg && !r->o->no_header)
		fputs("Note: self and total samples per symbol, after the blocks, come "
		      "from the call-graph arcs: the session has no readable stack file\n", out);
	pp_cols_of(&sh.cols, r, sh.s);
	if (!r->o->no_header)
		pp_cols_header(out, &sh.cols, sh.s->p->nr_classes);
	fprintf(out, "%s\n", RULE);
	pp_write_ordered(out, sh.s->nr_sel, &w, pp_cols_parallel(&sh.cols, sh.s));
	if (stacks)
		pp_write_inclusive(out, &st, sh.s);
	else if (sh.s->p->nr_cg)
		pp_write_inclusive(out, NULL, sh.s);
	pp_stacks_release(&st);
	return 0;
}
