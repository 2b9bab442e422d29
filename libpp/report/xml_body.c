// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The body of opreport --xml (xml.c): <symbol> elements with their
 * details and calls, gathered into <module>, <binary>, <process> and
 * <thread> elements as OProfile 1.4 nests them.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

/* --- symbols ------------------------------------------------------------ */

static uint64_t sym_hash(size_t image, const struct pp_sym *sym)
{
	return op_hash_combine(op_hash_u64(image), (uint64_t)(uintptr_t)sym);
}

/* the id of row's (image, sym), given at its first mention */
size_t pp_xml_sym_id(struct pp_xml *x, const struct pp_row *row)
{
	size_t image = row->image;
	const struct pp_sym *sym = row->sym;
	uint64_t h = sym_hash(image, sym);
	struct op_hmap_iter it;
	size_t *slot;

	for (slot = op_hmap_first(&x->sym_index, h, &it); slot;
	     slot = op_hmap_next(&x->sym_index, h, &it))
		if (x->syms[*slot].image == image && x->syms[*slot].sym == sym)
			return *slot;
	if (x->nr_syms == x->alloc_syms) {
		x->alloc_syms = x->alloc_syms ? x->alloc_syms * 2 : 256;
		x->syms = op_xreallocarray(x->syms, x->alloc_syms, sizeof(*x->syms));
	}
	memset(&x->syms[x->nr_syms], 0, sizeof(x->syms[0]));
	x->syms[x->nr_syms].image = image;
	x->syms[x->nr_syms].sym = sym;
	x->syms[x->nr_syms].row = row;
	op_strbuf_init(&x->syms[x->nr_syms].details);
	slot = op_xmalloc(sizeof(*slot));
	*slot = x->nr_syms;
	if (op_hmap_insert(&x->sym_index, h, slot))
		op_die(1, "out of memory");
	return x->nr_syms++;
}

bool pp_xml_any_count(const uint64_t *counts, size_t lo, size_t hi)
{
	size_t c;

	for (c = lo; c <= hi; c++)
		if (counts[c])
			return true;
	return false;
}

/* has row samples, or calls made or received, in classes lo..hi? */
bool pp_xml_row_in_range(const struct pp_xml *x, const struct pp_row *row,
			 size_t lo, size_t hi)
{
	const struct pp_arcs *a = &x->s->arcs;
	size_t i;

	if (pp_xml_any_count(row->counts, lo, hi))
		return true;
	if (!x->callgraph)
		return false;
	for (i = a->in_first[row->index]; i < a->in_first[row->index + 1]; i++)
		if (pp_xml_any_count(a->v[a->in_list[i]].counts, lo, hi))
			return true;
	for (i = a->out_first[row->index]; i < a->out_first[row->index + 1]; i++)
		if (pp_xml_any_count(a->v[a->out_list[i]].counts, lo, hi))
			return true;
	return false;
}

/* the <detaildata> of one symbol, gathered for the <detailtable> */
struct detail_walk {
	struct pp_xml *x;
	struct pp_xsym *xs;
	struct pp_symtab *t;
	const char *sym_file;	/* the symbol's own source file, or NULL */
	size_t lo, hi;
};

static void detail_key(void *data, uint64_t key, const uint64_t *counts)
{
	struct detail_walk *w = data;
	struct op_strbuf *sb = &w->xs->details;
	const char *file = NULL, *why;
	unsigned line = 0;
	bool have_line = false;
	char vma[32], iv[96];
	size_t c;

	if (w->x->o->debug_info)
		have_line = !pp_symtab_line(w->t, key, &file, &line, &why) && file;
	pp_xml_vma_text(w->x, vma, sizeof(vma), pp_symtab_vma(w->t, key));
	for (c = w->lo; c <= w->hi; c++) {
		if (!counts[c])
			continue;
		op_strbuf_addf(sb, "<detaildata  id=\"%zu\"  vmaoffset=\"%s\"",
			       w->xs->nr_details++, vma);
		if (have_line) {
			/* the file only where it is not the symbol's own (an
			 * inlined function from a header) */
			if (!w->sym_file || strcmp(file, w->sym_file)) {
				op_strbuf_addstr(sb, " file=\"");
				pp_xml_add_escaped(sb, file);
				op_strbuf_addch(sb, '"');
			}
			op_strbuf_addf(sb, " line=\"%u\"", line);
		}
		/* OProfile names the class here even without <classes> */
		pp_xml_interval_attrs(iv, sizeof(iv), w->x, counts[c], c);
		op_strbuf_addf(sb, ">\n<count  class=\"%s\"%s>\n%" PRIu64 "</count>\n"
			       "</detaildata>\n",
			       w->x->class_names ? w->x->class_names[c] : "", iv,
			       counts[c]);
	}
	if (op_strbuf_failed(sb))
		op_die(1, "out of memory");
}

