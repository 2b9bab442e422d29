// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --symbols: one line per symbol with samples (per application
 * unless --merge=lib), in the prepared order, with one line per address
 * under each symbol with --details.  Columns as OProfile 1.4 writes them
 * (columns.c).  Shares are of the samples in symbols; a detail line's of
 * its symbol's samples (of all, with -%).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"

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

int pp_write_symbols(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *s = &r->sides[0];
	struct pp_cols cols;
	struct pp_cum cum;
	struct details d = { .out = out, .cols = &cols, .s = s };
	size_t i;

	(void)err;
	pp_report_header(out, s->p, r->info, r->o);
	pp_cols_of(&cols, r, s);
	if (!r->o->no_header)
		pp_cols_header(out, &cols, s->p->nr_classes);
	pp_cum_init(&cum, s->p->nr_classes);
	pp_cum_init(&d.cum, s->p->nr_classes);
	for (i = 0; i < s->nr_sel; i++) {
		const struct pp_row *row = s->sel[i];
		struct pp_cols_row w = {
			.row = row,
			.vma = row->sym->vma,
			.key = row->sym->start,
			.counts = row->counts,
			.whole = s->totals,
			.name = pp_side_sym_name(s, row),
		};

		pp_cols_line(out, &cols, s, &w, &cum);
		if (r->o->details)
			put_details(&d, r, row);
	}
	pp_cum_release(&cum);
	pp_cum_release(&d.cum);
	return 0;
}
