// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building a profile from the selected sample files: classes (the columns),
 * apps, and the inverted profile of images with their groups of files
 * (see pp_profile.h).  Only names and headers are read here.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/opev.h"
#include "libdb/odb.h"
#include "libpp/profile/pp_profile.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

int pp_merge_parse(const char *list, unsigned *merge, struct op_err *err)
{
	static const struct { const char *name; unsigned bit; } words[] = {
		{ "lib", PP_MERGE_LIB }, { "cpu", PP_MERGE_CPU },
		{ "tid", PP_MERGE_TID }, { "tgid", PP_MERGE_TGID },
		{ "unitmask", PP_MERGE_UNITMASK }, { "all", PP_MERGE_ALL },
	};
	const char *p = list;

	*merge = 0;
	if (!*p) {
		op_err_set(err, "empty --merge list (valid: lib, cpu, tid, tgid, "
			   "unitmask, all)");
		return PP_PROFILE_ERR_BAD_MERGE;
	}
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].name) == len && !strncmp(p, words[i].name, len))
				break;
		if (i == sizeof(words) / sizeof(words[0])) {
			op_err_set(err, "unknown --merge value '%.*s' (valid: lib, cpu, "
				   "tid, tgid, unitmask, all)", (int)len, p);
			return PP_PROFILE_ERR_BAD_MERGE;
		}
		*merge |= words[i].bit;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* read the header of a sample file; 0 or an odb error */
static struct pp_template template_of(const struct odb_name *n, unsigned merge)
{
	struct pp_template t = {
		.event = n->event,
		.count = n->count,
		.unit_mask = merge & PP_MERGE_UNITMASK ? ODB_ALL : (int64_t)n->unit_mask,
		.tgid = merge & PP_MERGE_TGID ? ODB_ALL : n->tgid,
		/* merging processes merges their threads (OProfile does) */
		.tid = merge & (PP_MERGE_TID | PP_MERGE_TGID) ? ODB_ALL : n->tid,
		.cpu = merge & PP_MERGE_CPU ? ODB_ALL : n->cpu,
	};

	return t;
}

/* OProfile's column order: cpu, tgid, tid, unit mask, event, count ("all" last) */
static int cmp_id(int64_t a, int64_t b)
{
	if (a == b)
		return 0;
	if (a == ODB_ALL)
		return 1;
	if (b == ODB_ALL)
		return -1;
	return a < b ? -1 : 1;
}

static int cmp_template(const struct pp_template *a, const struct pp_template *b)
{
	int c;

	if ((c = cmp_id(a->cpu, b->cpu)) || (c = cmp_id(a->tgid, b->tgid)) ||
	    (c = cmp_id(a->tid, b->tid)) || (c = cmp_id(a->unit_mask, b->unit_mask)))
		return c;
	if ((c = strcmp(a->event, b->event)))
		return c;
	return a->count < b->count ? -1 : a->count > b->count;
}

/* opreport -X: tgid, tid, unit mask, event, count, cpu (OProfile's
 * arrange_profiles.cpp orders XML classes so, making each process and
 * thread a run of classes) */
static int cmp_template_xml(const struct pp_template *a, const struct pp_template *b)
{
	int c;

	if ((c = cmp_id(a->tgid, b->tgid)) || (c = cmp_id(a->tid, b->tid)) ||
	    (c = cmp_id(a->unit_mask, b->unit_mask)))
		return c;
	if ((c = strcmp(a->event, b->event)))
		return c;
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	return cmp_id(a->cpu, b->cpu);
}

/* how to get rid of an axis */
static const char *const axis_hints[] = {
	[PP_AXIS_EVENT] = "'event:' or 'count:' to pick one event",
	[PP_AXIS_UNITMASK] = "'unit-mask:' or --merge=unitmask",
	[PP_AXIS_TGID] = "'tgid:' or --merge=tgid",
	[PP_AXIS_TID] = "'tid:' or --merge=tid",
	[PP_AXIS_CPU] = "'cpu:' or --merge=cpu",
};

static const char *const axis_names[] = {
	[PP_AXIS_EVENT] = "event", [PP_AXIS_UNITMASK] = "unitmask",
	[PP_AXIS_TGID] = "tgid", [PP_AXIS_TID] = "tid", [PP_AXIS_CPU] = "cpu",
};

