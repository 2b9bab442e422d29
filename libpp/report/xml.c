// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --xml: the profile as OProfile 1.4 writes it (schemaversion
 * 3.1, doc/opreport.xsd, formats.md §8).  After the header elements
 * (<profile>, <options>, <setup>, <classes>) come either one <binary> per
 * application, holding its own symbols and a <module> per library, or,
 * for a profile separated by thread and not merged, <process> and
 * <thread> elements holding modules; then the <symboltable>, and with
 * --details a <detailtable> and a <bytestable>.
 *
 * OProfile writes every element and attribute with the same spacing (an
 * element opened for attributes gets a blank, each attribute a leading
 * blank, so "<symbol  idref=..."), every element on its own line and
 * each count on the line after its <count>; we write the same bytes.
 * The symbols are ordered as OProfile orders them for XML (by
 * application, image, then samples), and a symbol's id is given at its
 * first mention, so that the symbol table comes out in id order.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

#define XML_SCHEMA_VERSION "3.1"

/* a symbol of the symbol table: one per (image, symbol), whatever the app */
struct xsym {
	size_t image;
	const struct pp_sym *sym;
	size_t sel;			/* a row of sel showing it, or SIZE_MAX */
	struct op_strbuf details;	/* its <detaildata> elements (-d) */
	size_t nr_details;		/* detaildata ids given so far */
};

struct xmlctx {
	FILE *out;
	struct pp_profile *p;
	const struct pp_report_opts *o;
	struct pp_report_opts long_o;	/* o with long file names, for nm */
	struct pp_names nm;		/* long names of apps and images */
	struct pp_rows rows;
	struct pp_arcs arcs;		/* with --callgraph */
	struct pp_arc_entry *buf;	/* room for a caller or callee list */
	struct pp_row **sel;		/* the rows shown, grouped by app, image */
	size_t nr_sel;
	char **class_names;		/* per class, NULL without <classes> */
	bool vma64;			/* 16 hex digits for addresses */
	struct xsym *syms;		/* by id */
	size_t nr_syms, alloc_syms;
	struct op_hmap sym_index;	/* (image, sym) -> id */
	size_t *app_image;		/* per app: its own image, or SIZE_MAX */
	size_t *sel_pos;		/* per row index: its place in sel, or SIZE_MAX */
	struct pp_name_stream *names;	/* the shown names of sel's symbols */
};

/* --- writing ------------------------------------------------------------ */

/*
 * What stands for byte c in an attribute value or text, or NULL when c is
 * written as it is.  XML 1.0 cannot carry the other control characters,
 * even as references: they become '?'.
 */
static const char *entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\t':
		return "&#9;";
	case '\n':
		return "&#10;";
	case '\r':
		return "&#13;";
	default:
		return c < 0x20 || c == 0x7f ? "?" : NULL;
	}
}

/* the bytes that entity() rewrites (ASCII; the rest are 0) */
static const unsigned char special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
};

static void add_escaped(struct op_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		const char *e = entity((unsigned char)*s);

		if (e)
			op_strbuf_addstr(sb, e);
		else
			op_strbuf_addch(sb, *s);
	}
}

static void put_escaped(FILE *out, const char *s)
{
	const char *run = s;

	/* plain runs in one write: names are long and rarely need escapes */
	for (; *s; s++) {
		if (!special[(unsigned char)*s])
			continue;
		fwrite(run, 1, (size_t)(s - run), out);
		fputs(entity((unsigned char)*s), out);
		run = s + 1;
	}
	fwrite(run, 1, (size_t)(s - run), out);
}

/* ' name="' */
static void attr_start(FILE *out, const char *name)
{
	fputc(' ', out);
	fputs(name, out);
	fputs("=\"", out);
}

/* ' name="value"', value escaped */
static void attr_str(FILE *out, const char *name, const char *value)
{
	attr_start(out, name);
	put_escaped(out, value);
	fputc('"', out);
}

/* value in decimal, without printf: reports write hundreds of thousands */
static void put_u64(FILE *out, uint64_t value)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	fwrite(buf + i, 1, sizeof(buf) - i, out);
}

static void attr_u64(FILE *out, const char *name, uint64_t value)
{
	attr_start(out, name);
	put_u64(out, value);
	fputc('"', out);
}

