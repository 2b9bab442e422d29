// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine's record loop: queueing by time, then applying side-band
 * records (processes, mappings, exec, fork, exit, lost, throttle) to the
 * process model and handing samples to opd_trans.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "daemon/opd_int.h"
#include "daemon/opd_jitdump.h"
#include "libdb/odb_buildid.h"
#include "libdb/odb_longnames.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_field.h"

#define REAP_EVERY_NS 1000000000ull

static void process_record(void *data, const void *raw, size_t len);

struct opd_engine *opd_engine_new(const struct opd_engine_config *cfg)
{
	struct opd_engine *e = op_xcalloc(1, sizeof(*e));

	e->cfg = *cfg;
	opd_images_init(&e->images);
	opd_procs_init(&e->procs);
	opd_comms_init(&e->comms);
	e->comms.apps_only = !cfg->separate_thread;
	opd_kernel_init(&e->kernel, &e->images, cfg->kernel_layout, cfg->vmlinux);
	opd_stacks_init(&e->stacks);
	opd_slices_init(&e->slices, cfg->slice_ns);
	opd_sfiles_init(&e->sfiles, cfg->samples, cfg->events, &e->images,
			cfg->cpu_speed, cfg->max_open_files);
	opd_order_init(&e->order, cfg->nr_cpus, process_record, e);
	op_strbuf_init(&e->ns_rec);
	e->throttled = op_xcalloc(cfg->nr_events ? cfg->nr_events : 1,
				  sizeof(*e->throttled));
	for (size_t i = 0; i < OPD_ID_CACHE; i++)
		e->id_cache[i].event = UINT32_MAX;
	return e;
}

void opd_engine_free(struct opd_engine *e)
{
	if (!e)
		return;
	opd_order_release(&e->order);
	opd_sfiles_release(&e->sfiles);
	opd_stacks_release(&e->stacks);
	opd_slices_release(&e->slices);
	opd_kernel_release(&e->kernel);
	opd_procs_release(&e->procs);
	opd_comms_release(&e->comms);
	opd_images_release(&e->images);
	op_strbuf_release(&e->ns_rec);
	opd_jit_dumps_release(&e->jitdumps);
	free(e->ids);
	free(e->throttled);
	free(e);
}

void opd_engine_add_id(struct opd_engine *e, uint64_t id, uint32_t event_idx)
{
	size_t i;

	e->ids = op_xreallocarray(e->ids, e->nr_ids + 1, sizeof(*e->ids));
	for (i = e->nr_ids; i > 0 && e->ids[i - 1].id > id; i--)
		e->ids[i] = e->ids[i - 1];
	e->ids[i].id = id;
	e->ids[i].event = event_idx;
	e->nr_ids++;
	for (i = 0; i < OPD_ID_CACHE; i++)
		e->id_cache[i].event = UINT32_MAX;
}

uint32_t opd_engine_event_of(struct opd_engine *e, uint64_t id)
{
	struct opd_id_map *slot = &e->id_cache[id % OPD_ID_CACHE];
	size_t lo = 0, hi = e->nr_ids;

	if (slot->event != UINT32_MAX && slot->id == id)
		return slot->event;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == e->nr_ids || e->ids[lo].id != id)
		return UINT32_MAX;
	*slot = e->ids[lo];
	return slot->event;
}

/*
 * A file mapping of a process in another mount namespace, with the path
 * it has here, into e->ns_rec.  This is done as the record is queued, not
 * when it is processed in time order (up to a read round later): by
 * then a short-lived process (a fork storm's, a container's one-shot
 * command) may be gone, and with it /proc/PID/mountinfo; opd_ns then
 * falls back on the tables of the namespaces it has read before.  The
 * common case, a file already known, costs one hash lookup here.
 */
static bool fix_path(struct opd_engine *e, const void *rec, size_t len)
{
	op_strbuf_reset(&e->ns_rec);
	return opd_ns_fix_record(e->cfg.ns, rec, len, e->cfg.sample_type,
				 &e->ns_rec) == 1;
}

