/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_event_open and the ring buffers: the only place the perf syscall
 * is made.  Events are opened per CPU (all CPUs, or one task and its
 * future children on every CPU, or every thread of a running process on
 * every CPU), all of a CPU's events writing into one ring buffer.  The
 * first event also reports mmap, comm, fork and exit records.
 */
#ifndef PERF_EVENTS_H
#define PERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/opev.h"
#include "libutil/op_error.h"

enum opd_target_kind {
	OPD_TARGET_SYSTEM,	/* every task on every CPU (pid -1) */
	OPD_TARGET_COMMAND,	/* a forked child: enabled when it execs */
	OPD_TARGET_PID,		/* the threads of a running process */
};

struct opd_target {
	enum opd_target_kind kind;
	pid_t pid;		/* the child or the process; unused for SYSTEM */
};

struct opd_perf_ring {
	int fd;			/* the event whose buffer this is */
	uint32_t cpu;
	void *base;		/* mmap: metadata page, then the data area */
	size_t data_size;	/* bytes in the data area, a power of two */
	size_t first_fd, end_fd;	/* its events: fds[first_fd .. end_fd) */
};

struct opd_perf_id {
	uint64_t id;
	uint32_t event;
};

struct opd_perf {
	int *fds;
	size_t nr_fds, alloc_fds;
	struct opd_perf_ring *rings;	/* one per online CPU */
	size_t nr_rings, alloc_rings;
	struct opd_perf_id *ids;
	size_t nr_ids, alloc_ids;
	unsigned char *scratch;		/* linear copy of one ring's data */
	size_t scratch_size;
	uint64_t sample_type;
	bool kernel_excluded;		/* retried without kernel samples */
	uint32_t wakeup_bytes;		/* poll wakes when a ring holds this much */
	uint32_t nr_cpus;		/* highest online CPU + 1 */
	unsigned max_stack;		/* call-chain frames, 0: the kernel's
					 * default; set before opd_perf_open() */
};

/*
 * Open events evs[0 .. nr_evs) for target with a ring of ring_kib KiB
 * per CPU (rounded to a power of two of pages), call graphs if asked.
 * When opening with kernel samples is refused (perf_event_paranoid), it
 * retries without and sets kernel_excluded.  On failure returns a
 * negative errno with the event and reason in err.
 */
int opd_perf_open(struct opd_perf *p, const struct opev_event *evs,
		  size_t nr_evs, const struct opd_target *target,
		  bool callgraph, unsigned ring_kib, struct op_err *err);

/* /proc/sys/kernel/perf_event_paranoid, 2 when unreadable */
int opd_perf_paranoid(void);

/* /proc/sys/kernel/perf_event_max_stack, 127 when unreadable */
unsigned opd_perf_max_stack(void);

/* does p have events on cpu? */
bool opd_perf_has_cpu(const struct opd_perf *p, uint32_t cpu);

/*
 * Open the events of a system-wide p on cpu too (one that came online),
 * enabled if asked; p->rings may move, and the new events' ids are
 * p->ids[old nr_ids ..].  On failure nothing of that cpu
 * is kept: a negative errno, the reason in err.
 */
int opd_perf_add_cpu(struct opd_perf *p, const struct opev_event *evs,
		     size_t nr_evs, uint32_t cpu, unsigned ring_kib, bool enable,
		     struct op_err *err);

/*
 * Close the events of ring ring_idx, whose cpu went offline (the kernel
 * takes such events out for good: a cpu back online gets new ones with
 * opd_perf_add_cpu()).  Read the ring first; the last ring moves into
 * its place.
 */
void opd_perf_drop_cpu(struct opd_perf *p, size_t ring_idx);

/* enable / disable every event (command targets enable on exec) */
int opd_perf_enable(struct opd_perf *p);
int opd_perf_disable(struct opd_perf *p);

/*
 * Copy all data now in ring i into p->scratch and give the space back to
 * the kernel.  The data (*data, *len bytes) is whole records, valid until
 * the next read.
 */
int opd_perf_read(struct opd_perf *p, size_t i, const void **data,
		  size_t *len);

/* close everything; p is left empty */
void opd_perf_close(struct opd_perf *p);

/*
 * Can ev be opened for sampling on this machine at all?  Opens it on the
 * calling thread, disabled, and closes it.  Returns 0 or a negative errno
 * (-ENOENT / -EOPNOTSUPP: not supported here, e.g. no hardware PMU).
 */
int opd_perf_probe(const struct opev_event *ev);
/* the same, sampling call chains of up to max_stack frames too */
int opd_perf_probe_callchain(const struct opev_event *ev, unsigned max_stack);

/* highest online CPU + 1, from /sys/devices/system/cpu/online */
uint32_t opd_perf_nr_cpus(void);

/* the online CPUs as a list; caller frees */
uint32_t *opd_perf_online_cpus(size_t *nr);

/* the threads of process pid, from /proc/PID/task; NULL when it has
 * none (no such process).  Caller frees. */
pid_t *opd_perf_threads(pid_t pid, size_t *nr);

/*
 * Does task pid run as another user than this one (its real or
 * effective ids, from /proc/PID/status), so that the kernel's ptrace
 * check, not perf_event_paranoid, refused it?  Never for root.
 */
bool opd_perf_task_not_ours(pid_t pid);

/* why perf_event_open failed with err, for a message; never NULL */
const char *opd_perf_open_reason(int err);

/*
 * Counting without sampling (ocount): one counter without a ring,
 * whose read gives the count and the times it was enabled and running
 * (less than enabled when the kernel multiplexed it with others).
 */
struct opd_count {
	uint64_t value;		/* events, or ns for the software clocks */
	uint64_t enabled;	/* ns the counter was enabled */
	uint64_t running;	/* ns it really counted */
};

enum opd_count_flags {
	OPD_COUNT_INHERIT = 1 << 0,	/* count the task's later children too */
	OPD_COUNT_ON_EXEC = 1 << 1,	/* disabled until the task execs */
};

/*
 * Open a counter of ev on task pid (-1: every task) and cpu (-1: any);
 * it counts from now, or from the task's exec with OPD_COUNT_ON_EXEC.
 * When counting in kernel mode is refused (perf_event_paranoid) and ev
 * counts in user mode too, it counts in user mode only and sets
 * *kernel_excluded; once set, later counters start there.  Returns the
 * fd (close-on-exec; the caller closes it) or a negative errno.
 */
int opd_perf_count_open(const struct opev_event *ev, pid_t pid, int cpu,
			unsigned flags, bool *kernel_excluded);

/* read the counter fd; 0 or a negative errno */
int opd_perf_count_read(int fd, struct opd_count *c);

#endif
