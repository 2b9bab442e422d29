// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lines above a report: the CPU, the event counted, and one line per
 * class when the columns are not events.  For sessions of our operf the
 * event's description comes from session.info, which also says when the
 * default event fell back to the cpu-clock software event.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "libpp/report/report_int.h"

/*
 * "CPU: NAME, speed X MHz (estimated)", NAME as OProfile 1.4 names the
 * cpu type ("Intel Skylake microarchitecture"); a session of software
 * clocks (cpu-clock, task-clock: the timer cpu type, but not OProfile's
 * timer mode) says that no hardware counter sampled it
 */
static void cpu_line(FILE *out, const struct pp_profile *p)
{
	const struct opd_header *h = &p->classes[0].header;
	const char *name = pp_cpu_type_display_name(h->cpu_type);

	if (pp_cpu_type_is_timer(h->cpu_type) && strcmp(p->classes[0].t.event, "TIMER"))
		name = "no hardware counter (a software clock)";
	fprintf(out, "CPU: %s", name ? name : "unknown cpu type");
	if (h->cpu_speed > 0)
		fprintf(out, ", speed %g MHz (estimated)", h->cpu_speed);
	fputc('\n', out);
}

/* the description operf recorded for an event (session.info), or NULL */
static const char *recorded_desc(const struct pp_session_info *info,
				 const char *event)
{
	size_t i;

	for (i = 0; info && i < info->run.nr_events; i++) {
		const char *d = info->run.events[i].desc;
		size_t len = strlen(event);

		if (strcmp(info->run.events[i].name, event) || !d || !*d)
			continue;
		/* operf writes "NAME: description" */
		if (!strncmp(d, event, len) && d[len] == ':' && d[len + 1] == ' ')
			d += len + 2;
		return d;
	}
	return NULL;
}

/*
 * " with a unit mask of 0x21"; when the files of class cls (of every
 * class when the columns are unit masks) have several, " with unit masks
 * 0x21, 0x42", and " (merged)" when --merge=unitmask put them together
 */
static void unit_mask_text(FILE *out, const struct pp_profile *p, size_t cls,
			   const char *um_desc)
{
	bool all = p->axis == PP_AXIS_UNITMASK && p->nr_classes > 1;
	uint32_t seen[8];
	size_t nr = 0, g, f, k;
	bool more = false;

	for (g = 0; g < p->nr_groups; g++) {
		if (!all && p->groups[g].cls != cls)
			continue;
		for (f = 0; f < p->groups[g].nr_files; f++) {
			uint32_t um = p->groups[g].files[f]->name.unit_mask;

			for (k = 0; k < nr && seen[k] != um; k++)
				;
			if (k < nr)
				continue;
			if (nr == sizeof(seen) / sizeof(seen[0])) {
				more = true;
				continue;
			}
			seen[nr++] = um;
		}
	}
	if (nr < 2) {
		fprintf(out, " with a unit mask of 0x%02x",
			nr ? seen[0] : p->classes[cls].header.ctr_um);
		if (um_desc)
			fprintf(out, " (%s)", um_desc);
		return;
	}
	fputs(" with unit masks", out);
	for (k = 0; k < nr; k++)
		fprintf(out, "%s 0x%02x", k ? "," : "", seen[k]);
	if (more)
		fputs(", ...", out);
	if (!all)
		fputs(" (merged)", out);
}

/* the event description line of class cls */
static void event_line(FILE *out, const struct pp_profile *p, size_t cls,
		       const struct pp_session_info *info)
{
	const struct pp_class *c = &p->classes[cls];
	const struct opd_header *h = &c->header;
	const char *desc = recorded_desc(info, c->t.event), *um_desc = NULL;
	char found[512], um_found[256];

	if (pp_cpu_type_is_timer(h->cpu_type) && !strcmp(c->t.event, "TIMER")) {
		fputs("Profiling through timer interrupt\n", out);
		return;
	}
	if (pp_cpu_type_is_timer(h->cpu_type)) {
		/* our software clocks: cpu-clock / task-clock, period in ns */
		fprintf(out, "Counted %s events (%s) count %d\n", c->t.event,
			desc ? desc : "CPU time clock, a software event; count in nanoseconds",
			c->t.count);
		return;
	}
	/* else from libpfm4's tables of the recorded cpu type, as OProfile
	 * describes events from its own (with the unit mask's text too) */
	if (!desc && !pp_event_describe(h->cpu_type, c->t.event, h->ctr_um, found,
					sizeof(found), um_found, sizeof(um_found))) {
		desc = found;
		um_desc = um_found;
	}
	fprintf(out, "Counted %s events", c->t.event);
	if (desc)
		fprintf(out, " (%s)", desc);
	unit_mask_text(out, p, cls, um_desc);
	fprintf(out, " count %d\n", c->t.count);
}

/*
 * A class's line; a thread's or a process's with its name when the
 * session knows it ("Processes with a thread ID of 1234 (worker)")
 */
static void class_line(FILE *out, const struct pp_profile *p, size_t cls,
		       const struct pp_session_info *info)
{
	const struct pp_class *c = &p->classes[cls];
	int64_t id = p->axis == PP_AXIS_TID ? c->t.tid :
		     p->axis == PP_AXIS_TGID ? c->t.tgid : -1;
	const char *name = id >= 0 && id <= UINT32_MAX && info ?
			   pp_comms_thread(&info->comms, (uint32_t)id) : NULL;

	/* a thread that never renamed itself has its process's name */
	if (!name && p->axis == PP_AXIS_TID && info && c->t.tgid >= 0 &&
	    c->t.tgid <= UINT32_MAX)
		name = pp_comms_thread(&info->comms, (uint32_t)c->t.tgid);
	if (name)
		fprintf(out, "%s (%s)\n", c->longname, name);
	else
		fprintf(out, "%s\n", c->longname);
}

void pp_report_header(FILE *out, const struct pp_profile *p,
		      const struct pp_session_info *info,
		      const struct pp_report_opts *o)
{
	size_t i;

	if (o->no_header || !p->nr_classes)
		return;
	cpu_line(out, p);
	if (p->axis != PP_AXIS_EVENT || p->nr_classes == 1)
		event_line(out, p, 0, info);
	if (info && info->run.fallback)
		/* the recorder: "operf" or "oprofiled", the first word of tool */
		fprintf(out, "Note: %.*s sampled with a software clock because %s\n",
			info->run.tool ? (int)strcspn(info->run.tool, " ") : 5,
			info->run.tool ? info->run.tool : "operf",
			info->run.fallback_reason ? info->run.fallback_reason :
			"the default hardware event could not count");
	if (info && info->run.kernel_excluded)
		fputs("Note: kernel samples were not recorded "
		      "(/proc/sys/kernel/perf_event_paranoid)\n", out);
	if (o->time_note)
		fprintf(out, "%s\n", o->time_note);
	for (i = 0; i < p->nr_classes; i++) {
		if (p->axis == PP_AXIS_EVENT && p->nr_classes > 1)
			event_line(out, p, i, info);
		else if (p->classes[i].longname && *p->classes[i].longname)
			class_line(out, p, i, info);
	}
}
