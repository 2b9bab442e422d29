/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Processes as the engine follows them: by tgid, each with its executable
 * mappings (sorted, non-overlapping) and its main executable, the {root}
 * application part of sample-file names.
 *
 * Records are applied in time order (opd_order), so a sample always finds
 * the mappings valid at its timestamp: exec clears them, mmap adds or
 * replaces ranges, fork copies the parent's.  A process whose leader has
 * exited is kept for OPD_PROC_GRACE_NS of record time, for samples of
 * threads that outlive it, then freed.
 *
 * Between an exec and the mapping of the new executable the kernel is
 * still loading it: samples taken there (kernel ones) belong to the new
 * program, whose name is not known yet.  They wait in the process, up to
 * OPD_PROC_HELD_MAX bytes of records, until the engine hands them on.
 */
#ifndef OPD_PROC_H
#define OPD_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_hmap.h"
#include "libutil/op_list.h"

#define OPD_PROC_GRACE_NS 10000000000ull	/* 10 s */
#define OPD_PROC_HELD_MAX (1u << 20)	/* bytes of held samples */

struct opd_map {
	uint64_t start;		/* first address */
	uint64_t end;		/* one past the last address */
	uint64_t pgoff;		/* key of start: file offset, or anon offset */
	uint32_t cookie;	/* the image */
	/*
	 * The sample file this map's samples went to last, for app
	 * cache_app and event cache_event (opd_trans; not separated by
	 * thread or cpu).  Sample-file entries live until the engine ends.
	 */
	uint32_t cache_app;
	uint32_t cache_event;
	/*
	 * Not 0: cookie is a stand-in for the region's name only, and the
	 * image of this tgid's region (from start - pgoff to end) is to be
	 * interned when a sample first lands in it (opd_trans).  Every
	 * process maps a [vdso]: interned at mmap, their images would grow
	 * for ever under process churn.
	 */
	uint32_t later_tgid;
	void *cache_sfile;
};

struct opd_proc {
	uint32_t tgid;
	uint32_t app;		/* cookie of the main executable, 0 unknown */
	bool want_app;		/* exec seen: next file mapping is the app */
	bool dead;		/* leader exited at exit_time */
	uint64_t exit_time;
	struct opd_map *maps;	/* sorted by start */
	uint32_t nr_maps;
	uint32_t alloc_maps;
	uint32_t last_hit;	/* index of the last map found */
	char comm[16];
	struct op_list dead_link;	/* on opd_procs.dead, oldest first */
	unsigned char *held;	/* samples waiting for the app, back to back */
	uint32_t held_len, held_alloc;
};

#define OPD_PROC_CACHE 64

struct opd_procs {
	struct op_hmap by_tgid;
	struct opd_proc *cache[OPD_PROC_CACHE];	/* by tgid % size */
	struct op_list dead;
	uint32_t nr;
};

void opd_procs_init(struct opd_procs *procs);
void opd_procs_release(struct opd_procs *procs);

/* the live (or lingering dead) process tgid, or NULL */
struct opd_proc *opd_procs_find(struct opd_procs *procs, uint32_t tgid);

/* a new, empty process tgid, replacing any older one with that number */
struct opd_proc *opd_procs_new(struct opd_procs *procs, uint32_t tgid);

/* fork: a new process child_tgid with copies of parent's maps and app */
struct opd_proc *opd_procs_fork(struct opd_procs *procs, uint32_t child_tgid,
				const struct opd_proc *parent);

/* the leader of tgid exited at time; freed later by opd_procs_reap() */
void opd_procs_exit(struct opd_procs *procs, uint32_t tgid, uint64_t time);

/* free processes that exited more than OPD_PROC_GRACE_NS before now */
void opd_procs_reap(struct opd_procs *procs, uint64_t now);

/*
 * Keep a copy of a sample record of proc until its application is known:
 * false (nothing kept) unless an exec of proc awaits its executable's
 * mapping and the record fits under OPD_PROC_HELD_MAX.
 */
bool opd_proc_hold(struct opd_proc *proc, const void *rec, size_t len);

/* the held records, handed to the caller (who frees them); NULL if none */
unsigned char *opd_proc_take_held(struct opd_proc *proc, size_t *len);

/* exec: drop all maps; the next file mapping becomes the app */
void opd_proc_exec(struct opd_proc *proc, const char *comm);

/*
 * Map [start, start + len) to cookie with the key of start being pgoff,
 * replacing whatever overlapped it.  is_file: may become the app.
 */
void opd_proc_map(struct opd_proc *proc, uint64_t start, uint64_t len,
		  uint64_t pgoff, uint32_t cookie, bool is_file);

/* the mapping holding ip, or NULL */
struct opd_map *opd_proc_find_map(struct opd_proc *proc, uint64_t ip);

#endif
