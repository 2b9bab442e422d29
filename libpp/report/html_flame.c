// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flame graph data of opreport --format=html: a trie of frame names,
 * root first (all samples, then the application, then the outermost
 * function down to the leaf), written as one JSON object that the page's
 * script draws:
 *
 *	{"source":"stacks"|"arcs","total":N,
 *	 "names":["all","app",...],
 *	 "nodes":[NAME,PARENT,SELF, NAME,PARENT,SELF, ...]}
 *
 * NAME indexes names, PARENT a node before it (-1 for the root, node 0),
 * SELF the samples (first class) of the stacks ending there; a node's
 * total is its self plus its children's totals, which the script sums.
 * Names are interned, so the data grows with distinct stacks, not with
 * samples or name lengths.
 *
 * From the stack file's whole stacks when the session has one; else from
 * the call-graph arcs, one level deep: each function's own samples under
 * its application, split between its callers in proportion to the
 * calls' counts (exact when a function has one caller), so the whole is
 * still every sample of the profile.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_stacks.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

struct flame_node {
	uint32_t name;
	uint32_t parent;		/* UINT32_MAX: the root */
	uint64_t self;			/* samples of the first class */
};

/*
 * A stack frame's name id, by its image and symbol (by its "other" name
 * when the image has no samples): the frames of 100 k stacks name a few
 * thousand symbols, whose shown names are then looked up and hashed once
 */
struct frame_name {
	size_t image;
	const void *what;		/* the pp_sym, or the other name */
	uint32_t id;
};

/* a slot of the children's index; node 0 (the root) marks it empty */
struct child_slot {
	uint32_t parent, name, node;
};

struct flame {
	const char **names;		/* borrowed from the profile */
	size_t nr_names;
	struct op_hmap name_index;	/* hash of the text -> id + 1 */
	struct flame_node *v;
	size_t nr, alloc;
	struct child_slot *slots;	/* (parent, name) -> node: open addressing */
	size_t mask;			/* slots - 1 */
	struct frame_name *frames;	/* the names of stack frames seen */
	size_t nr_frames, alloc_frames;
	struct op_hmap frame_index;	/* hash of (image, what) -> frame + 1 */
	uint64_t total;
};

static uint32_t name_id(struct flame *f, const char *name)
{
	uint64_t h = op_hash_str(name);
	struct op_hmap_iter it;
	void *val;

	for (val = op_hmap_first(&f->name_index, h, &it); val;
	     val = op_hmap_next(&f->name_index, h, &it))
		if (!strcmp(f->names[(uintptr_t)val - 1], name))
			return (uint32_t)((uintptr_t)val - 1);
	f->names = op_xreallocarray(f->names, f->nr_names + 1, sizeof(*f->names));
	f->names[f->nr_names++] = name;
	if (op_hmap_insert(&f->name_index, h, (void *)(uintptr_t)f->nr_names))
		op_die(1, "out of memory");
	return (uint32_t)(f->nr_names - 1);
}

static uint32_t node_add(struct flame *f, uint32_t parent, uint32_t name)
{
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 1024;
		f->v = op_xreallocarray(f->v, f->alloc, sizeof(*f->v));
	}
	f->v[f->nr].name = name;
	f->v[f->nr].parent = parent;
	f->v[f->nr].self = 0;
	return (uint32_t)f->nr++;
}

static uint64_t child_hash(uint32_t parent, uint32_t name)
{
	return op_hash_u64((uint64_t)parent << 32 | name);
}

/* doubles the slots of the children's index, which stays under 3/4 full */
static void children_grow(struct flame *f)
{
	size_t size = (f->mask + 1) * 2, i, j;
	struct child_slot *slots = op_xcalloc(size, sizeof(*slots));

	for (i = 0; i <= f->mask; i++) {
		const struct child_slot *c = &f->slots[i];

		if (!c->node)
			continue;
		for (j = child_hash(c->parent, c->name) & (size - 1); slots[j].node;
		     j = (j + 1) & (size - 1))
			;
		slots[j] = *c;
	}
	free(f->slots);
	f->slots = slots;
	f->mask = size - 1;
}

/* the child of parent with name id, made on first use */
static uint32_t child_of(struct flame *f, uint32_t parent, uint32_t id)
{
	struct child_slot *c;
	uint32_t node;
	size_t j;

	for (j = child_hash(parent, id) & f->mask; f->slots[j].node; j = (j + 1) & f->mask)
		if (f->slots[j].parent == parent && f->slots[j].name == id)
			return f->slots[j].node;
	node = node_add(f, parent, id);
	c = &f->slots[j];
	c->parent = parent;
	c->name = id;
	c->node = node;
	if (f->nr * 4 > (f->mask + 1) * 3)
		children_grow(f);
	return node;
}

/* the child of parent named name, made on first use */
static uint32_t child(struct flame *f, uint32_t parent, const char *name)
{
	return child_of(f, parent, name_id(f, name));
}

/* the name id of a stack frame, its name looked up on first use */
static uint32_t frame_name_id(struct flame *f, struct pp_side *side,
			      const struct pp_stack_frame *fr)
{
	const void *what = fr->image == SIZE_MAX ? (const void *)fr->other :
			   (const void *)fr->sym;
	uint64_t h = op_hash_combine(op_hash_u64((uintptr_t)what), fr->image);
	struct frame_name *fn;
	struct op_hmap_iter it;
	void *val;

	for (val = op_hmap_first(&f->frame_index, h, &it); val;
	     val = op_hmap_next(&f->frame_index, h, &it)) {
		fn = &f->frames[(uintptr_t)val - 1];
		if (fn->image == fr->image && fn->what == what)
			return fn->id;
	}
	if (f->nr_frames == f->alloc_frames) {
		f->alloc_frames = f->alloc_frames ? f->alloc_frames * 2 : 1024;
		f->frames = op_xreallocarray(f->frames, f->alloc_frames, sizeof(*f->frames));
	}
	fn = &f->frames[f->nr_frames++];
	fn->image = fr->image;
	fn->what = what;
	fn->id = name_id(f, fr->image == SIZE_MAX ? fr->other :
			 pp_shown_name(side->p, fr->image, fr->sym));
	if (op_hmap_insert(&f->frame_index, h, (void *)(uintptr_t)f->nr_frames))
		op_die(1, "out of memory");
	return fn->id;
}

