// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=pprof: the profile as pprof's profile.proto
 * (gzip-compressed), read by go tool pprof, Parca and Pyroscope.  This
 * file decides what the profile holds, as plain arrays (struct pp_pprof,
 * report_int.h); pprof_encode.c writes them.
 *
 *	sample types   one per class: its event (pp_class_ids()), unit
 *	               "count" (values are samples, as opreport counts them);
 *	               the first is the default, the one readers show
 *	period         the first class's count (events per sample): unit
 *	               "nanoseconds" for the software clocks, else "count"
 *	samples        each whole stack of the session's stack file whose
 *	               leaf symbol is shown (-t, -i, -e, -x as opreport -l
 *	               selects rows), frames leaf first, with its counts and
 *	               an "app" label; then, per shown symbol, the samples
 *	               that no stack covers (all of them without a stack
 *	               file) as one-frame samples at their own addresses, so
 *	               every symbol's self samples are exactly opreport -l's
 *	locations      one per (image, address): the address as opreport -w
 *	               shows it (the symbol's link-time address plus the
 *	               offset into it; return addresses less one, the call
 *	               instruction), the function, the source line when the
 *	               debug information has one in the function's own file
 *	functions      one per symbol: the shown (demangled) and raw names,
 *	               the source file and line of its first address
 *	mappings       one per image: its path and build-id, the range of
 *	               the addresses used and the file offset of the first;
 *	               first the program with the most samples (readers take
 *	               the first for the profiled program)
 *	comments       opreport's header lines, the profiled command, and
 *	               whether the stacks are whole
 *	time           when the session says the run started
 *
 * Frames in images the profile has no samples of (pp_stacks.h's "other"
 * frames) are locations without a mapping, named as opreport names them.
 * The stacks come as their prefix tree (PP_STACKS_TREE): the stacks'
 * locations are made from the tree's nodes, each as a leaf or as a
 * caller, sorted by image and address (add_stacks()); strings, functions
 * and the other locations are interned with hash maps.  What each
 * location's code is (lines, inlined call sites, demangled names) is looked
 * up by a second thread (pprof_facts.c) while the samples are finished,
 * and the samples are packed by the encoder's thread while the locations
 * are filled in.  The work follows distinct stacks and addresses.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libpp/profile/pp_stacks.h"
#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

/*
 * The shown stacks' leaves at one location and app: a list per location
 * (the leaf frame's location, never a return address's).  Their counts
 * are apart.
 */
struct leaf {
	size_t app;
	size_t next;			/* the location's next leaf + 1, 0: none */
};

struct build {
	struct pp_pprof m;
	struct pp_report *r;
	struct pp_side *s;
	struct pp_profile *p;
	size_t nr_classes;
	struct op_hmap locs, fns;	/* key -> index + 1 */
	struct pp_pprof_key *loc_keys, *fn_keys;	/* per location, per function */
	size_t *loc_leaves;		/* per location: first leaf + 1, 0: none */
	const void **loc_what;		/* per location: its symbol, or name */
	/* per image: its stacks' locations, [sorted_lo, sorted_hi), by key
	 * (the others, made later, are in locs) */
	size_t *sorted_lo, *sorted_hi;
	size_t last_fn;			/* the last function made or found + 1 */
	size_t *image_mapping;		/* per image: mapping id, 0: none yet */
	uint64_t *row_stacked;		/* per row index and class: leaf samples */
	struct leaf *leaves;
	uint64_t *leaf_counts;		/* per leaf and class: samples */
	size_t nr_leaves, alloc_leaves;
	size_t *app_label;		/* per app: label string index + 1, 0: none yet */
	struct op_hmap name_index;	/* a name's address -> string index + 1 */
	uint64_t *need, *take;		/* [nr_classes] scratch */
	const struct pp_row *row;	/* the row whose keys are walked */
	struct pp_symtab **tabs;	/* per image: its table, once it has a location */
	struct pp_pprof_facts *facts;	/* of the locations */
	/* add_stacks()'s, for stack_frames(): per tree node and role (2 n:
	 * as a leaf, 2 n + 1: as a caller), its location; per node, its
	 * parent; per sample of [first_sample, end_sample), its leaf node */
	struct {
		size_t *loc, *up, *leaf_of;
		size_t first_sample, end_sample;
	} tree;
};

