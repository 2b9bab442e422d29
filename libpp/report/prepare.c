// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The preparation every output shares (report_int.h, struct pp_side):
 * from a loaded profile to the rows an output shows.  Each option that
 * chooses rows acts here, the same way for every output:
 *
 *	rows		per symbol (or per image), -x leaving out the
 *			images applications merely use
 *	stacks		whole call stacks, for the outputs that draw them
 *	arcs		call-graph arcs between rows, -x likewise; for an
 *			output of stacks, only when there are none
 *	notes		missing or changed binaries, sample-file headers
 *			whose kernel flag contradicts their image
 *	totals		the whole every share is of: every sample, or
 *			those of the symbols -i/-e select
 *	selection	-t (unless the output picks its own units), -i/-e,
 *			and with -x rows of the applications' own images
 *	order		--sort, or the output's fixed order
 *	names		display names, symbol names demangled ahead
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

static bool needs(const struct pp_report *r, unsigned what)
{
	return (r->output->needs & what) != 0;
}

/* note missing or changed binaries of the images used, once each */
static void check_images(struct pp_profile *p, struct pp_notes *n)
{
	size_t i;

	for (i = 0; i < p->nr_images; i++) {
		struct pp_image *im = &p->images[i];
		const struct pp_symtab *t;

		if (!im->symtab || im->checked)
			continue;
		im->checked = true;
		t = im->symtab;
		if (t->missing && t->file && !strstr(t->missing, t->file)) {
			/* found but unusable: the reason alone names no file */
			pp_note(n, "cannot use the binary '%s': %s; its samples are "
				"counted under the image", t->file, t->missing);
			continue;
		}
		if (t->missing && !t->nr) {
			/* read, but without symbols: its samples are in gap rows,
			 * which the header notes (pp_outside_header()) */
			continue;
		}
		if (t->missing) {
			/* not found at all: it may have moved */
			pp_note(n, "%s; its samples are counted under the image%s", t->missing,
				t->file ? "" : " (moved? --image-path DIR or --root DIR "
					       "finds it)");
			continue;
		}
		/* the build-id recorded when profiled says more than the time */
		if (im->id.kind == ODB_IMAGE_FILE && t->file && im->mtime && t->mtime >= 0 &&
		    (uint64_t)t->mtime != im->mtime && !t->build_id_checked)
			pp_note(n, "the binary '%s' was modified after it was profiled: "
				"its symbols may not match the samples", t->file);
	}
}

/*
 * note each sample file whose header's kernel flag its image contradicts
 * (the image's kind was used), once: every output reads those samples
 */
static void check_kernel_flags(const struct pp_profile *p, struct pp_notes *n)
{
	size_t i;

	for (i = 0; i < p->nr_images; i++) {
		const struct pp_image *im = &p->images[i];
		const char *what = im->id.kind == ODB_IMAGE_ANON ? "anonymous memory" :
				   im->is_kernel ? "a kernel image" : "a user-space binary";

		if (!im->flag_file)
			continue;
		pp_note(n, "sample file '%s' %s the kernel flag in its header, but its "
			"image '%s' is %s: the flag is ignored", im->flag_file,
			im->is_kernel ? "lacks" : "has", im->id.name, what);
	}
}

static void build_rows(struct pp_report *r, struct pp_side *s)
{
	struct pp_rows_opts ro = {
		.exclude_dependent = r->o->exclude_dependent,
		.per_image = !needs(r, PP_NEEDS_SYMBOLS),
	};

	pp_rows_build(&s->rows, s->p, &ro);
	if (needs(r, PP_NEEDS_STACKS))
		s->stacks_ret = pp_stacks_load(&s->stacks, s->p,
					       (needs(r, PP_LINES_AHEAD) ? 0 : PP_STACKS_ALONE) |
					       (needs(r, PP_STACKS_AS_TREE) ? PP_STACKS_TREE : 0),
					       r->notes);
	s->with_arcs = needs(r, PP_NEEDS_ARCS) &&
		       (!needs(r, PP_NEEDS_STACKS) || s->stacks_ret);
	if (s->with_arcs)
		pp_arcs_build(&s->arcs, s->p, &s->rows, r->o->exclude_dependent,
			      needs(r, PP_CALL_SITES), r->notes);
	if (needs(r, PP_NEEDS_SYMBOLS))
		check_images(s->p, r->notes);
}