/* gather row's details over lo..hi; writes detaillo/detailhi if any */
static void put_details(struct pp_xml *x, const struct pp_row *row, size_t id,
			size_t lo, size_t hi)
{
	struct detail_walk w = {
		.x = x, .xs = &x->syms[id], .t = pp_image_symtab(x->p, row->image),
		.lo = lo, .hi = hi,
	};
	size_t first = w.xs->nr_details;
	unsigned line;
	const char *why;

	if (x->o->debug_info &&
	    pp_symtab_line(w.t, row->sym->start, &w.sym_file, &line, &why))
		w.sym_file = NULL;
	pp_rows_for_each_key(x->p, &x->s->rows, row, detail_key, &w);
	if (w.xs->nr_details > first) {
		pp_xml_attr_u64(x->out, "detaillo", first);
		pp_xml_attr_u64(x->out, "detailhi", w.xs->nr_details - 1);
	}
}

/*
 * <callers> or <callees> of row: symbols with their counts of calls in
 * lo..hi; the callee list starts with the symbol itself, self="true",
 * holding its own samples.  Inside a <module>, each entry is wrapped in a
 * <module> naming its image, as OProfile does.
 */
static void put_calls(struct pp_xml *x, const struct pp_row *row, bool callees,
		      size_t lo, size_t hi, bool in_module)
{
	const char *tag = callees ? "callees" : "callers";
	size_t nr, i;

	/* callers smallest first, callees biggest first, as -c lists them */
	nr = pp_arcs_list(&x->s->arcs, &x->s->rows, row, callees,
			  !callees, x->buf);
	nr = pp_arcs_over_threshold(x->o, x->buf, nr, x->sum,
				    x->p->nr_classes);
	pp_out_fmt(x->out, "<%s>\n", tag);
	for (i = 0; i < nr; i++) {
		const struct pp_arc_entry *e = &x->buf[i];

		if (!e->self && !pp_xml_any_count(e->counts, lo, hi))
			continue;
		if (in_module) {
			pp_out_str(x->out, "<module ");
			pp_xml_attr_str(x->out, "name", pp_names_image(&x->nm, e->row->image));
			pp_out_str(x->out, ">\n");
		}
		pp_out_str(x->out, "<symbol ");
		pp_xml_attr_u64(x->out, "idref", pp_xml_sym_id(x, e->row));
		if (e->self)
			pp_xml_attr_str(x->out, "self", "true");
		pp_out_str(x->out, ">\n");
		pp_xml_put_counts(x, e->counts, lo, hi);
		pp_out_str(x->out, "</symbol>\n");
		if (in_module)
			pp_out_str(x->out, "</module>\n");
	}
	pp_out_fmt(x->out, "</%s>\n", tag);
}

void pp_xml_put_symbol(struct pp_xml *x, const struct pp_row *row, size_t lo,
		       size_t hi, bool in_module)
{
	size_t id = pp_xml_sym_id(x, row);

	pp_out_str(x->out, "<symbol ");
	pp_xml_attr_u64(x->out, "idref", id);
	if (x->o->details)
		put_details(x, row, id, lo, hi);
	pp_out_str(x->out, ">\n");
	if (x->callgraph) {
		put_calls(x, row, false, lo, hi, in_module);
		put_calls(x, row, true, lo, hi, in_module);
	}
	pp_xml_put_counts(x, row->counts, lo, hi);
	pp_out_str(x->out, "</symbol>\n");
}

/* --- the program structure ---------------------------------------------- */

/* sum the counts of rows sel[from..to) that are in lo..hi into sum */
static void sum_rows(struct pp_xml *x, size_t from, size_t to, size_t lo,
		     size_t hi, uint64_t *sum)
{
	size_t i, c;

	memset(sum, 0, x->p->nr_classes * sizeof(*sum));
	for (i = from; i < to; i++)
		for (c = lo; c <= hi; c++)
			sum[c] += x->sel[i]->counts[c];
}

static bool own_image(const struct pp_xml *x, const struct pp_row *row)
{
	return pp_profile_own_image(x->p, row->app, row->image);
}

/* <module>: rows sel[from..to) of one image, those in lo..hi */
static void put_module(struct pp_xml *x, size_t from, size_t to, size_t lo,
		       size_t hi, uint64_t *sum)
{
	size_t i;

	pp_out_str(x->out, "<module ");
	pp_xml_attr_str(x->out, "name", pp_names_image(&x->nm, x->sel[from]->image));
	pp_out_str(x->out, ">\n");
	sum_rows(x, from, to, lo, hi, sum);
	pp_xml_put_counts(x, sum, lo, hi);
	for (i = from; i < to; i++)
		if (pp_xml_row_in_range(x, x->sel[i], lo, hi))
			pp_xml_put_symbol(x, x->sel[i], lo, hi, true);
	pp_out_str(x->out, "</module>\n");
}