#define GROW(v, nr, alloc)						\
	do {								\
		if ((nr) == (alloc)) {					\
			(alloc) = (alloc) ? 2 * (alloc) : 64;		\
			(v) = op_xreallocarray((v), (alloc), sizeof(*(v))); \
		}							\
	} while (0)

static void *ival(size_t i)
{
	return (void *)(uintptr_t)(i + 1);
}

static size_t idx(void *v)
{
	return (size_t)(uintptr_t)v - 1;
}

/* the index of s (hashed h: op_hash_str()) in the string table, added on first use */
static size_t str_hashed(struct build *b, const char *s, uint64_t h)
{
	struct pp_pprof *m = &b->m;
	struct op_hmap_iter it;
	void *v;

	if (!s || !*s)
		return 0;
	for (v = op_hmap_first(&m->string_index, h, &it); v;
	     v = op_hmap_next(&m->string_index, h, &it))
		if (!strcmp(m->strings[idx(v)], s))
			return idx(v);
	GROW(m->strings, m->nr_strings, m->alloc_strings);
	m->strings[m->nr_strings] = op_xstrdup(s);
	if (op_hmap_insert(&m->string_index, h, ival(m->nr_strings)))
		op_die(1, "out of memory");
	return m->nr_strings++;
}

/* the index of s in the string table, added on first use */
static size_t str(struct build *b, const char *s)
{
	return s && *s ? str_hashed(b, s, op_hash_str(s)) : 0;
}

/*
 * str() of a name that many frames share (an unmapped image's): looked up
 * by its address first, the string hashed only the first time
 */
static size_t name_str(struct build *b, const char *name)
{
	uint64_t h = op_hash_u64((uintptr_t)name);
	struct op_hmap_iter it;
	void *v;
	size_t i;

	for (v = op_hmap_first(&b->name_index, h, &it); v;
	     v = op_hmap_next(&b->name_index, h, &it))
		if (!strcmp(b->m.strings[idx(v)], name))
			return idx(v);
	i = str(b, name);
	if (op_hmap_insert(&b->name_index, h, ival(i)))
		op_die(1, "out of memory");
	return i;
}

/* str() of app's name, the label of its samples */
static size_t app_str(struct build *b, size_t app)
{
	if (!b->app_label[app])
		b->app_label[app] = str(b, pp_names_app(&b->s->names, app)) + 1;
	return b->app_label[app] - 1;
}

static uint64_t key_hash(const struct pp_pprof_key *k)
{
	return op_hash_combine(op_hash_u64(k->image), k->at);
}

/* the index under k in map (keys: the array of their keys), or SIZE_MAX */
static size_t find(const struct op_hmap *map, const struct pp_pprof_key *keys,
		   const struct pp_pprof_key *k)
{
	struct op_hmap_iter it;
	void *v;

	for (v = op_hmap_first(map, key_hash(k), &it); v; v = op_hmap_next(map, key_hash(k), &it))
		if (keys[idx(v)].image == k->image && keys[idx(v)].at == k->at)
			return idx(v);
	return SIZE_MAX;
}

/* the location of k, or SIZE_MAX: in its image's sorted range, else in locs */
static size_t find_location(const struct build *b, const struct pp_pprof_key *k)
{
	if (k->image != SIZE_MAX && b->sorted_hi && b->sorted_hi[k->image]) {
		size_t lo = b->sorted_lo[k->image], hi = b->sorted_hi[k->image];

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (b->loc_keys[mid].at < k->at)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < b->sorted_hi[k->image] && b->loc_keys[lo].at == k->at)
			return lo;
	}
	return find(&b->locs, b->loc_keys, k);
}

static void remember(struct op_hmap *map, const struct pp_pprof_key *k, size_t i)
{
	if (op_hmap_insert(map, key_hash(k), ival(i)))
		op_die(1, "out of memory");
}

/*
 * The function id of sym in image (image SIZE_MAX: the frame named
 * name); fact: what the location's code is (its function's fields are
 * set unless the location before was of the same symbol)
 */
