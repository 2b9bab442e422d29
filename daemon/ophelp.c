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
 *
 * --cpu-type TYPE answers from libpfm4's tables of another cpu type
 * instead: LIBPFM_FORCE_PMU makes libpfm4 take that type's core PMU, and
 * nothing is probed, since this machine's cpu is not that one.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/operf_events.h"
#include "daemon/ophelp.h"
#include "daemon/perf_events.h"
#include "events/opev.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"

struct ophelp_options {
	char *check_events;	/* --check-events LIST */
	char *unit_mask;	/* --unit-mask EVENT */
	char *extra_mask;	/* --extra-mask EVENT */
	char *cpu_type;		/* --cpu-type TYPE */
	int callgraph;		/* --callgraph DEPTH, with --check-events */
	int get_cpu_type;
	int get_default_event;
	int check;
	int xml;
	int version;
	/* what --cpu-type asked for, checked */
	bool tables;		/* answer from libpfm4's tables, probe nothing */
	uint32_t type;		/* the cpu type: --cpu-type's */
};

static struct ophelp_options opts;

static const struct poptOption options_table[] = {
	{ "check-events", 'e', POPT_ARG_STRING, &opts.check_events, 0,
	  "check event specifications as operf --events does", "EVENTS" },
	{ "unit-mask", 'u', POPT_ARG_STRING, &opts.unit_mask, 0,
	  "print the unit mask operf would use for the event", "EVENT" },
	{ "extra-mask", 'E', POPT_ARG_STRING, &opts.extra_mask, 0,
	  "print the extra bits (perf_event_attr config1) operf would use for the event",
	  "EVENT" },
	{ "cpu-type", 'c', POPT_ARG_STRING, &opts.cpu_type, 0,
	  "answer for cpu type TYPE (OProfile's name or number) from libpfm4's "
	  "tables, trying nothing on this machine", "TYPE" },
	{ "callgraph", '\0', POPT_ARG_INT, &opts.callgraph, 0,
	  "with --check-events: check that the events can sample call chains "
	  "of DEPTH frames here", "DEPTH" },
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

/*
 * --check-events: each event encoded and opened as operf would (only
 * encoded with --cpu-type); with --callgraph, opened sampling call
 * chains of that depth too
 */
static int check_events(const struct ophelp_options *o)
{
	struct operf_events evs = { 0 };
	unsigned depth = (unsigned)o->callgraph, limit = opd_perf_max_stack();
	size_t i;
	int ret;

	ret = o->tables ? operf_events_encode(&evs, o->check_events) :
			  operf_events_choose(&evs, o->check_events);
	if (!ret && depth && depth > limit) {
		op_error("a call-chain depth of %u is more than this kernel's "
			 "limit of %u frames", depth, limit);
		op_hint("raise /proc/sys/kernel/perf_event_max_stack, or use a "
			"smaller depth");
		ret = 1;
	}
	for (i = 0; !ret && depth && i < evs.nr; i++) {
		int err = opd_perf_probe_callchain(&evs.events[i], depth);

		if (err) {
			op_error("event '%s' cannot sample call chains here: %s",
				 evs.events[i].name, strerror(-err));
			ret = 1;
		}
	}
	for (i = 0; !ret && i < evs.nr; i++)
		printf("%s:%llu: ok\n", evs.events[i].name,
		       (unsigned long long)evs.events[i].period);
	if (!ret && o->tables)
		fprintf(stderr, "ophelp: note: checked against %s's event tables; "
			"whether they count on this machine was not tried\n",
			opev_cpu_name(o->type));
	operf_events_release(&evs);
	return ret;
}

/*
 * One event of spec encoded as operf would (the only one: more is a
 * usage error).  0, or 2 after printing why not.
 */
static int one_event(const char *option, const char *spec, struct opev_spec *out,
		     struct opev_event *ev)
{
	struct opev_spec *specs = NULL;
	struct opev_ctx *ctx = NULL;
	struct op_err err = { "" };
	size_t nr = 0;
	int ret, ctx_err = 0;

	ret = opev_parse_list(spec, &specs, &nr, &err);
	if (!ret && nr != 1) {
		op_error("%s takes one event, not %zu", option, nr);
		free(specs);
		return 2;
	}
	if (!ret) {
		ctx = opev_ctx_new(&ctx_err);
		ret = opev_encode(ctx, &specs[0], ev, &err);
	}
	if (ret) {
		op_error("%s", err.msg[0] ? err.msg : opev_strerror(ret));
		if (ret == OPEV_ERR_UNKNOWN_EVENT)
			op_hint("ophelp without options lists the events of this machine");
	} else {
		*out = specs[0];
	}
	opev_ctx_free(ctx);
	free(specs);
	return ret ? 2 : 0;
}

/* --unit-mask: the unit mask's name as given, else its number */
static int unit_mask(const char *spec)
{
	struct opev_spec s;
	struct opev_event ev;
	int ret = one_event("--unit-mask", spec, &s, &ev);

	if (ret)
		return ret;
	if (s.um_name[0])
		printf("%s\n", s.um_name);
	else
		printf("%u\n", ev.op_unit_mask);
	return 0;
}

/* --extra-mask: what goes in config1 (offcore response bits, ...) */
static int extra_mask(const char *spec)
{
	struct opev_spec s;
	struct opev_event ev;
	int ret = one_event("--extra-mask", spec, &s, &ev);

	if (!ret)
		printf("%llu\n", (unsigned long long)ev.attr_config1);
	return ret;
}

static int default_event(const struct ophelp_options *o)
{
	struct operf_events evs = { 0 };
	const char *name;
	int ret;

	if (o->tables) {
		name = opev_cpu_default_name(o->type);
		if (name)
			printf("%s:%u\n", name, OPEV_DEFAULT_PERIOD);
		else
			printf("cpu-clock:%u\n", OPEV_CLOCK_DEFAULT_NS);
		return 0;
	}
	ret = operf_events_choose(&evs, NULL);
	if (!ret)
		printf("%s:%llu\n", evs.events[0].name,
		       (unsigned long long)evs.events[0].period);
	operf_events_release(&evs);
	return ret;
}

static int cpu_type(const struct ophelp_options *o)
{
	struct operf_events evs = { 0 };
	struct opev_ctx *ctx;
	const char *name;
	int err = 0, ret;
	uint32_t type = OPEV_CPU_TIMER;

	if (o->tables) {
		printf("%s\n", opev_cpu_name(o->type));
		return 0;
	}
	ret = operf_events_choose(&evs, NULL);
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

/*
 * --cpu-type: which type, and libpfm4 set to its core PMU before anything
 * starts libpfm4.  0, or 2 after printing why not.
 */
static int take_cpu_type(struct ophelp_options *o)
{
	struct opev_ctx *ctx;
	const char *pmu;
	int err = 0;

	if (opev_cpu_parse(o->cpu_type, &o->type)) {
		op_error("unknown cpu type '%s'", o->cpu_type);
		op_hint("give OProfile's name of a cpu type (i386/skylake, "
			"x86-64/family15h, arm/armv8-ca57, timer, ...) or its number; "
			"ophelp --get-cpu-type prints this machine's");
		return 2;
	}
	o->tables = true;
	pmu = opev_cpu_pmu_name(o->type);
	if (!pmu)
		return 0;
	if (setenv("LIBPFM_FORCE_PMU", pmu, 1)) {
		op_error("cannot set LIBPFM_FORCE_PMU: %s", strerror(errno));
		return 1;
	}
	ctx = opev_ctx_new(&err);
	if (!ctx || opev_ctx_cpu_type(ctx) != o->type) {
		op_error("libpfm4 cannot take the tables of %s (its PMU '%s')%s%s",
			 opev_cpu_name(o->type), pmu, err ? ": " : "",
			 err ? opev_strerror(err) : "");
		opev_ctx_free(ctx);
		return 1;
	}
	opev_ctx_free(ctx);
	return 0;
}

static int run(struct ophelp_options *o)
{
	int ret;

	if (o->version) {
		printf("ophelp (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		return 0;
	}
	if (o->cpu_type) {
		ret = take_cpu_type(o);
		if (ret)
			return ret;
	}
	if (o->check_events)
		return check_events(o);
	if (o->unit_mask)
		return unit_mask(o->unit_mask);
	if (o->extra_mask)
		return extra_mask(o->extra_mask);
	if (o->get_cpu_type)
		return cpu_type(o);
	if (o->get_default_event)
		return default_event(o);
	if (o->check)
		return ophelp_check();
	if (o->xml)
		return ophelp_xml(o->tables, o->type);
	if (o->tables)
		return operf_events_list_tables(stdout, o->type);
	return operf_events_list(stdout);
}

static void free_options(void)
{
	free(opts.check_events);
	free(opts.unit_mask);
	free(opts.extra_mask);
	free(opts.cpu_type);
}

/* a usage error in the combination of options, or NULL */
static const char *bad_combination(const struct ophelp_options *o)
{
	if (o->get_cpu_type + o->get_default_event + o->check + o->xml +
	    !!o->check_events + !!o->unit_mask + !!o->extra_mask > 1)
		return "give at most one of --check-events, --unit-mask, --extra-mask, "
		       "--get-cpu-type, --get-default-event, --check, --xml";
	if (o->callgraph < 0 || o->callgraph > 65535)
		return "--callgraph takes a depth from 0 to 65535";
	if (o->callgraph && !o->check_events)
		return "--callgraph goes with --check-events";
	if (o->cpu_type && o->check)
		return "--check reports on this machine: it does not go with --cpu-type";
	if (o->cpu_type && o->callgraph)
		return "--callgraph tries the events here: it does not go with --cpu-type";
	return NULL;
}

int main(int argc, char **argv)
{
	poptContext ctx;
	const char *bad;
	int nr_args, status;

	if (op_popt_parse(&ctx, argc, argv, options_table, "", 0, NULL, NULL)) {
		free_options();
		return 2;
	}
	op_popt_args(ctx, &nr_args);
	bad = bad_combination(&opts);
	if (nr_args) {
		op_usage_error("unexpected argument '%s'", op_popt_args(ctx, &nr_args)[0]);
		status = 2;
	} else if (bad) {
		op_usage_error("%s", bad);
		status = 2;
	} else {
		status = run(&opts);
	}
	poptFreeContext(ctx);
	free_options();
	return status;
}
