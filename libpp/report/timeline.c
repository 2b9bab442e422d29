// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=timeline: the samples of each time slice (time: in
 * the specification, the whole session by default), in all and for the
 * hottest symbols of the range, one line per slice.  The hottest symbols
 * are the first rows of the -l report over the whole range (--sort, -t,
 * -i and -e apply); each slice is then read alone (pp_time_select()) and
 * summed into rows again, the symbol tables kept.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_time.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

#define TOP 6			/* symbols with a column each */

/* the counts of one slice: per class, the slice's samples, each top
 * symbol's and the rest */
struct slice_counts {
	uint64_t start, length;
	uint64_t *v;		/* [class][TOP + 2] */
};

static void legend(FILE *out, struct pp_side *s, size_t nr_top)
{
	size_t k;

	fprintf(out, "Samples per time slice of the whole profile and of its %zu "
		"hottest symbol%s (\"other\": the rest):\n", nr_top,
		nr_top == 1 ? "" : "s");
	for (k = 0; k < nr_top; k++) {
		const struct pp_row *row = s->sel[k];

		fprintf(out, "  [%zu] %s (%s)\n", k + 1, pp_side_sym_name(s, row),
			pp_names_image(&s->names, row->image));
	}
}

/* one slice's counts, read alone */
static int count_slice(struct pp_report *r, struct pp_file_list *files,
		       size_t nr_top, struct slice_counts *sc, struct op_err *err)
{
	struct pp_side *s = &r->sides[0];
	struct pp_profile *p = s->p;
	struct pp_rows_opts ro = { .exclude_dependent = r->o->exclude_dependent };
	struct pp_rows rows;
	size_t c, k, w = nr_top + 2;
	int ret;

	pp_time_select(files, sc->start, sc->start + 1);
	pp_profile_unload(p);
	ret = pp_profile_load(p, true, r->notes, err);
	if (ret == PP_PROFILE_ERR_UNREADABLE)
		ret = 0;	/* a slice of files without samples in it */
	if (ret)
		return ret;
	pp_rows_build(&rows, p, &ro);
	for (c = 0; c < p->nr_classes; c++) {
		uint64_t *v = sc->v + c * w, in_top = 0;

		v[0] = rows.totals[c];
		for (k = 0; k < nr_top; k++) {
			const struct pp_row *top = s->sel[k];
			struct pp_row *row = pp_rows_find(&rows, top->image, top->app,
							  top->sym);

			v[1 + k] = row ? row->counts[c] : 0;
			in_top += v[1 + k];
		}
		v[1 + nr_top] = v[0] - in_top;
	}
	pp_rows_release(&rows);
	return 0;
}

static void print_class(FILE *out, const struct pp_profile *p, size_t cls,
			const struct slice_counts *sc, size_t nr, size_t nr_top)
{
	size_t i, k, w = nr_top + 2;

	if (p->nr_classes > 1)
		fprintf(out, "\n%s\n", p->classes[cls].longname ? p->classes[cls].longname :
			p->classes[cls].name);
	fprintf(out, "%-10s %-10s %9s", "start s", "end s", "samples");
	for (k = 0; k < nr_top; k++) {
		char label[32];

		snprintf(label, sizeof(label), "[%zu]", k + 1);
		fprintf(out, " %9s", label);
	}
	fprintf(out, " %9s\n", "other");
	for (i = 0; i < nr; i++) {
		const uint64_t *v = sc[i].v + cls * w;

		fprintf(out, "%-10.3f %-10.3f %9" PRIu64, sc[i].start / 1e9,
			(sc[i].start + sc[i].length) / 1e9, v[0]);
		for (k = 0; k < nr_top; k++)
			fprintf(out, " %9" PRIu64, v[1 + k]);
		fprintf(out, " %9" PRIu64 "\n", v[1 + nr_top]);
	}
}

int pp_write_timeline(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *s = &r->sides[0];
	struct pp_file_list *files = r->files;
	struct slice_counts *sc;
	size_t nr, nr_top = s->nr_sel < TOP ? s->nr_sel : TOP, i, c;
	int ret = 0;

	if (!files || !files->time || !pp_time_nr_points(files->time)) {
		op_err_set(err, "--format=timeline needs time slices (time: in the "
			   "profile specification)");
		return PP_REPORT_ERR_NOTHING;
	}
	nr = pp_time_nr_points(files->time);
	sc = op_xcalloc(nr, sizeof(*sc));
	for (i = 0; i < nr && !ret; i++) {
		pp_time_point(files->time, i, &sc[i].start, &sc[i].length);
		sc[i].v = op_xcalloc(s->p->nr_classes * (nr_top + 2), sizeof(*sc[i].v));
		ret = count_slice(r, files, nr_top, &sc[i], err);
	}
	if (!ret) {
		pp_report_header(out, s->p, r->info, r->o);
		legend(out, s, nr_top);
		for (c = 0; c < s->p->nr_classes; c++)
			print_class(out, s->p, c, sc, nr, nr_top);
	}
	for (i = 0; i < nr; i++)
		free(sc[i].v);
	free(sc);
	return ret;
}
