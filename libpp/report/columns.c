// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The columns of a symbol line, shared by opreport -l, its -d detail
 * lines and every line of -c, so that -w, -a, -g and the image and app
 * columns mean the same in each:
 *
 *	[vma] {samples [cum. samples] % [low % high %] [cum. %]}...
 *	[metric]... [linenr info]
 *	[image name] [app name] symbol name
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

void pp_cols_of(struct pp_cols *c, const struct pp_report *r,
		const struct pp_side *s)
{
	const struct pp_report_opts *o = r->o;

	memset(c, 0, sizeof(*c));
	c->vma = o->show_address || o->details;
	c->vma64 = s->vma64;
	c->cum = o->accumulated;
	c->linenr = o->debug_info;
	c->image = s->show_image;
	c->app = s->show_app;
	c->long_names = o->long_filenames;
	c->z = o->confidence > 0 ? o->z : 0.0;
	c->metrics = s->metrics.nr ? &s->metrics : NULL;
}

bool pp_cols_parallel(const struct pp_cols *c, struct pp_side *s)
{
	if (c->linenr)
		return false;
	pp_names_fill(&s->names);
	return true;
}

void pp_cols_header(FILE *out, const struct pp_cols *c, size_t nr_classes)
{
	struct pp_line l;
	size_t k;

	pp_line_start(&l, out, NULL);
	if (c->vma)
		pp_line_field(&l, "vma", W_VMA);
	for (k = 0; k < nr_classes; k++) {
		pp_line_field(&l, "samples", W_SAMPLES);
		if (c->cum)
			pp_line_field(&l, "cum. samples", W_CUM_SAMPLES);
		pp_line_field(&l, "%", W_PERCENT);
		if (c->z > 0) {
			pp_line_field(&l, "low %", W_PERCENT);
			pp_line_field(&l, "high %", W_PERCENT);
		}
		if (c->cum)
			pp_line_field(&l, "cum. %", W_CUM_PERCENT);
	}
	for (k = 0; c->metrics && k < c->metrics->nr; k++)
		pp_line_field(&l, c->metrics->m[k].name, W_METRIC);
	if (c->linenr)
		pp_line_field(&l, "linenr info", W_LINENR);
	if (c->image)
		pp_line_field(&l, "image name", W_IMAGE);
	if (c->app)
		pp_line_field(&l, "app name", W_APP);
	pp_line_field(&l, "symbol name", W_SYMBOL);
	pp_line_end(&l);
}

void pp_cum_init(struct pp_cum *cum, size_t nr_classes)
{
	cum->sum = op_xcalloc(nr_classes + 1, sizeof(*cum->sum));
	cum->wil = op_xcalloc(nr_classes + 1, sizeof(*cum->wil));
	cum->memo = NULL;
	cum->nr = nr_classes;
}

void pp_cum_reset(struct pp_cum *cum)
{
	memset(cum->sum, 0, cum->nr * sizeof(*cum->sum));
}

void pp_cum_release(struct pp_cum *cum)
{
	free(cum->sum);
	free(cum->wil);
	pp_metric_memo_free(cum->memo);
	cum->sum = NULL;
	cum->wil = NULL;
	cum->memo = NULL;
}

/* samples [cum. samples] % [low % high %] [cum. %] of each class */
static void put_counts(struct pp_line *l, const struct pp_cols *c,
		       const uint64_t *counts, const uint64_t *whole,
		       struct pp_cum *cum)
{
	char buf[64];
	size_t k;

	for (k = 0; k < cum->nr; k++) {
		cum->sum[k] += counts[k];
		pp_format_count(buf, sizeof(buf), counts[k]);
		pp_line_field(l, buf, W_SAMPLES);
		if (c->cum) {
			pp_format_count(buf, sizeof(buf), cum->sum[k]);
			pp_line_field(l, buf, W_CUM_SAMPLES);
		}
		pp_line_field_len(l, buf, pp_format_percent(buf, sizeof(buf),
							     pp_ratio(counts[k], whole[k]),
							     false), W_PERCENT);
		if (c->z > 0)
			pp_interval_fields(l, counts[k], whole[k], c->z, &cum->wil[k]);
		if (c->cum) {
			pp_format_percent(buf, sizeof(buf),
					  pp_ratio(cum->sum[k], whole[k]), false);
			pp_line_field(l, buf, W_CUM_PERCENT);
		}
	}
}

void pp_cols_line(FILE *out, const struct pp_cols *c, struct pp_side *s,
		  const struct pp_cols_row *w, struct pp_cum *cum)
{
	struct pp_line l;
	char buf[64];

	pp_line_start(&l, out, w->prefix);
	if (c->vma) {
		pp_format_vma(buf, sizeof(buf), w->vma, c->vma64);
		pp_line_field(&l, buf, W_VMA);
	}
	put_counts(&l, c, w->counts, w->whole, cum);
	if (c->metrics)
		pp_metric_fields_memo(&l, c->metrics, w->counts, &cum->memo);
	if (c->linenr) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		pp_linenr(&sb, s->p, w->row->image, w->key, c->long_names);
		pp_line_field(&l, sb.buf, W_LINENR);
		op_strbuf_release(&sb);
	}
	if (w->name) {
		if (c->image)
			pp_line_field(&l, pp_names_image(&s->names, w->row->image),
				      W_IMAGE);
		if (c->app)
			pp_line_field(&l, pp_names_app(&s->names, w->row->app), W_APP);
		if (w->suffix) {
			struct op_strbuf sb = OP_STRBUF_INIT;

			op_strbuf_addf(&sb, "%s%s", w->name, w->suffix);
			if (op_strbuf_failed(&sb))
				op_die(1, "out of memory");
			pp_line_field(&l, sb.buf, W_SYMBOL);
			op_strbuf_release(&sb);
		} else {
			pp_line_field(&l, w->name, W_SYMBOL);
		}
	}
	pp_line_end(&l);
}
