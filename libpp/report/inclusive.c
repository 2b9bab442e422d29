// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Self and total samples per symbol for opreport --callgraph, from the
 * whole call stacks of the session's stack file (pp_stacks.h), as perf
 * report --children shows them: a symbol's self samples are those of
 * the stacks it is the leaf of, its total those of the stacks that hold
 * it anywhere, each stack counted once however often the symbol recurs
 * in it.  They come after the blocks, as a section of their own whose
 * lines are indented, so that what reads OProfile's blocks (a symbol's
 * line unindented, its callers and callees indented) reads them as
 * before.  A session without a stack file gets them from its call-graph
 * arcs instead: an arc's count is the samples taken while that call was
 * on the stack (every caller->callee pair of a chain is counted), so a
 * symbol's total is its own samples plus those of the calls it makes,
 * exact but for recursion, where a call into itself counts again.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_stacks.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

struct func {
	size_t image;
	const struct pp_sym *sym;
	size_t last_stack;		/* + 1: the stack last counted in total */
	uint64_t *self, *total;		/* per class */
};

struct inclusive {
	struct func **v;
	size_t nr;
	struct op_hmap index;
	size_t nr_classes;
};

static struct func *func_get(struct inclusive *in, size_t image,
			     const struct pp_sym *sym)
{
	uint64_t h = op_hash_combine(op_hash_u64(image), (uint64_t)(uintptr_t)sym);
	struct op_hmap_iter it;
	struct func *f;

	for (f = op_hmap_first(&in->index, h, &it); f; f = op_hmap_next(&in->index, h, &it))
		if (f->image == image && f->sym == sym)
			return f;
	f = op_xcalloc(1, sizeof(*f));
	f->image = image;
	f->sym = sym;
	f->self = op_xcalloc(in->nr_classes, sizeof(uint64_t));
	f->total = op_xcalloc(in->nr_classes, sizeof(uint64_t));
	if (op_hmap_insert(&in->index, h, f))
		op_die(1, "out of memory");
	in->v = op_xreallocarray(in->v, in->nr + 1, sizeof(*in->v));
	in->v[in->nr++] = f;
	return f;
}

static void sum_stacks(struct inclusive *in, const struct pp_stacks *st)
{
	size_t i, j, c;

	for (i = 0; i < st->nr; i++) {
		const struct pp_stack *s = &st->v[i];

		for (j = 0; j < s->nr_frames; j++) {
			const struct pp_stack_frame *fr = &s->frames[j];
			struct func *f;

			if (fr->image == SIZE_MAX)
				continue;	/* no symbols: not a row of the report */
			f = func_get(in, fr->image, fr->sym);
			for (c = 0; !j && c < in->nr_classes; c++)
				f->self[c] += s->counts[c];
			if (f->last_stack == i + 1)
				continue;	/* recursion: once per stack */
			f->last_stack = i + 1;
			for (c = 0; c < in->nr_classes; c++)
				f->total[c] += s->counts[c];
		}
	}
}

static int by_total(const void *pa, const void *pb)
{
	const struct func *a = *(struct func *const *)pa, *b = *(struct func *const *)pb;

	if (a->total[0] != b->total[0])
		return a->total[0] < b->total[0] ? 1 : -1;
	if (a->self[0] != b->self[0])
		return a->self[0] < b->self[0] ? 1 : -1;
	if (a->image != b->image)
		return a->image < b->image ? -1 : 1;
	return a->sym->start < b->sym->start ? -1 : a->sym->start > b->sym->start;
}

static void put_count(FILE *out, uint64_t n, uint64_t whole)
{
	char pct[32];

	pp_format_percent(pct, sizeof(pct), whole ? 100.0 * (double)n / (double)whole : 0,
			  false);
	fprintf(out, "%-8" PRIu64 " %-8s ", n, pct);
}

/* self and total per symbol from the arcs: own samples, plus the calls' */
static void sum_arcs(struct inclusive *in, struct pp_side *s)
{
	struct pp_arc_entry *buf = op_xcalloc(s->arcs.nr + 2, sizeof(*buf));
	size_t i, k, c;

	for (i = 0; i < s->rows.nr; i++) {
		const struct pp_row *row = &s->rows.rows[i];
		size_t nr;
		struct func *f;

		if (!row->sym)
			continue;
		nr = pp_arcs_list(&s->arcs, &s->rows, row, true, false, buf);
		f = func_get(in, row->image, row->sym);
		for (c = 0; c < in->nr_classes; c++) {
			f->self[c] += row->counts[c];
			f->total[c] += row->counts[c];
			for (k = 0; k < nr; k++)
				if (!buf[k].self)
					f->total[c] += buf[k].counts[c];
		}
	}
	free(buf);
}

static void write_table(FILE *out, struct inclusive *in, struct pp_side *s,
			const char *heading)
{
	size_t i, c;

	fputs(heading, out);
	fputs("  ", out);
	for (c = 0; c < in->nr_classes; c++)
		fputs("self     %        total    %        ", out);
	fputs("image name               symbol name\n", out);
	for (i = 0; i < in->nr; i++) {
		const struct func *f = in->v[i];

		if (!f->total[0] && !f->self[0])
			continue;
		fputs("  ", out);
		for (c = 0; c < in->nr_classes; c++) {
			put_count(out, f->self[c], s->totals[c]);
			put_count(out, f->total[c], s->totals[c]);
		}
		fprintf(out, "%-24s %s\n", pp_names_image(&s->names, f->image),
			pp_shown_name(s->p, f->image, f->sym));
	}
}

void pp_write_inclusive(FILE *out, const struct pp_stacks *st, struct pp_side *s)
{
	struct inclusive in = { .nr_classes = s->p->nr_classes };
	size_t i;

	op_hmap_init(&in.index);
	if (st)
		sum_stacks(&in, st);
	else
		sum_arcs(&in, s);
	if (in.nr)
		qsort(in.v, in.nr, sizeof(*in.v), by_total);
	write_table(out, &in, s, st ?
		    "Self and total samples per symbol, from whole call stacks (total: the "
		    "samples whose stack holds the symbol, once however often it recurs):\n" :
		    "Self and total samples per symbol, from the call-graph arcs (total: its "
		    "own samples and those of the calls it makes; a call into itself counts "
		    "again):\n");
	for (i = 0; i < in.nr; i++) {
		free(in.v[i]->self);
		free(in.v[i]->total);
		free(in.v[i]);
	}
	free(in.v);
	op_hmap_release(&in.index);
}