/* the value of template t on axis a, as text */
static void axis_value(struct op_strbuf *sb, const struct pp_template *t,
		       enum pp_axis a)
{
	switch (a) {
	case PP_AXIS_EVENT:
		op_strbuf_addf(sb, "%s:%d", t->event, t->count);
		break;
	case PP_AXIS_UNITMASK:
		op_strbuf_addf(sb, "%" PRId64, t->unit_mask);
		break;
	case PP_AXIS_TGID:
		op_strbuf_addf(sb, "%" PRId64, t->tgid);
		break;
	case PP_AXIS_TID:
		op_strbuf_addf(sb, "%" PRId64, t->tid);
		break;
	case PP_AXIS_CPU:
		op_strbuf_addf(sb, "%" PRId64, t->cpu);
		break;
	default:
		break;
	}
}

static bool differs(const struct pp_template *a, const struct pp_template *b,
		    enum pp_axis axis)
{
	switch (axis) {
	case PP_AXIS_EVENT:
		return strcmp(a->event, b->event) || a->count != b->count;
	case PP_AXIS_UNITMASK:
		return a->unit_mask != b->unit_mask;
	case PP_AXIS_TGID:
		return a->tgid != b->tgid;
	case PP_AXIS_TID:
		return a->tid != b->tid;
	case PP_AXIS_CPU:
		return a->cpu != b->cpu;
	default:
		return false;
	}
}

/* up to 6 distinct values of classes along axis, for the axes error */
static void list_values(struct op_strbuf *sb, const struct pp_profile *p,
			enum pp_axis axis)
{
	size_t i, shown = 0;

	for (i = 0; i < p->nr_classes; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!differs(&p->classes[i].t, &p->classes[j].t, axis))
				break;
		if (j < i)
			continue;
		if (shown == 6) {
			op_strbuf_addstr(sb, ", ...");
			break;
		}
		op_strbuf_addstr(sb, shown++ ? ", " : "");
		axis_value(sb, &p->classes[i].t, axis);
	}
}

/*
 * The one axis the classes differ along (formats.md §2.5).  tgid and tid
 * may both vary when every class has tid == tgid (processes without
 * threads): the axis is then tgid.
 */
static int find_axis(struct pp_profile *p, struct op_err *err)
{
	bool changed[PP_AXIS_NONE] = { false };
	enum pp_axis axis = PP_AXIS_NONE, a;
	size_t i;

	if (p->nr_classes == 1) {
		p->axis = PP_AXIS_EVENT;
		return 0;
	}
	for (i = 1; i < p->nr_classes; i++)
		for (a = PP_AXIS_EVENT; a < PP_AXIS_NONE; a++)
			if (differs(&p->classes[i].t, &p->classes[0].t, a))
				changed[a] = true;
	if (changed[PP_AXIS_TGID] && changed[PP_AXIS_TID]) {
		for (i = 0; i < p->nr_classes; i++)
			if (p->classes[i].t.tgid != p->classes[i].t.tid)
				break;
		if (i == p->nr_classes)
			changed[PP_AXIS_TID] = false;
	}
	for (a = PP_AXIS_EVENT; a < PP_AXIS_NONE; a++) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		if (!changed[a])
			continue;
		if (axis == PP_AXIS_NONE) {
			axis = a;
			continue;
		}
		op_strbuf_addf(&sb, "the samples differ by %s (", axis_names[axis]);
		list_values(&sb, p, axis);
		op_strbuf_addf(&sb, ") and by %s (", axis_names[a]);
		list_values(&sb, p, a);
		op_strbuf_addf(&sb, "); a report can show only one of them as columns\n"
			       "hint: use %s, or %s", axis_hints[axis], axis_hints[a]);
		op_err_set(err, "%s", sb.buf);
		op_strbuf_release(&sb);
		return PP_PROFILE_ERR_AXES;
	}
	p->axis = axis == PP_AXIS_NONE ? PP_AXIS_EVENT : axis;
	return 0;
}

