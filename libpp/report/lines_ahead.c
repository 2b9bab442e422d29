// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Readying ahead the source lines an output will need (report_int.h,
 * PP_LINES_AHEAD, and the HTML report's annotated images): a thread
 * opens the line information of the images' tables in the order they
 * will be needed and looks up the lines of their sampled keys
 * (pp_symtab_lines_ahead()), while the caller goes on with the rows, the
 * stacks and the output.  Opening is most of what source lines cost
 * (the needed debug sections inflated: 11 ms for libc6-dbg's), then
 * decoding the line table of each compile unit looked into.  A table the
 * caller reaches first waits for the thread to be done with it, or is
 * opened by the caller if the thread has not started on it (its lookups
 * are then the caller's); the thread stops at the next table once told
 * to.  The thread may first run one other task the caller will wait for
 * (the HTML header's notes): one helper thread, not two, since on two
 * CPUs a third thread slows the caller's.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

/* a table to ready and the keys to look up in it */
struct ahead_table {
	struct pp_symtab *t;
	uint64_t *keys;
	size_t nr_keys;
};

struct pp_lines_ahead {
	pthread_t tid;
	struct pp_profile *p;
	size_t *images;			/* to ready, in order */
	size_t nr;
	bool calls;
	bool stop;			/* atomic: ready no more */
	void (*first)(void *arg);	/* run before the tables, or NULL */
	void *first_arg;
	pthread_mutex_t lock;		/* guards first_done */
	pthread_cond_t done;
	bool first_done;
};

/*
 * image's table (made by pp_lines_ahead_start()) and the keys of its
 * groups; with calls, then the call sites in it and the callees' keys of
 * the loaded {cg} groups; then the start of each key's symbol (where
 * reports place a function).  Reads only what the report's thread leaves
 * alone: the groups' keys and the table's symbols.
 */
static void table_of(struct pp_profile *p, size_t image, bool calls, struct ahead_table *a)
{
	const struct pp_image *im = &p->images[image];
	size_t k, j, n = 0, nr;

	a->t = im->symtab;
	for (k = 0; k < im->nr_groups; k++)
		n += p->groups[im->groups[k]].nr_kc;
	for (k = 0; calls && k < p->nr_cg; k++)
		if ((p->cg[k].caller == image || p->cg[k].callee == image) && p->cg[k].loaded)
			n += p->cg[k].nr_kc * ((p->cg[k].caller == image) + (p->cg[k].callee == image));
	n *= 2;
	a->keys = op_xcalloc(n + 1, sizeof(*a->keys));
	for (k = 0; k < im->nr_groups; k++) {
		const struct pp_group *g = &p->groups[im->groups[k]];

		for (j = 0; j < g->nr_kc; j++)
			a->keys[a->nr_keys++] = g->kc[j].key;
	}
	for (k = 0; calls && k < p->nr_cg; k++) {
		const struct pp_cg_group *g = &p->cg[k];

		for (j = 0; g->loaded && g->caller == image && j < g->nr_kc; j++) {
			uint64_t from = pp_arc_key(a->t, g->kc[j].key >> 32);

			a->keys[a->nr_keys++] = from ? from - 1 : 0;
		}
		for (j = 0; g->loaded && g->callee == image && j < g->nr_kc; j++)
			a->keys[a->nr_keys++] = pp_arc_key(a->t, g->kc[j].key & 0xffffffffull);
	}
	for (j = 0, nr = a->nr_keys; j < nr; j++) {
		const struct pp_sym *s = pp_symtab_lookup(a->t, a->keys[j]);

		if (s)
			a->keys[a->nr_keys++] = s->start;
	}
}

/*
 * The thread: each image's keys gathered (here, not by the caller: for
 * the kernel and a big stripped program, hundreds of thousands that
 * turn out to have no lines), then looked up
 */
static void *ready_all(void *arg)
{
	struct pp_lines_ahead *la = arg;
	size_t i;

	if (la->first)
		la->first(la->first_arg);
	pthread_mutex_lock(&la->lock);
	la->first_done = true;
	pthread_cond_broadcast(&la->done);
	pthread_mutex_unlock(&la->lock);
	for (i = 0; i < la->nr && !__atomic_load_n(&la->stop, __ATOMIC_RELAXED); i++) {
		struct ahead_table a = { 0 };

		table_of(la->p, la->images[i], la->calls, &a);
		pp_symtab_lines_ahead(a.t, a.keys, a.nr_keys);
		free(a.keys);
	}
	return NULL;
}

static void free_tables(struct pp_lines_ahead *la)
{
	pthread_cond_destroy(&la->done);
	pthread_mutex_destroy(&la->lock);
	free(la->images);
	free(la);
}

struct pp_lines_ahead *pp_lines_ahead_start_after(struct pp_profile *p, const size_t *images,
						  size_t nr, bool calls,
						  void (*first)(void *arg), void *arg)
{
	struct pp_lines_ahead *la;
	size_t i;

	if (!nr && !first)
		return NULL;
	la = op_xcalloc(1, sizeof(*la));
	la->p = p;
	la->calls = calls;
	la->first = first;
	la->first_arg = arg;
	pthread_mutex_init(&la->lock, NULL);
	pthread_cond_init(&la->done, NULL);
	la->images = op_xcalloc(nr + 1, sizeof(*la->images));
	/* the tables made here: pp_image_symtab() is not for threads */
	for (i = 0; i < nr; i++)
		if (pp_image_symtab(p, images[i]))
			la->images[la->nr++] = images[i];
	if (pthread_create(&la->tid, NULL, ready_all, la)) {
		free_tables(la);	/* no thread: each opens when first used */
		return NULL;
	}
	return la;
}

struct pp_lines_ahead *pp_lines_ahead_start(struct pp_profile *p, const size_t *images,
					    size_t nr, bool calls)
{
	return pp_lines_ahead_start_after(p, images, nr, calls, NULL, NULL);
}

bool pp_lines_ahead_first_done(struct pp_lines_ahead *la)
{
	if (!la)
		return false;
	pthread_mutex_lock(&la->lock);
	while (!la->first_done)
		pthread_cond_wait(&la->done, &la->lock);
	pthread_mutex_unlock(&la->lock);
	return true;
}

void pp_lines_ahead_end(struct pp_lines_ahead *la)
{
	if (!la)
		return;
	__atomic_store_n(&la->stop, true, __ATOMIC_RELAXED);
	pthread_join(la->tid, NULL);
	free_tables(la);
}