static uint64_t function_of(struct build *b, size_t image, const struct pp_sym *sym,
			    const char *name, const struct pp_pprof_fact *fact)
{
	struct pp_pprof *m = &b->m;
	struct pp_pprof_function *f;
	struct pp_pprof_key k = { image, 0 };
	size_t i;

	k.at = image == SIZE_MAX ? name_str(b, name) : sym->start;
	/* locations are made by address: mostly the last function's again */
	if (b->last_fn && b->fn_keys[b->last_fn - 1].image == k.image &&
	    b->fn_keys[b->last_fn - 1].at == k.at)
		return b->last_fn;
	i = find(&b->fns, b->fn_keys, &k);
	if (i != SIZE_MAX)
		return b->last_fn = i + 1;
	i = m->nr_functions;
	if (i == m->alloc_functions) {
		GROW(m->functions, m->nr_functions, m->alloc_functions);
		b->fn_keys = op_xreallocarray(b->fn_keys, m->alloc_functions,
					      sizeof(*b->fn_keys));
	}
	b->fn_keys[i] = k;
	f = &m->functions[m->nr_functions++];
	memset(f, 0, sizeof(*f));
	if (image == SIZE_MAX) {
		f->name = f->system_name = (size_t)k.at;
	} else {
		/* a location's facts leave the function's out only after a
		 * location of the same symbol: then it is the last function */
		if (!fact || !fact->has_fn)
			OP_BUG("pprof: no facts for the new function of location %s",
			       sym->name ? sym->name : "?");
		f->name = str_hashed(b, fact->fn_name, fact->name_hash);
		/* raw and shown are one string unless demangled */
		f->system_name = sym->name == fact->fn_name || !sym->name || !*sym->name ?
				 f->name : str(b, sym->name);
		f->file = str_hashed(b, fact->fn_file, fact->file_hash);
		f->start_line = fact->fn_line;
	}
	remember(&b->fns, &k, i);
	return b->last_fn = i + 1;
}

/* the mapping id of image, made on first use */
static uint64_t mapping_of(struct build *b, size_t image)
{
	struct pp_pprof *m = &b->m;
	struct pp_pprof_mapping *mp;
	struct pp_symtab *t;

	if (b->image_mapping[image])
		return b->image_mapping[image];
	t = pp_image_symtab(b->p, image);
	GROW(m->mappings, m->nr_mappings, m->alloc_mappings);
	mp = &m->mappings[m->nr_mappings++];
	memset(mp, 0, sizeof(*mp));
	mp->start = UINT64_MAX;
	mp->file = str(b, b->p->images[image].id.name);
	mp->build_id = str(b, t->build_id);
	b->image_mapping[image] = m->nr_mappings;
	return m->nr_mappings;
}

/*
 * The first mapping, which readers take for the profiled program (go tool
 * pprof's "File:"): the own image of the application with the most
 * samples, when it has some; the other mappings come in the order of
 * their first location
 */
static void main_mapping(struct build *b)
{
	uint64_t *per_app = op_xcalloc(b->p->nr_apps + 1, sizeof(*per_app)), best = 0;
	size_t i, app = SIZE_MAX;

	for (i = 0; i < b->p->nr_groups; i++)
		per_app[b->p->groups[i].app] += b->p->groups[i].total;
	for (i = 0; i < b->p->nr_apps; i++)
		if (b->p->apps[i].own_image != SIZE_MAX && per_app[i] > best) {
			best = per_app[i];
			app = i;
		}
	if (app != SIZE_MAX)
		mapping_of(b, b->p->apps[app].own_image);
	free(per_app);
}

/* room for nr locations in all */
static void reserve_locations(struct build *b, size_t nr)
{
	struct pp_pprof *m = &b->m;

	if (nr <= m->alloc_locations)
		return;
	m->alloc_locations = nr;
	m->locations = op_xreallocarray(m->locations, nr, sizeof(*m->locations));
	b->loc_keys = op_xreallocarray(b->loc_keys, nr, sizeof(*b->loc_keys));
	b->loc_leaves = op_xreallocarray(b->loc_leaves, nr, sizeof(*b->loc_leaves));
	b->loc_what = op_xreallocarray(b->loc_what, nr, sizeof(*b->loc_what));
}

/*
 * A new location, id returned, of k (k.at: key in image, what its
 * symbol; or, image SIZE_MAX, the string index of the frame's name and
 * what the name): only its key for now, fill_location() makes the rest
 * once every sample is made (pp_write_pprof())
 */
