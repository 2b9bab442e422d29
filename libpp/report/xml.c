// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --xml: the profile as OProfile 1.4 writes it (schemaversion
 * 3.1; oprofile-ng-formats(5), "XML").  After the header elements
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
 * application, image, then samples: the output's fixed order in
 * outputs.c), and a symbol's id is given at its first mention, so that
 * the symbol table comes out in id order.  xml_write.c writes the bytes,
 * xml_body.c the symbols and their nesting, xml_tables.c the tables.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

#define XML_SCHEMA_VERSION "3.1"

/* --- header elements -------------------------------------------------- */

/* "opreport ARGS " as OProfile builds its title: every argument after the
 * program name, each followed by a blank */
static void put_title(struct pp_xml *x)
{
	const char *cmd = x->o->command_line;
	const char *args = cmd ? strchr(cmd, ' ') : NULL;
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addstr(&sb, "opreport ");
	if (args && args[1])
		op_strbuf_addf(&sb, "%s ", args + 1);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	pp_xml_attr_str(x->out, "title", sb.buf);
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

/*
 * processor="...": the part of the cpu type after its '/' ("skylake"),
 * or the whole type ("timer"), as an XML NCName, which OProfile 1.4's
 * schema requires (its own reports leave it out for the timer type)
 */
static void put_processor(struct pp_out *out, const char *name)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const char *c;

	if (!(*name >= 'a' && *name <= 'z') && !(*name >= 'A' && *name <= 'Z'))
		op_strbuf_addch(&sb, '_');
	for (c = name; *c; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.';

		op_strbuf_addch(&sb, ok ? *c : '_');
	}
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	pp_out_fmt(out, " processor=\"%s\"\n", sb.buf);
	op_strbuf_release(&sb);
}

static void put_profile(struct pp_xml *x)
{
	const struct opd_header *h = &x->p->classes[0].header;
	const char *cpu = pp_cpu_type_name(h->cpu_type);
	const char *slash;
	size_t cpus = nr_cpus(x->p);

	pp_out_str(x->out, "<?xml version=\"1.0\" ?>\n");
	pp_out_str(x->out, "<profile  schemaversion=\"" XML_SCHEMA_VERSION "\"");
	if (!cpu)
		cpu = "unknown";
	slash = strchr(cpu, '/');
	pp_out_fmt(x->out, " cputype=\"%.*s\"\n",
		slash ? (int)(slash - cpu) : (int)strlen(cpu), cpu);
	put_processor(x->out, slash && slash[1] ? slash + 1 : cpu);
	if (cpus > 1)
		pp_out_fmt(x->out, " separatedcpus=\"%zu\"\n", cpus);
	pp_out_fmt(x->out, " mhz=\"%.2f\"\n", h->cpu_speed);
	put_title(x);
	pp_out_str(x->out, ">\n");
}

/* a list joined by commas, as one attribute */
static void attr_list(struct pp_out *out, const char *name, const char *const *list)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i;

	for (i = 0; list[i]; i++)
		op_strbuf_addf(&sb, "%s%s", i ? "," : "", list[i]);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	pp_xml_attr_str(out, name, sb.buf);
	op_strbuf_release(&sb);
}

/* <options>: the options that change what the report holds, in
 * OProfile's order */
static void put_options(struct pp_xml *x)
{
	const struct pp_report_opts *o = x->o;

	pp_out_str(x->out, "<options ");
	if (o->spec && o->spec[0])
		attr_list(x->out, "session", o->spec);
	if (o->debug_info)
		pp_xml_attr_str(x->out, "debuginfo", "true");
	if (o->details)
		pp_xml_attr_str(x->out, "details", "true");
	if (o->image_path && *o->image_path)
		pp_xml_attr_str(x->out, "imagepath", o->image_path);
	if (o->merge_list && *o->merge_list)
		pp_xml_attr_str(x->out, "merge", o->merge_list);
	if (o->exclude_dependent)
		pp_xml_attr_str(x->out, "excludedependent", "true");
	if (o->exclude_symbols)
		attr_list(x->out, "excludesymbols", o->exclude_symbols);
	if (o->include_symbols)
		attr_list(x->out, "includesymbols", o->include_symbols);
	if (o->confidence > 0) {
		char level[32];

		snprintf(level, sizeof(level), "%.10g", o->confidence * 100.0);
		pp_xml_attr_str(x->out, "confidence", level);
	}
	pp_out_str(x->out, "/>\n");
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
 * class, or, for OProfile's timer mode (the one event TIMER), one
 * <timersetup>.  A software clock of the timer cpu type (cpu-clock,
 * task-clock) is an event with its period as the count, so that two of
 * them are told apart and the schema's single <timersetup> holds
 * (oprofile-ng-formats(5), XML REPORT).
 */
static void put_setup(struct pp_xml *x, const size_t *ev, size_t nr_events)
{
	const struct pp_profile *p = x->p;
	size_t i, next = 0;

	pp_out_str(x->out, "<setup>\n");
	for (i = 0; i < p->nr_classes && next < nr_events; i++) {
		const struct pp_class *c = &p->classes[i];

		if (ev[i] != next)
			continue;
		next++;
		if (pp_cpu_type_is_timer(c->header.cpu_type) && nr_events == 1 &&
		    !strcmp(c->t.event, "TIMER")) {
			pp_out_str(x->out, "<timersetup ");
			pp_xml_attr_u64(x->out, "rtcinterrupts", c->header.ctr_count);
			pp_out_str(x->out, "/>\n");
			continue;
		}
		pp_out_str(x->out, "<eventsetup ");
		pp_xml_attr_u64(x->out, "id", ev[i]);
		pp_xml_attr_str(x->out, "eventname", c->t.event);
		pp_xml_attr_u64(x->out, "unitmask", c->header.ctr_um);
		pp_xml_attr_u64(x->out, "setupcount", c->header.ctr_count);
		pp_out_str(x->out, "/>\n");
	}
	pp_out_str(x->out, "</setup>\n\n");
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
static void put_classes(struct pp_xml *x, const size_t *ev, size_t nr_events)
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
	pp_out_str(x->out, "<classes>\n");
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
		pp_out_fmt(x->out, "<class  name=\"%s\"", x->class_names[i]);
		if (cpus > 1)
			pp_xml_attr_u64(x->out, "cpu", (uint64_t)t->cpu);
		if (nr_events > 1)
			pp_xml_attr_u64(x->out, "event", ev[i]);
		if (masks)
			pp_xml_attr_u64(x->out, "mask",
				 t->unit_mask == ODB_ALL ? 0 : (uint64_t)t->unit_mask);
		pp_out_str(x->out, "/>\n");
	}
	pp_out_str(x->out, "</classes>\n");
	free(keys);
}