static int queue(struct opd_engine *e, uint32_t cpu, const void *data,
		 size_t len, bool borrowed)
{
	const unsigned char *p = data, *end = p + len;

	while (p < end) {
		struct perf_event_header hdr;
		uint64_t time;
		size_t size;

		/* records need not be aligned in a stream file: copy the header */
		if ((size_t)(end - p) < sizeof(hdr) ||
		    (memcpy(&hdr, p, sizeof(hdr)), size = hdr.size) < sizeof(hdr) ||
		    size > (size_t)(end - p)) {
			e->stats.count[OPD_STAT_LOST_BAD_RECORD]++;
			return -EINVAL;
		}
		time = opd_record_time(p, size, e->cfg.sample_type);
		if (e->cfg.ns && hdr.type == PERF_RECORD_MMAP2 && fix_path(e, p, size)) {
			opd_order_add(&e->order, cpu, e->ns_rec.buf, e->ns_rec.len, time);
			p += size;
			continue;
		}
		if (borrowed)
			opd_order_add_ref(&e->order, cpu, p, size, time);
		else
			opd_order_add(&e->order, cpu, p, size, time);
		p += size;
	}
	return 0;
}

int opd_engine_queue(struct opd_engine *e, uint32_t cpu, const void *data,
		     size_t len)
{
	return queue(e, cpu, data, len, false);
}

int opd_engine_queue_borrowed(struct opd_engine *e, uint32_t cpu,
			      const void *data, size_t len)
{
	return queue(e, cpu, data, len, true);
}

void opd_engine_round(struct opd_engine *e)
{
	opd_order_round(&e->order);
}

static void release_held(struct opd_engine *e, struct opd_proc *proc);

static int release_one(void *val, void *data)
{
	release_held(data, val);
	return 0;
}

int opd_engine_finish(struct opd_engine *e)
{
	int ret, ret2, ret3;

	opd_order_flush_all(&e->order);
	/* an exec still loading its program when profiling stopped */
	op_hmap_for_each(&e->procs.by_tgid, release_one, e);
	ret = opd_stacks_close(&e->stacks);
	ret2 = opd_sfiles_release(&e->sfiles);
	/* a slice file that cannot be written loses slices, not the run */
	ret3 = opd_slices_close(&e->slices);
	if (ret3 && !e->slices.first_error)
		e->slices.first_error = ret3;
	return ret2 ? ret2 : ret;
}

void opd_engine_flush(struct opd_engine *e)
{
	opd_order_flush_all(&e->order);
	opd_slices_flush(&e->slices);
}

int opd_engine_slices_error(const struct opd_engine *e, uint64_t *dropped)
{
	*dropped = opd_slices_dropped(&e->slices);
	return e->slices.first_error == ODB_ERR_SLICES_FULL ? 0 : e->slices.first_error;
}

int opd_engine_close_files(struct opd_engine *e, bool reset)
{
	int ret = opd_sfiles_close_all(&e->sfiles, reset);
	int ret2 = opd_stacks_close(&e->stacks);

	if (!ret)
		ret = ret2;
	ret2 = opd_slices_close(&e->slices);
	if (!ret)
		ret = ret2;

	if (reset) {
		memset(&e->stats, 0, sizeof(e->stats));
		memset(e->throttled, 0, (e->cfg.nr_events ? e->cfg.nr_events : 1) *
					sizeof(*e->throttled));
	}
	return ret;
}

void opd_engine_sync(struct opd_engine *e)
{
	opd_sfiles_sync(&e->sfiles);
	e->sfiles.full = false;
}

unsigned opd_engine_nr_open(const struct opd_engine *e)
{
	return e->sfiles.nr_open;
}

/* the path of an executable's cookie, for opd_comms_text() */
static const char *app_path(void *data, uint32_t cookie)
{
	const struct opd_image *im = opd_images_get(data, cookie);

	return im && im->kind == OPD_IMAGE_FILE ? im->name : NULL;
}

void opd_engine_comms_text(const struct opd_engine *e, struct op_strbuf *sb)
{
	opd_comms_text(&e->comms, sb, app_path, (void *)&e->images);
}

void opd_engine_buildids_text(const struct opd_engine *e, struct op_strbuf *sb)
{
	char hex[ODB_BUILD_ID_HEX];
	uint32_t c;

	for (c = 1; c < e->images.nr; c++) {
		struct opd_image *im = e->images.by_cookie[c];

		if (!im || im->kind != OPD_IMAGE_FILE)
			continue;
		/* read once: a daemon writes this file every few seconds */
		if (!im->build_id)
			im->build_id = op_xstrdup(odb_build_id(im->name, hex) ? "" : hex);
		if (!*im->build_id)
			continue;
		op_strbuf_addf(sb, "%s ", im->build_id);
		op_field_add(sb, im->name);
		op_strbuf_addch(sb, '\n');
	}
}