/* does row pass -i and -e? */
static bool passes_symbols(const struct pp_report *r, const struct pp_side *s,
			   const struct pp_row *row)
{
	const struct pp_report_opts *o = r->o;

	if (!row->sym || (!o->include_symbols && !o->exclude_symbols))
		return true;
	return pp_sym_passes(o->include_symbols, o->exclude_symbols, row->sym->name,
			     pp_shown_name(s->p, row->image, row->sym));
}

/*
 * The whole of every share: all samples, or with -i/-e those of the
 * symbols they select, as OProfile 1.4 computes it (-l -i a,b gives a
 * and b shares that add up to 100%)
 */
static void sum_totals(const struct pp_report *r, struct pp_side *s)
{
	size_t i, c, nr_classes = s->p->nr_classes;

	s->totals = op_xcalloc(nr_classes + 1, sizeof(*s->totals));
	for (i = 0; i < s->rows.nr; i++) {
		if (!passes_symbols(r, s, &s->rows.rows[i]))
			continue;
		for (c = 0; c < nr_classes; c++)
			s->totals[c] += s->rows.rows[i].counts[c];
	}
}

/* is row shown?  (rows come in index order: their row pointers are stable) */
static bool shown(const struct pp_report *r, const struct pp_side *s,
		  const struct pp_row *row)
{
	const struct pp_report_opts *o = r->o;

	if (!needs(r, PP_SELECTS_OWN) &&
	    !pp_over_threshold(o, row->counts, s->totals, s->p->nr_classes))
		return false;
	/* -x: a library reached by an arc is a caller or callee, not an entry */
	if (o->exclude_dependent && !pp_profile_own_image(s->p, row->app, row->image))
		return false;
	return passes_symbols(r, s, row);
}

static void select_rows(struct pp_report *r, struct pp_side *s)
{
	size_t i;

	s->sel = op_xcalloc(s->rows.nr + 1, sizeof(*s->sel));
	s->is_shown = op_xcalloc(s->rows.nr + 1, sizeof(*s->is_shown));
	for (i = 0; i < s->rows.nr; i++) {
		struct pp_row *row = &s->rows.rows[i];

		if (shown(r, s, row)) {
			s->sel[s->nr_sel++] = row;
			s->is_shown[i] = true;
		}
	}
}

/* the answer for a leaf (symbol or name, image, app): direct-mapped */
struct leaf_answer {
	const void *what;
	size_t image, app;
	struct pp_row *row;
	bool used, shown;
};

#define LEAF_MEMO 16384

struct pp_leaf_memo {
	struct leaf_answer v[LEAF_MEMO];
};

static bool leaf_shown(const struct pp_report *r, struct pp_side *s,
		       const struct pp_stack *st, struct pp_row **rowp)
{
	const struct pp_stack_frame *f = pp_stack_leaf(&s->stacks, st);
	const struct pp_report_opts *o = r->o;
	struct pp_row *row = NULL;

	if (st->nr_frames && f->image != SIZE_MAX)
		row = pp_rows_find(&s->rows, f->image, st->app, f->sym);
	*rowp = row;
	if (row)
		return s->is_shown[row->index];
	if (!st->nr_frames || f->image == SIZE_MAX)
		return false;
	/* a leaf without samples in the sample files: no share to judge */
	if (o->threshold > 0)
		return false;
	if (o->exclude_dependent && !pp_profile_own_image(s->p, st->app, f->image))
		return false;
	return pp_sym_passes(o->include_symbols, o->exclude_symbols, f->sym->name,
			     pp_shown_name(s->p, f->image, f->sym));
}

bool pp_leaf_shown(const struct pp_report *r, struct pp_side *s,
		   const struct pp_stack *st, struct pp_row **rowp)
{
	const struct pp_stack_frame *f;
	const void *what;
	struct leaf_answer *a;
	uint64_t h;

	if (!st->nr_frames) {
		if (rowp)
			*rowp = NULL;
		return false;
	}
	f = pp_stack_leaf(&s->stacks, st);
	if (!s->leaf_memo)
		s->leaf_memo = op_xcalloc_written(1, sizeof(*s->leaf_memo));
	what = f->image == SIZE_MAX ? (const void *)f->other : (const void *)f->sym;
	h = op_hash_combine(op_hash_u64((uintptr_t)what), st->app ^ ((uint64_t)f->image << 24));
	a = &s->leaf_memo->v[h & (LEAF_MEMO - 1)];
	if (!a->used || a->what != what || a->app != st->app || a->image != f->image) {
		a->used = true;
		a->what = what;
		a->app = st->app;
		a->image = f->image;
		a->shown = leaf_shown(r, s, st, &a->row);
	}
	if (rowp)
		*rowp = a->row;
	return a->shown;
}