static void vma_text(const struct xmlctx *x, char *buf, size_t size, uint64_t vma)
{
	snprintf(buf, size, x->vma64 ? "%016" PRIx64 : "%08" PRIx64, vma);
}

/*
 * The <count> elements of counts over classes lo..hi, one per class with
 * samples (OProfile leaves zero counts out).
 */
static void put_counts(struct xmlctx *x, const uint64_t *counts, size_t lo, size_t hi)
{
	size_t c;

	for (c = lo; c <= hi; c++) {
		if (!counts[c])
			continue;
		if (x->class_names) {
			fputs("<count  class=\"", x->out);
			fputs(x->class_names[c], x->out);
			fputs("\">\n", x->out);
		} else {
			fputs("<count>\n", x->out);
		}
		put_u64(x->out, counts[c]);
		fputs("</count>\n", x->out);
	}
}

/* --- header elements -------------------------------------------------- */

/* "opreport ARGS " as OProfile builds its title: every argument after the
 * program name, each followed by a blank */
static void put_title(struct xmlctx *x)
{
	const char *cmd = x->o->command_line;
	const char *args = cmd ? strchr(cmd, ' ') : NULL;
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addstr(&sb, "opreport ");
	if (args && args[1])
		op_strbuf_addf(&sb, "%s ", args + 1);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	attr_str(x->out, "title", sb.buf);
	op_strbuf_release(&sb);
}

/* the highest cpu of the classes + 1; 1 when cpus are merged */
static size_t nr_cpus(const struct pp_profile *p)
{
	int64_t max = -1;
	size_t i;

	for (i = 0; i < p->nr_classes; i++)
		if (p->classes[i].t.cpu != ODB_ALL && p->classes[i].t.cpu > max)
			max = p->classes[i].t.cpu;
	return max < 0 ? 1 : (size_t)max + 1;
}

static void put_profile(struct xmlctx *x)
{
	const struct opd_header *h = &x->p->classes[0].header;
	const char *cpu = pp_cpu_type_name(h->cpu_type);
	const char *slash;
	size_t cpus = nr_cpus(x->p);

	fputs("<?xml version=\"1.0\" ?>\n", x->out);
	fputs("<profile  schemaversion=\"" XML_SCHEMA_VERSION "\"", x->out);
	if (!cpu)
		cpu = "unknown";
	slash = strchr(cpu, '/');
	fprintf(x->out, " cputype=\"%.*s\"\n",
		slash ? (int)(slash - cpu) : (int)strlen(cpu), cpu);
	if (slash && slash[1])
		fprintf(x->out, " processor=\"%s\"\n", slash + 1);
	if (cpus > 1)
		fprintf(x->out, " separatedcpus=\"%zu\"\n", cpus);
	fprintf(x->out, " mhz=\"%.2f\"\n", h->cpu_speed);
	put_title(x);
	fputs(">\n", x->out);
}

/* a list joined by commas, as one attribute */
static void attr_list(FILE *out, const char *name, const char *const *list)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i;

	for (i = 0; list[i]; i++)
		op_strbuf_addf(&sb, "%s%s", i ? "," : "", list[i]);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	attr_str(out, name, sb.buf);
	op_strbuf_release(&sb);
}

/* <options>: the options that change what the report holds, in
 * OProfile's order */
static void put_options(struct xmlctx *x)
{
	const struct pp_report_opts *o = x->o;

	fputs("<options ", x->out);
	if (o->spec && o->spec[0])
		attr_list(x->out, "session", o->spec);
	if (o->debug_info)
		attr_str(x->out, "debuginfo", "true");
	if (o->details)
		attr_str(x->out, "details", "true");
	if (o->image_path && *o->image_path)
		attr_str(x->out, "imagepath", o->image_path);
	if (o->merge_list && *o->merge_list)
		attr_str(x->out, "merge", o->merge_list);
	if (o->exclude_dependent)
		attr_str(x->out, "excludedependent", "true");
	if (o->exclude_symbols)
		attr_list(x->out, "excludesymbols", o->exclude_symbols);
	if (o->include_symbols)
		attr_list(x->out, "includesymbols", o->include_symbols);
	fputs("/>\n", x->out);
}

/*
 * Number the events by name in class order, as OProfile does (two counts
 * of one event are one event): ev[i] is class i's.  Returns how many.
 */
