// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=callgrind: the profile in the callgrind format
 * (valgrind's "cl-format", read by callgrind_annotate and KCachegrind).
 *
 *	header     version, creator, cmd, "positions: line", one "event:"
 *	           line per class (its long name), "events:" with the
 *	           classes as columns
 *	per row    ob= (the binary), fl= (the source file of the symbol's
 *	           first address, "???" without line information), fn=,
 *	           then one cost line "LINE COUNT..." per source line with
 *	           samples (fi= before the lines of another file, inlined
 *	           code; fe= back to fl's file), line 0 when no line is known
 *	per call   cob=, cfi=, cfn= (the callee), "calls=N LINE" (N: the
 *	           largest count; LINE: the callee's first line), then
 *	           "LINE COUNT..." at the line of the call (the caller's
 *	           first line when the call is in inlined code of another
 *	           file): the counts of the arc's records from that line,
 *	           which are the inclusive cost of the call (operf counts
 *	           every adjacent caller/callee pair of each sample's chain
 *	           once)
 *	end        totals: the whole of every share, as opreport -l has it
 *
 * Rows are those shown (-t, -i, -e, -x), in --sort's order; arcs from a
 * shown row are all written, to shown callees or not, so inclusive costs
 * stay whole.  Names are compressed as valgrind writes them: "(ID) name"
 * the first time, "(ID)" after, one numbering for objects (ob, cob), one
 * for files (fl, fi, fe, cfi) and one for functions (fn, cfn).
 */
#include "config.h"

#include <ctype.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

#define UNKNOWN_FILE "???"

/* names of one kind, each with its compression id (from 1) */
struct cg_name {
	char *s;
	size_t id;
};

struct cg_names {
	struct op_hmap map;
	struct cg_name **v;
	size_t nr, alloc;
};

/* where a row's function starts: its file and first line */
struct cg_where {
	const char *file;
	unsigned line;
	bool known;			/* looked up */
};

/* one source line with samples of a row */
struct cg_line {
	const char *file;		/* NULL: none known (then the function's) */
	unsigned line;
	bool own;			/* in the function's own file */
	uint64_t *counts;		/* [nr_classes] */
};

/*
 * the samples of the calls from one line of a caller to one callee: one
 * record's while they are gathered, then their sum
 */
struct cg_site {
	size_t caller, callee;		/* row indexes */
	unsigned line;			/* in the caller's own file */
	size_t cls;			/* the record's class */
	uint64_t count;			/* the record's samples */
	uint64_t *counts;		/* [nr_classes], once summed */
};

struct cg {
	struct pp_out out;
	struct pp_side *s;
	struct pp_profile *p;
	size_t nr_classes;
	struct cg_names obs, files, fns;
	struct cg_where *where;		/* per row index */
	struct cg_line *lines;		/* of the row being written */
	size_t nr_lines, alloc_lines;
	const char *cur_file;		/* the file of the cost lines now */
	struct pp_symtab *t;		/* of the row being written */
	struct cg_site *sites;		/* by caller, callee, line */
	size_t nr_sites, alloc_sites;
	uint64_t *site_counts;		/* the sites' counts, nr_classes each */
	size_t *site_first;		/* per row index: its first site */
	bool *shown;			/* per row index: written */
};

static void names_release(struct cg_names *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++) {
		free(n->v[i]->s);
		free(n->v[i]);
	}
	free(n->v);
	op_hmap_release(&n->map);
}

/* s with control characters (a line break would end the line) as '?' */
static void put_clean(struct pp_out *out, const char *s)
{
	for (; *s; s++)
		pp_out_ch(out, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* "KEY=(ID) NAME" the first time NAME is written, "KEY=(ID)" after */
static void put_name(struct cg *g, struct cg_names *n, const char *key, const char *name)
{
	struct op_hmap_iter it;
	struct cg_name *e;
	bool fresh = false;
	uint64_t h;

	if (!*name)
		name = UNKNOWN_FILE;
	h = op_hash_str(name);
	for (e = op_hmap_first(&n->map, h, &it); e; e = op_hmap_next(&n->map, h, &it))
		if (!strcmp(e->s, name))
			break;
	if (!e) {
		e = op_xmalloc(sizeof(*e));
		e->s = op_xstrdup(name);
		e->id = n->nr + 1;
		if (n->nr == n->alloc) {
			n->alloc = n->alloc ? 2 * n->alloc : 256;
			n->v = op_xreallocarray(n->v, n->alloc, sizeof(*n->v));
		}
		n->v[n->nr++] = e;
		if (op_hmap_insert(&n->map, h, e))
			op_die(1, "out of memory");
		fresh = true;
	}
	pp_out_str(&g->out, key);
	pp_out_str(&g->out, "=(");
	pp_out_u64(&g->out, e->id);
	pp_out_ch(&g->out, ')');
	if (fresh) {
		pp_out_ch(&g->out, ' ');
		put_clean(&g->out, name);
	}
	pp_out_ch(&g->out, '\n');
}

/* file and line of key in table t (NULL file: none known) */
static void line_of(struct pp_symtab *t, uint64_t key, const char **file, unsigned *line)
{
	*file = NULL;
	*line = 0;
	if (!t || pp_symtab_line(t, key, file, line, NULL) || !*file || !**file) {
		*file = NULL;
		*line = 0;
	}
}

/* where row's function starts, looked up once */
static const struct cg_where *where_of(struct cg *g, const struct pp_row *row)
{
	struct cg_where *w = &g->where[row->index];

	if (!w->known) {
		w->known = true;
		if (row->sym)
			line_of(pp_image_symtab(g->p, row->image), row->sym->start,
				&w->file, &w->line);
		if (!w->file)
			w->file = UNKNOWN_FILE;
	}
	return w;
}

static void put_costs(struct cg *g, unsigned line, const uint64_t *counts)
{
	size_t c;

	pp_out_u64(&g->out, line);
	for (c = 0; c < g->nr_classes; c++) {
		pp_out_ch(&g->out, ' ');
		pp_out_u64(&g->out, counts[c]);
	}
	pp_out_ch(&g->out, '\n');
}

/* pp_rows_for_each_key(): a key's samples onto its source line */
static void add_key(void *data, uint64_t key, const uint64_t *counts)
{
	struct cg *g = data;
	struct cg_line *l;
	const char *file;
	unsigned line;
	size_t c;

	line_of(g->t, key, &file, &line);
	l = g->nr_lines ? &g->lines[g->nr_lines - 1] : NULL;
	if (!l || l->line != line || (l->file != file && (!l->file || !file ||
							   strcmp(l->file, file)))) {
		if (g->nr_lines == g->alloc_lines) {
			g->alloc_lines = g->alloc_lines ? 2 * g->alloc_lines : 64;
			g->lines = op_xreallocarray(g->lines, g->alloc_lines,
						    sizeof(*g->lines));
		}
		l = &g->lines[g->nr_lines++];
		l->file = file;
		l->line = line;
		l->counts = op_xcalloc(g->nr_classes, sizeof(*l->counts));
	}
	for (c = 0; c < g->nr_classes; c++)
		l->counts[c] += counts[c];
}

/* the function's own file first, then by file name, then line */
static int line_cmp(const void *a, const void *b)
{
	const struct cg_line *x = a, *y = b;
	int d;

	if (x->own != y->own)
		return (int)y->own - (int)x->own;
	d = strcmp(x->file, y->file);
	if (d)
		return d;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* switch the cost lines to file (fi=, or fe= back to the function's) */
static void to_file(struct cg *g, const char *file, const char *own)
{
	if (!strcmp(file, g->cur_file))
		return;
	put_name(g, &g->files, strcmp(file, own) ? "fi" : "fe", file);
	g->cur_file = file;
}

/* the self cost lines of row, summed per source line */
static void put_self(struct cg *g, const struct pp_row *row, const char *own)
{
	size_t i, c;

	g->nr_lines = 0;
	g->t = pp_image_symtab(g->p, row->image);
	pp_rows_for_each_key(g->p, &g->s->rows, row, add_key, g);
	for (i = 0; i < g->nr_lines; i++) {
		if (!g->lines[i].file)
			g->lines[i].file = own;
		g->lines[i].own = !strcmp(g->lines[i].file, own);
	}
	if (g->nr_lines)
		qsort(g->lines, g->nr_lines, sizeof(*g->lines), line_cmp);
	for (i = 0; i < g->nr_lines; i++) {
		struct cg_line *l = &g->lines[i];

		if (i + 1 < g->nr_lines && !line_cmp(l, l + 1)) {
			for (c = 0; c < g->nr_classes; c++)
				l[1].counts[c] += l->counts[c];
		} else {
			to_file(g, l->file, own);
			put_costs(g, l->line, l->counts);
		}
		free(l->counts);
	}
	if (!g->nr_lines)	/* an arc end without samples of its own */
		put_costs(g, row->sym ? where_of(g, row)->line : 0, row->counts);
}

/*
 * a record of the arcs, of a shown caller, onto the line it calls from
 * (its return address less one byte is in the call); the caller's first
 * line when that is in another file (inlined code)
 */
static void add_record(struct cg *g, const struct pp_arc_record *rec)
{
	const struct pp_row *from = &g->s->rows.rows[rec->caller];
	const struct cg_where *w;
	struct cg_site *site;
	const char *file;
	unsigned line;

	if (!g->shown[rec->caller] || !rec->count)
		return;
	w = where_of(g, from);
	line_of(pp_image_symtab(g->p, rec->caller_image), rec->from ? rec->from - 1 : 0,
		&file, &line);
	if (!file || strcmp(file, w->file))
		line = w->line;
	if (g->nr_sites == g->alloc_sites) {
		g->alloc_sites = g->alloc_sites ? 2 * g->alloc_sites : 256;
		g->sites = op_xreallocarray(g->sites, g->alloc_sites, sizeof(*g->sites));
	}
	site = &g->sites[g->nr_sites++];
	site->caller = rec->caller;
	site->callee = rec->callee;
	site->line = line;
	site->cls = rec->cls;
	site->count = rec->count;
}

static int site_cmp(const void *a, const void *b)
{
	const struct cg_site *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* the call sites of the shown rows, summed per (caller, callee, line) */
static void build_sites(struct cg *g)
{
	const struct pp_arcs *a = &g->s->arcs;
	size_t nr_rows = g->s->rows.nr, i, n = 0;

	g->shown = op_xcalloc(nr_rows + 1, sizeof(*g->shown));
	for (i = 0; i < g->s->nr_sel; i++)
		g->shown[g->s->sel[i]->index] = true;
	for (i = 0; i < a->nr_records; i++)
		add_record(g, &a->records[i]);
	if (g->nr_sites)
		qsort(g->sites, g->nr_sites, sizeof(*g->sites), site_cmp);
	g->site_counts = op_xcalloc(g->nr_sites * g->nr_classes + 1, sizeof(*g->site_counts));
	for (i = 0; i < g->nr_sites; i++) {
		struct cg_site *site = &g->sites[i];

		if (!n || site_cmp(&g->sites[n - 1], site)) {
			g->sites[n] = *site;
			g->sites[n].counts = &g->site_counts[n * g->nr_classes];
			n++;
		}
		g->sites[n - 1].counts[site->cls] += site->count;
	}
	g->nr_sites = n;
	g->site_first = op_xcalloc(nr_rows + 2, sizeof(*g->site_first));
	for (i = 0; i < n; i++)
		g->site_first[g->sites[i].caller + 1]++;
	for (i = 1; i <= nr_rows; i++)
		g->site_first[i] += g->site_first[i - 1];
}

/* the calls of row: one per (callee, line it calls from) */
static void put_calls(struct cg *g, const struct pp_row *row, const struct cg_where *from)
{
	size_t k, c;

	to_file(g, from->file, from->file);
	for (k = g->site_first[row->index]; k < g->site_first[row->index + 1]; k++) {
		const struct cg_site *site = &g->sites[k];
		const struct pp_row *to = &g->s->rows.rows[site->callee];
		const struct cg_where *w = where_of(g, to);
		uint64_t calls = 0;

		for (c = 0; c < g->nr_classes; c++)
			if (site->counts[c] > calls)
				calls = site->counts[c];
		put_name(g, &g->obs, "cob", g->p->images[to->image].id.name);
		put_name(g, &g->files, "cfi", w->file);
		put_name(g, &g->fns, "cfn", pp_shown_name(g->p, to->image, to->sym));
		pp_out_fmt(&g->out, "calls=%" PRIu64 " %u\n", calls, w->line);
		put_costs(g, site->line, site->counts);
	}
}

static void put_row(struct cg *g, const struct pp_row *row)
{
	const struct cg_where *w = where_of(g, row);

	pp_out_ch(&g->out, '\n');
	put_name(g, &g->obs, "ob", g->p->images[row->image].id.name);
	put_name(g, &g->files, "fl", w->file);
	g->cur_file = w->file;
	put_name(g, &g->fns, "fn", pp_shown_name(g->p, row->image, row->sym));
	put_self(g, row, w->file);
	put_calls(g, row, w);
}

/*
 * --metric: each metric that is a sum of events times whole numbers as a
 * derived event ("event: NAME = 100000 c0 - 50000 c1 : ..."), which
 * KCachegrind computes and shows like the others; any other (a ratio,
 * CPI) cannot be one: a comment says so, and a note
 */
static void put_metrics(struct cg *g, const struct pp_report *r, char **ids)
{
	const struct pp_metrics *ms = &g->s->metrics;
	int64_t *coef = op_xcalloc(g->nr_classes + 1, sizeof(*coef));
	size_t k, c;

	for (k = 0; k < ms->nr; k++) {
		const char *name = ms->m[k].name;
		bool first = true;

		if (!pp_metric_linear(ms, k, coef)) {
			pp_out_fmt(&g->out, "# --metric %s = %s: not a sum of events "
				   "times whole numbers, so not a derived event\n", name,
				   ms->m[k].expr);
			pp_note(r->notes, "--metric %s (%s) is left out of the callgrind "
				"export: a KCachegrind derived event is a sum of events "
				"times whole numbers, and this is not", name, ms->m[k].expr);
			continue;
		}
		pp_out_str(&g->out, "event: ");
		for (const char *p = name; *p; p++)
			pp_out_ch(&g->out, isalnum((unsigned char)*p) ? *p : '_');
		pp_out_str(&g->out, " =");
		for (c = 0; c < g->nr_classes; c++) {
			if (!coef[c])
				continue;
			pp_out_fmt(&g->out, " %s%s%" PRIu64 " %s", first ? "" : coef[c] < 0 ?
				   "- " : "+ ", first && coef[c] < 0 ? "-" : "",
				   (uint64_t)(coef[c] < 0 ? -coef[c] : coef[c]), ids[c]);
			first = false;
		}
		if (first)
			pp_out_fmt(&g->out, " 0 %s", ids[0]);
		pp_out_fmt(&g->out, " : %s = ", name);
		put_clean(&g->out, ms->m[k].expr);
		pp_out_str(&g->out, " (events)\n");
	}
	free(coef);
}

static void put_header(struct cg *g, const struct pp_report *r)
{
	const char *cmd = r->info ? r->info->run.command : NULL;
	char **ids = pp_class_ids(g->p);
	size_t c;

	pp_out_str(&g->out, "# callgrind format\nversion: 1\ncreator: " PACKAGE_NAME
		   " opreport " PACKAGE_VERSION "\n");
	pp_out_str(&g->out, "cmd: ");
	put_clean(&g->out, cmd && *cmd ? cmd : "(not recorded)");
	/* "events:" ends the header for callgrind_annotate: last */
	pp_out_str(&g->out, "\npositions: line\n");
	for (c = 0; c < g->nr_classes; c++) {
		const struct pp_class *k = &g->p->classes[c];

		pp_out_fmt(&g->out, "event: %s : ", ids[c]);
		if (g->p->axis == PP_AXIS_EVENT)
			pp_out_fmt(&g->out, "%s samples (one every %d events)",
				   k->t.event ? k->t.event : "", k->t.count);
		else
			put_clean(&g->out, k->longname ? k->longname : "");
		pp_out_ch(&g->out, '\n');
	}
	put_metrics(g, r, ids);
	pp_out_str(&g->out, "events:");
	for (c = 0; c < g->nr_classes; c++) {
		pp_out_ch(&g->out, ' ');
		pp_out_str(&g->out, ids[c]);
		free(ids[c]);
	}
	pp_out_ch(&g->out, '\n');
	free(ids);
}

int pp_write_callgrind(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct cg *g = op_xcalloc(1, sizeof(*g));
	size_t i, c;

	(void)err;
	g->s = &r->sides[0];
	g->p = g->s->p;
	g->nr_classes = g->p->nr_classes;
	g->where = op_xcalloc(g->s->rows.nr + 1, sizeof(*g->where));
	op_hmap_init(&g->obs.map);
	op_hmap_init(&g->files.map);
	op_hmap_init(&g->fns.map);
	build_sites(g);
	pp_out_init(&g->out, out);
	put_header(g, r);
	for (i = 0; i < g->s->nr_sel; i++)
		if (g->s->sel[i]->sym)
			put_row(g, g->s->sel[i]);
	pp_out_str(&g->out, "\ntotals:");
	for (c = 0; c < g->nr_classes; c++) {
		pp_out_ch(&g->out, ' ');
		pp_out_u64(&g->out, g->s->totals[c]);
	}
	pp_out_ch(&g->out, '\n');
	pp_out_flush(&g->out);
	names_release(&g->obs);
	names_release(&g->files);
	names_release(&g->fns);
	free(g->site_counts);
	free(g->sites);
	free(g->site_first);
	free(g->shown);
	free(g->lines);
	free(g->where);
	free(g);
	return 0;
}
