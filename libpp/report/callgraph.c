// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --callgraph: for every symbol, its callers (with the share of
 * the calls each made), itself with its own samples, and its callees
 * plus a "[self]" entry (with the share of the symbol's own and callees'
 * counts), separated by lines of dashes as OProfile 1.4 prints them.  The
 * arcs come from pp_arcs.c.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

struct cgctx {
	FILE *out;
	struct pp_profile *p;
	const struct pp_report_opts *o;
	struct pp_rows rows;
	struct pp_names nm;
	struct pp_arcs arcs;
	uint64_t *totals;
	bool show_image, show_app;
	struct pp_name_stream *names;	/* every row's shown name */
	size_t *name_pos;		/* per row index: its place in names */
};

static void header(struct cgctx *s)
{
	struct pp_line l;
	size_t c;

	pp_line_start(&l, s->out, NULL);
	for (c = 0; c < s->p->nr_classes; c++) {
		pp_line_field(&l, "samples", W_SAMPLES);
		pp_line_field(&l, "%", W_PERCENT);
	}
	if (s->show_image)
		pp_line_field(&l, "image name", W_IMAGE);
	if (s->show_app)
		pp_line_field(&l, "app name", W_APP);
	pp_line_field(&l, "symbol name", W_SYMBOL);
	pp_line_end(&l);
}

static void line(struct cgctx *s, const char *prefix, const struct pp_row *row,
		 const uint64_t *counts, const uint64_t *totals, const char *suffix)
{
	struct pp_line l;
	char buf[64];
	const char *name;
	size_t c;

	pp_line_start(&l, s->out, prefix);
	for (c = 0; c < s->p->nr_classes; c++) {
		pp_format_count(buf, sizeof(buf), counts[c]);
		pp_line_field(&l, buf, W_SAMPLES);
		pp_format_percent(buf, sizeof(buf), pp_ratio(counts[c], totals[c]), false);
		pp_line_field(&l, buf, W_PERCENT);
	}
	if (s->show_image)
		pp_line_field(&l, pp_names_image(&s->nm, row->image), W_IMAGE);
	if (s->show_app)
		pp_line_field(&l, pp_names_app(&s->nm, row->app), W_APP);
	name = pp_name_stream_get(s->names, s->name_pos[row->index]);
	if (suffix) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		op_strbuf_addf(&sb, "%s%s", name, suffix);
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		pp_line_field(&l, sb.buf, W_SYMBOL);
		op_strbuf_release(&sb);
	} else {
		pp_line_field(&l, name, W_SYMBOL);
	}
	pp_line_end(&l);
}

static void block(struct cgctx *s, const struct pp_row *row, struct pp_arc_entry *buf)
{
	size_t nr, i, c;
	uint64_t *sum = op_xcalloc(s->p->nr_classes, sizeof(uint64_t));

	/* callers smallest first: the biggest sits next to the symbol (gprof) */
	nr = pp_arcs_list(&s->arcs, &s->rows, row, false, !s->o->reverse, buf);
	for (i = 0; i < nr; i++)
		for (c = 0; c < s->p->nr_classes; c++)
			sum[c] += buf[i].counts[c];
	for (i = 0; i < nr; i++)
		line(s, "  ", buf[i].row, buf[i].counts,
		     s->o->global_percent ? s->totals : sum, NULL);
	line(s, NULL, row, row->counts, s->totals, NULL);
	memset(sum, 0, s->p->nr_classes * sizeof(uint64_t));
	nr = pp_arcs_list(&s->arcs, &s->rows, row, true, s->o->reverse, buf);
	for (i = 0; i < nr; i++)
		for (c = 0; c < s->p->nr_classes; c++)
			sum[c] += buf[i].counts[c];
	for (i = 0; i < nr; i++)
		line(s, "  ", buf[i].row, buf[i].counts,
		     s->o->global_percent ? s->totals : sum,
		     buf[i].self ? " [self]" : NULL);
	fprintf(s->out, "%.79s\n", "-------------------------------------------------"
		"-------------------------------------------------");
	free(sum);
}

