// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opannotate: where inside functions the samples fall, as annotated
 * source files (every line of each file with samples, a count column per
 * class on the lines that have them, per-function totals, and a summary
 * of inlined code at its call sites) or annotated disassembly (one line
 * per instruction, per symbol), or both interleaved.  Formats follow
 * OProfile 1.4's opannotate (count width 6, opreport's percent format,
 * the comment blocks); see doc/opannotate.1.
 *
 * This file holds the model both are written from: the symbols to
 * annotate, each with its samples summed over the applications that used
 * its image (an image is annotated once), their per-address counts on
 * demand, and what every annotation prints: the count columns, the blank
 * columns, the per-symbol totals and the comment block at the top.
 * annotate_src.c and annotate_asm.c write the two kinds of annotation.
 * Percentages are of all samples in symbols.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_sort.h"

static uint64_t sym_hash(size_t image, const struct pp_sym *sym)
{
	return op_hash_combine(op_hash_u64(image), (uint64_t)(uintptr_t)sym);
}

/* the model's entry for (image, sym), made on first use */
static size_t ann_entry(struct pp_ann *a, struct op_hmap *index, size_t image,
			const struct pp_sym *sym)
{
	uint64_t h = sym_hash(image, sym);
	struct op_hmap_iter it;
	size_t *slot;
	struct pp_ann_sym *s;

	for (slot = op_hmap_first(index, h, &it); slot; slot = op_hmap_next(index, h, &it))
		if (a->syms[*slot].image == image && a->syms[*slot].sym == sym)
			return *slot;
	if (a->nr_syms == a->alloc_syms) {
		a->alloc_syms = a->alloc_syms ? a->alloc_syms * 2 : 64;
		a->syms = op_xreallocarray(a->syms, a->alloc_syms, sizeof(*a->syms));
	}
	s = &a->syms[a->nr_syms];
	memset(s, 0, sizeof(*s));
	s->image = image;
	s->sym = sym;
	s->counts = op_xcalloc(a->nr_classes, sizeof(*s->counts));
	slot = op_xmalloc(sizeof(*slot));
	*slot = a->nr_syms;
	if (op_hmap_insert(index, h, slot))
		op_die(1, "out of memory");
	return a->nr_syms++;
}

static int free_slot(void *val, void *data)
{
	(void)data;
	free(val);
	return 0;
}

/* an entry's rows (one per application), in a list of its own */
static void add_row(struct pp_ann_sym *s, const struct pp_row *row)
{
	s->rows = op_xreallocarray(s->rows, s->nr_rows + 1, sizeof(*s->rows));
	s->rows[s->nr_rows++] = row;
}

/* most samples first (the first class), then by image and address */
static int by_samples(const void *pa, const void *pb)
{
	const struct pp_ann_sym *x = pa, *y = pb;

	if (x->counts[0] != y->counts[0])
		return x->counts[0] < y->counts[0] ? 1 : -1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return x->sym->start < y->sym->start ? -1 : x->sym->start > y->sym->start;
}

static int by_address(const void *pa, const void *pb)
{
	const struct pp_ann_sym *x = pa, *y = pb;

	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return x->sym->start < y->sym->start ? -1 : x->sym->start > y->sym->start;
}

/* sum the rows shown (-i/-e, -x applied) into entries per (image, symbol) */
static void gather(struct pp_ann *a)
{
	struct op_hmap index = OP_HMAP_INIT;
	size_t i, c;

	for (i = 0; i < a->s->nr_sel; i++) {
		const struct pp_row *row = a->s->sel[i];
		size_t e = ann_entry(a, &index, row->image, row->sym);

		for (c = 0; c < a->nr_classes; c++)
			a->syms[e].counts[c] += row->counts[c];
		add_row(&a->syms[e], row);
	}
	op_hmap_for_each(&index, free_slot, NULL);
	op_hmap_release(&index);
}

/* keep the entries with samples (and over -t when it applies) */
static void select_syms(struct pp_ann *a, bool threshold)
{
	size_t i, w = 0, c;

	for (i = 0; i < a->nr_syms; i++) {
		struct pp_ann_sym *s = &a->syms[i];
		bool any = false;

		for (c = 0; c < a->nr_classes; c++)
			any |= s->counts[c] != 0;
		if (any && (!threshold || pp_over_threshold(a->o, s->counts,
							    a->totals, a->nr_classes))) {
			a->syms[w++] = *s;
			continue;
		}
		free(s->counts);
		free(s->rows);
	}
	a->nr_syms = w;
	if (a->nr_syms)		/* (syms may be NULL: qsort wants an array) */
		qsort(a->syms, a->nr_syms, sizeof(*a->syms),
		      a->o->annotate.by_address ? by_address : by_samples);
}