static uint64_t make_location(struct build *b, const struct pp_pprof_key *k, const void *what)
{
	struct pp_pprof *m = &b->m;
	size_t i = m->nr_locations;

	if (i == m->alloc_locations)
		reserve_locations(b, i ? 2 * i : 64);
	if (k->image != SIZE_MAX && !b->tabs[k->image])
		b->tabs[k->image] = pp_image_symtab(b->p, k->image);
	b->loc_keys[i] = *k;
	b->loc_leaves[i] = 0;
	b->loc_what[i] = what;
	memset(&m->locations[m->nr_locations++], 0, sizeof(*m->locations));
	return i + 1;
}

/*
 * location i's function, mapping, address and line; fact: what its code
 * is (NULL for a location without an image)
 */
static void fill_location(struct build *b, size_t i, const struct pp_pprof_fact *fact)
{
	struct pp_pprof *m = &b->m;
	struct pp_pprof_location *l = &m->locations[i];
	size_t image = b->loc_keys[i].image;
	uint64_t key = b->loc_keys[i].at;

	if (image == SIZE_MAX) {
		l->function = function_of(b, image, NULL, b->loc_what[i], NULL);
	} else {
		const struct pp_sym *sym = b->loc_what[i];
		struct pp_pprof_mapping *mp;

		l->function = function_of(b, image, sym, NULL, fact);
		l->mapping = mapping_of(b, image);
		l->address = sym->vma + (key - sym->start);
		l->line = fact->line;
		mp = &m->mappings[l->mapping - 1];
		if (l->address < mp->start) {
			mp->start = l->address;
			mp->offset = key;
		}
		if (l->address >= mp->limit)
			mp->limit = l->address + 1;
		if (l->line)
			mp->has_lines = true;
	}
}

/* the location id of key (a sampled address) in image, sym its symbol */
static uint64_t location_of(struct build *b, size_t image, const struct pp_sym *sym,
			    uint64_t key)
{
	const struct pp_pprof_key k = { image, key };
	size_t i = find_location(b, &k);

	if (i != SIZE_MAX)
		return i + 1;
	remember(&b->locs, &k, b->m.nr_locations);
	return make_location(b, &k, sym);
}

/* a sample of the location ids added since first, with counts */
static void add_sample(struct build *b, size_t app, const uint64_t *counts)
{
	struct pp_pprof *m = &b->m;
	size_t c, n = m->nr_samples;

	if (n + 1 >= m->alloc_samples) {
		m->alloc_samples = m->alloc_samples ? 2 * m->alloc_samples : 256;
		m->first = op_xreallocarray(m->first, m->alloc_samples + 1, sizeof(*m->first));
		m->labels = op_xreallocarray(m->labels, m->alloc_samples, sizeof(*m->labels));
		m->values = op_xreallocarray(m->values, m->alloc_samples,
					     b->nr_classes * sizeof(*m->values));
	}
	for (c = 0; c < b->nr_classes; c++)
		m->values[n * b->nr_classes + c] = (int64_t)counts[c];
	m->labels[n] = app_str(b, app);
	m->first[n + 1] = m->nr_frames;
	m->nr_samples++;
}

static void add_frame(struct build *b, uint64_t location)
{
	GROW(b->m.frames, b->m.nr_frames, b->m.alloc_frames);
	b->m.frames[b->m.nr_frames++] = location;
}

/* the leaf samples per class of the stacks at location loc in app, or NULL */
static uint64_t *leaf_find(const struct build *b, size_t loc, size_t app)
{
	size_t i;

	for (i = b->loc_leaves[loc]; i; i = b->leaves[i - 1].next)
		if (b->leaves[i - 1].app == app)
			return &b->leaf_counts[(i - 1) * b->nr_classes];
	return NULL;
}

/* the leaf samples of location loc in app, made zero on first use */
static uint64_t *leaf_get(struct build *b, size_t loc, size_t app)
{
	uint64_t *counts = leaf_find(b, loc, app);
	size_t i = b->nr_leaves;

	if (counts)
		return counts;
	if (i == b->alloc_leaves) {
		GROW(b->leaves, b->nr_leaves, b->alloc_leaves);
		b->leaf_counts = op_xreallocarray(b->leaf_counts, b->alloc_leaves,
						  b->nr_classes * sizeof(*b->leaf_counts));
	}
	b->leaves[i] = (struct leaf){ app, b->loc_leaves[loc] };
	b->loc_leaves[loc] = i + 1;
	memset(&b->leaf_counts[i * b->nr_classes], 0,
	       b->nr_classes * sizeof(*b->leaf_counts));
	b->nr_leaves++;
	return &b->leaf_counts[i * b->nr_classes];
}

