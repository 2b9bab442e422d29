// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opgprof's output: a gprof gmon.out (version 1, as binutils' gprof reads
 * it) for the one binary with samples among the rows shown.
 *
 *	header     "gmon", version (int32, 1), 12 spare bytes
 *	tag 0      histogram: low_pc, high_pc (addresses of the binary's
 *	           size), nr_bins (int32), rate (int32), dimension (15 bytes),
 *	           its abbreviation (1 byte), then nr_bins 16-bit counts
 *	tag 1      one arc per caller/callee pair: from_pc, self_pc (the
 *	           symbols' addresses), count (int32)
 *
 * Everything in the byte order of this machine, which is the order gprof
 * reads it in.  The histogram covers the binary's symbols, two bytes to a
 * bin (more when that would pass PP_GMON_MAX_BINS); counts above 65535
 * are scaled down, all by the same factor, and a note says by how much.
 * Samples counted are those of the first class (event).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

/* the most bins a histogram gets; wider bins beyond */
#define PP_GMON_MAX_BINS (1u << 24)
#define GMON_TAG_TIME_HIST 0
#define GMON_TAG_CG_ARC 1

struct gmon {
	struct pp_out out;
	struct pp_side *s;
	size_t image;
	struct pp_symtab *t;
	unsigned addr_size;
	uint64_t low, high;		/* [low, high): the histogram's range */
	uint64_t bin_size;		/* bytes per bin */
	uint64_t *bins;			/* [nr_bins] samples */
	size_t nr_bins;
};

/* the one image with samples among the shown rows, or an error */
static int one_image(struct gmon *g, struct op_err *err)
{
	struct pp_side *s = g->s;
	bool *seen = op_xcalloc(s->p->nr_images ? s->p->nr_images : 1, sizeof(*seen));
	struct op_strbuf names = OP_STRBUF_INIT;
	size_t i, nr = 0;

	for (i = 0; i < s->nr_sel; i++) {
		const struct pp_row *row = s->sel[i];

		if (!row->counts[0] || seen[row->image])
			continue;
		seen[row->image] = true;
		g->image = row->image;
		op_strbuf_addf(&names, "%s'%s'", nr ? ", " : "",
			       s->p->images[row->image].id.name);
		nr++;
	}
	free(seen);
	if (nr == 1) {
		op_strbuf_release(&names);
		return 0;
	}
	if (!nr)
		op_err_set(err, "no binary has samples in the profile specification");
	else
		op_err_set(err, "the profile specification selects %zu binaries, "
			   "opgprof needs one: %s", nr, names.buf);
	op_strbuf_release(&names);
	return nr ? PP_REPORT_ERR_NOT_ONE : PP_REPORT_ERR_NOTHING;
}

/* the range of the binary's symbols, in bins */
static int set_range(struct gmon *g, struct op_err *err)
{
	const struct pp_symtab *t = g->t;
	uint64_t low = UINT64_MAX, high = 0, n;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct pp_sym *sym = &t->syms[i];
		uint64_t end = sym->vma + (sym->end - sym->start);

		if (sym->flags & PP_SYM_ARTIFICIAL && t->nr > 1)
			continue;
		if (sym->vma < low)
			low = sym->vma;
		if (end > high)
			high = end;
	}
	if (!t->addr_size || low >= high) {
		op_err_set(err, "no symbols in '%s' to make a histogram of",
			   g->s->p->images[g->image].id.name);
		return PP_REPORT_ERR_NOTHING;
	}
	low &= ~(uint64_t)1;
	g->bin_size = 2;
	while ((high - low + g->bin_size - 1) / g->bin_size > PP_GMON_MAX_BINS)
		g->bin_size *= 2;
	n = (high - low + g->bin_size - 1) / g->bin_size;
	g->low = low;
	g->high = low + n * g->bin_size;
	g->nr_bins = (size_t)n;
	g->bins = op_xcalloc(g->nr_bins, sizeof(*g->bins));
	return 0;
}

static void add_key(void *data, uint64_t key, const uint64_t *counts)
{
	struct gmon *g = data;
	uint64_t vma = pp_symtab_vma(g->t, key);

	if (vma < g->low || vma >= g->high)
		return;
	g->bins[(vma - g->low) / g->bin_size] += counts[0];
}

static void put_bytes(struct gmon *g, const void *p, size_t len)
{
	pp_out_add(&g->out, p, len);
}