/* --- the order of symbols ---------------------------------------------- */

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
static void group_rows(struct pp_xml *x)
{
	size_t *app_rank = op_xcalloc(x->p->nr_apps + 1, sizeof(*app_rank));
	size_t *image_rank = op_xcalloc(x->p->nr_images + 1, sizeof(*image_rank));
	struct grouped *g = op_xcalloc(x->nr_sel + 1, sizeof(*g));
	size_t nr_apps = 0, nr_images = 0, i;
	bool sorted = true;

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
		if (i && by_group(&g[i - 1], &g[i]) > 0)
			sorted = false;
	}
	/* the common case: no two apps (or images) share a name */
	if (!sorted) {
		qsort(g, x->nr_sel, sizeof(*g), by_group);
		for (i = 0; i < x->nr_sel; i++)
			x->sel[i] = g[i].row;
	}
	free(g);
	free(app_rank);
	free(image_rank);
}

static void put_body(struct pp_xml *x)
{
	if (x->p->classes[0].t.tgid != ODB_ALL && x->p->classes[0].t.tid != ODB_ALL)
		pp_xml_put_processes(x);
	else
		pp_xml_put_binaries(x);
	pp_xml_put_symboltable(x);
	if (x->o->details) {
		pp_xml_put_detailtable(x);
		pp_xml_put_bytestable(x);
	}
}

static int free_slot(void *val, void *data)
{
	(void)data;
	free(val);
	return 0;
}

static void release(struct pp_xml *x)
{
	size_t i;

	for (i = 0; i < x->nr_syms; i++)
		op_strbuf_release(&x->syms[i].details);
	free(x->syms);
	op_hmap_for_each(&x->sym_index, free_slot, NULL);
	op_hmap_release(&x->sym_index);
	if (x->class_names)
		for (i = 0; i < x->p->nr_classes; i++)
			free(x->class_names[i]);
	free(x->class_names);
	pp_xml_release_metric_tags(x);
	free(x->buf);
	free(x->sum);
	pp_names_release(&x->nm);
}

int pp_write_xml(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *s = &r->sides[0];
	struct pp_out *buffered = op_xmalloc(sizeof(*buffered));
	struct pp_xml x = {
		.out = buffered, .r = r, .s = s, .p = s->p, .o = r->o,
		.callgraph = (r->output->needs & PP_NEEDS_ARCS) != 0,
		.sel = s->sel, .nr_sel = s->nr_sel,
	};
	size_t nr_events, *ev;

	/* OProfile 1.4's schema wants a <binary> and a symbol: a report with
	 * nothing to show would be invalid XML, so it is an error */
	if (!s->nr_sel) {
		free(buffered);
		op_err_set(err, "no symbol with samples passes the filters and the "
			   "threshold: an XML report needs one");
		return PP_REPORT_ERR_NOTHING;
	}
	pp_out_init(buffered, out);
	op_hmap_init(&x.sym_index);
	/* XML always names whole paths */
	pp_names_init(&x.nm, s->p, true, NULL);
	x.vma64 = s->vma64;
	group_rows(&x);
	x.buf = op_xcalloc(s->arcs.nr + 2, sizeof(*x.buf));
	x.sum = op_xcalloc(s->p->nr_classes + 1, sizeof(*x.sum));

	put_profile(&x);
	put_options(&x);
	ev = op_xcalloc(s->p->nr_classes, sizeof(*ev));
	nr_events = number_events(s->p, ev);
	put_setup(&x, ev, nr_events);
	put_classes(&x, ev, nr_events);
	free(ev);
	put_body(&x);
	pp_out_str(x.out, "</profile>\n");
	pp_out_flush(x.out);
	free(buffered);
	release(&x);
	return 0;
}