/*
 * The location of the frames at key in bucket (what: their symbol or
 * name), made as the next one, in its image's sorted range
 */
static void new_location(struct build *b, size_t bucket, uint64_t key, const void *what)
{
	size_t image = bucket == b->p->nr_images ? SIZE_MAX : bucket;
	const struct pp_pprof_key k = { image, key };

	make_location(b, &k, what);
	if (image != SIZE_MAX) {
		if (!b->sorted_hi[image])
			b->sorted_lo[image] = b->m.nr_locations - 1;
		b->sorted_hi[image] = b->m.nr_locations;
	}
}

/* the key a node's location is under, as a leaf or as a caller */
static uint64_t node_key(struct build *b, const struct pp_stack_node *nd, bool caller)
{
	const struct pp_stack_frame *fr = &nd->frame;

	if (fr->image == SIZE_MAX)
		return name_str(b, fr->other);
	if (caller && fr->offset > fr->sym->start)
		return fr->offset - 1;	/* inside the call instruction, not after it */
	return fr->offset;
}

/* room for nr samples in all */
static void reserve_samples(struct build *b, size_t nr)
{
	struct pp_pprof *m = &b->m;

	if (nr + 1 < m->alloc_samples)
		return;
	m->alloc_samples = nr + 1;
	m->first = op_xreallocarray(m->first, m->alloc_samples + 1, sizeof(*m->first));
	m->labels = op_xreallocarray(m->labels, m->alloc_samples, sizeof(*m->labels));
	m->values = op_xreallocarray(m->values, m->alloc_samples,
				     b->nr_classes * sizeof(*m->values));
}

/* what a node of the stacks' tree is to the shown stacks */
enum {
	NEED_LEAF = 1,		/* a stack ends there */
	NEED_CALLER = 2,	/* a stack calls through it */
};

/*
 * The shown stacks as samples (their frames: the stacks' tree nodes,
 * pp_stacks.h's PP_STACKS_TREE).  A node is a location as the leaf of a
 * stack and another, its key less one, as a caller: the location of
 * each (node, role) that a shown stack has is found once, not once per
 * frame.  The locations are made all at once: the (node, role) pairs
 * sorted by image and key, each distinct (image, key) a location, so
 * that an image's locations are made in address order (its lines and
 * symbols looked up in order, a function's locations one after the
 * other) and are found later by bisection, not by hashing.  The tree's
 * nodes come before the nodes they call, so the callers of the shown
 * leaves are found in one sweep from the last node back.
 */
