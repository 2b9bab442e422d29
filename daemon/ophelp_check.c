// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ophelp --check (ophelp.h): whether a hardware PMU counts here, what
 * perf_event_paranoid and kptr_restrict allow, whether call graphs can
 * be sampled, and the default event; a hint under each limit.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/operf_events.h"
#include "daemon/ophelp.h"

/* the first line of a /proc file, or "" when unreadable */
static void read_proc(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void check_paranoid(void)
{
	char buf[64];
	long v;

	read_proc("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf));
	if (!buf[0]) {
		printf("perf_event_paranoid: unreadable (no perf_events?)\n");
		printf("hint: profiling needs a kernel with perf_events\n");
		return;
	}
	v = strtol(buf, NULL, 10);
	printf("perf_event_paranoid: %s (%s)\n", buf,
	       v <= -1 ? "everything allowed" :
	       v == 0 ? "cpu-wide profiling allowed, no raw tracepoints" :
	       v == 1 ? "user and kernel profiling of own processes" :
	       "user-space profiling of own processes only");
	if (v >= 2)
		printf("hint: kernel samples and system-wide profiling need root, "
		       "or perf_event_paranoid set to 1 or less\n");
}

int ophelp_check(void)
{
	struct operf_events evs = { 0 };
	char buf[64];
	int ret = operf_events_choose(&evs, NULL);

	if (ret)
		return ret;
	if (evs.fallback) {
		printf("hardware PMU: not available (%s)\n", evs.fallback_reason);
		printf("hint: cpu-clock is used instead; run on bare metal or "
		       "enable the virtual PMU for hardware events\n");
	} else {
		printf("hardware PMU: available\n");
	}
	check_paranoid();
	read_proc("/proc/sys/kernel/kptr_restrict", buf, sizeof(buf));
	printf("kptr_restrict: %s\n", buf[0] ? buf : "unreadable");
	if (buf[0] && strcmp(buf, "0"))
		printf("hint: kernel symbols are hidden from non-root users; "
		       "set /proc/sys/kernel/kptr_restrict to 0\n");
	read_proc("/proc/sys/kernel/perf_event_max_stack", buf, sizeof(buf));
	printf("call graphs: %s\n", buf[0] ? "supported" : "not supported");
	if (buf[0])
		printf("perf_event_max_stack: %s\n", buf);
	else
		printf("hint: this kernel has no perf_event_max_stack; "
		       "operf --callgraph may fail\n");
	printf("default event: %s:%llu\n", evs.events[0].name,
	       (unsigned long long)evs.events[0].period);
	operf_events_release(&evs);
	return 0;
}

