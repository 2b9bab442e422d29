// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Building a profile from the selected sample files: classes (the columns),
 * apps, and the inverted profile of images with their groups of files
 * (see pp_profile.h).  Only names and headers are read here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events/opev.h"
#include "libdb/odb.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/profile_int.h"
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

/*
 * Up to 6 distinct values of classes along axis, in class order, for the
 * axes error.  A value is new when it differs from every value shown so
 * far: at most 7 comparisons per class, however many classes there are.
 */
static void list_values(struct op_strbuf *sb, const struct pp_profile *p,
			enum pp_axis axis)
{
	const struct pp_template *shown[6];
	size_t i, nr_shown = 0;

	for (i = 0; i < p->nr_classes; i++) {
		const struct pp_template *t = &p->classes[i].t;
		size_t j;

		for (j = 0; j < nr_shown; j++)
			if (!differs(t, shown[j], axis))
				break;
		if (j < nr_shown)
			continue;
		if (nr_shown == 6) {
			op_strbuf_addstr(sb, ", ...");
			break;
		}
		op_strbuf_addstr(sb, nr_shown ? ", " : "");
		axis_value(sb, t, axis);
		shown[nr_shown++] = t;
	}
}

/*
 * The one axis the classes differ along (opreport(1), CLASSES).  tgid and tid
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

/*
 * Building works on tens of thousands of sample files (a system-wide run
 * with thread separation): every lookup below is hashed, arrays grow by
 * doubling, and each file list is allocated once at its final size.  The
 * index maps store an array index + 1 as their value (NULL is "none").
 */
struct build {
	struct pp_profile *p;
	struct op_hmap classes, images, apps, groups, cg;
	size_t alloc_classes, alloc_images, alloc_apps, alloc_groups, alloc_cg;
};

static void *idx_val(size_t i)
{
	return (void *)(uintptr_t)(i + 1);
}

static size_t val_idx(const void *v)
{
	return (size_t)(uintptr_t)v - 1;
}

static void index_add(struct op_hmap *map, uint64_t h, size_t i)
{
	if (op_hmap_insert(map, h, idx_val(i)))
		op_die(1, "out of memory");
}

/* v with room for one more than nr elements of size bytes */
static void *grow(void *v, size_t nr, size_t *alloc, size_t size)
{
	if (nr < *alloc)
		return v;
	*alloc = *alloc ? *alloc * 2 : 16;
	return op_xreallocarray(v, *alloc, size);
}

static uint64_t template_hash(const struct pp_template *t)
{
	uint64_t h = op_hash_str(t->event);

	h = op_hash_combine(h, (uint64_t)t->count);
	h = op_hash_combine(h, (uint64_t)t->unit_mask);
	h = op_hash_combine(h, (uint64_t)t->tgid);
	h = op_hash_combine(h, (uint64_t)t->tid);
	return op_hash_combine(h, (uint64_t)t->cpu);
}

/* index of the class for template t, creating it (classes sorted later) */
static size_t class_of(struct build *b, const struct pp_template *t,
		       const struct pp_sample_file *f)
{
	struct pp_profile *p = b->p;
	uint64_t h = template_hash(t);
	struct op_hmap_iter it;
	void *v;

	for (v = op_hmap_first(&b->classes, h, &it); v;
	     v = op_hmap_next(&b->classes, h, &it))
		if (!cmp_template(&p->classes[val_idx(v)].t, t))
			return val_idx(v);
	p->classes = grow(p->classes, p->nr_classes, &b->alloc_classes,
			  sizeof(*p->classes));
	memset(&p->classes[p->nr_classes], 0, sizeof(p->classes[0]));
	p->classes[p->nr_classes].t = *t;
	p->classes[p->nr_classes].first = f;
	index_add(&b->classes, h, p->nr_classes);
	return p->nr_classes++;
}

static uint64_t id_hash(const struct odb_image_id *id)
{
	uint64_t h = op_hash_str(id->name);

	h = op_hash_combine(h, id->kind);
	if (id->kind == ODB_IMAGE_ANON)
		h = op_hash_combine(op_hash_combine(h, id->anon_tgid), id->anon_start);
	return h;
}

/*
 * The index of id among the n elements of size stride at base, each
 * starting with its struct odb_image_id (struct pp_image, struct pp_app),
 * or SIZE_MAX.
 */
_Static_assert(offsetof(struct pp_image, id) == 0, "find_id() needs the id first");
_Static_assert(offsetof(struct pp_app, id) == 0, "find_id() needs the id first");