static size_t number_events(const struct pp_profile *p, size_t *ev)
{
	const char **names = op_xcalloc(p->nr_classes + 1, sizeof(*names));
	size_t nr = 0, i, k;

	for (i = 0; i < p->nr_classes; i++) {
		for (k = 0; k < nr; k++)
			if (!strcmp(names[k], p->classes[i].t.event))
				break;
		if (k == nr)
			names[nr++] = p->classes[i].t.event;
		ev[i] = k;
	}
	free(names);
	return nr;
}

/*
 * <setup>: one <eventsetup> per event, from the header of its first
 * class, or <timersetup> for the timer cpu type, whose count carries the
 * period of our software clock (formats.md §9).
 */
static void put_setup(struct xmlctx *x, const size_t *ev, size_t nr_events)
{
	const struct pp_profile *p = x->p;
	size_t i, next = 0;

	fputs("<setup>\n", x->out);
	for (i = 0; i < p->nr_classes && next < nr_events; i++) {
		const struct pp_class *c = &p->classes[i];

		if (ev[i] != next)
			continue;
		next++;
		if (pp_cpu_type_is_timer(c->header.cpu_type)) {
			fputs("<timersetup ", x->out);
			attr_u64(x->out, "rtcinterrupts", c->header.ctr_count);
			fputs("/>\n", x->out);
			continue;
		}
		fputs("<eventsetup ", x->out);
		attr_u64(x->out, "id", ev[i]);
		attr_str(x->out, "eventname", c->t.event);
		attr_u64(x->out, "unitmask", c->header.ctr_um);
		attr_u64(x->out, "setupcount", c->header.ctr_count);
		fputs("/>\n", x->out);
	}
	fputs("</setup>\n\n", x->out);
}

/* what names a class in <classes> */
struct class_key {
	int64_t cpu;		/* ODB_ALL unless cpus are separated */
	size_t event;
	int64_t unit_mask;
};

/*
 * <classes>, when there is more than one cpu, event or a unit mask other
 * than 0.  Classes that differ only by process or thread share a name:
 * names go by (cpu, event, unit mask), numbered in class order, as
 * OProfile's xml_utils::build_subclasses() does.
 */
static void put_classes(struct xmlctx *x, const size_t *ev, size_t nr_events)
{
	const struct pp_profile *p = x->p;
	size_t cpus = nr_cpus(p), i, nr_keys = 0;
	struct class_key *keys;
	bool masks = false;

	for (i = 0; i < p->nr_classes; i++)
		if (p->classes[i].t.unit_mask != ODB_ALL && p->classes[i].t.unit_mask != 0)
			masks = true;
	if (cpus <= 1 && nr_events <= 1 && !masks)
		return;
	keys = op_xcalloc(p->nr_classes, sizeof(*keys));
	x->class_names = op_xcalloc(p->nr_classes, sizeof(*x->class_names));
	fputs("<classes>\n", x->out);
	for (i = 0; i < p->nr_classes; i++) {
		const struct pp_template *t = &p->classes[i].t;
		struct class_key key = {
			.cpu = cpus > 1 ? t->cpu : ODB_ALL,
			.event = ev[i],
			.unit_mask = t->unit_mask,
		};
		size_t k;

		for (k = 0; k < nr_keys; k++)
			if (keys[k].cpu == key.cpu && keys[k].event == key.event &&
			    keys[k].unit_mask == key.unit_mask)
				break;
		x->class_names[i] = op_xmalloc(32);
		snprintf(x->class_names[i], 32, "c%zu", k);
		if (k < nr_keys)
			continue;
		keys[nr_keys++] = key;
		fprintf(x->out, "<class  name=\"%s\"", x->class_names[i]);
		if (cpus > 1)
			attr_u64(x->out, "cpu", (uint64_t)t->cpu);
		if (nr_events > 1)
			attr_u64(x->out, "event", ev[i]);
		if (masks)
			attr_u64(x->out, "mask",
				 t->unit_mask == ODB_ALL ? 0 : (uint64_t)t->unit_mask);
		fputs("/>\n", x->out);
	}
	fputs("</classes>\n", x->out);
	free(keys);
}

/* --- symbols ------------------------------------------------------------ */

static uint64_t sym_hash(size_t image, const struct pp_sym *sym)
{
	return op_hash_combine(op_hash_u64(image), (uint64_t)(uintptr_t)sym);
}

