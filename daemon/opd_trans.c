// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Samples to transients: which process, which image and which offset in
 * it a sample's address falls, and the sample file (and {cg} arcs) it
 * goes to.  This is the per-sample hot path: cookies and integers only.
 */
#include "config.h"

#include <string.h>

#include "daemon/opd_int.h"

/* an address resolved to an image: the cookie and the sample-file key */
struct where {
	uint32_t image;
	uint64_t offset;
	struct opd_map *map;	/* the user mapping, NULL for kernel addresses */
};

/* resolve ip in kernel or user context; false when nothing maps it */
static bool resolve(struct opd_engine *e, struct opd_proc *proc, bool kernel,
		    uint64_t ip, struct where *w)
{
	struct opd_map *m;

	w->map = NULL;
	if (kernel) {
		w->image = opd_kernel_find(&e->kernel, ip, &w->offset);
		return w->image != 0;
	}
	if (!proc || !(m = opd_proc_find_map(proc, ip)))
		return false;
	if (m->later_tgid) {
		const struct opd_image *name = opd_images_get(&e->images, m->cookie);

		m->cookie = opd_images_anon(&e->images, name->name, m->later_tgid,
					    m->start - m->pgoff, m->end - 1);
		m->later_tgid = 0;
	}
	w->map = m;
	w->image = m->cookie;
	w->offset = ip - m->start + m->pgoff;
	return true;
}

/* one count at key of the file of k; stat counts success, lost failure */
static void add(struct opd_engine *e, const struct opd_sfile_key *k, uint64_t key,
		enum opd_stat stat, enum opd_stat lost)
{
	e->stats.count[opd_sfiles_add(&e->sfiles, k, key, 1, e->now) ? lost : stat]++;
}

/*
 * A stored sample into its slice of time: the file's number in the slice
 * file is looked up once per file (and again after the file changed)
 */
static void add_slice(struct opd_engine *e, struct opd_sfile *f, uint64_t key)
{
	struct opd_slices *s = &e->slices;

	if (!s->length_ns || s->failed)
		return;
	if (f->slice_gen != s->gen) {
		struct op_strbuf name;
		uint32_t id;
		int ret;

		op_strbuf_init(&name);
		ret = opd_sfile_path(&e->sfiles, &f->key, &name);
		if (!ret)
			ret = opd_slices_file(s, e->cfg.samples, name.buf, &id);
		op_strbuf_release(&name);
		if (ret)
			return;
		f->slice_id = id;
		f->slice_gen = s->gen;
	}
	opd_slices_add(s, f->slice_id, key, 1, e->now);
}

/*
 * A sample into its plain sample file.  A user mapping remembers the file
 * its samples went to (for one app and event), which spares the common
 * case the key hashing; separated profiles take the general path.
 */
static void add_plain(struct opd_engine *e, const struct opd_sfile_key *k,
		      const struct where *w)
{
	struct opd_map *m = w->map;
	struct opd_sfile *f;

	if (e->slices.length_ns && !e->slices.w)
		opd_slices_open(&e->slices, e->cfg.samples);
	if (!m || e->cfg.separate_thread || e->cfg.separate_cpu) {
		f = opd_sfiles_get(&e->sfiles, k);
	} else if (m->cache_sfile && m->cache_app == k->app &&
		   m->cache_event == k->event) {
		f = m->cache_sfile;
	} else {
		f = opd_sfiles_get(&e->sfiles, k);
		m->cache_sfile = f;
		m->cache_app = k->app;
		m->cache_event = k->event;
	}
	if (opd_sfile_add(&e->sfiles, f, w->offset, 1, e->now)) {
		e->stats.count[OPD_STAT_LOST_SAMPLEFILE]++;
		return;
	}
	e->stats.count[OPD_STAT_STORED]++;
	add_slice(e, f, w->offset);
}

/*
 * The whole stack of a sample, its frames collected by add_arcs(), leaf
 * first (opd_stacks.h)
 */
static void add_stack(struct opd_engine *e, const struct opd_sfile_key *k)
{
	if (!e->stacks.nr)
		return;
	e->stats.count[opd_stacks_commit(&e->stacks, e->cfg.samples, e->cfg.events,
					 e->cfg.nr_events, &e->images, k->app,
					 k->event) ?
		       OPD_STAT_LOST_STACKS : OPD_STAT_STACKS]++;
}

/*
 * The arcs of a callchain (oprofile-ng-formats(5), CALL-GRAPH FILES): for each adjacent pair of
 * frames, the caller is the outer frame (a return address) and the callee
 * the inner one (the sampled ip for the innermost arc).  Context markers
 * switch between kernel and user addresses.
 */
