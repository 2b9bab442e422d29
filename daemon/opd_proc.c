// SPDX-License-Identifier: GPL-2.0-or-later
/* Processes and their mappings (see opd_proc.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_proc.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_hash.h"

void opd_procs_init(struct opd_procs *procs)
{
	op_hmap_init(&procs->by_tgid);
	op_list_init(&procs->dead);
	memset(procs->cache, 0, sizeof(procs->cache));
	procs->nr = 0;
}

static void proc_free(struct opd_proc *proc)
{
	free(proc->held);
	free(proc->maps);
	free(proc);
}

static int free_one(void *val, void *data)
{
	(void)data;
	proc_free(val);
	return 0;
}

void opd_procs_release(struct opd_procs *procs)
{
	if (!procs)
		return;
	op_hmap_for_each(&procs->by_tgid, free_one, NULL);
	op_hmap_release(&procs->by_tgid);
	opd_procs_init(procs);
}

struct opd_proc *opd_procs_find(struct opd_procs *procs, uint32_t tgid)
{
	struct opd_proc **slot = &procs->cache[tgid % OPD_PROC_CACHE];
	struct op_hmap_iter it;
	struct opd_proc *p;
	uint64_t h;

	if (*slot && (*slot)->tgid == tgid)
		return *slot;
	h = op_hash_u64(tgid);
	for (p = op_hmap_first(&procs->by_tgid, h, &it); p;
	     p = op_hmap_next(&procs->by_tgid, h, &it)) {
		if (p->tgid == tgid) {
			*slot = p;
			return p;
		}
	}
	return NULL;
}

static void forget(struct opd_procs *procs, struct opd_proc *proc)
{
	op_hmap_remove(&procs->by_tgid, op_hash_u64(proc->tgid), proc);
	if (proc->dead)
		op_list_del(&proc->dead_link);
	if (procs->cache[proc->tgid % OPD_PROC_CACHE] == proc)
		procs->cache[proc->tgid % OPD_PROC_CACHE] = NULL;
	procs->nr--;
	proc_free(proc);
}

struct opd_proc *opd_procs_new(struct opd_procs *procs, uint32_t tgid)
{
	struct opd_proc *old = opd_procs_find(procs, tgid), *proc;

	if (old)
		forget(procs, old);
	proc = op_xcalloc(1, sizeof(*proc));
	proc->tgid = tgid;
	op_list_init(&proc->dead_link);
	if (op_hmap_insert(&procs->by_tgid, op_hash_u64(tgid), proc))
		op_die(1, "out of memory");
	procs->nr++;
	procs->cache[tgid % OPD_PROC_CACHE] = proc;
	return proc;
}

struct opd_proc *opd_procs_fork(struct opd_procs *procs, uint32_t child_tgid,
				const struct opd_proc *parent)
{
	struct opd_proc *child;
	uint32_t nr = parent ? parent->nr_maps : 0;
	char comm[sizeof(child->comm)] = "";
	uint32_t app = 0;
	struct opd_map *maps = NULL;

	/* copy first: the parent may be the process being replaced */
	if (parent) {
		maps = nr ? op_xcalloc(nr, sizeof(*maps)) : NULL;
		if (nr)
			memcpy(maps, parent->maps, nr * sizeof(*maps));
		memcpy(comm, parent->comm, sizeof(comm));
		app = parent->app;
	}
	child = opd_procs_new(procs, child_tgid);
	child->maps = maps;
	child->nr_maps = nr;
	child->alloc_maps = nr;
	child->app = app;
	memcpy(child->comm, comm, sizeof(comm));
	return child;
}

void opd_procs_exit(struct opd_procs *procs, uint32_t tgid, uint64_t time)
{
	struct opd_proc *proc = opd_procs_find(procs, tgid);

	if (!proc || proc->dead)
		return;
	proc->dead = true;
	proc->exit_time = time;
	op_list_add_tail(&proc->dead_link, &procs->dead);
}

