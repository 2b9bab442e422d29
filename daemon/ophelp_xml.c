// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ophelp --xml (ophelp.h): the event list in the form of OProfile's
 * ophelp.xsd, for the scripts and tools that read OProfile's.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/operf_events.h"
#include "daemon/ophelp.h"
#include "events/opev.h"
#include "libutil/op_error.h"

/* s with XML's special characters escaped, as an attribute value */
static void xml_attr(const char *name, const char *s)
{
	printf(" %s=\"", name);
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", stdout); break;
		case '<': fputs("&lt;", stdout); break;
		case '>': fputs("&gt;", stdout); break;
		case '"': fputs("&quot;", stdout); break;
		default: putchar(*s);
		}
	}
	putchar('"');
}

/*
 * One <event>.  counter_mask is 0: perf_events, not the tool, assigns
 * counters.  min_count is in ns for the clocks, in events otherwise.
 */
static void xml_event(const char *name, const char *desc, unsigned min_count)
{
	fputs("  <event", stdout);
	xml_attr("event_name", name);
	printf(" counter_mask=\"0\" min_count=\"%u\"", min_count);
	xml_attr("desc", desc);
}

static int xml_hw_event(const struct opev_info *info, void *data)
{
	size_t i;

	(void)data;
	xml_event(info->name, info->desc, OPEV_MIN_PERIOD);
	if (!info->nr_unit_masks) {
		fputs("/>\n", stdout);
		return 0;
	}
	/* exclusive: opev_encode() takes one of the named unit masks */
	printf(">\n   <unit_masks default=\"%llu\" category=\"exclusive\">\n",
	       (unsigned long long)info->um_codes[0]);
	for (i = 0; i < info->nr_unit_masks; i++) {
		fputs("    <unit_mask", stdout);
		xml_attr("name", info->um_names[i]);
		printf(" mask=\"%llu\"", (unsigned long long)info->um_codes[i]);
		xml_attr("desc", info->um_descs[i]);
		fputs("/>\n", stdout);
	}
	fputs("   </unit_masks>\n  </event>\n", stdout);
	return 0;
}

int ophelp_xml(bool tables, uint32_t cpu_type)
{
	struct operf_events evs = { 0 };
	struct opev_ctx *ctx = NULL;
	const char *cpu = "timer", *doc = "";
	int err = 0, ret;

	if (tables) {
		/* libpfm4's tables of another cpu type: nothing is probed */
		cpu = opev_cpu_name(cpu_type);
		doc = "libpfm4's tables, not tried on this machine";
		if (opev_cpu_pmu_name(cpu_type))
			ctx = opev_ctx_new(&err);
	} else {
		ret = operf_events_choose(&evs, NULL);
		if (ret)
			return ret;
		if (evs.fallback)
			doc = evs.fallback_reason;
		else
			ctx = opev_ctx_new(&err);
		if (ctx && opev_cpu_name(opev_ctx_cpu_type(ctx)))
			cpu = opev_cpu_name(opev_ctx_cpu_type(ctx));
	}
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<help_events schemaversion=\"2.0\">\n  <header");
	xml_attr("title", cpu);
	xml_attr("doc", doc);
	fputs("/>\n", stdout);
	operf_events_release(&evs);
	xml_event("cpu-clock", "CPU time clock; count is the sample period in ns",
		  OPEV_CLOCK_MIN_NS);
	fputs("/>\n", stdout);
	xml_event("task-clock", "task time clock; count as for cpu-clock",
		  OPEV_CLOCK_MIN_NS);
	fputs("/>\n", stdout);
	ret = ctx ? opev_for_each_event(ctx, xml_hw_event, NULL) : 0;
	opev_ctx_free(ctx);
	fputs("</help_events>\n", stdout);
	if (ret) {
		op_error("cannot list the hardware events: %s", opev_strerror(ret));
		return 1;
	}
	return 0;
}
