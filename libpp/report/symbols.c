// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --symbols: one line per symbol with samples (per application
 * unless --merge=lib), in the prepared order, with one line per address
 * under each symbol with --details.  Columns as OProfile 1.4 writes them
 * (columns.c); the lines of many symbols are made by every CPU
 * (pp_write_ordered()).  Shares are of the samples in symbols; a detail line's of
 * its symbol's samples (of all, with -%).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

struct details {
	FILE *out;
	const struct pp_cols *cols;
	struct pp_side *s;
	const struct pp_row *row;
	const struct pp_symtab *t;
	const uint64_t *whole;
	struct pp_cum cum;
};

static void detail_line(void *data, uint64_t key, const uint64_t *counts)
{
	struct details *d = data;
	struct pp_cols_row w = {
		.prefix = "  ",
		.row = d->row,
		.vma = pp_symtab_vma(d->t, key),
		.key = key,
		.counts = counts,
		.whole = d->whole,
	};

	pp_cols_line(d->out, d->cols, d->s, &w, &d->cum);
}

static void put_details(struct details *d, struct pp_report *r,
			const struct pp_row *row)
{
	d->row = row;
	d->t = pp_image_symtab(d->s->p, row->image);
	d->whole = r->o->global_percent ? d->s->totals : row->counts;
	pp_cum_reset(&d->cum);
	pp_rows_for_each_key(d->s->p, &d->s->rows, row, detail_line, d);
}

/* what a thread writing lines keeps: the running totals, and -d's */
struct sym_local {
	struct pp_cum cum;
	struct details d;
};

struct sym_ctx {
	struct pp_report *r;
	struct pp_side *s;
	struct pp_cols cols;
};

static void *sym_local_new(void *ctx)
{
	struct sym_ctx *x = ctx;
	struct sym_local *l = op_xcalloc(1, sizeof(*l));

	pp_cum_init(&l->cum, x->s->p->nr_classes);
	pp_cum_init(&l->d.cum, x->s->p->nr_classes);
	l->d.cols = &x->cols;
	l->d.s = x->s;
	return l;
}

static void sym_local_free(void *local)
{
	struct sym_local *l = local;

	pp_cum_release(&l->cum);
	pp_cum_release(&l->d.cum);
	free(l);
}

static const uint64_t *sym_counts(void *ctx, size_t i)
{
	return ((struct sym_ctx *)ctx)->s->sel[i]->counts;
}

static void sym_chunk(void *ctx, void *local, const uint64_t *before)
{
	struct sym_local *l = local;

	memcpy(l->cum.sum, before, l->cum.nr * sizeof(*before));
	(void)ctx;
}

/* the line of row i, and its detail lines with -d */
static void sym_item(void *ctx, void *local, size_t i, FILE *out)
{
	struct sym_ctx *x = ctx;
	struct sym_local *l = local;
	const struct pp_row *row = x->s->sel[i];
	struct pp_cols_row w = {
		.row = row,
		.vma = row->sym->vma,
		.key = row->sym->start,
		.counts = row->counts,
		.whole = x->s->totals,
		.name = pp_shown_name(x->s->p, row->image, row->sym),
	};

	pp_cols_line(out, &x->cols, x->s, &w, &l->cum);
	if (x->r->o->details) {
		l->d.out = out;
		put_details(&l->d, x->r, row);
	}
}

int pp_write_symbols(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct sym_ctx x = { .r = r, .s = &r->sides[0] };
	const struct pp_ordered w = {
		.ctx = &x,
		.nr_classes = x.s->p->nr_classes,
		.counts = sym_counts,
		.local_new = sym_local_new,
		.local_free = sym_local_free,
		.chunk = sym_chunk,
		.item = sym_item,
	};

	(void)err;
	pp_report_header(out, x.s->p, r->info, r->o);
	pp_confidence_header(out, r, x.s);
	pp_outside_header(out, r, x.s);
	pp_cols_of(&x.cols, r, x.s);
	if (!r->o->no_header)
		pp_cols_header(out, &x.cols, x.s->p->nr_classes);
	pp_write_ordered(out, x.s->nr_sel, &w, pp_cols_parallel(&x.cols, x.s));
	return 0;
}