static void name_classes(struct pp_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_classes; i++) {
		struct pp_class *c = &p->classes[i];
		struct op_strbuf name = OP_STRBUF_INIT, lng = OP_STRBUF_INIT;

		switch (p->axis) {
		case PP_AXIS_EVENT:
			op_strbuf_addf(&name, "%s:%d", c->t.event, c->t.count);
			break;
		case PP_AXIS_UNITMASK:
			op_strbuf_addf(&name, "unitmask:%" PRId64, c->t.unit_mask);
			op_strbuf_addf(&lng, "Samples matching a unit mask of %" PRId64,
				       c->t.unit_mask);
			break;
		case PP_AXIS_TGID:
			op_strbuf_addf(&name, "tgid:%" PRId64, c->t.tgid);
			op_strbuf_addf(&lng, "Processes with a thread group ID of %" PRId64,
				       c->t.tgid);
			break;
		case PP_AXIS_TID:
			op_strbuf_addf(&name, "tid:%" PRId64, c->t.tid);
			op_strbuf_addf(&lng, "Processes with a thread ID of %" PRId64, c->t.tid);
			break;
		case PP_AXIS_CPU:
			op_strbuf_addf(&name, "cpu:%" PRId64, c->t.cpu);
			op_strbuf_addf(&lng, "Samples on CPU %" PRId64, c->t.cpu);
			break;
		default:
			break;
		}
		if (op_strbuf_failed(&name) || op_strbuf_failed(&lng))
			op_die(1, "out of memory");
		c->name = op_strbuf_detach(&name);
		c->longname = op_strbuf_detach(&lng);
	}
}

/* index of the class for template t, creating it (classes sorted later) */
static size_t class_of(struct pp_profile *p, const struct pp_template *t,
		       const struct pp_sample_file *f)
{
	size_t i;

	for (i = 0; i < p->nr_classes; i++)
		if (!cmp_template(&p->classes[i].t, t))
			return i;
	p->classes = op_xreallocarray(p->classes, p->nr_classes + 1, sizeof(*p->classes));
	memset(&p->classes[i], 0, sizeof(p->classes[i]));
	p->classes[i].t = *t;
	p->classes[i].first = f;
	return p->nr_classes++;
}

/* hashed lookup of images and apps by identity */
struct id_index {
	struct op_hmap map;
};

static uint64_t id_hash(const struct odb_image_id *id)
{
	uint64_t h = op_hash_str(id->name);

	h = op_hash_combine(h, id->kind);
	if (id->kind == ODB_IMAGE_ANON)
		h = op_hash_combine(op_hash_combine(h, id->anon_tgid), id->anon_start);
	return h;
}

static size_t image_of(struct pp_profile *p, struct id_index *idx,
		       const struct odb_image_id *id)
{
	uint64_t h = id_hash(id);
	struct op_hmap_iter it;
	size_t *slot;

	for (slot = op_hmap_first(&idx->map, h, &it); slot;
	     slot = op_hmap_next(&idx->map, h, &it))
		if (odb_image_id_equal(&p->images[*slot - 1].id, id))
			return *slot - 1;
	p->images = op_xreallocarray(p->images, p->nr_images + 1, sizeof(*p->images));
	memset(&p->images[p->nr_images], 0, sizeof(p->images[0]));
	odb_image_id_copy(&p->images[p->nr_images].id, id);
	slot = op_xmalloc(sizeof(*slot));
	*slot = ++p->nr_images;
	if (op_hmap_insert(&idx->map, h, slot))
		op_die(1, "out of memory");
	return *slot - 1;
}

static size_t app_of(struct pp_profile *p, struct id_index *idx,
		     const struct odb_image_id *id)
{
	uint64_t h = id_hash(id);
	struct op_hmap_iter it;
	size_t *slot;

	for (slot = op_hmap_first(&idx->map, h, &it); slot;
	     slot = op_hmap_next(&idx->map, h, &it))
		if (odb_image_id_equal(&p->apps[*slot - 1].id, id))
			return *slot - 1;
	p->apps = op_xreallocarray(p->apps, p->nr_apps + 1, sizeof(*p->apps));
	odb_image_id_copy(&p->apps[p->nr_apps].id, id);
	slot = op_xmalloc(sizeof(*slot));
	*slot = ++p->nr_apps;
	if (op_hmap_insert(&idx->map, h, slot))
		op_die(1, "out of memory");
	return *slot - 1;
}

static int free_slot(void *val, void *data)
{
	(void)data;
	free(val);
	return 0;
}

static void add_file(const struct pp_sample_file ***files, size_t *nr,
		     const struct pp_sample_file *f)
{
	*files = op_xreallocarray(*files, *nr + 1, sizeof(**files));
	(*files)[(*nr)++] = f;
}

