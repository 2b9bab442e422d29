// SPDX-License-Identifier: GPL-2.0-or-later
/* operf's event choice and the software-clock fallback (operf_events.h). */
#include "config.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/operf_events.h"
#include "daemon/perf_events.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"

/*
 * Can any hardware event count here?  perf's generic cycles event tells
 * quickly, before libpfm4 is set up (which is only needed to name the
 * cpu's own default event).
 */
static int probe_cycles(void)
{
	struct opev_event ev = { .attr_type = PERF_TYPE_HARDWARE,
				 .attr_config = PERF_COUNT_HW_CPU_CYCLES,
				 .period = 100000 };

	snprintf(ev.name, sizeof(ev.name), "cycles");
	return opd_perf_probe(&ev);
}

static int choose_default(struct operf_events *evs, struct opev_ctx *ctx)
{
	struct op_err err = { "" };
	struct opev_event hw;
	int ret;

	evs->events = op_xcalloc(1, sizeof(*evs->events));
	evs->nr = 1;
	if (!ctx) {
		ret = probe_cycles();
		if (ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV)
			snprintf(evs->fallback_reason, sizeof(evs->fallback_reason),
				 "no hardware PMU, so the cpu's default event cannot count");
		else
			snprintf(evs->fallback_reason, sizeof(evs->fallback_reason),
				 "hardware events cannot be opened here (%s)",
				 strerror(-ret));
		goto fallback;
	}
	ret = opev_default_event(ctx, &hw, &err);
	if (!ret) {
		ret = opd_perf_probe(&hw);
		if (!ret) {
			evs->events[0] = hw;
			return 0;
		}
		snprintf(evs->fallback_reason, sizeof(evs->fallback_reason),
			 "%s cannot count here: %s", hw.name,
			 ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ?
			 "no hardware PMU" : strerror(-ret));
	} else {
		snprintf(evs->fallback_reason, sizeof(evs->fallback_reason),
			 "no hardware event for this cpu: %s",
			 err.msg[0] ? err.msg : opev_strerror(ret));
	}
fallback:
	ret = opev_software_clock(&evs->events[0], 0);
	if (ret) {
		op_error("cannot set up the cpu-clock event: %s", opev_strerror(ret));
		return 1;
	}
	ret = opd_perf_probe(&evs->events[0]);
	if (ret) {
		op_error("cannot open the cpu-clock event: %s", strerror(-ret));
		op_hint("is perf_events available?  see /proc/sys/kernel/perf_event_paranoid");
		return 1;
	}
	evs->fallback = true;
	return 0;
}

static int choose_list(struct operf_events *evs, struct opev_ctx *ctx,
		       const char *list, bool counting, bool probe)
{
	struct opev_spec *specs = NULL;
	struct op_err err = { "" };
	size_t nr, i, j;
	int ret;

	if (counting)
		ret = opev_parse_count_list(list, &specs, &nr, &err);
	else
		ret = opev_parse_list(list, &specs, &nr, &err);
	if (ret) {
		op_error("%s", err.msg[0] ? err.msg : opev_strerror(ret));
		if (counting)
			op_hint("events are NAME[:unitmask[:kernel[:user]]], comma-separated; see ocount(1), --events");
		else
			op_hint("events are NAME:count[:unitmask[:kernel[:user]]], comma-separated; see operf(1), --events");
		return 2;
	}
	evs->events = op_xcalloc(nr, sizeof(*evs->events));
	for (i = 0; i < nr; i++) {
		err.msg[0] = '\0';
		ret = opev_encode(ctx, &specs[i], &evs->events[i], &err);
		if (ret) {
			op_error("%s", err.msg[0] ? err.msg : opev_strerror(ret));
			if (ret == OPEV_ERR_UNKNOWN_EVENT)
				op_hint("use an event libpfm4 knows on this machine (ophelp lists them), or cpu-clock");
			free(specs);
			return 2;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(evs->events[j].name, evs->events[i].name)) {
				op_error("event '%s' is given twice", evs->events[i].name);
				free(specs);
				return 2;
			}
		}
		evs->nr = i + 1;
		ret = probe ? opd_perf_probe(&evs->events[i]) : 0;
		if (ret) {
			op_error("event '%s' cannot be opened: %s", evs->events[i].name,
				 ret == -ENOENT || ret == -EOPNOTSUPP || ret == -ENODEV ?
				 "not supported here (no hardware PMU?)" : strerror(-ret));
			if (evs->events[i].kind == OPEV_HARDWARE)
				op_hint("this machine may have no hardware PMU: try -e cpu-clock");
			else
				op_hint("see /proc/sys/kernel/perf_event_paranoid");
			free(specs);
			return 1;
		}
	}
	free(specs);
	return 0;
}