static void add_stacks(struct build *b, const struct pp_stacks *st)
{
	struct pp_pprof *m = &b->m;
	size_t nr_images = b->p->nr_images, first_sample = m->nr_samples, nr_nodes = st->nr_nodes;
	unsigned char *need = op_xcalloc_written(nr_nodes + 1, 1);	/* per node: NEED_* */
	size_t *up = op_xcalloc(nr_nodes + 1, sizeof(*up));	/* per node: its parent */
	/* per node and role (2 n: as a leaf, 2 n + 1: as a caller): its location */
	size_t *loc = op_xcalloc(2 * nr_nodes + 1, sizeof(*loc));
	size_t nr_items = 0;
	size_t *leaf_of = op_xcalloc(st->nr + 1, sizeof(*leaf_of));	/* per sample */
	struct pp_keyorder o;
	struct pp_keyorder_item it;
	size_t i, n, c;

	reserve_samples(b, m->nr_samples + st->nr);
	for (i = 0; i < st->nr; i++) {
		const struct pp_stack *s = &st->v[i];
		struct pp_row *row;

		if (!s->nr_frames || !pp_leaf_shown(b->r, b->s, s, &row))
			continue;
		need[s->leaf] |= NEED_LEAF;
		leaf_of[m->nr_samples - first_sample] = s->leaf;
		m->nr_frames += s->nr_frames;	/* filled below */
		add_sample(b, s->app, s->counts);
		if (row)
			for (c = 0; c < b->nr_classes; c++)
				b->row_stacked[row->index * b->nr_classes + c] += s->counts[c];
	}
	if (m->nr_frames > m->alloc_frames) {
		m->alloc_frames = m->nr_frames;
		m->frames = op_xreallocarray(m->frames, m->alloc_frames, sizeof(*m->frames));
	}
	for (n = nr_nodes; n-- > 0;) {
		up[n] = st->nodes[n].parent;
		if (need[n] && up[n] != SIZE_MAX)
			need[up[n]] |= NEED_CALLER;
		nr_items += (need[n] & NEED_LEAF) + (need[n] >> 1);
	}
	/* buckets: the images, then nr_images for the frames without one */
	pp_keyorder_init(&o, nr_images + 1, nr_items);
	for (n = 0; n < nr_nodes; n++) {
		const struct pp_stack_node *node = &st->nodes[n];
		size_t bucket = node->frame.image == SIZE_MAX ? nr_images : node->frame.image;

		if (need[n] & NEED_LEAF)
			pp_keyorder_add(&o, bucket, node_key(b, node, false), 2 * n);
		if (need[n] & NEED_CALLER)
			pp_keyorder_add(&o, bucket, node_key(b, node, true), 2 * n + 1);
	}
	pp_keyorder_sort(&o);
	reserve_locations(b, nr_items);
	while (pp_keyorder_next(&o, &it)) {
		if (it.first) {
			const struct pp_stack_frame *fr = &st->nodes[it.value / 2].frame;

			new_location(b, it.bucket, it.key, fr->image == SIZE_MAX ?
				     (const void *)fr->other : (const void *)fr->sym);
		}
		loc[it.value] = m->nr_locations;
	}
	pp_keyorder_release(&o);
	/* the leaves' samples per location and app, for add_rest() */
	for (i = 0; i < st->nr; i++) {
		const struct pp_stack *s = &st->v[i];

		if (need[s->leaf] & NEED_LEAF) {
			uint64_t *sum = leaf_get(b, loc[2 * s->leaf] - 1, s->app);

			for (c = 0; c < b->nr_classes; c++)
				sum[c] += s->counts[c];
		}
	}
	free(need);
	b->tree.loc = loc;
	b->tree.up = up;
	b->tree.leaf_of = leaf_of;
	b->tree.first_sample = first_sample;
	b->tree.end_sample = m->nr_samples;
}

/* the frames of add_stacks()'s samples: its leaf's location, then its callers' */
static void stack_frames(struct build *b)
{
	struct pp_pprof *m = &b->m;
	const size_t *loc = b->tree.loc, *up = b->tree.up;
	size_t n;

	for (n = b->tree.first_sample; n < b->tree.end_sample; n++) {
		size_t nd = b->tree.leaf_of[n - b->tree.first_sample];
		size_t at = m->first[n];

		m->frames[at++] = loc[2 * nd];
		for (nd = up[nd]; nd != SIZE_MAX; nd = up[nd])
			m->frames[at++] = loc[2 * nd + 1];
	}
}

/*
 * pp_rows_for_each_key(): of the samples at key, those no stack has as
 * its leaf, up to what the row still needs, as a one-frame sample
 */
static void add_key(void *data, uint64_t key, const uint64_t *counts)
{
	struct build *b = data;
	const struct pp_row *row = b->row;
	const struct pp_pprof_key k = { row->image, key };
	size_t loc = find_location(b, &k);
	const uint64_t *stacked = loc == SIZE_MAX ? NULL : leaf_find(b, loc, row->app);
	bool any = false;
	size_t c;

	for (c = 0; c < b->nr_classes; c++) {
		uint64_t left = counts[c];

		if (stacked)
			left = left > stacked[c] ? left - stacked[c] : 0;
		b->take[c] = left < b->need[c] ? left : b->need[c];
		b->need[c] -= b->take[c];
		any |= b->take[c] != 0;
	}
	if (!any)
		return;
	add_frame(b, location_of(b, row->image, row->sym, key));
	add_sample(b, row->app, b->take);
}