/* the group for (image, app, cls), by a hash on the three indexes */
static struct pp_group *group_of(struct pp_profile *p, struct op_hmap *gidx,
				 size_t image, size_t app, size_t cls)
{
	uint64_t h = op_hash_combine(op_hash_combine(op_hash_u64(image), app), cls);
	struct op_hmap_iter it;
	size_t *slot;
	struct pp_group *g;

	for (slot = op_hmap_first(gidx, h, &it); slot; slot = op_hmap_next(gidx, h, &it)) {
		g = &p->groups[*slot - 1];
		if (g->image == image && g->app == app && g->cls == cls)
			return g;
	}
	p->groups = op_xreallocarray(p->groups, p->nr_groups + 1, sizeof(*p->groups));
	g = &p->groups[p->nr_groups];
	memset(g, 0, sizeof(*g));
	g->image = image;
	g->app = app;
	g->cls = cls;
	slot = op_xmalloc(sizeof(*slot));
	*slot = ++p->nr_groups;
	if (op_hmap_insert(gidx, h, slot))
		op_die(1, "out of memory");
	return g;
}

static struct pp_cg_group *cg_group_of(struct pp_profile *p, size_t app, size_t cls,
				       size_t caller, size_t callee)
{
	size_t i;

	for (i = 0; i < p->nr_cg; i++) {
		struct pp_cg_group *g = &p->cg[i];

		if (g->app == app && g->cls == cls && g->caller == caller &&
		    g->callee == callee)
			return g;
	}
	p->cg = op_xreallocarray(p->cg, p->nr_cg + 1, sizeof(*p->cg));
	memset(&p->cg[i], 0, sizeof(p->cg[i]));
	p->cg[i].app = app;
	p->cg[i].cls = cls;
	p->cg[i].caller = caller;
	p->cg[i].callee = callee;
	p->nr_cg++;
	return &p->cg[i];
}

/* sort the classes into OProfile's column order, renumbering users */
static void sort_classes(struct pp_profile *p, size_t *cls_of_file, size_t nr_files,
			 int (*cmp)(const struct pp_template *, const struct pp_template *))
{
	size_t *order = op_xcalloc(p->nr_classes, sizeof(*order));
	size_t *rank = op_xcalloc(p->nr_classes, sizeof(*rank));
	struct pp_class *sorted = op_xcalloc(p->nr_classes, sizeof(*sorted));
	size_t i, j;

	for (i = 0; i < p->nr_classes; i++)
		order[i] = i;
	for (i = 1; i < p->nr_classes; i++) {	/* few classes: insertion sort */
		size_t v = order[i];

		for (j = i; j > 0 && cmp(&p->classes[v].t,
					 &p->classes[order[j - 1]].t) < 0; j--)
			order[j] = order[j - 1];
		order[j] = v;
	}
	for (i = 0; i < p->nr_classes; i++) {
		sorted[i] = p->classes[order[i]];
		rank[order[i]] = i;
	}
	for (i = 0; i < nr_files; i++)
		cls_of_file[i] = rank[cls_of_file[i]];
	free(p->classes);
	p->classes = sorted;
	free(order);
	free(rank);
}

/*
 * Each class's header from the first of its files whose header reads: a
 * corrupt file is skipped when the samples are loaded (with a warning),
 * wherever it comes in the list.
 */
static int read_class_headers(struct pp_profile *p, const struct pp_file_list *list,
			      const size_t *cls_of_file, struct op_err *err)
{
	bool *done = op_xcalloc(p->nr_classes, sizeof(*done));
	int *why = op_xcalloc(p->nr_classes, sizeof(*why));
	size_t i, left = p->nr_classes;
	int ret = 0;

	for (i = 0; i < list->nr && left; i++) {
		size_t c = cls_of_file[i];
		int r;

		if (done[c])
			continue;
		r = odb_header_read(list->files[i].path, &p->classes[c].header);
		if (r) {
			if (!why[c])
				why[c] = r;
			continue;
		}
		p->classes[c].first = &list->files[i];
		done[c] = true;
		left--;
	}
	/*
	 * A class whose files are all unreadable borrows another class's
	 * header: its files are skipped with their warnings when loaded, and
	 * the column shows what is left (nothing).  Only when no file at all
	 * is readable is it an error.
	 */
	for (i = 0; i < p->nr_classes && !ret; i++) {
		size_t k;

		if (done[i])
			continue;
		for (k = 0; k < p->nr_classes && !done[k]; k++)
			;
		if (k < p->nr_classes) {
			p->classes[i].header = p->classes[k].header;
			continue;
		}
		op_err_set(err, "cannot read sample file '%s': %s",
			   p->classes[i].first->path, odb_strerror(why[i]));
		ret = why[i];
	}
	free(done);
	free(why);
	return ret;
}