void opd_procs_reap(struct opd_procs *procs, uint64_t now)
{
	while (!op_list_empty(&procs->dead)) {
		struct opd_proc *proc = op_list_entry(procs->dead.next,
						      struct opd_proc, dead_link);

		if (proc->exit_time + OPD_PROC_GRACE_NS > now)
			break;
		forget(procs, proc);
	}
}

void opd_proc_exec(struct opd_proc *proc, const char *comm)
{
	proc->nr_maps = 0;
	proc->last_hit = 0;
	proc->app = 0;
	proc->want_app = true;
	snprintf(proc->comm, sizeof(proc->comm), "%s", comm);
}

bool opd_proc_hold(struct opd_proc *proc, const void *rec, size_t len)
{
	uint32_t need;

	if (!proc->want_app || len > OPD_PROC_HELD_MAX - proc->held_len)
		return false;
	need = proc->held_len + (uint32_t)len;
	if (need > proc->held_alloc) {
		uint32_t alloc = proc->held_alloc ? proc->held_alloc * 2 : 1024;

		while (alloc < need)
			alloc *= 2;
		proc->held = op_xreallocarray(proc->held, alloc, 1);
		proc->held_alloc = alloc;
	}
	memcpy(proc->held + proc->held_len, rec, len);
	proc->held_len = need;
	return true;
}

unsigned char *opd_proc_take_held(struct opd_proc *proc, size_t *len)
{
	unsigned char *held = proc->held;

	*len = proc->held_len;
	proc->held = NULL;
	proc->held_len = proc->held_alloc = 0;
	if (!*len) {
		free(held);
		return NULL;
	}
	return held;
}

/* index of the first map whose end is above addr */
static uint32_t first_ending_after(const struct opd_proc *proc, uint64_t addr)
{
	uint32_t lo = 0, hi = proc->nr_maps;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (proc->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void opd_proc_map(struct opd_proc *proc, uint64_t start, uint64_t len,
		  uint64_t pgoff, uint32_t cookie, bool is_file)
{
	struct opd_map pieces[3];
	uint64_t end = start + len;
	uint32_t i, j, n = 0, keep;

	if (!len || end < start)
		return;
	if (proc->want_app && is_file) {
		proc->app = cookie;
		proc->want_app = false;
	}
	/* maps [i, j) overlap [start, end); keep their outer parts */
	i = first_ending_after(proc, start);
	for (j = i; j < proc->nr_maps && proc->maps[j].start < end; j++)
		;
	if (i < j && proc->maps[i].start < start) {
		pieces[n] = proc->maps[i];
		pieces[n++].end = start;
	}
	pieces[n++] = (struct opd_map){ .start = start, .end = end,
					.pgoff = pgoff, .cookie = cookie };
	/* a remainder keeps its cached file: same image, same app */
	if (i < j && proc->maps[j - 1].end > end) {
		pieces[n] = proc->maps[j - 1];
		pieces[n].pgoff += end - pieces[n].start;
		pieces[n++].start = end;
	}
	keep = proc->nr_maps - (j - i) + n;
	if (keep > proc->alloc_maps) {
		uint32_t alloc = proc->alloc_maps ? proc->alloc_maps * 2 : 16;

		while (alloc < keep)
			alloc *= 2;
		proc->maps = op_xreallocarray(proc->maps, alloc, sizeof(*proc->maps));
		proc->alloc_maps = alloc;
	}
	memmove(&proc->maps[i + n], &proc->maps[j],
		(proc->nr_maps - j) * sizeof(*proc->maps));
	memcpy(&proc->maps[i], pieces, n * sizeof(*pieces));
	proc->nr_maps = keep;
	proc->last_hit = i;
}

struct opd_map *opd_proc_find_map(struct opd_proc *proc, uint64_t ip)
{
	struct opd_map *m;
	uint32_t i;

	if (proc->last_hit < proc->nr_maps) {
		m = &proc->maps[proc->last_hit];
		if (ip >= m->start && ip < m->end)
			return m;
	}
	i = first_ending_after(proc, ip);
	if (i >= proc->nr_maps || proc->maps[i].start > ip)
		return NULL;
	proc->last_hit = i;
	return &proc->maps[i];
}