/* the samples of the shown rows that no stack covers */
static void add_rest(struct build *b)
{
	size_t i, c;

	for (i = 0; i < b->s->nr_sel; i++) {
		const struct pp_row *row = b->s->sel[i];
		const uint64_t *stacked = &b->row_stacked[row->index * b->nr_classes];
		bool any = false;

		if (!row->sym)
			continue;
		for (c = 0; c < b->nr_classes; c++) {
			b->need[c] = row->counts[c] > stacked[c] ? row->counts[c] - stacked[c] : 0;
			any |= b->need[c] != 0;
		}
		if (!any)
			continue;
		b->row = row;
		pp_rows_for_each_key(b->p, &b->s->rows, row, add_key, b);
	}
}

static void add_comment(struct build *b, const char *text)
{
	struct pp_pprof *m = &b->m;

	m->comments = op_xreallocarray(m->comments, m->nr_comments + 1, sizeof(*m->comments));
	m->comments[m->nr_comments++] = str(b, text);
}

/* opreport's header lines (unless -n) and the profiled command */
static void add_header(struct build *b)
{
	const struct pp_session_info *info = b->r->info;
	char *text = NULL, *line, *end;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		op_die(1, "out of memory");
	pp_report_header(f, b->p, info, b->r->o);
	if (fclose(f))
		op_die(1, "out of memory");
	for (line = text; line && *line; line = end) {
		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		else
			end = line + strlen(line);
		if (*line)
			add_comment(b, line);
	}
	free(text);
	if (info && info->run.command && *info->run.command) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		op_strbuf_addf(&sb, "Command: %s", info->run.command);
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		add_comment(b, sb.buf);
		op_strbuf_release(&sb);
	}
}

/*
 * When the run started: session.info's "started" (odb_session_info.h),
 * a local time, read in this machine's time zone; 0 when unknown
 */
static int64_t started_nanos(const struct pp_session_info *info)
{
	struct tm tm = { 0 };
	const char *end;
	time_t t;

	if (!info || !info->run.started)
		return 0;
	end = strptime(info->run.started, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end || *end)
		return 0;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	return t == (time_t)-1 || t <= 0 ? 0 : (int64_t)t * 1000000000;
}

static bool is_clock(const char *event)
{
	return event && (!strcmp(event, "cpu-clock") || !strcmp(event, "task-clock") ||
			 !strcmp(event, "cpu_clock") || !strcmp(event, "task_clock"));
}

static void add_types(struct build *b)
{
	struct pp_pprof *m = &b->m;
	char **ids = pp_class_ids(b->p);
	const struct pp_class *first = &b->p->classes[0];
	size_t c;

	m->nr_types = b->nr_classes;
	m->types = op_xcalloc(b->nr_classes + 1, sizeof(*m->types));
	m->units = op_xcalloc(b->nr_classes + 1, sizeof(*m->units));
	for (c = 0; c < b->nr_classes; c++) {
		m->types[c] = str(b, ids[c]);
		m->units[c] = str(b, "count");
		free(ids[c]);
	}
	free(ids);
	/* readers show the last type unless told: the first, as opreport */
	m->default_type = b->nr_classes ? m->types[0] : 0;
	if (b->nr_classes && first->t.event && first->t.count > 0) {
		m->period_type = str(b, first->t.event);
		m->period_unit = str(b, is_clock(first->t.event) ? "nanoseconds" : "count");
		m->period = first->t.count;
	}
	m->label_key = str(b, "app");
}

static void build_init(struct build *b, struct pp_report *r)
{
	memset(b, 0, sizeof(*b));
	b->r = r;
	b->s = &r->sides[0];
	b->p = b->s->p;
	b->nr_classes = b->p->nr_classes;
	op_hmap_init(&b->m.string_index);
	op_hmap_init(&b->locs);
	op_hmap_init(&b->fns);
	op_hmap_init(&b->name_index);
	b->app_label = op_xcalloc(b->p->nr_apps + 1, sizeof(*b->app_label));
	b->m.strings = op_xcalloc(1, sizeof(*b->m.strings));
	b->m.strings[0] = op_xstrdup("");
	b->m.nr_strings = b->m.alloc_strings = 1;
	b->m.first = op_xcalloc(1, sizeof(*b->m.first));
	b->image_mapping = op_xcalloc(b->p->nr_images + 1, sizeof(*b->image_mapping));
	b->tabs = op_xcalloc(b->p->nr_images + 1, sizeof(*b->tabs));
	b->sorted_lo = op_xcalloc(b->p->nr_images + 1, sizeof(*b->sorted_lo));
	b->sorted_hi = op_xcalloc(b->p->nr_images + 1, sizeof(*b->sorted_hi));
	b->row_stacked = op_xcalloc((b->s->rows.nr + 1) * (b->nr_classes + 1),
				    sizeof(*b->row_stacked));
	b->need = op_xcalloc(b->nr_classes + 1, sizeof(*b->need));
	b->take = op_xcalloc(b->nr_classes + 1, sizeof(*b->take));
}