static void put_addr(struct gmon *g, uint64_t addr)
{
	uint32_t a32 = (uint32_t)addr;

	if (g->addr_size == 8)
		put_bytes(g, &addr, sizeof(addr));
	else
		put_bytes(g, &a32, sizeof(a32));
}

static void put_u32(struct gmon *g, uint32_t v)
{
	put_bytes(g, &v, sizeof(v));
}

/* the histogram record, scaled to 16 bits; a note when it was */
static void put_histogram(struct gmon *g, struct pp_notes *notes)
{
	char dimen[15] = "samples";
	uint64_t max = 0, scale;
	size_t i;

	for (i = 0; i < g->nr_bins; i++)
		if (g->bins[i] > max)
			max = g->bins[i];
	scale = max > UINT16_MAX ? (max + UINT16_MAX - 1) / UINT16_MAX : 1;
	if (scale > 1)
		pp_note(notes, "counts scaled by 1/%" PRIu64 " to fit gprof's 16-bit "
			"histogram bins (the largest bin has %" PRIu64 " samples)",
			scale, max);
	pp_out_ch(&g->out, GMON_TAG_TIME_HIST);
	put_addr(g, g->low);
	put_addr(g, g->high);
	put_u32(g, (uint32_t)g->nr_bins);
	put_u32(g, 1);			/* rate: one unit a sample */
	put_bytes(g, dimen, sizeof(dimen));
	pp_out_ch(&g->out, 's');
	for (i = 0; i < g->nr_bins; i++) {
		uint16_t v = (uint16_t)(g->bins[i] / scale);

		put_bytes(g, &v, sizeof(v));
	}
}

/* does row stand for a named symbol of the binary */
static bool named_in_image(const struct gmon *g, const struct pp_row *row)
{
	return row->image == g->image && row->sym &&
	       !(row->sym->flags & (PP_SYM_GAP | PP_SYM_ARTIFICIAL));
}

/*
 * One arc record per arc between two named symbols of the binary that
 * are shown (over -t, through -i and -e)
 */
static void put_arcs(struct gmon *g)
{
	const struct pp_arcs *a = &g->s->arcs;
	const struct pp_rows *rows = &g->s->rows;
	bool *shown = op_xcalloc(rows->nr ? rows->nr : 1, sizeof(*shown));
	size_t i;

	for (i = 0; i < g->s->nr_sel; i++)
		shown[g->s->sel[i]->index] = true;
	for (i = 0; i < a->nr; i++) {
		const struct pp_row *from = &rows->rows[a->v[i].caller];
		const struct pp_row *to = &rows->rows[a->v[i].callee];
		uint64_t count = a->v[i].counts[0];

		if (!count || !shown[from->index] || !shown[to->index] ||
		    !named_in_image(g, from) || !named_in_image(g, to))
			continue;
		pp_out_ch(&g->out, GMON_TAG_CG_ARC);
		put_addr(g, from->sym->vma);
		put_addr(g, to->sym->vma);
		put_u32(g, count > UINT32_MAX ? UINT32_MAX : (uint32_t)count);
	}
	free(shown);
}

int pp_write_gmon(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct gmon *g = op_xcalloc(1, sizeof(*g));
	static const char magic[4] = { 'g', 'm', 'o', 'n' };
	static const char spare[12];
	uint32_t version = 1;
	size_t i;
	int ret;

	g->s = &r->sides[0];
	ret = one_image(g, err);
	if (ret)
		goto out_free;
	g->t = pp_image_symtab(g->s->p, g->image);
	g->addr_size = g->t ? g->t->addr_size : 0;
	ret = g->t ? set_range(g, err) : PP_REPORT_ERR_NOTHING;
	if (ret)
		goto out_free;
	for (i = 0; i < g->s->nr_sel; i++)
		if (g->s->sel[i]->image == g->image)
			pp_rows_for_each_key(g->s->p, &g->s->rows, g->s->sel[i],
					     add_key, g);
	pp_out_init(&g->out, out);
	put_bytes(g, magic, sizeof(magic));
	put_bytes(g, &version, sizeof(version));
	put_bytes(g, spare, sizeof(spare));
	put_histogram(g, r->notes);
	put_arcs(g);
	pp_out_flush(&g->out);
out_free:
	free(g->bins);
	free(g);
	return ret;
}