void opd_engine_longnames_text(const struct opd_engine *e, struct op_strbuf *sb)
{
	uint32_t c;

	for (c = 1; c < e->images.nr; c++) {
		const struct opd_image *im = opd_images_get(&e->images, c);

		/* files, and a vmlinux given as a path: both are {root}PATH */
		if (im && im->kind != OPD_IMAGE_ANON && im->name[0] == '/' &&
		    odb_longnames_add(sb, im->name))
			op_die(1, "out of memory");
	}
}

const struct opd_stats *opd_engine_stats(const struct opd_engine *e)
{
	return &e->stats;
}

struct opd_jit_dumps *opd_engine_jitdumps(struct opd_engine *e)
{
	return &e->jitdumps;
}

bool opd_engine_throttled(const struct opd_engine *e, uint32_t event_idx)
{
	return event_idx < e->cfg.nr_events && e->throttled[event_idx];
}

int opd_engine_first_error(const struct opd_engine *e, const char **path)
{
	*path = e->sfiles.first_error_path;
	return e->sfiles.first_error;
}

size_t opd_engine_nr_files(const struct opd_engine *e)
{
	return e->sfiles.nr_made;
}

/* anonymous memory is named by what perf reports (oprofile-ng-formats(5), SAMPLE FILE
 * NAMES) */
/*
 * Regions every process maps and few sample: their images are interned
 * only when a sample lands in them.  They are never split or remapped,
 * so the region is whole when it is.
 */
static bool later_name(const char *anon)
{
	return !strcmp(anon, "[vdso]") || !strcmp(anon, "[vsyscall]");
}

static const char *anon_name(const char *filename)
{
	if (!strcmp(filename, "//anon") || !strncmp(filename, "/anon_hugepage", 14))
		return "anon";
	if (filename[0] == '[' || !filename[0])
		return filename[0] ? filename : "anon";
	return NULL;
}

/*
 * The kernel samples held while proc's exec awaited its executable: now
 * attributed, with the app known, or (the process exited or profiling
 * ended first) with their image as the app, as any sample of a process
 * without an executable.
 */
static void release_held(struct opd_engine *e, struct opd_proc *proc)
{
	struct opd_record rec;
	unsigned char *held, *p;
	size_t len;

	held = opd_proc_take_held(proc, &len);
	for (p = held; p && p < held + len;) {
		struct perf_event_header hdr;

		memcpy(&hdr, p, sizeof(hdr));	/* checked when it was queued */
		if (!opd_record_decode(p, hdr.size, e->cfg.sample_type, &rec))
			opd_trans_sample(e, &rec);
		p += hdr.size;
	}
	free(held);
}

