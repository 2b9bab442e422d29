/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ocount's counters: one per event and per thing counted (the command,
 * each thread of the processes or threads given, or each cpu), opened
 * through perf_events.h in counting mode, and read as counts scaled
 * for the time the kernel really counted them.
 */
#ifndef OCOUNT_COUNTERS_H
#define OCOUNT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/perf_events.h"
#include "events/opev.h"
#include "libutil/op_error.h"

enum ocount_mode {
	OCOUNT_COMMAND,		/* a forked command and its children */
	OCOUNT_PROCESSES,	/* --process-list: every thread, and children */
	OCOUNT_THREADS,		/* --thread-list: those threads only */
	OCOUNT_SYSTEM,		/* --system-wide: every cpu */
	OCOUNT_CPUS,		/* --cpu-list */
};

struct ocount_target {
	enum ocount_mode mode;
	const pid_t *pids;	/* the command, processes or threads */
	size_t nr_pids;
	const uint32_t *cpus;	/* SYSTEM, CPUS: the cpus */
	size_t nr_cpus;
};

struct ocount_counter {
	int fd;
	size_t event_idx;	/* into the events it was opened with */
	int cpu;		/* -1: any cpu */
	pid_t tid;		/* -1: every task */
	struct opd_count last;	/* at the previous interval */
};

struct ocount_counters {
	struct ocount_counter *c;	/* for each task or cpu, each event */
	size_t nr;
	size_t nr_events;
	bool kernel_excluded;		/* paranoid: user mode only */
};

/*
 * Open counters for evs[0 .. nr_evs) on target: a command's counters
 * start when it execs, the others now.  On failure nothing is left
 * open, and the reason (event, task or cpu, why) is in err: a negative
 * errno (-ESRCH: a process or thread given does not exist).
 */
int ocount_counters_open(struct ocount_counters *cs,
			 const struct opev_event *evs, size_t nr_evs,
			 const struct ocount_target *target,
			 struct op_err *err);

/*
 * Read counter i: its totals, or with since_last its increase since the
 * previous such read (which it then becomes); when it was not enabled
 * meanwhile (a task's counter while the task sleeps), the times are its
 * totals, so that the share of time counted is that so far.  0 or a
 * negative errno.
 */
int ocount_counters_read(struct ocount_counters *cs, size_t i,
			 bool since_last, struct opd_count *out);

/* close every counter; cs is left empty */
void ocount_counters_close(struct ocount_counters *cs);

/*
 * The count scaled up for the time it was not running (multiplexing):
 * value * enabled / running; the value itself when it always ran, 0
 * when it never did.
 */
uint64_t ocount_scaled(const struct opd_count *c);

#endif