/* the id of row's (image, sym), given at its first mention */
static size_t sym_id(struct xmlctx *x, const struct pp_row *row)
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
	x->syms[x->nr_syms].sel = x->sel_pos[row->index];
	op_strbuf_init(&x->syms[x->nr_syms].details);
	slot = op_xmalloc(sizeof(*slot));
	*slot = x->nr_syms;
	if (op_hmap_insert(&x->sym_index, h, slot))
		op_die(1, "out of memory");
	return x->nr_syms++;
}

static bool any_count(const uint64_t *counts, size_t lo, size_t hi)
{
	size_t c;

	for (c = lo; c <= hi; c++)
		if (counts[c])
			return true;
	return false;
}

/* has row samples, or calls made or received, in classes lo..hi? */
static bool row_in_range(const struct xmlctx *x, const struct pp_row *row,
			 size_t lo, size_t hi)
{
	const struct pp_arcs *a = &x->arcs;
	size_t i;

	if (any_count(row->counts, lo, hi))
		return true;
	if (!x->o->callgraph)
		return false;
	for (i = a->in_first[row->index]; i < a->in_first[row->index + 1]; i++)
		if (any_count(a->v[a->in_list[i]].counts, lo, hi))
			return true;
	for (i = a->out_first[row->index]; i < a->out_first[row->index + 1]; i++)
		if (any_count(a->v[a->out_list[i]].counts, lo, hi))
			return true;
	return false;
}

/* the <detaildata> of one symbol, gathered for the <detailtable> */
struct detail_walk {
	struct xmlctx *x;
	struct xsym *xs;
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
	char vma[32];
	size_t c;

	if (w->x->o->debug_info)
		have_line = !pp_symtab_line(w->t, key, &file, &line, &why) && file;
	vma_text(w->x, vma, sizeof(vma), pp_symtab_vma(w->t, key));
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
				add_escaped(sb, file);
				op_strbuf_addch(sb, '"');
			}
			op_strbuf_addf(sb, " line=\"%u\"", line);
		}
		/* OProfile names the class here even without <classes> */
		op_strbuf_addf(sb, ">\n<count  class=\"%s\">\n%" PRIu64 "</count>\n"
			       "</detaildata>\n",
			       w->x->class_names ? w->x->class_names[c] : "", counts[c]);
	}
	if (op_strbuf_failed(sb))
		op_die(1, "out of memory");
}

/* gather row's details over lo..hi; writes detaillo/detailhi if any */
static void put_details(struct xmlctx *x, const struct pp_row *row, size_t id,
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
	pp_rows_for_each_key(x->p, &x->rows, row, detail_key, &w);
	if (w.xs->nr_details > first) {
		attr_u64(x->out, "detaillo", first);
		attr_u64(x->out, "detailhi", w.xs->nr_details - 1);
	}
}

/*
 * <callers> or <callees> of row: symbols with their counts of calls in
 * lo..hi; the callee list starts with the symbol itself, self="true",
 * holding its own samples.  Inside a <module>, each entry is wrapped in a
 * <module> naming its image, as OProfile does.
 */
static void put_calls(struct xmlctx *x, const struct pp_row *row, bool callees,
		      size_t lo, size_t hi, bool in_module)
{
	const char *tag = callees ? "callees" : "callers";
	size_t nr, i;

	nr = pp_arcs_list(&x->arcs, &x->rows, row, callees, x->o->reverse, x->buf);
	fprintf(x->out, "<%s>\n", tag);
	for (i = 0; i < nr; i++) {
		const struct pp_arc_entry *e = &x->buf[i];

		if (!e->self && !any_count(e->counts, lo, hi))
			continue;
		if (in_module) {
			fputs("<module ", x->out);
			attr_str(x->out, "name", pp_names_image(&x->nm, e->row->image));
			fputs(">\n", x->out);
		}
		fputs("<symbol ", x->out);
		attr_u64(x->out, "idref", sym_id(x, e->row));
		if (e->self)
			attr_str(x->out, "self", "true");
		fputs(">\n", x->out);
		put_counts(x, e->counts, lo, hi);
		fputs("</symbol>\n", x->out);
		if (in_module)
			fputs("</module>\n", x->out);
	}
	fprintf(x->out, "</%s>\n", tag);
}

