// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole call stacks of a profile (pp_stacks.h): the stack files of its
 * sessions, their images matched to the profile's by parsing each image
 * component with the sample-file name grammar, frames resolved to
 * symbols, counts put in the profile's classes.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdb/odb_name.h"
#include "libdb/odb_stacks.h"
#include "libpp/profile/pp_stacks.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_sort.h"
#include "libutil/op_strbuf.h"

/* how a stack file's image maps onto the profile */
struct image_map {
	size_t image;		/* profile image, or SIZE_MAX */
	size_t app;		/* profile app, or SIZE_MAX */
	const char *other;	/* the display name when image is SIZE_MAX */
};

/*
 * The stack file of the session a sample file is in: its path up to the
 * first "/SESSION/{", where its relative name starts (a component of an
 * image path never starts with '{': odb_name.h).
 */
static char *stacks_path(const struct pp_sample_file *f)
{
	struct op_strbuf pat = OP_STRBUF_INIT;
	const char *at;
	char *path = NULL;

	op_strbuf_addf(&pat, "/%s/{", f->session);
	if (op_strbuf_failed(&pat))
		op_die(1, "out of memory");
	at = strstr(f->path, pat.buf);
	if (at)
		if (asprintf(&path, "%.*s/%s/%s", (int)(at - f->path), f->path,
			     f->session, ODB_STACKS_NAME) < 0)
			op_die(1, "out of memory");
	op_strbuf_release(&pat);
	return path;
}

static void map_image(struct pp_stacks *s, struct pp_profile *p, const char *comp,
		      struct image_map *m)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_name name;
	size_t i;

	m->image = m->app = SIZE_MAX;
	m->other = NULL;
	op_strbuf_addf(&sb, "%s/{dep}/%s/e.1.0.all.all.all", comp, comp);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	if (odb_name_parse(sb.buf, &name, NULL)) {
		op_strbuf_release(&sb);
		return;
	}
	for (i = 0; i < p->nr_images && m->image == SIZE_MAX; i++)
		if (odb_image_id_equal(&p->images[i].id, &name.image))
			m->image = i;
	for (i = 0; i < p->nr_apps && m->app == SIZE_MAX; i++)
		if (odb_image_id_equal(&p->apps[i].id, &name.app))
			m->app = i;
	if (m->image == SIZE_MAX) {
		op_strbuf_reset(&sb);
		op_strbuf_addch(&sb, '[');
		if (odb_image_id_format(&sb, &name.image, false))
			op_die(1, "out of memory");
		op_strbuf_addch(&sb, ']');
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		s->names = op_xreallocarray(s->names, s->nr_names + 1, sizeof(*s->names));
		s->names[s->nr_names++] = op_xstrdup(sb.buf);
		m->other = s->names[s->nr_names - 1];
	}
	odb_name_release(&name);
	op_strbuf_release(&sb);
}

/* the stack file's event of class c, or SIZE_MAX */
static size_t event_of(const struct odb_stacks *f, const struct pp_class *c)
{
	size_t i, n = odb_stacks_nr_events(f);
	char want[256];
	int len;

	len = snprintf(want, sizeof(want), "%s.%d.", c->t.event, c->t.count);
	for (i = 0; len > 0 && (size_t)len < sizeof(want) && i < n; i++) {
		const char *ev = odb_stacks_event(f, i);

		if (strncmp(ev, want, (size_t)len))
			continue;
		if (c->t.unit_mask == ODB_ALL ||
		    strtoull(ev + len, NULL, 10) == (uint64_t)c->t.unit_mask)
			return i;
	}
	return SIZE_MAX;
}

/* the smallest block of the stacks' storage */
#define STACKS_BLOCK_SIZE (256u * 1024)

_Static_assert(sizeof(struct pp_stack_frame) % sizeof(uint64_t) == 0,
	       "a stack's counts after its frames are aligned");

/*
 * size bytes (a multiple of 8) of zeroes for a stack: the stacks of a
 * file are many and small, so they are cut from blocks rather than each
 * allocated (and freed) alone
 */
static void *stack_alloc(struct pp_stacks *s, size_t size)
{
	size_t block = size > STACKS_BLOCK_SIZE ? size : STACKS_BLOCK_SIZE;
	void *at;

	if (s->block_left < size) {
		s->blocks = op_xreallocarray(s->blocks, s->nr_blocks + 1, sizeof(*s->blocks));
		s->block_at = s->blocks[s->nr_blocks++] = op_xcalloc(1, block);
		s->block_left = block;
	}
	at = s->block_at;
	s->block_at += size;
	s->block_left -= size;
	return at;
}