int pp_profile_build(struct pp_profile *p, const struct pp_file_list *list,
		     unsigned merge, const struct pp_sym_opts *sym_opts,
		     struct op_err *err)
{
	struct id_index images = { OP_HMAP_INIT }, apps = { OP_HMAP_INIT };
	struct op_hmap groups = OP_HMAP_INIT;
	size_t *cls_of_file, i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->merge = merge;
	p->sym_opts = sym_opts;
	if (!list->nr) {
		op_err_set(err, "no sample files");
		return PP_PROFILE_ERR_EMPTY;
	}
	cls_of_file = op_xcalloc(list->nr, sizeof(*cls_of_file));
	for (i = 0; i < list->nr; i++) {
		struct pp_template t = template_of(&list->files[i].name, merge);

		cls_of_file[i] = class_of(p, &t, &list->files[i]);
	}
	sort_classes(p, cls_of_file, list->nr,
		     merge & PP_CLASSES_XML ? cmp_template_xml : cmp_template);
	ret = find_axis(p, err);
	if (ret && (merge & PP_CLASSES_XML)) {
		/* XML shows every axis at once */
		p->axis = PP_AXIS_NONE;
		ret = 0;
	}
	if (ret)
		goto out;
	name_classes(p);
	ret = read_class_headers(p, list, cls_of_file, err);
	if (ret)
		goto out;
	for (i = 0; i < list->nr; i++) {
		const struct pp_sample_file *f = &list->files[i];
		const struct odb_image_id *app_id = merge & PP_MERGE_LIB ?
			&f->name.image : &f->name.app;
		size_t app = app_of(p, &apps, app_id);
		size_t image = image_of(p, &images, &f->name.image);

		if (f->name.is_cg) {
			size_t callee = image_of(p, &images, &f->name.cg);
			struct pp_cg_group *g = cg_group_of(p, app, cls_of_file[i],
							    image, callee);

			add_file(&g->files, &g->nr_files, f);
		} else {
			struct pp_group *g = group_of(p, &groups, image, app,
						      cls_of_file[i]);

			add_file(&g->files, &g->nr_files, f);
		}
	}
	for (i = 0; i < p->nr_groups; i++) {
		struct pp_image *im = &p->images[p->groups[i].image];

		im->groups = op_xreallocarray(im->groups, im->nr_groups + 1,
					      sizeof(*im->groups));
		im->groups[im->nr_groups++] = i;
	}
	for (i = 0; i < p->nr_images; i++) {
		struct pp_image *im = &p->images[i];
		const char *path = NULL;
		struct opd_header h;
		size_t k;

		/* kernel flag and mtime from any plain file of the image */
		if (im->nr_groups)
			path = p->groups[im->groups[0]].files[0]->path;
		for (k = 0; !path && k < p->nr_cg; k++)
			if (p->cg[k].caller == i)
				path = p->cg[k].files[0]->path;
		if (path && !odb_header_read(path, &h)) {
			im->is_kernel = h.is_kernel != 0;
			im->mtime = h.mtime;
		} else {
			im->is_kernel = im->id.kind == ODB_IMAGE_KERNEL;
		}
	}
out:
	op_hmap_for_each(&images.map, free_slot, NULL);
	op_hmap_for_each(&apps.map, free_slot, NULL);
	op_hmap_for_each(&groups, free_slot, NULL);
	op_hmap_release(&images.map);
	op_hmap_release(&apps.map);
	op_hmap_release(&groups);
	free(cls_of_file);
	if (ret)
		pp_profile_release(p);
	return ret;
}

void pp_profile_release(struct pp_profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr_classes; i++) {
		free(p->classes[i].name);
		free(p->classes[i].longname);
	}
	for (i = 0; i < p->nr_apps; i++)
		odb_image_id_release(&p->apps[i].id);
	for (i = 0; i < p->nr_images; i++) {
		odb_image_id_release(&p->images[i].id);
		free(p->images[i].groups);
		pp_symtab_free(p->images[i].symtab);
	}
	for (i = 0; i < p->nr_groups; i++) {
		free(p->groups[i].files);
		free(p->groups[i].kc);
	}
	for (i = 0; i < p->nr_cg; i++) {
		free(p->cg[i].files);
		free(p->cg[i].kc);
	}
	free(p->classes);
	free(p->apps);
	free(p->images);
	free(p->groups);
	free(p->cg);
	memset(p, 0, sizeof(*p));
}

const char *pp_cpu_type_name(uint32_t cpu_type)
{
	return opev_cpu_name(cpu_type);
}

bool pp_cpu_type_is_timer(uint32_t cpu_type)
{
	return cpu_type == OPEV_CPU_TIMER;
}