static void add_samples(struct flame *f, uint32_t node, uint64_t count)
{
	f->v[node].self += count;
	f->total += count;
}

static void from_stacks(struct flame *f, struct pp_side *side, const struct pp_stacks *st)
{
	size_t i, k;

	for (i = 0; i < st->nr; i++) {
		const struct pp_stack *s = &st->v[i];
		uint32_t n;

		if (!s->counts[0])
			continue;
		n = child(f, 0, pp_names_app(&side->names, s->app));
		for (k = s->nr_frames; k-- > 0;)
			n = child_of(f, n, frame_name_id(f, side, &s->frames[k]));
		add_samples(f, n, s->counts[0]);
	}
}

static const char *row_name(struct pp_side *s, const struct pp_row *row)
{
	return pp_shown_name(s->p, row->image, row->sym);
}

/* row's own samples, split between its callers (list[0..nr)) */
static void split_row(struct flame *f, struct pp_side *s, const struct pp_row *row,
		      const struct pp_arc_entry *list, size_t nr)
{
	uint32_t app = child(f, 0, pp_names_app(&s->names, row->app));
	uint64_t own = row->counts[0], calls = 0, given = 0, part;
	size_t k;

	for (k = 0; k < nr; k++)
		if (list[k].row != row)
			calls += list[k].counts[0];
	if (!calls) {
		add_samples(f, child(f, app, row_name(s, row)), own);
		return;
	}
	for (k = 0; k < nr; k++) {
		uint32_t caller;

		if (list[k].row == row || !list[k].counts[0])
			continue;
		part = (uint64_t)((double)own * ((double)list[k].counts[0] / (double)calls));
		if (part > own - given)
			part = own - given;
		caller = child(f, app, row_name(s, list[k].row));
		add_samples(f, child(f, caller, row_name(s, row)), part);
		given += part;
	}
	/* what rounding left over: under the first caller */
	if (own > given)
		for (k = 0; k < nr; k++)
			if (list[k].row != row && list[k].counts[0]) {
				uint32_t caller = child(f, app, row_name(s, list[k].row));

				add_samples(f, child(f, caller, row_name(s, row)), own - given);
				break;
			}
}

static void from_arcs(struct flame *f, struct pp_side *s)
{
	struct pp_arc_entry *buf = op_xcalloc(s->arcs.nr + 2, sizeof(*buf));
	size_t i, nr;

	for (i = 0; i < s->rows.nr; i++) {
		const struct pp_row *row = &s->rows.rows[i];

		if (!row->sym || !row->counts[0])
			continue;
		nr = pp_arcs_list(&s->arcs, &s->rows, row, false, false, buf);
		split_row(f, s, row, buf, nr);
	}
	free(buf);
}

/* the nodes as NAME,PARENT,SELF triples, 32 to a line */
static void write_nodes(FILE *out, const struct flame *f)
{
	struct pp_out *o = op_xmalloc(sizeof(*o));
	size_t i;

	pp_out_init(o, out);
	for (i = 0; i < f->nr; i++) {
		const struct flame_node *n = &f->v[i];

		if (i)
			pp_out_ch(o, ',');
		pp_out_u64(o, n->name);
		pp_out_ch(o, ',');
		if (n->parent == UINT32_MAX)
			pp_out_str(o, "-1");
		else
			pp_out_u64(o, n->parent);
		pp_out_ch(o, ',');
		pp_out_u64(o, n->self);
		if (i % 32 == 31)
			pp_out_ch(o, '\n');
	}
	pp_out_flush(o);
	free(o);
}

static void write_json(FILE *out, const struct flame *f, bool stacks)
{
	size_t i;

	fprintf(out, "{\"source\":\"%s\",\"total\":%" PRIu64 ",\"names\":[",
		stacks ? "stacks" : "arcs", f->total);
	for (i = 0; i < f->nr_names; i++) {
		if (i)
			fputc(',', out);
		pp_json_put(out, f->names[i]);
		if (i % 64 == 63)
			fputc('\n', out);
	}
	fputs("],\n\"nodes\":[", out);
	write_nodes(out, f);
	fputs("]}", out);
}

int pp_html_flame(FILE *out, struct pp_side *s)
{
	struct flame f = { 0 };

	op_hmap_init(&f.name_index);
	f.mask = 1023;
	f.slots = op_xcalloc(f.mask + 1, sizeof(*f.slots));
	op_hmap_init(&f.frame_index);
	node_add(&f, UINT32_MAX, name_id(&f, "all"));
	if (!s->stacks_ret)
		from_stacks(&f, s, &s->stacks);
	else
		from_arcs(&f, s);
	write_json(out, &f, !s->stacks_ret);
	/* drawn: their memory back before the annotation reads DWARF */
	pp_stacks_release(&s->stacks);
	op_hmap_release(&f.frame_index);
	free(f.slots);
	op_hmap_release(&f.name_index);
	free(f.v);
	free(f.frames);
	free(f.names);
	return s->stacks_ret;
}
