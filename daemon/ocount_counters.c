// SPDX-License-Identifier: GPL-2.0-or-later
/* ocount's counters, per event and task or cpu (ocount_counters.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/ocount_counters.h"
#include "libutil/op_alloc.h"

static int add(struct ocount_counters *cs, size_t *alloc,
	       const struct opev_event *ev, size_t event_idx, pid_t tid,
	       int cpu, unsigned flags, struct op_err *err)
{
	struct ocount_counter *c;
	int fd;

	fd = opd_perf_count_open(ev, tid, cpu, flags, &cs->kernel_excluded);
	if (fd < 0) {
		if (cpu >= 0)
			op_err_set(err, "cannot count event '%s' on cpu %d: %s",
				   ev->name, cpu, opd_perf_open_reason(fd));
		else
			op_err_set(err, "cannot count event '%s' for task %d: %s",
				   ev->name, (int)tid, opd_perf_open_reason(fd));
		return fd;
	}
	if (cs->nr == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		cs->c = op_xreallocarray(cs->c, *alloc, sizeof(*cs->c));
	}
	c = &cs->c[cs->nr++];
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->event_idx = event_idx;
	c->cpu = cpu;
	c->tid = tid;
	return 0;
}

/* every event on one task or cpu */
static int add_all(struct ocount_counters *cs, size_t *alloc,
		   const struct opev_event *evs, size_t nr_evs, pid_t tid,
		   int cpu, unsigned flags, struct op_err *err)
{
	size_t e;
	int ret = 0;

	for (e = 0; e < nr_evs && !ret; e++)
		ret = add(cs, alloc, &evs[e], e, tid, cpu, flags, err);
	return ret;
}

/* every thread of each process, each counting its later children too */
static int add_processes(struct ocount_counters *cs, size_t *alloc,
			 const struct opev_event *evs, size_t nr_evs,
			 const struct ocount_target *t, struct op_err *err)
{
	size_t p, i, nr_tids;
	int ret = 0;

	for (p = 0; p < t->nr_pids && !ret; p++) {
		pid_t *tids = opd_perf_threads(t->pids[p], &nr_tids);

		if (!tids) {
			op_err_set(err, "no such process: %d", (int)t->pids[p]);
			return -ESRCH;
		}
		for (i = 0; i < nr_tids && !ret; i++) {
			size_t before = cs->nr;

			ret = add_all(cs, alloc, evs, nr_evs, tids[i], -1,
				      OPD_COUNT_INHERIT, err);
			if (ret == -ESRCH && i > 0) {
				/* a thread that ended meanwhile */
				while (cs->nr > before)
					close(cs->c[--cs->nr].fd);
				ret = 0;
			}
		}
		free(tids);
	}
	return ret;
}

int ocount_counters_open(struct ocount_counters *cs,
			 const struct opev_event *evs, size_t nr_evs,
			 const struct ocount_target *t, struct op_err *err)
{
	size_t alloc = 0, i;
	int ret = 0;

	memset(cs, 0, sizeof(*cs));
	cs->nr_events = nr_evs;
	switch (t->mode) {
	case OCOUNT_COMMAND:
		ret = add_all(cs, &alloc, evs, nr_evs, t->pids[0], -1,
			      OPD_COUNT_INHERIT | OPD_COUNT_ON_EXEC, err);
		break;
	case OCOUNT_PROCESSES:
		ret = add_processes(cs, &alloc, evs, nr_evs, t, err);
		break;
	case OCOUNT_THREADS:
		for (i = 0; i < t->nr_pids && !ret; i++)
			ret = add_all(cs, &alloc, evs, nr_evs, t->pids[i], -1, 0,
				      err);
		if (ret == -ESRCH)
			op_err_set(err, "no such thread: %d", (int)t->pids[i - 1]);
		break;
	case OCOUNT_SYSTEM:
	case OCOUNT_CPUS:
		for (i = 0; i < t->nr_cpus && !ret; i++)
			ret = add_all(cs, &alloc, evs, nr_evs, -1,
				      (int)t->cpus[i], 0, err);
		break;
	}
	if (ret)
		ocount_counters_close(cs);
	return ret;
}

int ocount_counters_read(struct ocount_counters *cs, size_t i,
			 bool since_last, struct opd_count *out)
{
	struct ocount_counter *c = &cs->c[i];
	struct opd_count now;
	int ret = opd_perf_count_read(c->fd, &now);

	if (ret)
		return ret;
	*out = now;
	if (since_last) {
		out->value -= c->last.value;
		out->enabled -= c->last.enabled;
		out->running -= c->last.running;
		/*
		 * A task's counter is enabled only while the task runs: one
		 * that slept all interval counted nothing, in the share of
		 * time it has counted so far, not "never"
		 */
		if (!out->enabled) {
			out->enabled = now.enabled;
			out->running = now.running;
		}
		c->last = now;
	}
	return 0;
}

void ocount_counters_close(struct ocount_counters *cs)
{
	size_t i;

	if (!cs)
		return;
	for (i = 0; i < cs->nr; i++)
		close(cs->c[i].fd);
	free(cs->c);
	memset(cs, 0, sizeof(*cs));
}

uint64_t ocount_scaled(const struct opd_count *c)
{
	long double v;

	if (!c->running)
		return 0;
	if (c->running >= c->enabled)
		return c->value;
	v = (long double)c->value * (long double)c->enabled /
	    (long double)c->running;
	return v >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)v;
}