static void build_release(struct build *b)
{
	struct pp_pprof *m = &b->m;
	size_t i;

	pp_pprof_facts_end(b->facts);	/* it reads the locations' keys */
	for (i = 0; i < m->nr_strings; i++)
		free(m->strings[i]);
	free(m->strings);
	op_hmap_release(&m->string_index);
	free(m->types);
	free(m->units);
	free(m->comments);
	free(m->mappings);
	free(m->functions);
	free(m->locations);
	free(m->frames);
	free(m->first);
	free(m->values);
	free(m->labels);
	op_hmap_release(&b->locs);
	op_hmap_release(&b->fns);
	free(b->loc_keys);
	free(b->loc_leaves);
	free(b->loc_what);
	free(b->fn_keys);
	free(b->image_mapping);
	free(b->tabs);
	free(b->tree.loc);
	free(b->tree.up);
	free(b->tree.leaf_of);
	free(b->sorted_lo);
	free(b->sorted_hi);
	free(b->row_stacked);
	free(b->leaves);
	free(b->leaf_counts);
	free(b->app_label);
	op_hmap_release(&b->name_index);
	free(b->need);
	free(b->take);
}

int pp_write_pprof(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_pprof_encoder *enc;
	struct build b;
	const struct pp_stacks *st = &r->sides[0].stacks;
	size_t i;
	int ret;

	build_init(&b, r);
	add_types(&b);
	add_header(&b);
	b.m.time_nanos = started_nanos(r->info);
	main_mapping(&b);
	ret = r->sides[0].stacks_ret;
	if (!ret) {
		add_comment(&b, "Samples are the whole call stacks of the session's stack "
			    "file; the samples no stack covers are one-frame samples");
		add_stacks(&b, st);
	} else {
		struct op_strbuf sb = OP_STRBUF_INIT;

		op_strbuf_addf(&sb, "no whole call stacks: %s; each symbol's samples "
			       "are one-frame samples", pp_stacks_why(ret));
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		pp_note(r->notes, "%s", sb.buf);
		sb.buf[0] = 'N';
		add_comment(&b, sb.buf);
		op_strbuf_release(&sb);
	}
	add_rest(&b);
	/* all that is needed of the stacks is taken: their memory serves what follows */
	pp_stacks_drop(&r->sides[0].stacks);
	/* what the locations' code is: looked up while the samples are finished */
	b.facts = pp_pprof_facts_start(b.tabs, b.p->nr_images, b.loc_keys, b.loc_what,
				       b.m.nr_locations);
	if (!ret) {
		stack_frames(&b);
		free(b.tree.loc);
		free(b.tree.up);
		free(b.tree.leaf_of);
		memset(&b.tree, 0, sizeof(b.tree));
	}
	/* the samples are final: they are packed while the locations are made */
	ret = pp_pprof_encode_start(&b.m, out, &enc, err);
	if (ret) {
		build_release(&b);
		return ret;
	}
	for (i = 0; i < b.m.nr_locations; i++)
		fill_location(&b, i, b.loc_keys[i].image == SIZE_MAX ? NULL :
				     pp_pprof_facts_get(b.facts, i));
	pp_pprof_facts_end(b.facts);
	b.facts = NULL;
	/* mappings that no address reached (main_mapping()'s, with -i) */
	for (i = 0; i < b.m.nr_mappings; i++)
		if (b.m.mappings[i].start == UINT64_MAX)
			b.m.mappings[i].start = 0;
	ret = pp_pprof_encode_finish(enc, err);
	build_release(&b);
	return ret;
}