static void add_arcs(struct opd_engine *e, struct opd_proc *proc,
		     const struct opd_record *rec, struct opd_sfile_key *k)
{
	const uint64_t *chain = rec->u.sample.chain;
	struct where callee = { 0 }, caller;
	bool have_callee = false, kernel = false;
	uint64_t i;

	opd_stacks_begin(&e->stacks);
	for (i = 0; i < rec->u.sample.nr_chain; i++) {
		uint64_t ip;

		memcpy(&ip, &chain[i], sizeof(ip));
		if (ip >= OPD_CONTEXT_MIN) {
			if (ip == (uint64_t)PERF_CONTEXT_KERNEL)
				kernel = true;
			else if (ip == (uint64_t)PERF_CONTEXT_USER)
				kernel = false;
			else
				break;	/* guest or hypervisor frames: stop */
			continue;
		}
		if (!resolve(e, proc, kernel, ip, &caller)) {
			if (have_callee)
				e->stats.count[OPD_STAT_LOST_BT_NO_MAPPING]++;
			have_callee = false;
			continue;
		}
		opd_stacks_frame(&e->stacks, caller.image, caller.offset);
		if (have_callee) {
			k->image = caller.image;
			k->cg_to = callee.image;
			add(e, k, ((caller.offset & 0xffffffffull) << 32) |
				  (callee.offset & 0xffffffffull),
			    OPD_STAT_ARCS, OPD_STAT_LOST_ARC_SAMPLEFILE);
		}
		callee = caller;
		have_callee = true;
	}
	add_stack(e, k);
}

/* is the image one of the --image binaries (looked up once per image) */
static bool selected(struct opd_engine *e, uint32_t cookie)
{
	struct opd_image *im = e->images.by_cookie[cookie];
	size_t i;

	if (!im->selected) {
		im->selected = -1;
		for (i = 0; im->kind == OPD_IMAGE_FILE && i < e->cfg.nr_images; i++)
			if (!strcmp(im->name, e->cfg.images[i]))
				im->selected = 1;
	}
	return im->selected > 0;
}

void opd_trans_sample(struct opd_engine *e, const struct opd_record *rec)
{
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct opd_sfile_key k = { 0 };
	struct opd_proc *proc;
	struct where w;
	bool kernel;

	e->stats.count[OPD_STAT_SAMPLES]++;
	k.event = opd_engine_event_of(e, rec->id);
	if (k.event >= e->cfg.nr_events) {
		e->stats.count[OPD_STAT_LOST_BAD_RECORD]++;
		return;
	}
	if (mode == PERF_RECORD_MISC_KERNEL) {
		kernel = true;
		e->stats.count[OPD_STAT_KERNEL_SAMPLES]++;
	} else if (mode == PERF_RECORD_MISC_USER) {
		kernel = false;
		e->stats.count[OPD_STAT_USER_SAMPLES]++;
	} else {
		e->stats.count[mode == PERF_RECORD_MISC_HYPERVISOR ?
			       OPD_STAT_LOST_HYPERVISOR :
			       OPD_STAT_LOST_INVALID_DOMAIN]++;
		return;
	}
	/* pid 0 is the idle task, -1 a sample outside any task */
	proc = rec->pid && rec->pid != UINT32_MAX ?
	       opd_procs_find(&e->procs, rec->pid) : NULL;
	if (!resolve(e, proc, kernel, rec->u.sample.ip, &w)) {
		e->stats.count[kernel ? OPD_STAT_LOST_KERNEL :
			       proc ? OPD_STAT_LOST_NO_MAPPING :
			       OPD_STAT_LOST_NO_APP_USER]++;
		return;
	}
	/* no known executable (kernel threads, idle): the image is the app */
	k.app = proc && proc->app ? proc->app : w.image;
	if (e->cfg.nr_images && !selected(e, k.app) && !selected(e, w.image)) {
		e->stats.count[OPD_STAT_NOT_SELECTED]++;
		return;
	}
	k.tgid = k.tid = k.cpu = OPD_ALL;
	if (e->cfg.separate_thread) {
		k.tgid = rec->pid;
		k.tid = rec->tid;
	}
	if (e->cfg.separate_cpu)
		k.cpu = rec->cpu;
	k.image = w.image;
	add_plain(e, &k, &w);
	if (e->cfg.callgraph && rec->u.sample.nr_chain)
		add_arcs(e, proc, rec, &k);
}