/*
 * The symbols of the frames met last, by (image, offset): stacks share
 * most of their frames (the callers near the root), so most frames are
 * found here rather than searched for in their image's table again.
 * Direct-mapped: a slot holds the last frame that hashed to it.
 */
#define SYM_CACHE_BITS 16

struct sym_cache_slot {
	uint64_t offset;
	size_t image;		/* profile image + 1; 0: empty */
	const struct pp_sym *sym;
};

static const struct pp_sym *frame_sym(struct sym_cache_slot *cache, struct pp_profile *p,
				      size_t image, uint64_t offset)
{
	uint64_t h = (offset ^ ((uint64_t)image << 40)) * 0x9e3779b97f4a7c15ull;
	struct sym_cache_slot *slot = &cache[h >> (64 - SYM_CACHE_BITS)];

	if (slot->image != image + 1 || slot->offset != offset) {
		slot->sym = pp_symtab_hold(pp_image_symtab(p, image), offset);
		if (!slot->sym)
			op_die(1, "out of memory");
		slot->image = image + 1;
		slot->offset = offset;
	}
	return slot->sym;
}

static void add_stack(struct pp_stacks *s, struct pp_profile *p,
		      const struct odb_stack *st, const struct image_map *map,
		      const size_t *ev_of_class, struct sym_cache_slot *cache)
{
	struct pp_stack *out;
	uint64_t total = 0;
	size_t c, i;

	if (map[st->app].app == SIZE_MAX || map[st->frames[0].image].image == SIZE_MAX)
		return;
	for (c = 0; c < p->nr_classes; c++)
		if (ev_of_class[c] != SIZE_MAX)
			total += st->counts[ev_of_class[c]];
	if (!total)
		return;
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 256;
		s->v = op_xreallocarray(s->v, s->alloc, sizeof(*s->v));
	}
	out = &s->v[s->nr++];
	out->app = map[st->app].app;
	out->nr_frames = st->nr_frames;
	out->frames = stack_alloc(s, st->nr_frames * sizeof(*out->frames));
	out->counts = stack_alloc(s, p->nr_classes * sizeof(uint64_t));
	for (c = 0; c < p->nr_classes; c++)
		if (ev_of_class[c] != SIZE_MAX)
			out->counts[c] = st->counts[ev_of_class[c]];
	for (i = 0; i < st->nr_frames; i++) {
		const struct image_map *m = &map[st->frames[i].image];
		struct pp_stack_frame *f = &out->frames[i];

		f->image = m->image;
		f->offset = st->frames[i].offset;
		if (m->image == SIZE_MAX)
			f->other = m->other;
		else
			f->sym = frame_sym(cache, p, m->image, f->offset);
	}
}

/* stacks [from, to) of a stack file, read into out */
struct part {
	struct pp_stacks *out;
	struct pp_profile *p;
	const struct odb_stacks *f;
	const struct image_map *map;
	const size_t *ev_of_class;
	size_t from, to;
};

static void *read_part(void *arg)
{
	const struct part *pt = arg;
	struct odb_stack_frame *buf = op_xcalloc(ODB_STACKS_MAX_FRAMES, sizeof(*buf));
	struct sym_cache_slot *cache = op_xcalloc_written((size_t)1 << SYM_CACHE_BITS,
							  sizeof(*cache));
	size_t i;

	for (i = pt->from; i < pt->to; i++) {
		struct odb_stack st;

		odb_stacks_get(pt->f, i, &st, buf);
		add_stack(pt->out, pt->p, &st, pt->map, pt->ev_of_class, cache);
	}
	free(buf);
	free(cache);
	return NULL;
}

/* the stacks and storage of t appended to s's (t is left empty) */
static void take_stacks(struct pp_stacks *s, struct pp_stacks *t)
{
	if (s->nr + t->nr > s->alloc) {
		s->alloc = s->nr + t->nr;
		s->v = op_xreallocarray(s->v, s->alloc, sizeof(*s->v));
	}
	if (t->nr)
		memcpy(&s->v[s->nr], t->v, t->nr * sizeof(*t->v));
	s->nr += t->nr;
	s->blocks = op_xreallocarray(s->blocks, s->nr_blocks + t->nr_blocks + 1,
				     sizeof(*s->blocks));
	if (t->nr_blocks)
		memcpy(&s->blocks[s->nr_blocks], t->blocks, t->nr_blocks * sizeof(*t->blocks));
	s->nr_blocks += t->nr_blocks;
	free(t->v);
	free(t->blocks);
	memset(t, 0, sizeof(*t));
}