static int choose(struct operf_events *evs, const char *list, bool counting)
{
	struct opev_ctx *ctx;
	int err = 0, ret;

	memset(evs, 0, sizeof(*evs));
	if (!list && probe_cycles()) {
		/* no PMU at all: the fallback needs no event library */
		return choose_default(evs, NULL);
	}
	ctx = opev_ctx_new(&err);
	if (!ctx) {
		op_error("cannot initialise the event library: %s", opev_strerror(err));
		return 1;
	}
	ret = list ? choose_list(evs, ctx, list, counting, true) :
		     choose_default(evs, ctx);
	opev_ctx_free(ctx);
	return ret;
}

int operf_events_choose(struct operf_events *evs, const char *list)
{
	return choose(evs, list, false);
}

int operf_events_choose_counting(struct operf_events *evs, const char *list)
{
	return choose(evs, list, true);
}

int operf_events_encode(struct operf_events *evs, const char *list)
{
	struct opev_ctx *ctx;
	int err = 0, ret;

	memset(evs, 0, sizeof(*evs));
	ctx = opev_ctx_new(&err);
	if (!ctx) {
		op_error("cannot initialise the event library: %s", opev_strerror(err));
		return 1;
	}
	ret = choose_list(evs, ctx, list, false, false);
	opev_ctx_free(ctx);
	return ret;
}

void operf_events_release(struct operf_events *evs)
{
	if (!evs)
		return;
	free(evs->events);
	memset(evs, 0, sizeof(*evs));
}

char *operf_events_join(char *list, char *more)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *joined;

	if (!list)
		return more;
	op_strbuf_addf(&sb, "%s,%s", list, more);
	free(list);
	free(more);
	joined = op_strbuf_detach(&sb);
	if (!joined)
		op_die(1, "out of memory");
	return joined;
}

struct list_state {
	FILE *out;
	size_t nr;
};

static int list_one(const struct opev_info *info, void *data)
{
	struct list_state *st = data;
	size_t i;

	fprintf(st->out, "%s: %s\n", info->name, info->desc ? info->desc : "");
	for (i = 0; i < info->nr_unit_masks; i++)
		fprintf(st->out, "\t%s (0x%llx): %s\n", info->um_names[i],
			(unsigned long long)info->um_codes[i],
			info->um_descs[i] ? info->um_descs[i] : "");
	st->nr++;
	return 0;
}

static void list_clocks(FILE *out)
{
	fprintf(out, "Software clock events (these count on every machine):\n"
		"cpu-clock: CPU time clock; count is the sample period in ns "
		"(default %u, at least %u)\n"
		"task-clock: task time clock; count as for cpu-clock\n\n",
		OPEV_CLOCK_DEFAULT_NS, OPEV_CLOCK_MIN_NS);
}

/* the hardware events libpfm4 has for ctx, after their heading */
static int list_hardware(FILE *out, const char *heading)
{
	struct list_state st = { out, 0 };
	struct opev_ctx *ctx;
	int err = 0, ret;

	ctx = opev_ctx_new(&err);
	if (!ctx) {
		op_error("cannot list the hardware events: %s", opev_strerror(err));
		return 1;
	}
	fputs(heading, out);
	ret = opev_for_each_event(ctx, list_one, &st);
	opev_ctx_free(ctx);
	if (ret) {
		op_error("cannot list the hardware events: %s", opev_strerror(ret));
		return 1;
	}
	return 0;
}

int operf_events_list(FILE *out)
{
	struct operf_events evs = { 0 };
	char heading[256];
	int ret;

	list_clocks(out);
	ret = operf_events_choose(&evs, NULL);
	if (ret)
		return 1;
	if (evs.fallback) {
		fprintf(out, "No hardware PMU is available here (%s): operf "
			"and opcontrol use cpu-clock instead.\n",
			evs.fallback_reason);
		operf_events_release(&evs);
		return 0;
	}
	snprintf(heading, sizeof(heading), "Hardware events of this cpu (default %s:%llu):\n",
		 evs.events[0].name, (unsigned long long)evs.events[0].period);
	operf_events_release(&evs);
	return list_hardware(out, heading);
}

int operf_events_list_tables(FILE *out, uint32_t cpu_type)
{
	const char *name = opev_cpu_name(cpu_type);
	const char *def = opev_cpu_default_name(cpu_type);
	char heading[256];

	list_clocks(out);
	if (cpu_type == OPEV_CPU_TIMER) {
		fprintf(out, "timer has no hardware events: only the software "
			"clocks above.\n");
		return 0;
	}
	if (!opev_cpu_pmu_name(cpu_type)) {
		fprintf(out, "libpfm4 has no event tables for %s: only the software "
			"clocks above.\n", name ? name : "this cpu type");
		return 0;
	}
	snprintf(heading, sizeof(heading), "Hardware events of %s, from libpfm4's "
		 "tables, not tried on this machine (default %s%s):\n", name,
		 def ? def : "none", def ? ":100000" : "");
	return list_hardware(out, heading);
}