/*
 * Which columns the rows need, as OProfile 1.4 decides: an image column
 * when a row's image is not its application's own, 16-digit addresses
 * when one needs them, judged on the rows shown, or with arcs on every
 * row (callers and callees are shown too); an application column when
 * some class has samples of several applications.
 */
static void column_hints(struct pp_side *s)
{
	bool all = s->with_arcs;
	size_t nr = all ? s->rows.nr : s->nr_sel, i;

	for (i = 0; i < nr; i++) {
		const struct pp_row *row = all ? &s->rows.rows[i] : s->sel[i];

		if (!pp_profile_own_image(s->p, row->app, row->image))
			s->show_image = true;
		if (row->sym && row->sym->vma > 0xffffffffull)
			s->vma64 = true;
	}
	s->show_app = s->rows.multiple_apps;
}

static void order_rows(struct pp_report *r, struct pp_side *s)
{
	const struct pp_output *out = r->output;
	const struct pp_report_opts *o = r->o;

	if (needs(r, PP_SORTS_OWN))
		return;
	if (out->sort) {
		if (o->nr_sort)
			pp_note(r->notes, "--sort is ignored with the %s output",
				out->name);
		pp_rows_sort(s->sel, s->nr_sel, s->p, &s->names, out->sort,
			     out->nr_sort, o->reverse, o->debug_info);
		return;
	}
	pp_rows_sort(s->sel, s->nr_sel, s->p, &s->names, o->sort, o->nr_sort,
		     o->reverse, o->debug_info);
}

/*
 * The shown names, demangled by helper threads in the order the output
 * asks for them: the rows shown as sorted, then, when arcs bring in
 * callers and callees that are not shown themselves, the other rows.
 */
static void start_names(struct pp_report *r, struct pp_side *s)
{
	size_t nr = needs(r, PP_NEEDS_ARCS) ? s->rows.nr : s->nr_sel;
	const struct pp_sym **syms = op_xcalloc(nr + 1, sizeof(*syms));
	size_t *images = op_xcalloc(nr + 1, sizeof(*images));
	bool *placed = op_xcalloc(s->rows.nr + 1, sizeof(*placed));
	size_t i, n = 0;

	s->name_pos = op_xcalloc(s->rows.nr + 1, sizeof(*s->name_pos));
	for (i = 0; i < s->rows.nr; i++)
		s->name_pos[i] = SIZE_MAX;
	for (i = 0; i < s->nr_sel; i++) {
		placed[s->sel[i]->index] = true;
		s->name_pos[s->sel[i]->index] = n;
		images[n] = s->sel[i]->image;
		syms[n++] = s->sel[i]->sym;
	}
	for (i = 0; n < nr && i < s->rows.nr; i++) {
		if (placed[i])
			continue;
		s->name_pos[i] = n;
		images[n] = s->rows.rows[i].image;
		syms[n++] = s->rows.rows[i].sym;
	}
	s->sym_names = pp_name_stream_start(s->p, images, syms, n);
	free(syms);
	free(images);
	free(placed);
}

void pp_prepare(struct pp_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_sides; i++) {
		struct pp_side *s = &r->sides[i];

		check_kernel_flags(s->p, r->notes);
		build_rows(r, s);
		sum_totals(r, s);
		pp_names_init(&s->names, s->p, r->o->long_filenames,
			      r->o->show_comm && r->info ? &r->info->comms : NULL);
		select_rows(r, s);
		column_hints(s);
		order_rows(r, s);
		if (needs(r, PP_NAMES_AHEAD))
			start_names(r, s);
	}
}

const char *pp_side_sym_name(const struct pp_side *s, const struct pp_row *row)
{
	size_t pos = s->name_pos ? s->name_pos[row->index] : SIZE_MAX;

	if (pos == SIZE_MAX)
		OP_BUG("no shown name prepared for row %zu", row->index);
	return pp_name_stream_get(s->sym_names, pos);
}

void pp_prepare_release(struct pp_report *r)
{
	size_t i;

	for (i = 0; i < r->nr_sides; i++) {
		struct pp_side *s = &r->sides[i];

		pp_name_stream_end(s->sym_names);
		free(s->name_pos);
		free(s->leaf_memo);
		free(s->sel);
		free(s->is_shown);
		free(s->totals);
		pp_names_release(&s->names);
		if (s->with_arcs)
			pp_arcs_release(&s->arcs);
		if (needs(r, PP_NEEDS_STACKS))
			pp_stacks_release(&s->stacks);
		pp_rows_release(&s->rows);
	}
}