static void name_syms(struct pp_ann *a)
{
	const struct pp_sym **syms = op_xcalloc(a->nr_syms + 1, sizeof(*syms));
	size_t *images = op_xcalloc(a->nr_syms + 1, sizeof(*images));
	const char **names = op_xcalloc(a->nr_syms + 1, sizeof(*names));
	size_t i;

	for (i = 0; i < a->nr_syms; i++) {
		syms[i] = a->syms[i].sym;
		images[i] = a->syms[i].image;
	}
	pp_shown_names(a->p, images, syms, a->nr_syms, names);
	for (i = 0; i < a->nr_syms; i++)
		a->syms[i].name = names[i];
	free(names);
	free(images);
	free(syms);
}

void pp_ann_build(struct pp_ann *a, struct pp_report *r)
{
	memset(a, 0, sizeof(*a));
	a->r = r;
	a->s = &r->sides[0];
	a->p = a->s->p;
	a->o = r->o;
	a->assembly = (r->output->mode & PP_MODE_ASSEMBLY) != 0;
	a->source = (r->output->mode & PP_MODE_SOURCE) != 0;
	a->nr_classes = a->p->nr_classes;
	a->totals = a->s->totals;
	gather(a);
	/* -t selects symbols for assembly, files for source (OProfile's rule) */
	select_syms(a, a->assembly);
	name_syms(a);
}

void pp_ann_release(struct pp_ann *a)
{
	size_t i;

	for (i = 0; i < a->nr_syms; i++) {
		free(a->syms[i].counts);
		free(a->syms[i].rows);
	}
	free(a->syms);
	memset(a, 0, sizeof(*a));
}

/* per-key counts of several rows, merged in key order */
struct key_gather {
	struct op_kv *kv;	/* key, index into counts / nr_classes */
	uint64_t *counts;
	size_t nr, alloc, nr_classes;
};

static void collect_key(void *data, uint64_t key, const uint64_t *counts)
{
	struct key_gather *g = data;

	if (g->nr == g->alloc) {
		g->alloc = g->alloc ? g->alloc * 2 : 64;
		g->kv = op_xreallocarray(g->kv, g->alloc, sizeof(*g->kv));
		g->counts = op_xreallocarray(g->counts, g->alloc * g->nr_classes,
					     sizeof(*g->counts));
	}
	g->kv[g->nr].key = key;
	g->kv[g->nr].value = g->nr;
	memcpy(&g->counts[g->nr * g->nr_classes], counts,
	       g->nr_classes * sizeof(*counts));
	g->nr++;
}

void pp_ann_for_each_key(struct pp_ann *a, size_t i,
			 void (*fn)(void *data, uint64_t key, const uint64_t *counts),
			 void *data)
{
	const struct pp_ann_sym *s = &a->syms[i];
	struct key_gather g = { .nr_classes = a->nr_classes };
	const struct op_kv *v;
	struct op_kv *tmp;
	uint64_t *sum;
	size_t k, r, c;

	if (s->nr_rows == 1) {
		pp_rows_for_each_key(a->p, &a->s->rows, s->rows[0], fn, data);
		return;
	}
	for (r = 0; r < s->nr_rows; r++)
		pp_rows_for_each_key(a->p, &a->s->rows, s->rows[r], collect_key, &g);
	tmp = op_xcalloc(g.nr + 1, sizeof(*tmp));
	sum = op_xcalloc(a->nr_classes, sizeof(*sum));
	v = op_sort_kv(g.kv, tmp, g.nr);
	for (k = 0; k < g.nr; k++) {
		const uint64_t *cnt = &g.counts[v[k].value * a->nr_classes];

		for (c = 0; c < a->nr_classes; c++)
			sum[c] += cnt[c];
		if (k + 1 < g.nr && v[k + 1].key == v[k].key)
			continue;
		fn(data, v[k].key, sum);
		memset(sum, 0, a->nr_classes * sizeof(*sum));
	}
	free(sum);
	free(tmp);
	free(g.kv);
	free(g.counts);
}

