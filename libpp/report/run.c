// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From a built profile to a written output (pp_report_run()): load once,
 * prepare once, write.  The phases are the same for every output; what
 * differs is in the output's row of the table (outputs.c).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

static const char *const report_messages[] = {
#define PP_REPORT_ERROR(name, text) [PP_REPORT_ERR_##name - PP_REPORT_ERR_BASE] = text,
	PP_REPORT_ERRORS
#undef PP_REPORT_ERROR
};

const char *pp_report_strerror(int err)
{
	if (err > PP_REPORT_ERR_BASE && err < PP_REPORT_ERR_END)
		return report_messages[err - PP_REPORT_ERR_BASE];
	if (err > PP_SYMBOLS_ERR_BASE && err < PP_SYMBOLS_ERR_END)
		return pp_symbols_strerror(err);
	return pp_profile_strerror(err);
}

/* read the samples (and with symbols, the symbol tables) of each side */
static int load(const struct pp_report_input *in, bool symbols, struct op_err *err)
{
	size_t i;
	int ret;

	for (i = 0; i < in->nr_profiles; i++) {
		ret = pp_profile_load(in->profiles[i], symbols, in->notes, err);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * -i/-e that select no symbol with samples: an error in every output, as
 * in opannotate (OProfile 1.4's opreport prints an empty table and exits
 * 0, its opannotate fails), so that a mistyped name is not taken for a
 * symbol without samples.  The totals are those of the selected symbols.
 */
static int nothing_selected(const struct pp_report *r, struct op_err *err)
{
	size_t i, c;

	if (!r->o->include_symbols && !r->o->exclude_symbols)
		return 0;
	for (i = 0; i < r->nr_sides; i++)
		for (c = 0; c < r->sides[i].p->nr_classes; c++)
			if (r->sides[i].totals[c])
				return 0;
	op_err_set(err, "no symbol with samples passes the filters");
	return PP_REPORT_ERR_NOTHING;
}

/*
 * PP_LINES_AHEAD: p's images with samples, most samples first; with the
 * call sites of the {cg} groups the arcs will take (loaded here) when
 * the output needs arcs
 */
static struct pp_lines_ahead *every_image_ahead(struct pp_report *r, struct pp_profile *p)
{
	bool calls = r->output->needs & PP_NEEDS_ARCS;
	struct pp_image_count *v = op_xcalloc(p->nr_images + 1, sizeof(*v));
	size_t *images = op_xcalloc(p->nr_images + 1, sizeof(*images));
	unsigned char *seen = op_xcalloc(p->nr_images + 1, 1);
	struct pp_lines_ahead *la;
	size_t i, k, n = 0;

	for (i = 0; i < p->nr_images; i++) {
		const struct pp_image *im = &p->images[i];

		if (!im->nr_groups)
			continue;
		v[n].image = i;
		for (k = 0; k < im->nr_groups; k++)
			v[n].count += p->groups[im->groups[k]].total;
		n++;
	}
	qsort(v, n, sizeof(*v), pp_image_count_cmp);
	for (i = 0; i < n; i++)
		images[i] = v[i].image;
	for (i = 0; calls && i < p->nr_cg; i++) {
		const struct pp_cg_group *g = &p->cg[i];

		/* -x leaves out these groups' arcs (pp_arcs_for_each_record()) */
		if (r->o->exclude_dependent && (!pp_profile_own_image(p, g->app, g->caller) ||
						!pp_profile_own_image(p, g->app, g->callee)))
			continue;
		pp_cg_group_load(p, &p->cg[i], r->notes);
		/* then the images of arc ends without samples of their own */
		if (!p->images[g->caller].nr_groups && !seen[g->caller]) {
			seen[g->caller] = 1;
			images[n++] = g->caller;
		}
		if (!p->images[g->callee].nr_groups && !seen[g->callee]) {
			seen[g->callee] = 1;
			images[n++] = g->callee;
		}
	}
	la = pp_lines_ahead_start(p, images, n, calls);
	free(images);
	free(seen);
	free(v);
	return la;
}

int pp_report_run(const struct pp_output *output, const struct pp_report_input *in,
		  FILE *out, struct op_err *err)
{
	struct pp_lines_ahead *ahead = NULL;
	struct pp_report r;
	size_t i;
	int ret;

	memset(&r, 0, sizeof(r));
	r.output = output;
	r.o = in->o;
	r.info = in->info;
	r.notes = in->notes;
	r.files = in->files[0];
	r.nr_sides = output->needs & PP_NEEDS_TWO ? 2 : 1;
	if (in->nr_profiles < r.nr_sides)
		OP_BUG("output '%s' needs %zu profiles, got %zu", output->name,
		       r.nr_sides, in->nr_profiles);
	for (i = 0; i < r.nr_sides; i++)
		r.sides[i].p = in->profiles[i];
	ret = load(in, output->needs & PP_NEEDS_SYMBOLS, err);
	if (ret)
		return ret;
	for (i = 0; i < r.nr_sides; i++) {
		ret = pp_metrics_make(&r.sides[i].metrics, r.o->metrics, r.sides[i].p, err);
		if (ret) {
			while (i--)
				pp_metrics_release(&r.sides[i].metrics);
			return ret;
		}
	}
	if (output->needs & PP_LINES_AHEAD)
		ahead = every_image_ahead(&r, r.sides[0].p);
	pp_prepare(&r);
	ret = nothing_selected(&r, err);
	if (!ret)
		ret = output->write(&r, out, err);
	pp_lines_ahead_end(ahead);
	pp_prepare_release(&r);
	for (i = 0; i < r.nr_sides; i++)
		pp_metrics_release(&r.sides[i].metrics);
	return ret;
}