/* room for nr more nodes and stacks in s */
static void reserve_tree(struct pp_stacks *s, size_t nodes, size_t stacks)
{
	if (s->nr_nodes + nodes > s->alloc_nodes) {
		s->alloc_nodes = s->nr_nodes + nodes;
		s->nodes = op_xreallocarray(s->nodes, s->alloc_nodes + 1, sizeof(*s->nodes));
	}
	if (s->nr + stacks > s->alloc) {
		s->alloc = s->nr + stacks;
		s->v = op_xreallocarray(s->v, s->alloc + 1, sizeof(*s->v));
	}
}

/*
 * A new node of s: frame (image, offset) of a stack file, under parent;
 * its symbol is looked up later (resolve_nodes())
 */
static size_t tree_node(struct pp_stacks *s, const struct image_map *m, uint64_t offset,
			size_t parent)
{
	struct pp_stack_node *nd;

	if (s->nr_nodes == s->alloc_nodes)
		reserve_tree(s, s->nr_nodes + 1, 0);
	nd = &s->nodes[s->nr_nodes];
	nd->parent = parent;
	nd->frame.image = m->image;
	nd->frame.offset = offset;
	if (m->image == SIZE_MAX)
		nd->frame.other = m->other;
	else
		nd->frame.sym = NULL;
	return s->nr_nodes++;
}

/*
 * The symbols of nodes [from, s->nr_nodes) (tabs: per profile image), in
 * address order per image: the offsets sorted, an offset inside the
 * symbol found for the one before takes that symbol, the others are
 * looked up.  pp_symtab_hold() gives the same: table symbols do not
 * overlap and a gap holds none (a PLT entry is looked up each time).
 * Nodes are distinct frames, but many lie in one function: a few
 * thousand look-ups instead of one per node.
 */
static void resolve_nodes(struct pp_stacks *s, struct pp_symtab *const *tabs,
			  size_t nr_images, size_t from)
{
	size_t *start = op_xcalloc(nr_images + 2, sizeof(*start)), *at;
	struct op_kv *kv, *tmp;
	size_t n, i, most = 0;

	for (n = from; n < s->nr_nodes; n++)
		if (s->nodes[n].frame.image != SIZE_MAX)
			start[s->nodes[n].frame.image + 1]++;
	for (i = 0; i < nr_images; i++) {
		if (start[i + 1] > most)
			most = start[i + 1];
		start[i + 1] += start[i];
	}
	kv = op_xmalloc((start[nr_images] + 1) * sizeof(*kv));
	tmp = op_xmalloc((most + 1) * sizeof(*tmp));
	at = op_xcalloc(nr_images + 1, sizeof(*at));
	memcpy(at, start, nr_images * sizeof(*at));
	for (n = from; n < s->nr_nodes; n++) {
		const struct pp_stack_frame *fr = &s->nodes[n].frame;

		if (fr->image != SIZE_MAX)
			kv[at[fr->image]++] = (struct op_kv){ fr->offset, n };
	}
	for (i = 0; i < nr_images; i++) {
		size_t nr = start[i + 1] - start[i], k;
		const struct op_kv *v = nr ? op_sort_kv(kv + start[i], tmp, nr) : NULL;
		const struct pp_sym *cur = NULL;

		for (k = 0; k < nr; k++) {
			uint64_t key = v[k].key;

			if (!cur || (cur->flags & PP_SYM_PLT) || key < cur->start ||
			    key >= cur->end) {
				cur = pp_symtab_hold(tabs[i], key);
				if (!cur)
					op_die(1, "out of memory");
			}
			s->nodes[v[k].value].frame.sym = cur;
		}
	}
	free(at);
	free(tmp);
	free(kv);
	free(start);
}

/*
 * A stack of app ending at node leaf (its counts those of the file's
 * events), unless it counts nothing in p's classes
 */
static void tree_stack(struct pp_stacks *s, struct pp_profile *p, size_t app, size_t leaf,
		       size_t nr_frames, const uint64_t *counts, const size_t *ev_of_class)
{
	struct pp_stack *out;
	uint64_t total = 0;
	size_t c;

	for (c = 0; c < p->nr_classes; c++)
		if (ev_of_class[c] != SIZE_MAX)
			total += counts[ev_of_class[c]];
	if (!total)
		return;
	if (s->nr == s->alloc)
		reserve_tree(s, 0, s->nr + 1);
	out = &s->v[s->nr++];
	out->app = app;
	out->nr_frames = nr_frames;
	out->frames = NULL;
	out->leaf = leaf;
	out->counts = stack_alloc(s, p->nr_classes * sizeof(uint64_t));
	for (c = 0; c < p->nr_classes; c++)
		if (ev_of_class[c] != SIZE_MAX)
			out->counts[c] = counts[ev_of_class[c]];
}