static size_t find_id(const struct op_hmap *map, uint64_t h,
		      const struct odb_image_id *id, const void *base, size_t stride)
{
	struct op_hmap_iter it;
	void *v;

	for (v = op_hmap_first(map, h, &it); v; v = op_hmap_next(map, h, &it)) {
		const struct odb_image_id *have = (const void *)
			((const char *)base + val_idx(v) * stride);

		if (odb_image_id_equal(have, id))
			return val_idx(v);
	}
	return SIZE_MAX;
}

static size_t image_of(struct build *b, const struct odb_image_id *id)
{
	struct pp_profile *p = b->p;
	uint64_t h = id_hash(id);
	size_t i = find_id(&b->images, h, id, p->images, sizeof(*p->images));

	if (i != SIZE_MAX)
		return i;
	p->images = grow(p->images, p->nr_images, &b->alloc_images,
			 sizeof(*p->images));
	memset(&p->images[p->nr_images], 0, sizeof(p->images[0]));
	odb_image_id_copy(&p->images[p->nr_images].id, id);
	index_add(&b->images, h, p->nr_images);
	return p->nr_images++;
}

static size_t app_of(struct build *b, const struct odb_image_id *id)
{
	struct pp_profile *p = b->p;
	uint64_t h = id_hash(id);
	size_t i = find_id(&b->apps, h, id, p->apps, sizeof(*p->apps));

	if (i != SIZE_MAX)
		return i;
	p->apps = grow(p->apps, p->nr_apps, &b->alloc_apps, sizeof(*p->apps));
	odb_image_id_copy(&p->apps[p->nr_apps].id, id);
	index_add(&b->apps, h, p->nr_apps);
	return p->nr_apps++;
}

/* the group for (image, app, cls) */
static size_t group_of(struct build *b, size_t image, size_t app, size_t cls)
{
	struct pp_profile *p = b->p;
	uint64_t h = op_hash_combine(op_hash_combine(op_hash_u64(image), app), cls);
	struct op_hmap_iter it;
	struct pp_group *g;
	void *v;

	for (v = op_hmap_first(&b->groups, h, &it); v;
	     v = op_hmap_next(&b->groups, h, &it)) {
		g = &p->groups[val_idx(v)];
		if (g->image == image && g->app == app && g->cls == cls)
			return val_idx(v);
	}
	p->groups = grow(p->groups, p->nr_groups, &b->alloc_groups,
			 sizeof(*p->groups));
	g = &p->groups[p->nr_groups];
	memset(g, 0, sizeof(*g));
	g->image = image;
	g->app = app;
	g->cls = cls;
	index_add(&b->groups, h, p->nr_groups);
	return p->nr_groups++;
}

/* the call-graph group for (app, cls, caller, callee) */
static size_t cg_group_of(struct build *b, size_t app, size_t cls,
			  size_t caller, size_t callee)
{
	struct pp_profile *p = b->p;
	uint64_t h = op_hash_combine(op_hash_combine(op_hash_combine(
			op_hash_u64(app), cls), caller), callee);
	struct op_hmap_iter it;
	struct pp_cg_group *g;
	void *v;

	for (v = op_hmap_first(&b->cg, h, &it); v;
	     v = op_hmap_next(&b->cg, h, &it)) {
		g = &p->cg[val_idx(v)];
		if (g->app == app && g->cls == cls && g->caller == caller &&
		    g->callee == callee)
			return val_idx(v);
	}
	p->cg = grow(p->cg, p->nr_cg, &b->alloc_cg, sizeof(*p->cg));
	g = &p->cg[p->nr_cg];
	memset(g, 0, sizeof(*g));
	g->app = app;
	g->cls = cls;
	g->caller = caller;
	g->callee = callee;
	index_add(&b->cg, h, p->nr_cg);
	return p->nr_cg++;
}

static void build_release(struct build *b)
{
	op_hmap_release(&b->classes);
	op_hmap_release(&b->images);
	op_hmap_release(&b->apps);
	op_hmap_release(&b->groups);
	op_hmap_release(&b->cg);
}

static int cmp_class(const void *a, const void *b)
{
	return cmp_template(&(*(const struct pp_class *const *)a)->t,
			    &(*(const struct pp_class *const *)b)->t);
}

static int cmp_class_xml(const void *a, const void *b)
{
	return cmp_template_xml(&(*(const struct pp_class *const *)a)->t,
				&(*(const struct pp_class *const *)b)->t);
}

/*
 * Sort the classes into OProfile's column order, renumbering users.  No
 * two classes have equal templates, so the order is total.
 */