static void put_symbol(struct xmlctx *x, const struct pp_row *row, size_t lo,
		       size_t hi, bool in_module)
{
	size_t id = sym_id(x, row);

	fputs("<symbol ", x->out);
	attr_u64(x->out, "idref", id);
	if (x->o->details)
		put_details(x, row, id, lo, hi);
	fputs(">\n", x->out);
	if (x->o->callgraph) {
		put_calls(x, row, false, lo, hi, in_module);
		put_calls(x, row, true, lo, hi, in_module);
	}
	put_counts(x, row->counts, lo, hi);
	fputs("</symbol>\n", x->out);
}

/* sum the counts of rows sel[from..to) that are in lo..hi into sum */
static void sum_rows(struct xmlctx *x, size_t from, size_t to, size_t lo,
		     size_t hi, uint64_t *sum)
{
	size_t i, c;

	memset(sum, 0, x->p->nr_classes * sizeof(*sum));
	for (i = from; i < to; i++)
		for (c = lo; c <= hi; c++)
			sum[c] += x->sel[i]->counts[c];
}

/* --- the program structure ---------------------------------------------- */

static bool own_image(const struct xmlctx *x, const struct pp_row *row)
{
	return x->app_image[row->app] == row->image;
}

/* each app's own image, found once rather than per row */
static void find_app_images(struct xmlctx *x)
{
	size_t a, i;

	x->app_image = op_xcalloc(x->p->nr_apps + 1, sizeof(*x->app_image));
	for (a = 0; a < x->p->nr_apps; a++) {
		x->app_image[a] = SIZE_MAX;
		for (i = 0; i < x->p->nr_images; i++)
			if (odb_image_id_equal(&x->p->apps[a].id, &x->p->images[i].id)) {
				x->app_image[a] = i;
				break;
			}
	}
}

/* <module>: rows sel[from..to) of one image, those in lo..hi */
static void put_module(struct xmlctx *x, size_t from, size_t to, size_t lo,
		       size_t hi, uint64_t *sum)
{
	size_t i;

	fputs("<module ", x->out);
	attr_str(x->out, "name", pp_names_image(&x->nm, x->sel[from]->image));
	fputs(">\n", x->out);
	sum_rows(x, from, to, lo, hi, sum);
	put_counts(x, sum, lo, hi);
	for (i = from; i < to; i++)
		if (row_in_range(x, x->sel[i], lo, hi))
			put_symbol(x, x->sel[i], lo, hi, true);
	fputs("</module>\n", x->out);
}

/*
 * One <binary> per application: its count is the samples of its own
 * image (formats.md §8.1), then its own symbols, then a <module> per
 * other image.
 */
static void put_binaries(struct xmlctx *x)
{
	size_t hi = x->p->nr_classes - 1;
	uint64_t *sum = op_xcalloc(x->p->nr_classes, sizeof(*sum));
	size_t i = 0;

	while (i < x->nr_sel) {
		size_t app = x->sel[i]->app, end = i, k;

		while (end < x->nr_sel && x->sel[end]->app == app)
			end++;
		fputs("<binary ", x->out);
		attr_str(x->out, "name", pp_names_app(&x->nm, app));
		fputs(">\n", x->out);
		memset(sum, 0, x->p->nr_classes * sizeof(*sum));
		for (k = i; k < end; k++) {
			size_t c;

			if (own_image(x, x->sel[k]))
				for (c = 0; c <= hi; c++)
					sum[c] += x->sel[k]->counts[c];
		}
		put_counts(x, sum, 0, hi);
		for (k = i; k < end; k++)
			if (own_image(x, x->sel[k]))
				put_symbol(x, x->sel[k], 0, hi, false);
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
		fputs("</binary>\n", x->out);
		i = end;
	}
	free(sum);
}

/* does some row of sel have samples or calls in lo..hi? (first one in *row) */
static bool find_row(const struct xmlctx *x, size_t lo, size_t hi, size_t *row)
{
	size_t i;

	for (i = 0; i < x->nr_sel; i++)
		if (row_in_range(x, x->sel[i], lo, hi)) {
			*row = i;
			return true;
		}
	return false;
}

/* <thread>: the classes lo..hi of one tid, a <module> per image */
static void put_thread(struct xmlctx *x, size_t lo, size_t hi, uint64_t *sum)
{
	size_t i;

	fprintf(x->out, "<thread  tid=\"%" PRId64 "\">\n", x->p->classes[lo].t.tid);
	sum_rows(x, 0, x->nr_sel, lo, hi, sum);
	put_counts(x, sum, lo, hi);
	for (i = 0; i < x->nr_sel;) {
		size_t m = i + 1;

		if (!row_in_range(x, x->sel[i], lo, hi)) {
			i++;
			continue;
		}
		while (m < x->nr_sel && x->sel[m]->image == x->sel[i]->image)
			m++;
		put_module(x, i, m, lo, hi, sum);
		i = m;
	}
	fputs("</thread>\n", x->out);
}