/*
 * Each row's name demangled once, however many blocks show it, by helper
 * threads in the order the report needs them: the selected rows as
 * sorted, then the rest (callers and callees below the threshold).
 */
static void start_names(struct cgctx *s, struct pp_row *const *sel, size_t nr_sel)
{
	const struct pp_sym **syms = op_xcalloc(s->rows.nr + 1, sizeof(*syms));
	bool *placed = op_xcalloc(s->rows.nr + 1, sizeof(*placed));
	size_t i, n = 0;

	s->name_pos = op_xcalloc(s->rows.nr + 1, sizeof(*s->name_pos));
	for (i = 0; i < nr_sel; i++) {
		placed[sel[i]->index] = true;
		s->name_pos[sel[i]->index] = n;
		syms[n++] = sel[i]->sym;
	}
	for (i = 0; i < s->rows.nr; i++) {
		if (placed[i])
			continue;
		s->name_pos[i] = n;
		syms[n++] = s->rows.rows[i].sym;
	}
	s->names = pp_name_stream_start(syms, n, s->o->demangle);
	free(syms);
	free(placed);
}

int pp_report_callgraph(FILE *out, struct pp_profile *p,
			const struct pp_report_opts *o, struct pp_notes *n)
{
	struct pp_rows_opts ro = { .exclude_dependent = o->exclude_dependent };
	struct cgctx s = { .out = out, .p = p, .o = o };
	struct pp_row **sel;
	struct pp_arc_entry *buf;
	size_t nr_sel = 0, i, c;

	pp_rows_build(&s.rows, p, &ro, n);
	s.totals = op_xcalloc(p->nr_classes, sizeof(uint64_t));
	for (i = 0; i < s.rows.nr; i++)
		for (c = 0; c < p->nr_classes; c++)
			s.totals[c] += s.rows.rows[i].counts[c];
	pp_arcs_build(&s.arcs, p, &s.rows, n);
	pp_check_images(p, n);
	if (s.arcs.dropped)
		pp_note(n, "%" PRIu64 " call-graph arcs fell outside every symbol "
			"and were dropped", s.arcs.dropped);
	pp_names_init(&s.nm, p, o);
	sel = op_xcalloc(s.rows.nr + 1, sizeof(*sel));
	for (i = 0; i < s.rows.nr; i++) {
		struct pp_row *row = &s.rows.rows[i];

		if (!pp_over_threshold(o, row->counts, s.totals, p->nr_classes))
			continue;
		/* -x: a library reached by an arc is a callee, not an entry */
		if (o->exclude_dependent &&
		    !odb_image_id_equal(&p->apps[row->app].id, &p->images[row->image].id))
			continue;
		if (!pp_sym_passes(o->include_symbols, o->exclude_symbols, row->sym,
				   o->demangle))
			continue;
		sel[nr_sel++] = row;
		if (row->image != sel[0]->image)
			s.show_image = true;
	}
	s.show_app = s.rows.multiple_apps;
	pp_rows_sort(sel, nr_sel, p, &s.nm, o);
	start_names(&s, sel, nr_sel);
	if (!o->no_header)
		header(&s);
	fprintf(out, "%.79s\n", "-------------------------------------------------"
		"-------------------------------------------------");
	buf = op_xcalloc(s.arcs.nr + 2, sizeof(*buf));
	for (i = 0; i < nr_sel; i++)
		block(&s, sel[i], buf);
	free(buf);
	free(sel);
	pp_name_stream_end(s.names);
	free(s.name_pos);
	pp_arcs_release(&s.arcs);
	free(s.totals);
	pp_names_release(&s.nm);
	pp_rows_release(&s.rows);
	return nr_sel ? 0 : 1;
}