static void sort_classes(struct pp_profile *p, size_t *cls_of_file, size_t nr_files,
			 bool xml)
{
	const struct pp_class **order = op_xcalloc(p->nr_classes, sizeof(*order));
	size_t *rank = op_xcalloc(p->nr_classes, sizeof(*rank));
	struct pp_class *sorted = op_xcalloc(p->nr_classes, sizeof(*sorted));
	size_t i;

	for (i = 0; i < p->nr_classes; i++)
		order[i] = &p->classes[i];
	qsort(order, p->nr_classes, sizeof(*order), xml ? cmp_class_xml : cmp_class);
	for (i = 0; i < p->nr_classes; i++) {
		sorted[i] = *order[i];
		rank[order[i] - p->classes] = i;
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
	size_t i, left = p->nr_classes, first_done = p->nr_classes;
	int ret = 0;

	for (i = 0; i < list->nr && left; i++) {
		size_t c = cls_of_file[i];
		int r;

		if (done[c])
			continue;
		r = odb_header_read(AT_FDCWD, list->files[i].path, &p->classes[c].header);
		if (r) {
			if (!why[c])
				why[c] = r;
			continue;
		}
		p->classes[c].first = &list->files[i];
		done[c] = true;
		left--;
	}
	for (i = 0; i < p->nr_classes && first_done == p->nr_classes; i++)
		if (done[i])
			first_done = i;
	/*
	 * A class whose files are all unreadable borrows the first readable
	 * class's header: its files are skipped with their warnings when
	 * loaded, and the column shows what is left (nothing).  Only when no
	 * file at all is readable is it an error.
	 */
	for (i = 0; i < p->nr_classes && !ret; i++) {
		if (done[i])
			continue;
		if (first_done < p->nr_classes) {
			p->classes[i].header = p->classes[first_done].header;
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

/*
 * Sort the files into groups and call-graph groups, and the groups into
 * their images.  A first pass finds each file's group and counts, the
 * second fills lists allocated at their final sizes.
 */
static void group_files(struct build *b, const struct pp_file_list *list,
			const size_t *cls_of_file)
{
	struct pp_profile *p = b->p;
	size_t *group_of_file = op_xcalloc(list->nr + 1, sizeof(*group_of_file));
	size_t i;

	for (i = 0; i < list->nr; i++) {
		const struct pp_sample_file *f = &list->files[i];
		const struct odb_image_id *app_id = p->merge & PP_MERGE_LIB ?
			&f->name.image : &f->name.app;
		size_t app = app_of(b, app_id);
		size_t image = image_of(b, &f->name.image);

		if (f->name.is_cg) {
			size_t callee = image_of(b, &f->name.cg);
			size_t g = cg_group_of(b, app, cls_of_file[i], image, callee);

			p->cg[g].nr_files++;
			group_of_file[i] = g;
		} else {
			size_t g = group_of(b, image, app, cls_of_file[i]);

			p->groups[g].nr_files++;
			group_of_file[i] = g;
		}
	}
	for (i = 0; i < p->nr_groups; i++) {
		p->groups[i].files = op_xcalloc(p->groups[i].nr_files,
						sizeof(*p->groups[i].files));
		p->groups[i].nr_files = 0;
		p->images[p->groups[i].image].nr_groups++;
	}
	for (i = 0; i < p->nr_cg; i++) {
		p->cg[i].files = op_xcalloc(p->cg[i].nr_files, sizeof(*p->cg[i].files));
		p->cg[i].nr_files = 0;
	}
	for (i = 0; i < list->nr; i++) {
		const struct pp_sample_file *f = &list->files[i];

		if (f->name.is_cg) {
			struct pp_cg_group *g = &p->cg[group_of_file[i]];

			g->files[g->nr_files++] = f;
		} else {
			struct pp_group *g = &p->groups[group_of_file[i]];

			g->files[g->nr_files++] = f;
		}
	}
	for (i = 0; i < p->nr_images; i++) {
		if (p->images[i].nr_groups)
			p->images[i].groups = op_xcalloc(p->images[i].nr_groups,
							 sizeof(size_t));
		p->images[i].nr_groups = 0;
	}
	for (i = 0; i < p->nr_groups; i++) {
		struct pp_image *im = &p->images[p->groups[i].image];

		im->groups[im->nr_groups++] = i;
	}
	free(group_of_file);
}

/* each app's own image, by hashing (apps and images may be 50 000 each) */
static void find_own_images(struct build *b)
{
	struct pp_profile *p = b->p;
	size_t a;

	for (a = 0; a < p->nr_apps; a++) {
		const struct odb_image_id *id = &p->apps[a].id;

		p->apps[a].own_image = find_id(&b->images, id_hash(id), id, p->images,
					       sizeof(*p->images));
	}
}

/*
 * Is image im a kernel image?  The header's flag (from file path) says
 * so, but where the image's name or file says otherwise the header is
 * wrong (crafted, damaged, or another tool's): {kern} names are kernel
 * images and anonymous regions are not; /proc/kallsyms and the session's
 * vmlinux are; a file that some process ran as its program, or whose ELF
 * asks for an interpreter or shared libraries, is not.  A file with no
 * such evidence (an OProfile session's vmlinux) keeps the flag.  The
 * contradiction is kept in im->flag_file, for one warning.
 */
static void judge_kernel_flag(const struct pp_profile *p, struct pp_image *im,
			      bool flag, const char *path, bool is_app)
{
	const char *vmlinux = p->sym_opts ? p->sym_opts->vmlinux : NULL;
	const char *name = im->id.name;
	bool kernel = flag;

	if (im->id.kind == ODB_IMAGE_KERNEL)
		kernel = true;
	else if (im->id.kind == ODB_IMAGE_ANON)
		kernel = false;
	else if (!strcmp(name, "/proc/kallsyms") || (vmlinux && !strcmp(name, vmlinux)))
		kernel = true;
	else if (flag && (is_app || pp_image_is_user_binary(name, p->sym_opts)))
		kernel = false;
	im->is_kernel = kernel;
	im->flag_file = kernel != flag ? path : NULL;
}

/* kernel flag and mtime of each image, from a plain file of it */
static void read_image_headers(struct pp_profile *p)
{
	size_t *cg_of = op_xcalloc(p->nr_images + 1, sizeof(*cg_of));
	bool *is_app = op_xcalloc(p->nr_images + 1, sizeof(*is_app));
	size_t i;

	/* an image with only {cg} files as the caller: its first such group */
	for (i = p->nr_cg; i-- > 0;)
		cg_of[p->cg[i].caller] = i + 1;
	/* the images processes ran as their programs: user space */
	for (i = 0; i < p->nr_apps; i++)
		if (p->apps[i].own_image < p->nr_images)
			is_app[p->apps[i].own_image] = true;
	for (i = 0; i < p->nr_images; i++) {
		struct pp_image *im = &p->images[i];
		const char *path = NULL;
		struct opd_header h;

		if (im->nr_groups)
			path = p->groups[im->groups[0]].files[0]->path;
		else if (cg_of[i])
			path = p->cg[cg_of[i] - 1].files[0]->path;
		if (path && !odb_header_read(AT_FDCWD, path, &h)) {
			judge_kernel_flag(p, im, h.is_kernel != 0, path, is_app[i]);
			im->mtime = h.mtime;
		} else {
			im->is_kernel = im->id.kind == ODB_IMAGE_KERNEL;
		}
	}
	free(cg_of);
	free(is_app);
}

int pp_profile_build(struct pp_profile *p, const struct pp_file_list *list,
		     unsigned merge, const struct pp_sym_opts *sym_opts,
		     struct op_err *err)
{
	struct build b = { .p = p };
	size_t *cls_of_file, i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->merge = merge;
	p->sym_opts = sym_opts;
	if (!list->nr) {
		op_err_set(err, "no sample files");
		return PP_PROFILE_ERR_EMPTY;
	}
	/* classes and axes from the names alone: no file is opened before */
	cls_of_file = op_xcalloc(list->nr, sizeof(*cls_of_file));
	for (i = 0; i < list->nr; i++) {
		struct pp_template t = template_of(&list->files[i].name, merge);

		cls_of_file[i] = class_of(&b, &t, &list->files[i]);
	}
	sort_classes(p, cls_of_file, list->nr, merge & PP_CLASSES_XML);
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
	group_files(&b, list, cls_of_file);
	find_own_images(&b);
	read_image_headers(p);
out:
	build_release(&b);
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
	pp_profile_take_ahead(p);
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

int pp_event_describe(uint32_t cpu_type, const char *event, uint32_t um, char *desc,
		      size_t desc_size, char *um_desc, size_t um_desc_size)
{
	return opev_describe(cpu_type, event, um, desc, desc_size, um_desc, um_desc_size);
}

const char *pp_cpu_type_display_name(uint32_t cpu_type)
{
	return opev_cpu_display_name(cpu_type);
}

bool pp_cpu_type_is_timer(uint32_t cpu_type)
{
	return cpu_type == OPEV_CPU_TIMER;
}