/*
 * Profiles separated by thread and not merged: a <process> per tgid
 * named after the application of its first symbol, a <thread> per tid.
 * For XML the classes are ordered by tgid, then tid (pp_profile.h), so
 * each process and thread is a run of classes.
 */
static void put_processes(struct xmlctx *x)
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
		fprintf(x->out, "<process  pid=\"%" PRId64 "\"", p->classes[i].t.tgid);
		attr_str(x->out, "name", pp_names_app(&x->nm, x->sel[first]->app));
		fputs(">\n", x->out);
		sum_rows(x, 0, x->nr_sel, i, end - 1, sum);
		put_counts(x, sum, i, end - 1);
		for (t = i; t < end;) {
			size_t tend = t;

			while (tend < end && p->classes[tend].t.tid == p->classes[t].t.tid)
				tend++;
			if (find_row(x, t, tend - 1, &first))
				put_thread(x, t, tend - 1, sum);
			t = tend;
		}
		fputs("</process>\n", x->out);
		i = end;
	}
	free(sum);
}

/* --- tables ------------------------------------------------------------- */

static void put_symboltable(struct xmlctx *x)
{
	size_t id;

	fputs("<symboltable>\n", x->out);
	for (id = 0; id < x->nr_syms; id++) {
		const struct xsym *xs = &x->syms[id];
		char *own = xs->sel == SIZE_MAX ? pp_symbol_display(xs->sym, x->o->demangle) : NULL;
		const char *name = own ? own : pp_name_stream_get(x->names, xs->sel);

		fputs("<symboldata ", x->out);
		attr_u64(x->out, "id", id);
		fputc(' ', x->out);
		attr_str(x->out, "name", name);
		free(own);
		if (x->o->debug_info) {
			struct pp_symtab *t = pp_image_symtab(x->p, xs->image);
			const char *file, *why;
			unsigned line;

			if (!pp_symtab_line(t, xs->sym->start, &file, &line, &why) && file) {
				attr_str(x->out, "file", file);
				attr_u64(x->out, "line", line);
			}
		}
		/* OProfile gives no address to "??" symbols */
		if (xs->sym->name[0] != '?') {
			char vma[32];

			vma_text(x, vma, sizeof(vma), xs->sym->vma);
			fputc(' ', x->out);
			attr_str(x->out, "startingaddr", vma);
			if (x->o->details)
				attr_u64(x->out, "codelength", xs->sym->end - xs->sym->start);
		}
		fputs("/>\n", x->out);
	}
	fputs("</symboltable>\n", x->out);
}

static void put_detailtable(struct xmlctx *x)
{
	size_t id;

	fputs("<detailtable>\n", x->out);
	for (id = 0; id < x->nr_syms; id++) {
		const struct xsym *xs = &x->syms[id];

		if (!xs->nr_details)
			continue;
		fprintf(x->out, "<symboldetails  id=\"%zu\">\n", id);
		fputs(xs->details.buf, x->out);
		fputs("</symboldetails>\n", x->out);
	}
	fputs("</detailtable>\n", x->out);
}

/* the largest symbol whose code we copy into the XML */
#define XML_MAX_CODE (16u << 20)

/*
 * The code of a symbol, read from its binary: the keys of a file image
 * are file offsets (pp_symbols.h), so [start, end) are the symbol's
 * bytes.  fds: per image, -2 before the first try.  Returns a buffer the
 * caller frees, or NULL (no file, a kernel image, unreadable).
 */
