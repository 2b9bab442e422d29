// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filling a struct opev_event: name and mode from the spec, the period
 * and its limits, the software clock, OProfile's event code and unit
 * mask from a raw config, and the one-line description.  No libpfm4.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events/opev_int.h"

int opev_event_start(struct opev_event *ev, const struct opev_spec *spec,
		     struct op_err *err)
{
	char q[OPEV_QUOTE_SIZE];
	size_t len = strnlen(spec->name, sizeof(spec->name)), bad;
	int ret;

	memset(ev, 0, sizeof(*ev));
	ret = opev_name_check(spec->name, len, &bad);
	if (ret) {
		op_err_set(err, "bad event name '%s'",
			   opev_quote(q, sizeof(q), spec->name, len));
		return ret;
	}
	memcpy(ev->name, spec->name, len + 1);
	if (!spec->kernel && !spec->user) {
		op_err_set(err, "event '%s' counts in neither kernel nor "
			   "user mode", ev->name);
		return OPEV_ERR_NO_MODE;
	}
	ev->exclude_kernel = !spec->kernel;
	ev->exclude_user = !spec->user;
	return 0;
}

int opev_event_set_period(struct opev_event *ev, uint64_t count,
			  struct op_err *err)
{
	bool clock = ev->kind == OPEV_SOFTWARE_CLOCK;
	uint64_t min = clock ? OPEV_CLOCK_MIN_NS : OPEV_MIN_PERIOD;
	uint64_t def = clock ? OPEV_CLOCK_DEFAULT_NS : OPEV_DEFAULT_PERIOD;
	const char *unit = clock ? "ns" : "events";

	if (!count)
		count = def;
	if (count < min || count > OPEV_MAX_PERIOD) {
		op_err_set(err, "sample count %llu of '%s' is out of range "
			   "(%llu to %llu %s)", (unsigned long long)count,
			   ev->name, (unsigned long long)min,
			   (unsigned long long)OPEV_MAX_PERIOD, unit);
		return OPEV_ERR_COUNT_RANGE;
	}
	ev->period = count;
	return 0;
}

int opev_event_refuse_zero(const struct opev_event *ev, struct op_err *err)
{
	bool clock = ev->kind == OPEV_SOFTWARE_CLOCK;
	const char *unit = clock ? "ns" : "events";

	op_err_set(err, "sample count 0 of '%s' is below its minimum of %u %s "
		   "(leave the count out for the default, %u %s)", ev->name,
		   clock ? OPEV_CLOCK_MIN_NS : OPEV_MIN_PERIOD, unit,
		   clock ? OPEV_CLOCK_DEFAULT_NS : OPEV_DEFAULT_PERIOD, unit);
	return OPEV_ERR_COUNT_RANGE;
}

int opev_event_clock(struct opev_event *ev, const struct opev_generic *g,
		     uint64_t count, struct op_err *err)
{
	char what[128];
	int ret;

	ev->kind = OPEV_SOFTWARE_CLOCK;
	ev->attr_type = g->type;
	ev->attr_config = g->config;
	ev->attr_config1 = 0;
	ev->attr_config2 = 0;
	ev->op_cpu_type = OPEV_CPU_TIMER;
	ev->op_event = 0;
	ev->op_unit_mask = 0;
	opev_copy(ev->pmu_name, sizeof(ev->pmu_name), g->pfm_name);
	ret = opev_event_set_period(ev, count, err);
	if (ret)
		return ret;
	if (snprintf(what, sizeof(what), "%s (software event)", g->desc) < 0)
		what[0] = '\0';
	opev_event_describe(ev, what, NULL);
	return 0;
}

void opev_event_set_codes(struct opev_event *ev, enum opev_style style,
			  uint64_t config)
{
	switch (style) {
	case OPEV_STYLE_INTEL:
		ev->op_event = config & 0xff;
		ev->op_unit_mask = (config >> 8) & 0xff;
		break;
	case OPEV_STYLE_AMD:
		/* event select bits 11:8 sit in config bits 35:32 */
		ev->op_event = (config & 0xff) | ((config >> 24) & 0xf00);
		ev->op_unit_mask = (config >> 8) & 0xff;
		break;
	case OPEV_STYLE_PLAIN:
	default:
		ev->op_event = (uint32_t)config;
		ev->op_unit_mask = 0;
		break;
	}
}

/* append to ev->desc, cutting what does not fit */
static void desc_add(struct opev_event *ev, const char *fmt, ...)
	OP_PRINTF(2, 3);

static void desc_add(struct opev_event *ev, const char *fmt, ...)
{
	size_t len = strlen(ev->desc);
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(ev->desc + len, sizeof(ev->desc) - len, fmt, ap);
	va_end(ap);
	if (ret < 0)
		ev->desc[len] = '\0';
}

void opev_event_describe(struct opev_event *ev, const char *what,
			 const char *detail)
{
	bool clock = ev->kind == OPEV_SOFTWARE_CLOCK;
	size_t i;

	ev->desc[0] = '\0';
	desc_add(ev, "%s: %s, sample every %llu %s", ev->name, what,
		 (unsigned long long)ev->period, clock ? "ns" : "events");
	if (ev->exclude_kernel)
		desc_add(ev, ", user mode only");
	else if (ev->exclude_user)
		desc_add(ev, ", kernel mode only");
	if (detail && *detail)
		desc_add(ev, ": %s", detail);
	/* libpfm4's descriptions are data: keep the line one line */
	for (i = 0; ev->desc[i]; i++)
		if ((unsigned char)ev->desc[i] < ' ')
			ev->desc[i] = ' ';
}

int opev_software_clock(struct opev_event *ev, uint64_t period_ns)
{
	const struct opev_generic *g = opev_generic_by_name("cpu-clock");

	if (!ev)
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	opev_copy(ev->name, sizeof(ev->name), g->name);
	return opev_event_clock(ev, g, period_ns, NULL);
}