/* a kernel sample of a process whose exec is still loading its program */
static bool hold_sample(struct opd_engine *e, const struct opd_record *rec,
			const void *raw, size_t len)
{
	struct opd_proc *proc;

	if ((rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    !rec->pid || rec->pid == UINT32_MAX)
		return false;
	proc = opd_procs_find(&e->procs, rec->pid);
	return proc && opd_proc_hold(proc, raw, len);
}

static void do_mmap(struct opd_engine *e, const struct opd_record *rec)
{
	const char *name = rec->u.mmap.filename, *anon;
	struct opd_proc *proc;
	uint32_t cookie, had_app;
	uint64_t pgoff;

	if (rec->u.mmap.pid == UINT32_MAX || !(rec->u.mmap.prot & PROT_EXEC))
		return;		/* kernel maps: opd_kernel covers them */
	proc = opd_procs_find(&e->procs, rec->u.mmap.pid);
	if (!proc)
		proc = opd_procs_new(&e->procs, rec->u.mmap.pid);
	anon = anon_name(name);
	if (!anon && opd_jitdump_name(name))	/* converted at the end */
		opd_jit_dumps_add(&e->jitdumps, rec->u.mmap.pid, name);
	if (anon && later_name(anon)) {
		/* the name's stand-in; the region's own image at its first sample */
		cookie = opd_images_anon(&e->images, anon, 0, 0, 0);
		pgoff = 0;
	} else if (anon) {
		cookie = opd_images_anon(&e->images, anon, rec->u.mmap.pid,
					 rec->u.mmap.start,
					 rec->u.mmap.start + rec->u.mmap.len - 1);
		pgoff = 0;
	} else {
		cookie = opd_images_file(&e->images, name, rec->u.mmap.maj,
					 rec->u.mmap.min, rec->u.mmap.ino,
					 rec->u.mmap.ino_generation);
		pgoff = rec->u.mmap.pgoff;
	}
	had_app = proc->app;
	opd_proc_map(proc, rec->u.mmap.start, rec->u.mmap.len, pgoff, cookie,
		     anon == NULL);
	if (anon && later_name(anon)) {
		struct opd_map *m = opd_proc_find_map(proc, rec->u.mmap.start);

		if (m)
			m->later_tgid = rec->u.mmap.pid;
	}
	if (proc->app && proc->app != had_app)	/* the program exec'd is known */
		opd_comms_add(&e->comms, proc->tgid, proc->tgid, proc->comm, proc->app);
	if (proc->held && !proc->want_app)
		release_held(e, proc);
}

static void do_comm(struct opd_engine *e, const struct opd_record *rec)
{
	struct opd_proc *proc = opd_procs_find(&e->procs, rec->u.comm.pid);

	opd_comms_add(&e->comms, rec->u.comm.pid, rec->u.comm.tid, rec->u.comm.comm,
		      proc && !(rec->misc & PERF_RECORD_MISC_COMM_EXEC) ? proc->app : 0);
	if (rec->misc & PERF_RECORD_MISC_COMM_EXEC) {
		if (!proc)
			proc = opd_procs_new(&e->procs, rec->u.comm.pid);
		opd_proc_exec(proc, rec->u.comm.comm);	/* held samples stay */
	} else if (rec->u.comm.pid == rec->u.comm.tid) {
		if (!proc)
			proc = opd_procs_new(&e->procs, rec->u.comm.pid);
		snprintf(proc->comm, sizeof(proc->comm), "%s", rec->u.comm.comm);
	}
}

static void do_fork(struct opd_engine *e, const struct opd_record *rec)
{
	struct opd_proc *old;

	if (rec->u.task.pid == rec->u.task.ppid)
		return;		/* a new thread shares its process */
	old = opd_procs_find(&e->procs, rec->u.task.pid);	/* a reused pid */
	if (old)
		release_held(e, old);
	opd_procs_fork(&e->procs, rec->u.task.pid,
		       opd_procs_find(&e->procs, rec->u.task.ppid));
}

static void exit_proc(struct opd_engine *e, uint32_t tgid, uint64_t time)
{
	struct opd_proc *proc = opd_procs_find(&e->procs, tgid);

	if (proc)
		release_held(e, proc);
	opd_procs_exit(&e->procs, tgid, time);
}

static void process_record(void *data, const void *raw, size_t len)
{
	struct opd_engine *e = data;
	struct opd_record rec;
	uint32_t ev;
	int ret;

	ret = opd_record_decode(raw, len, e->cfg.sample_type, &rec);
	if (ret) {
		if (ret != -ENOTSUP)
			e->stats.count[OPD_STAT_LOST_BAD_RECORD]++;
		return;
	}
	if (rec.time > e->now) {
		e->now = rec.time;
		if (rec.time >= e->next_reap) {
			opd_procs_reap(&e->procs, rec.time);
			e->next_reap = rec.time + REAP_EVERY_NS;
		}
	}
	switch (rec.type) {
	case PERF_RECORD_SAMPLE:
		if (!hold_sample(e, &rec, raw, len))
			opd_trans_sample(e, &rec);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		do_mmap(e, &rec);
		break;
	case PERF_RECORD_COMM:
		do_comm(e, &rec);
		break;
	case PERF_RECORD_FORK:
		do_fork(e, &rec);
		break;
	case PERF_RECORD_EXIT:
		if (rec.u.task.pid == rec.u.task.tid)
			exit_proc(e, rec.u.task.pid, rec.u.task.time);
		break;
	case PERF_RECORD_LOST:
		e->stats.count[OPD_STAT_LOST_BY_KERNEL] += rec.u.lost.lost;
		break;
	case PERF_RECORD_THROTTLE:
		e->stats.throttle_records++;
		ev = opd_engine_event_of(e, rec.u.throttle.id);
		if (ev < e->cfg.nr_events)
			e->throttled[ev] = true;
		break;
	default:
		break;
	}
}