static unsigned char *read_code(struct xmlctx *x, const struct xsym *xs, int *fds,
				size_t *len)
{
	const struct pp_image *im = &x->p->images[xs->image];
	const struct pp_sym *sym = xs->sym;
	unsigned char *code;
	ssize_t n;

	if ((sym->flags & PP_SYM_ARTIFICIAL) || sym->name[0] == '?' ||
	    im->id.kind != ODB_IMAGE_FILE || im->is_kernel || !im->symtab ||
	    !im->symtab->file || sym->end <= sym->start ||
	    sym->end - sym->start > XML_MAX_CODE)
		return NULL;
	if (fds[xs->image] == -2)
		fds[xs->image] = open(im->symtab->file, O_RDONLY | O_CLOEXEC);
	if (fds[xs->image] < 0)
		return NULL;
	*len = sym->end - sym->start;
	code = op_xmalloc(*len);
	n = pread(fds[xs->image], code, *len, (off_t)sym->start);
	if (n < 0 || (size_t)n != *len) {
		free(code);
		return NULL;
	}
	return code;
}

/* <bytestable>: each symbol's machine code in upper-case hex */
static void put_bytestable(struct xmlctx *x)
{
	static const char hex[] = "0123456789ABCDEF";
	int *fds = op_xcalloc(x->p->nr_images + 1, sizeof(*fds));
	size_t id, i;

	for (i = 0; i < x->p->nr_images; i++)
		fds[i] = -2;
	fputs("<bytestable>\n", x->out);
	for (id = 0; id < x->nr_syms; id++) {
		size_t len = 0;
		unsigned char *code = read_code(x, &x->syms[id], fds, &len);

		if (!code)
			continue;
		fprintf(x->out, "<bytes  id=\"%zu\">\n", id);
		for (i = 0; i < len; i++) {
			fputc(hex[code[i] >> 4], x->out);
			fputc(hex[code[i] & 0xf], x->out);
		}
		fputs("</bytes>\n", x->out);
		free(code);
	}
	fputs("</bytestable>\n", x->out);
	for (i = 0; i < x->p->nr_images; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

/* --- choosing and ordering the symbols ---------------------------------- */

struct grouped {
	struct pp_row *row;
	size_t app_rank, image_rank, pos;
};

static int by_group(const void *pa, const void *pb)
{
	const struct grouped *a = pa, *b = pb;

	if (a->app_rank != b->app_rank)
		return a->app_rank < b->app_rank ? -1 : 1;
	if (a->image_rank != b->image_rank)
		return a->image_rank < b->image_rank ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * Keep every row of an application, and of an image within it, together
 * in the order the sort put them: two apps (or images) whose base names
 * are equal would otherwise interleave.
 */
static void group_rows(struct xmlctx *x)
{
	size_t *app_rank = op_xcalloc(x->p->nr_apps + 1, sizeof(*app_rank));
	size_t *image_rank = op_xcalloc(x->p->nr_images + 1, sizeof(*image_rank));
	struct grouped *g = op_xcalloc(x->nr_sel + 1, sizeof(*g));
	size_t nr_apps = 0, nr_images = 0, i;

	for (i = 0; i < x->nr_sel; i++) {
		const struct pp_row *row = x->sel[i];

		if (!app_rank[row->app])
			app_rank[row->app] = ++nr_apps;
		if (!image_rank[row->image])
			image_rank[row->image] = ++nr_images;
		g[i].row = x->sel[i];
		g[i].app_rank = app_rank[row->app];
		g[i].image_rank = image_rank[row->image];
		g[i].pos = i;
	}
	qsort(g, x->nr_sel, sizeof(*g), by_group);
	for (i = 0; i < x->nr_sel; i++)
		x->sel[i] = g[i].row;
	free(g);
	free(app_rank);
	free(image_rank);
}

/*
 * The rows shown (-t, -i, -e as the text reports), ordered as OProfile
 * orders symbols for XML: by application, then image (base names unless
 * --long-filenames), then samples, then address; --sort is not used.
 */
static void select_rows(struct xmlctx *x)
{
	const struct pp_report_opts *o = x->o;
	struct pp_report_opts so = *o;
	struct pp_names snm;
	uint64_t *totals = op_xcalloc(x->p->nr_classes, sizeof(*totals));
	size_t i, c;

	for (i = 0; i < x->rows.nr; i++) {
		for (c = 0; c < x->p->nr_classes; c++)
			totals[c] += x->rows.rows[i].counts[c];
		if (x->rows.rows[i].sym->vma > 0xffffffffull)
			x->vma64 = true;
	}
	x->sel = op_xcalloc(x->rows.nr + 1, sizeof(*x->sel));
	for (i = 0; i < x->rows.nr; i++) {
		struct pp_row *row = &x->rows.rows[i];

		if (!pp_over_threshold(o, row->counts, totals, x->p->nr_classes))
			continue;
		/* -x: a library reached by an arc is a callee, not an entry */
		if (o->exclude_dependent &&
		    !odb_image_id_equal(&x->p->apps[row->app].id, &x->p->images[row->image].id))
			continue;
		if (!pp_sym_passes(o->include_symbols, o->exclude_symbols, row->sym,
				   o->demangle))
			continue;
		x->sel[x->nr_sel++] = row;
	}
	so.sort[0] = PP_SORT_APP;
	so.sort[1] = PP_SORT_IMAGE;
	so.sort[2] = PP_SORT_SAMPLE;
	so.sort[3] = PP_SORT_VMA;
	so.nr_sort = 4;
	pp_names_init(&snm, x->p, &so);
	pp_rows_sort(x->sel, x->nr_sel, x->p, &snm, &so);
	pp_names_release(&snm);
	group_rows(x);
	free(totals);
}

/*
 * Where each selected row is in sel, and its symbol's name demangled by
 * helper threads from now on, while the elements before the symbol
 * table are written.
 */
static void start_names(struct xmlctx *x)
{
	const struct pp_sym **syms = op_xcalloc(x->nr_sel + 1, sizeof(*syms));
	size_t i;

	x->sel_pos = op_xcalloc(x->rows.nr + 1, sizeof(*x->sel_pos));
	for (i = 0; i < x->rows.nr; i++)
		x->sel_pos[i] = SIZE_MAX;
	for (i = 0; i < x->nr_sel; i++) {
		x->sel_pos[x->sel[i]->index] = i;
		syms[i] = x->sel[i]->sym;
	}
	x->names = pp_name_stream_start(syms, x->nr_sel, x->o->demangle);
	free(syms);
}

static int free_slot(void *val, void *data)
{
	(void)data;
	free(val);
	return 0;
}

int pp_report_xml(FILE *out, struct pp_profile *p,
		  const struct pp_session_info *info,
		  const struct pp_report_opts *o, struct pp_notes *n)
{
	struct pp_rows_opts ro = { .exclude_dependent = o->exclude_dependent };
	struct xmlctx x = { .out = out, .p = p, .o = o };
	size_t nr_events, i, *ev;

	(void)info;
	if (!p->nr_classes)
		return 1;
	x.long_o = *o;
	x.long_o.long_filenames = true;	/* XML always names whole paths */
	op_hmap_init(&x.sym_index);
	pp_rows_build(&x.rows, p, &ro, n);
	if (o->callgraph)
		pp_arcs_build(&x.arcs, p, &x.rows, n);
	pp_check_images(p, n);
	if (x.arcs.dropped)
		pp_note(n, "%" PRIu64 " call-graph arcs fell outside every symbol "
			"and were dropped", x.arcs.dropped);
	if (o->nr_sort)
		pp_note(n, "--sort is ignored with --xml");
	pp_names_init(&x.nm, p, &x.long_o);
	select_rows(&x);
	find_app_images(&x);
	start_names(&x);
	x.buf = op_xcalloc(x.arcs.nr + 2, sizeof(*x.buf));

	put_profile(&x);
	put_options(&x);
	ev = op_xcalloc(p->nr_classes, sizeof(*ev));
	nr_events = number_events(p, ev);
	put_setup(&x, ev, nr_events);
	put_classes(&x, ev, nr_events);
	free(ev);
	if (p->classes[0].t.tgid != ODB_ALL && p->classes[0].t.tid != ODB_ALL)
		put_processes(&x);
	else
		put_binaries(&x);
	put_symboltable(&x);
	if (o->details) {
		put_detailtable(&x);
		put_bytestable(&x);
	}
	fputs("</profile>\n", out);

	for (i = 0; i < x.nr_syms; i++)
		op_strbuf_release(&x.syms[i].details);
	free(x.syms);
	op_hmap_for_each(&x.sym_index, free_slot, NULL);
	op_hmap_release(&x.sym_index);
	if (x.class_names)
		for (i = 0; i < p->nr_classes; i++)
			free(x.class_names[i]);
	free(x.class_names);
	free(x.buf);
	pp_name_stream_end(x.names);
	free(x.sel_pos);
	free(x.app_image);
	free(x.sel);
	if (o->callgraph)
		pp_arcs_release(&x.arcs);
	pp_names_release(&x.nm);
	pp_rows_release(&x.rows);
	return x.nr_sel ? 0 : 1;
}