/*
 * PP_STACKS_TREE, version 2: the file's nodes (those under a root of one
 * of p's applications) become s's, each frame resolved once; the nodes
 * counting samples, with a leaf in one of p's images, are the stacks.
 */
static void read_tree(struct pp_stacks *s, struct pp_profile *p, const struct odb_stacks *f,
		      const struct image_map *map, const size_t *ev_of_class)
{
	size_t nr = odb_stacks_nr_nodes(f), n;
	/* per file node: its node in s (SIZE_MAX: a root, or left out), its
	 * application (SIZE_MAX: none of p's), its frames */
	size_t *to = op_xcalloc(nr + 1, sizeof(*to)), *app = op_xcalloc(nr + 1, sizeof(*app));
	uint32_t *depth = op_xcalloc(nr + 1, sizeof(*depth));

	reserve_tree(s, nr, odb_stacks_nr_stacks(f));
	for (n = 0; n < nr; n++) {
		struct odb_stack_tree_node v;
		const struct image_map *m;

		to[n] = app[n] = SIZE_MAX;
		if (!odb_stacks_node(f, n, &v))
			continue;
		m = &map[v.image];
		if (v.parent == ODB_STACKS_NO_PARENT) {
			app[n] = m->app;
			depth[n] = 0;
			continue;
		}
		depth[n] = depth[v.parent] + 1;
		if (app[v.parent] == SIZE_MAX || depth[n] > ODB_STACKS_MAX_FRAMES)
			continue;
		app[n] = app[v.parent];
		to[n] = tree_node(s, m, v.offset, to[v.parent]);
		if (m->image != SIZE_MAX)
			tree_stack(s, p, app[n], to[n], depth[n], v.counts, ev_of_class);
	}
	free(depth);
	free(app);
	free(to);
}

/*
 * PP_STACKS_TREE, version 1 (a stack per record, no tree): each stack's
 * frames become a chain of nodes of its own
 */
static void read_chains(struct pp_stacks *s, struct pp_profile *p, const struct odb_stacks *f,
			const struct image_map *map, const size_t *ev_of_class)
{
	struct odb_stack_frame *buf = op_xcalloc(ODB_STACKS_MAX_FRAMES, sizeof(*buf));
	size_t i, nr = odb_stacks_nr_stacks(f);

	for (i = 0; i < nr; i++) {
		struct odb_stack st;
		size_t k, parent = SIZE_MAX;

		odb_stacks_get(f, i, &st, buf);
		if (!st.nr_frames || map[st.app].app == SIZE_MAX ||
		    map[st.frames[0].image].image == SIZE_MAX)
			continue;
		for (k = st.nr_frames; k-- > 0;)
			parent = tree_node(s, &map[st.frames[k].image], st.frames[k].offset,
					   parent);
		tree_stack(s, p, map[st.app].app, parent, st.nr_frames, st.counts, ev_of_class);
	}
	free(buf);
}

/* fewer stacks are read by one thread */
#define SPLIT_STACKS 16384

/*
 * A file's stacks, resolved to symbols.  Many are read by two threads,
 * each half the stacks in order with its own storage, and the second
 * half is appended to the first: the same stacks in the same order as
 * one thread gives.  The symbol tables are made first (pp_image_symtab()
 * is not for threads); finding symbols in them is.
 */