/*
 * One <binary> per application: its count is the samples of its own
 * image (oprofile-ng-formats(5), XML REPORT), then its own symbols, then a <module> per
 * other image.
 */
void pp_xml_put_binaries(struct pp_xml *x)
{
	size_t hi = x->p->nr_classes - 1;
	uint64_t *sum = op_xcalloc(x->p->nr_classes, sizeof(*sum));
	size_t i = 0;


	while (i < x->nr_sel) {
		size_t app = x->sel[i]->app, end = i, k;

		while (end < x->nr_sel && x->sel[end]->app == app)
			end++;
		pp_out_str(x->out, "<binary ");
		pp_xml_attr_str(x->out, "name", pp_names_app(&x->nm, app));
		pp_out_str(x->out, ">\n");
		memset(sum, 0, x->p->nr_classes * sizeof(*sum));
		for (k = i; k < end; k++) {
			size_t c;

			if (own_image(x, x->sel[k]))
				for (c = 0; c <= hi; c++)
					sum[c] += x->sel[k]->counts[c];
		}
		pp_xml_put_counts(x, sum, 0, hi);
		for (k = i; k < end; k++)
			if (own_image(x, x->sel[k]))
				pp_xml_put_symbol(x, x->sel[k], 0, hi, false);
		for (k = i; k < end;) {
			size_t m = k;

			if (own_image(x, x->sel[k])) {
				k++;
				continue;
			}
			while (m < end && x->sel[m]->image == x->sel[k]->image)
				m++;
			put_module(x, k, m, 0, hi, sum);
			k = m;
		}
		pp_out_str(x->out, "</binary>\n");
		i = end;
	}
	free(sum);
}

/* does some row of sel have samples or calls in lo..hi? (first one in *row) */
static bool find_row(const struct pp_xml *x, size_t lo, size_t hi, size_t *row)
{
	size_t i;

	for (i = 0; i < x->nr_sel; i++)
		if (pp_xml_row_in_range(x, x->sel[i], lo, hi)) {
			*row = i;
			return true;
		}
	return false;
}

/* <thread>: the classes lo..hi of one tid, a <module> per image */
static void put_thread(struct pp_xml *x, size_t lo, size_t hi, uint64_t *sum)
{
	size_t i;

	pp_out_fmt(x->out, "<thread  tid=\"%" PRId64 "\">\n", x->p->classes[lo].t.tid);
	sum_rows(x, 0, x->nr_sel, lo, hi, sum);
	pp_xml_put_counts(x, sum, lo, hi);
	for (i = 0; i < x->nr_sel;) {
		size_t m = i + 1;

		if (!pp_xml_row_in_range(x, x->sel[i], lo, hi)) {
			i++;
			continue;
		}
		while (m < x->nr_sel && x->sel[m]->image == x->sel[i]->image)
			m++;
		put_module(x, i, m, lo, hi, sum);
		i = m;
	}
	pp_out_str(x->out, "</thread>\n");
}

/*
 * Profiles separated by thread and not merged: a <process> per tgid
 * named after the application of its first symbol, a <thread> per tid.
 * For XML the classes are ordered by tgid, then tid (pp_profile.h), so
 * each process and thread is a run of classes.
 */
void pp_xml_put_processes(struct pp_xml *x)
{
	const struct pp_profile *p = x->p;
	uint64_t *sum = op_xcalloc(p->nr_classes, sizeof(*sum));
	size_t i = 0, first;

	while (i < p->nr_classes) {
		size_t end = i, t;

		while (end < p->nr_classes && p->classes[end].t.tgid == p->classes[i].t.tgid)
			end++;
		if (!find_row(x, i, end - 1, &first)) {
			i = end;
			continue;
		}
		pp_out_fmt(x->out, "<process  pid=\"%" PRId64 "\"", p->classes[i].t.tgid);
		pp_xml_attr_str(x->out, "name", pp_names_app(&x->nm, x->sel[first]->app));
		pp_out_str(x->out, ">\n");
		sum_rows(x, 0, x->nr_sel, i, end - 1, sum);
		pp_xml_put_counts(x, sum, i, end - 1);
		for (t = i; t < end;) {
			size_t tend = t;

			while (tend < end && p->classes[tend].t.tid == p->classes[t].t.tid)
				tend++;
			if (find_row(x, t, tend - 1, &first))
				put_thread(x, t, tend - 1, sum);
			t = tend;
		}
		pp_out_str(x->out, "</process>\n");
		i = end;
	}
	free(sum);
}
