// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --symbols: one line per symbol with samples (per application
 * unless --merge=lib), sorted, with per-address detail lines under
 * --details.  Columns as OProfile 1.4: [vma] then per class samples
 * [cum. samples] % [cum. %], then [linenr info] [image name] [app name]
 * and the symbol name.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

struct symctx {
	FILE *out;
	struct pp_profile *p;
	const struct pp_report_opts *o;
	struct pp_rows rows;
	struct pp_names nm;
	bool show_vma, vma64, show_image, show_app;
	uint64_t *totals;	/* per class: samples in symbols */
	uint64_t *cum;		/* per class, for --accumulated */
	/* details of the current row */
	const struct pp_row *row;
	uint64_t *dtotals, *dcum;
};

static void vma_text(char *buf, size_t size, uint64_t vma, bool vma64)
{
	snprintf(buf, size, vma64 ? "%016" PRIx64 : "%08" PRIx64, vma);
}

static void header(struct symctx *s)
{
	struct pp_line l;
	size_t c;

	pp_line_start(&l, s->out, NULL);
	if (s->show_vma)
		pp_line_field(&l, "vma", W_VMA);
	for (c = 0; c < s->p->nr_classes; c++) {
		pp_line_field(&l, "samples", W_SAMPLES);
		if (s->o->accumulated)
			pp_line_field(&l, "cum. samples", W_CUM_SAMPLES);
		pp_line_field(&l, "%", W_PERCENT);
		if (s->o->accumulated)
			pp_line_field(&l, "cum. %", W_CUM_PERCENT);
	}
	if (s->o->debug_info)
		pp_line_field(&l, "linenr info", W_LINENR);
	if (s->show_image)
		pp_line_field(&l, "image name", W_IMAGE);
	if (s->show_app)
		pp_line_field(&l, "app name", W_APP);
	pp_line_field(&l, "symbol name", W_SYMBOL);
	pp_line_end(&l);
}

/* the per-class count columns of a line */
static void counts(struct pp_line *l, const struct pp_report_opts *o,
		   const uint64_t *counts, const uint64_t *totals, uint64_t *cum,
		   size_t nr)
{
	char buf[64];
	size_t c;

	for (c = 0; c < nr; c++) {
		pp_format_count(buf, sizeof(buf), counts[c]);
		pp_line_field(l, buf, W_SAMPLES);
		cum[c] += counts[c];
		if (o->accumulated) {
			pp_format_count(buf, sizeof(buf), cum[c]);
			pp_line_field(l, buf, W_CUM_SAMPLES);
		}
		pp_format_percent(buf, sizeof(buf), pp_ratio(counts[c], totals[c]), false);
		pp_line_field(l, buf, W_PERCENT);
		if (o->accumulated) {
			pp_format_percent(buf, sizeof(buf), pp_ratio(cum[c], totals[c]), false);
			pp_line_field(l, buf, W_CUM_PERCENT);
		}
	}
}

static void detail_line(void *data, uint64_t key, const uint64_t *cnt)
{
	struct symctx *s = data;
	struct pp_line l;
	char buf[64];

	pp_line_start(&l, s->out, "  ");
	vma_text(buf, sizeof(buf), pp_symtab_vma(pp_image_symtab(s->p, s->row->image), key),
		 s->vma64);
	pp_line_field(&l, buf, W_VMA);
	counts(&l, s->o, cnt, s->dtotals, s->dcum, s->p->nr_classes);
	if (s->o->debug_info) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		pp_linenr(&sb, s->p, s->row->image, key, s->o->long_filenames);
		pp_line_field(&l, sb.buf, W_LINENR);
		op_strbuf_release(&sb);
	}
	pp_line_end(&l);
}

static void symbol_line(struct symctx *s, const struct pp_row *row, const char *name)
{
	struct pp_line l;
	char buf[64];

	pp_line_start(&l, s->out, NULL);
	if (s->show_vma) {
		vma_text(buf, sizeof(buf), row->sym->vma, s->vma64);
		pp_line_field(&l, buf, W_VMA);
	}
	counts(&l, s->o, row->counts, s->totals, s->cum, s->p->nr_classes);
	if (s->o->debug_info) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		pp_linenr(&sb, s->p, row->image, row->sym->start, s->o->long_filenames);
		pp_line_field(&l, sb.buf, W_LINENR);
		op_strbuf_release(&sb);
	}
	if (s->show_image)
		pp_line_field(&l, pp_names_image(&s->nm, row->image), W_IMAGE);
	if (s->show_app)
		pp_line_field(&l, pp_names_app(&s->nm, row->app), W_APP);
	pp_line_field(&l, name, W_SYMBOL);
	pp_line_end(&l);
}

int pp_report_symbols(FILE *out, struct pp_profile *p,
		      const struct pp_report_opts *o, struct pp_notes *n)
{
	struct pp_rows_opts ro = { .exclude_dependent = o->exclude_dependent };
	struct symctx s = { .out = out, .p = p, .o = o };
	struct pp_row **sel;
	const struct pp_sym **syms;
	struct pp_name_stream *names;
	size_t nr_sel = 0, i, c;
	int ret = 0;

	pp_rows_build(&s.rows, p, &ro, n);
	pp_check_images(p, n);
	pp_names_init(&s.nm, p, o);
	s.totals = op_xcalloc(p->nr_classes, sizeof(uint64_t));
	s.cum = op_xcalloc(p->nr_classes, sizeof(uint64_t));
	s.dcum = op_xcalloc(p->nr_classes, sizeof(uint64_t));
	for (i = 0; i < s.rows.nr; i++)
		for (c = 0; c < p->nr_classes; c++)
			s.totals[c] += s.rows.rows[i].counts[c];
	/* the rows that pass the threshold and the symbol filters */
	sel = op_xcalloc(s.rows.nr + 1, sizeof(*sel));
	for (i = 0; i < s.rows.nr; i++) {
		struct pp_row *row = &s.rows.rows[i];

		if (!pp_over_threshold(o, row->counts, s.totals, p->nr_classes))
			continue;
		if (!pp_sym_passes(o->include_symbols, o->exclude_symbols, row->sym,
				   o->demangle))
			continue;
		sel[nr_sel++] = row;
		if (row->image != sel[0]->image)
			s.show_image = true;
		if (row->sym->vma > 0xffffffffull)
			s.vma64 = true;
	}
	pp_rows_sort(sel, nr_sel, p, &s.nm, o);
	syms = op_xcalloc(nr_sel + 1, sizeof(*syms));
	s.show_vma = o->show_address || o->details;
	s.show_app = s.rows.multiple_apps;
	if (!o->no_header)
		header(&s);
	for (i = 0; i < nr_sel; i++)
		syms[i] = sel[i]->sym;
	names = pp_name_stream_start(syms, nr_sel, o->demangle);
	for (i = 0; i < nr_sel; i++) {
		symbol_line(&s, sel[i], pp_name_stream_get(names, i));
		if (o->details) {
			s.row = sel[i];
			s.dtotals = o->global_percent ? s.totals : sel[i]->counts;
			memset(s.dcum, 0, p->nr_classes * sizeof(uint64_t));
			pp_rows_for_each_key(p, &s.rows, sel[i], detail_line, &s);
		}
	}
	if (!nr_sel)
		ret = 1;
	pp_name_stream_end(names);
	free(syms);
	free(sel);
	free(s.totals);
	free(s.cum);
	free(s.dcum);
	pp_names_release(&s.nm);
	pp_rows_release(&s.rows);
	return ret;
}