static void read_file(struct pp_stacks *s, struct pp_profile *p, struct odb_stacks *f,
		      unsigned flags)
{
	size_t nr = odb_stacks_nr_stacks(f), i;
	struct part one = { s, p, f, NULL, NULL, 0, nr }, two;
	struct pp_stacks second = { 0 };
	struct image_map *map;
	struct pp_symtab **tabs;	/* per profile image: its table, if mapped */
	size_t *ev_of_class;
	pthread_t tid;
	bool threaded = false;

	map = op_xcalloc(odb_stacks_nr_images(f) + 1, sizeof(*map));
	tabs = op_xcalloc(p->nr_images + 1, sizeof(*tabs));
	for (i = 0; i < odb_stacks_nr_images(f); i++) {
		map_image(s, p, odb_stacks_image(f, i), &map[i]);
		if (map[i].image != SIZE_MAX)
			tabs[map[i].image] = pp_image_symtab(p, map[i].image);
	}
	ev_of_class = op_xcalloc(p->nr_classes + 1, sizeof(*ev_of_class));
	for (i = 0; i < p->nr_classes; i++)
		ev_of_class[i] = event_of(f, &p->classes[i]);
	one.map = map;
	one.ev_of_class = ev_of_class;
	if (flags & PP_STACKS_TREE) {
		size_t from = s->nr_nodes;

		if (odb_stacks_nr_nodes(f))
			read_tree(s, p, f, map, ev_of_class);
		else
			read_chains(s, p, f, map, ev_of_class);
		resolve_nodes(s, tabs, p->nr_images, from);
	} else if ((flags & PP_STACKS_ALONE) && nr >= SPLIT_STACKS &&
		   sysconf(_SC_NPROCESSORS_ONLN) > 1) {
		two = one;
		two.out = &second;
		two.from = one.to = nr / 2;
		threaded = !pthread_create(&tid, NULL, read_part, &two);
		if (!threaded)
			one.to = nr;
	}
	if (!(flags & PP_STACKS_TREE))
		read_part(&one);
	if (threaded) {
		pthread_join(tid, NULL);
		take_stacks(s, &second);
	}
	s->dropped += odb_stacks_dropped(f);
	s->nr_files++;
	free(ev_of_class);
	free(tabs);
	free(map);
}

static bool seen_path(char **paths, size_t nr, const char *path)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(paths[i], path))
			return true;
	return false;
}

int pp_stacks_load(struct pp_stacks *s, struct pp_profile *p, unsigned flags,
		   struct pp_notes *n)
{
	char **paths = NULL;
	size_t nr_paths = 0, i, j;
	int ret = -ENOENT;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < p->nr_classes; i++)
		if (p->classes[i].t.tgid != ODB_ALL || p->classes[i].t.tid != ODB_ALL ||
		    p->classes[i].t.cpu != ODB_ALL)
			return -ENOTSUP;	/* per thread or CPU: not in the files */
	for (i = 0; i < p->nr_groups; i++)
		if (p->groups[i].nr_files && p->groups[i].files[0]->sliced)
			return -ERANGE;		/* time: the stacks are the whole run's */
	for (i = 0; i < p->nr_groups; i++) {
		for (j = 0; j < p->groups[i].nr_files; j++) {
			char *path = stacks_path(p->groups[i].files[j]);

			if (!path || seen_path(paths, nr_paths, path)) {
				free(path);
				continue;
			}
			paths = op_xreallocarray(paths, nr_paths + 1, sizeof(*paths));
			paths[nr_paths++] = path;
		}
	}
	for (i = 0; i < nr_paths; i++) {
		struct odb_stacks *f;
		int err = odb_stacks_open(paths[i], &f);

		if (err == -ENOENT)
			continue;
		if (err) {
			pp_note(n, "warning: the stack file %s cannot be read: %s",
				paths[i], odb_strerror(err));
			ret = err;
			break;
		}
		read_file(s, p, f, flags);
		odb_stacks_close(f);
		ret = 0;
	}
	if (!ret && s->dropped)
		pp_note(n, "warning: %" PRIu64 " samples have no stack: the stack file "
			"reached its size limit", s->dropped);
	for (i = 0; i < nr_paths; i++)
		free(paths[i]);
	free(paths);
	if (ret) {
		pp_stacks_release(s);
		memset(s, 0, sizeof(*s));
	}
	return ret;
}

void pp_stacks_drop(struct pp_stacks *s)
{
	size_t i;

	for (i = 0; i < s->nr_blocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
	free(s->v);
	free(s->nodes);
	s->blocks = NULL;
	s->nr_blocks = s->block_left = 0;
	s->block_at = NULL;
	s->v = NULL;
	s->nr = s->alloc = 0;
	s->nodes = NULL;
	s->nr_nodes = s->alloc_nodes = 0;
}

void pp_stacks_release(struct pp_stacks *s)
{
	size_t i;

	pp_stacks_drop(s);
	for (i = 0; i < s->nr_names; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

const char *pp_stacks_why(int ret)
{
	return ret == -ENOENT ? "the session has no stack file (record with operf --callgraph)" :
	       ret == -ENOTSUP ? "stack files do not tell threads, processes or CPUs apart "
				 "(merge them: --merge=tgid,tid,cpu)" :
	       ret == -ERANGE ? "stack files cover the whole run, not time slices "
				"(leave out time:)" :
	       "the stack file cannot be read";
}
