/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Choosing operf's events: the ones given with --events, parsed and
 * encoded, or the cpu's default, falling back to the cpu-clock software
 * event when no hardware PMU can count (most VMs).
 */
#ifndef OPERF_EVENTS_H
#define OPERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "events/opev.h"

struct operf_events {
	struct opev_event *events;
	size_t nr;
	bool fallback;			/* the default fell back to cpu-clock */
	char fallback_reason[256];	/* why, for the notice and session.info */
};

/*
 * Fill evs from the --events list (NULL: the default).  Returns 0, 2 for
 * a bad specification or unknown event, 1 when an event exists but cannot
 * be opened here; the message (and hint) has been printed.
 */
int operf_events_choose(struct operf_events *evs, const char *list);
/*
 * The same for ocount's --events list, whose items have no count
 * (NAME[:unitmask[:kernel[:user]]]); the periods are the events'
 * defaults and mean nothing when counting.
 */
int operf_events_choose_counting(struct operf_events *evs, const char *list);
void operf_events_release(struct operf_events *evs);

/*
 * Fill evs from the --events list as operf_events_choose() does, but
 * without trying to open them: for ophelp --cpu-type, whose events are
 * another machine's.  Returns 0 or 2 (message printed).
 */
int operf_events_encode(struct operf_events *evs, const char *list);

/*
 * Several --events add up (-e A -e B is -e A,B, as with perf): list
 * (may be NULL) joined with more.  Takes both malloc'd strings and
 * returns the joined one, which the caller frees.
 */
char *operf_events_join(char *list, char *more);

/*
 * Print the events usable here to out, for opcontrol --list-events and
 * ophelp: the software clocks with their period limits, then the
 * hardware events of this cpu, or why there are none (no hardware PMU:
 * cpu-clock is used instead).  Returns 0, or 1 after printing an error.
 */
int operf_events_list(FILE *out);

/*
 * Print the software clocks, then the hardware events libpfm4's tables
 * have for cpu_type, not tried here (ophelp --cpu-type: the caller has
 * set LIBPFM_FORCE_PMU to opev_cpu_pmu_name(cpu_type) before libpfm4
 * started), or that it has none.  Returns 0, or 1 after an error.
 */
int operf_events_list_tables(FILE *out, uint32_t cpu_type);

#endif
