// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ophelp: list the events this machine can count, check event
 * specifications as operf and opcontrol do, and report what profiling
 * is possible here (--check).
 *
 * It lives in daemon/, not pp/, because "can this event count here" needs
 * a perf_event_open probe (operf_events_choose()), and daemon/ is the
 * only perf_event_open user.  It never refuses to start on a machine
 * without a hardware PMU: it lists the software clocks and says so.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/operf_events.h"
#include "events/opev.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"

struct ophelp_options {
	char *check_events;	/* --check-events LIST */
	char *unit_mask;	/* --unit-mask EVENT */
	int get_cpu_type;
	int get_default_event;
	int check;
	int xml;
	int version;
};

static struct ophelp_options opts;

static const struct poptOption options_table[] = {
	{ "check-events", 'e', POPT_ARG_STRING, &opts.check_events, 0,
	  "check event specifications as operf --events does", "EVENTS" },
	{ "unit-mask", 'u', POPT_ARG_STRING, &opts.unit_mask, 0,
	  "print the unit mask operf would use for the event", "EVENT" },
	{ "get-cpu-type", 'r', POPT_ARG_NONE, &opts.get_cpu_type, 0,
	  "print OProfile's name of this machine's cpu type", NULL },
	{ "get-default-event", 'd', POPT_ARG_NONE, &opts.get_default_event, 0,
	  "print the event operf uses when given none", NULL },
	{ "check", '\0', POPT_ARG_NONE, &opts.check, 0,
	  "report what profiling this machine allows", NULL },
	{ "xml", 'X', POPT_ARG_NONE, &opts.xml, 0,
	  "list the events in XML (OProfile's ophelp.xsd)", NULL },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

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

static int check_events(const char *list)
{
	struct operf_events evs = { 0 };
	int ret = operf_events_choose(&evs, list);
	size_t i;

	for (i = 0; !ret && i < evs.nr; i++)
		printf("%s:%llu: ok\n", evs.events[i].name,
		       (unsigned long long)evs.events[i].period);
	operf_events_release(&evs);
	return ret;
}

/* 0, or 2 after printing why spec is not one good event */
static int unit_mask(const char *spec)
{
	struct opev_spec *specs = NULL;
	struct opev_event ev;
	struct opev_ctx *ctx = NULL;
	struct op_err err = { "" };
	size_t nr = 0;
	int ret, ctx_err = 0;

	ret = opev_parse_list(spec, &specs, &nr, &err);
	if (!ret && nr != 1) {
		op_error("--unit-mask takes one event, not %zu", nr);
		free(specs);
		return 2;
	}
	if (!ret) {
		ctx = opev_ctx_new(&ctx_err);
		ret = opev_encode(ctx, &specs[0], &ev, &err);
	}
	if (ret) {
		op_error("%s", err.msg[0] ? err.msg : opev_strerror(ret));
		if (ret == OPEV_ERR_UNKNOWN_EVENT)
			op_hint("ophelp without options lists the events of this machine");
	} else if (specs[0].um_name[0]) {
		printf("%s\n", specs[0].um_name);
	} else {
		printf("%u\n", ev.op_unit_mask);
	}
	opev_ctx_free(ctx);
	free(specs);
	return ret ? 2 : 0;
}

static int default_event(void)
{
	struct operf_events evs = { 0 };
	int ret = operf_events_choose(&evs, NULL);

	if (!ret)
		printf("%s:%llu\n", evs.events[0].name,
		       (unsigned long long)evs.events[0].period);
	operf_events_release(&evs);
	return ret;
}

static int cpu_type(void)
{
	struct operf_events evs = { 0 };
	struct opev_ctx *ctx;
	const char *name;
	int err = 0, ret = operf_events_choose(&evs, NULL);
	uint32_t type = OPEV_CPU_TIMER;

	if (ret)
		return ret;
	if (!evs.fallback) {
		ctx = opev_ctx_new(&err);
		if (ctx)
			type = opev_ctx_cpu_type(ctx);
		opev_ctx_free(ctx);
	}
	operf_events_release(&evs);
	name = opev_cpu_name(type);
	printf("%s\n", name ? name : "timer");
	return 0;
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

static int check(void)
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

static int xml_list(void)
{
	struct operf_events evs = { 0 };
	struct opev_ctx *ctx = NULL;
	int err = 0, ret = operf_events_choose(&evs, NULL);
	const char *cpu = "timer";

	if (ret)
		return ret;
	if (!evs.fallback) {
		ctx = opev_ctx_new(&err);
		if (ctx && opev_cpu_name(opev_ctx_cpu_type(ctx)))
			cpu = opev_cpu_name(opev_ctx_cpu_type(ctx));
	}
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<help_events schemaversion=\"2.0\">\n  <header");
	xml_attr("title", cpu);
	xml_attr("doc", evs.fallback ? evs.fallback_reason : "");
	fputs("/>\n", stdout);
	xml_event("cpu-clock", "CPU time clock; count is the sample period in ns",
		  OPEV_CLOCK_MIN_NS);
	fputs("/>\n", stdout);
	xml_event("task-clock", "task time clock; count as for cpu-clock",
		  OPEV_CLOCK_MIN_NS);
	fputs("/>\n", stdout);
	operf_events_release(&evs);
	ret = ctx ? opev_for_each_event(ctx, xml_hw_event, NULL) : 0;
	opev_ctx_free(ctx);
	fputs("</help_events>\n", stdout);
	if (ret) {
		op_error("cannot list the hardware events: %s", opev_strerror(ret));
		return 1;
	}
	return 0;
}

static int run(const struct ophelp_options *o)
{
	if (o->version) {
		printf("ophelp (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		return 0;
	}
	if (o->check_events)
		return check_events(o->check_events);
	if (o->unit_mask)
		return unit_mask(o->unit_mask);
	if (o->get_cpu_type)
		return cpu_type();
	if (o->get_default_event)
		return default_event();
	if (o->check)
		return check();
	if (o->xml)
		return xml_list();
	return operf_events_list(stdout);
}

int main(int argc, char **argv)
{
	poptContext ctx;
	int nr_args, status;

	if (op_popt_parse(&ctx, argc, argv, options_table, "", 0, NULL, NULL)) {
		free(opts.check_events);
		free(opts.unit_mask);
		return 2;
	}
	op_popt_args(ctx, &nr_args);
	if (nr_args) {
		op_usage_error("unexpected argument '%s'", op_popt_args(ctx, &nr_args)[0]);
		status = 2;
	} else if (opts.get_cpu_type + opts.get_default_event + opts.check +
		   opts.xml + !!opts.check_events + !!opts.unit_mask > 1) {
		op_usage_error("give at most one of --check-events, --unit-mask, --get-cpu-type, "
			       "--get-default-event, --check, --xml");
		status = 2;
	} else {
		status = run(&opts);
	}
	poptFreeContext(ctx);
	free(opts.check_events);
	free(opts.unit_mask);
	return status;
}