/* --- what every annotation prints ----------------------------------------- */

#define ANN_COUNT_WIDTH 6

void pp_ann_counts(struct op_strbuf *sb, const struct pp_ann *a, const uint64_t *counts)
{
	char num[32], pct[32];
	size_t c, len;

	for (c = 0; c < a->nr_classes; c++) {
		pp_format_count(num, sizeof(num), counts[c]);
		len = strlen(num);
		while (len++ < ANN_COUNT_WIDTH)
			op_strbuf_addch(sb, ' ');
		op_strbuf_addstr(sb, num);
		op_strbuf_addch(sb, ' ');
		pp_format_percent(pct, sizeof(pct), pp_ratio(counts[c], a->totals[c]), false);
		op_strbuf_addstr(sb, pct);
	}
}

/* the columns of a line: counts when there are, blanks when not, then " :" */
void pp_ann_columns(struct op_strbuf *sb, const struct pp_ann *a, const uint64_t *counts)
{
	size_t c;
	bool any = false;

	for (c = 0; counts && c < a->nr_classes; c++)
		any |= counts[c] != 0;
	if (any) {
		pp_ann_counts(sb, a, counts);
	} else {
		static const char blanks[] = "              ";	/* 6 + 1 + 7 */

		for (c = 0; c < a->nr_classes; c++)
			op_strbuf_add(sb, blanks, sizeof(blanks) - 1);
	}
	for (c = 1; c < a->nr_classes; c++)
		op_strbuf_addstr(sb, "  ");
	op_strbuf_addstr(sb, " :");
}

void pp_ann_symbol_total(struct op_strbuf *sb, const struct pp_ann *a, size_t i)
{
	op_strbuf_addf(sb, " /* %s total: ", a->syms[i].name);
	pp_ann_counts(sb, a, a->syms[i].counts);
	op_strbuf_addstr(sb, " */");
}

/* the report header (CPU, event, classes, samples outside named
 * symbols) as comment lines */
static void header_lines(FILE *out, const struct pp_ann *a)
{
	struct pp_report_opts ro = { 0 };
	char *text = NULL, *line, *next;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		op_die(1, "out of memory");
	pp_report_header(mem, a->p, a->r->info, &ro);
	pp_outside_header(mem, a->r, a->s);
	if (fclose(mem))
		op_die(1, "out of memory");
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		fprintf(out, " * %s\n", line);
	}
	free(text);
}

void pp_ann_info(FILE *out, const struct pp_ann *a)
{
	const struct pp_report_opts *o = a->o;

	fputs("/* \n", out);
	fprintf(out, " * Command line: %s \n", o->command_line ? o->command_line : "opannotate");
	fputs(" * \n * Interpretation of command line:\n", out);
	if (a->assembly) {
		fputs(" * Output annotated assembly listing with samples\n", out);
		if (a->source)
			fputs(" * Interleaved with the source lines of each instruction\n", out);
		if (o->annotate.disasm_options)
			fprintf(out, " * Disassembler options: \"%s\"\n",
				o->annotate.disasm_options);
	} else {
		fputs(" * Output annotated source file with samples\n", out);
		if (o->threshold > 0)
			fprintf(out, " * Output files where samples count reach %g%% of the samples\n",
				o->threshold);
		else
			fputs(" * Output all files\n", out);
	}
	fputs(" * \n", out);
	header_lines(out, a);
	fputs(" */\n", out);
}

/*
 * The model of r, or PP_REPORT_ERR_NOTHING (err says why) when no symbol
 * with samples passes the filters.
 */
static int build(struct pp_ann *a, struct pp_report *r, struct op_err *err)
{
	pp_ann_build(a, r);
	if (a->nr_syms)
		return 0;
	op_err_set(err, "no symbol with samples passes the filters%s",
		   r->o->threshold > 0 ? " and the threshold" : "");
	pp_ann_release(a);
	return PP_REPORT_ERR_NOTHING;
}

int pp_write_annotated_source(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_ann a;
	int ret = build(&a, r, err);

	if (ret)
		return ret;
	ret = pp_annotate_src(&a, out, err);
	pp_ann_release(&a);
	return ret;
}

int pp_write_annotated_assembly(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_ann a;
	int ret = build(&a, r, err);

	if (ret)
		return ret;
	ret = pp_annotate_asm(&a, out, err);
	pp_ann_release(&a);
	return ret;
}
