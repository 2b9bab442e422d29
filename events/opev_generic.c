// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf's generic event names (cycles, instructions, cpu-clock, ...).
 * They are encoded from this table, not by libpfm4, so they work whatever
 * PMU libpfm4 sees (also under LIBPFM_FORCE_PMU, which hides libpfm4's
 * "perf" PMU).  For OProfile's sample-file header each generic hardware
 * event lists the core PMU events that count the same thing, in the
 * spellings of the PMUs libpfm4 knows: the first one the machine's core
 * PMU has gives the event code.
 */
#include "config.h"

#include <linux/perf_event.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "events/opev_int.h"

_Static_assert(OPEV_TYPE_HARDWARE == PERF_TYPE_HARDWARE, "perf ABI");
_Static_assert(OPEV_TYPE_SOFTWARE == PERF_TYPE_SOFTWARE, "perf ABI");
_Static_assert(OPEV_TYPE_TRACEPOINT == PERF_TYPE_TRACEPOINT, "perf ABI");
_Static_assert(OPEV_TYPE_HW_CACHE == PERF_TYPE_HW_CACHE, "perf ABI");
_Static_assert(OPEV_TYPE_RAW == PERF_TYPE_RAW, "perf ABI");

/* Intel architectural, AMD, then ARMv8 and POWER spellings */
static const char *const cycles_equiv[] = {
	"UNHALTED_CORE_CYCLES", "CYCLES_NOT_IN_HALT", "CPU_CLK_UNHALTED",
	"CPU_CYCLES", "PM_CYC", NULL,
};
static const char *const instructions_equiv[] = {
	"INSTRUCTION_RETIRED", "RETIRED_INSTRUCTIONS", "INST_RETIRED",
	"PM_INST_CMPL", NULL,
};
static const char *const cache_refs_equiv[] = {
	"LLC_REFERENCES", "LONGEST_LAT_CACHE:REFERENCE", NULL,
};
static const char *const cache_misses_equiv[] = {
	"LLC_MISSES", "LONGEST_LAT_CACHE:MISS", NULL,
};
static const char *const branches_equiv[] = {
	"BRANCH_INSTRUCTIONS_RETIRED", "RETIRED_BRANCH_INSTRUCTIONS",
	"BR_INST_RETIRED:ALL_BRANCHES", "BR_RETIRED", NULL,
};
static const char *const branch_misses_equiv[] = {
	"MISPREDICTED_BRANCH_RETIRED",
	"RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS",
	"RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	"BR_MISP_RETIRED:ALL_BRANCHES", "BR_MIS_PRED_RETIRED", NULL,
};

#define HW(n, c, d, e)							\
	{ .name = n, .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_##c, \
	  .pfm_name = "perf::PERF_COUNT_HW_" #c, .desc = d, .equiv = e }
#define CLOCK(n, c, d)							\
	{ .name = n, .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_##c, \
	  .pfm_name = "perf::PERF_COUNT_SW_" #c, .desc = d, .is_clock = true }

static const struct opev_generic generic[] = {
	HW("cycles", CPU_CYCLES, "CPU cycles", cycles_equiv),
	HW("cpu-cycles", CPU_CYCLES, "CPU cycles", cycles_equiv),
	HW("instructions", INSTRUCTIONS, "instructions retired",
	   instructions_equiv),
	HW("cache-references", CACHE_REFERENCES, "last-level cache accesses",
	   cache_refs_equiv),
	HW("cache-misses", CACHE_MISSES, "last-level cache misses",
	   cache_misses_equiv),
	HW("branch-instructions", BRANCH_INSTRUCTIONS, "branches retired",
	   branches_equiv),
	HW("branches", BRANCH_INSTRUCTIONS, "branches retired",
	   branches_equiv),
	HW("branch-misses", BRANCH_MISSES, "mispredicted branches retired",
	   branch_misses_equiv),
	HW("bus-cycles", BUS_CYCLES, "bus cycles", NULL),
	HW("stalled-cycles-frontend", STALLED_CYCLES_FRONTEND,
	   "cycles stalled in the front end", NULL),
	HW("stalled-cycles-backend", STALLED_CYCLES_BACKEND,
	   "cycles stalled in the back end", NULL),
	HW("ref-cycles", REF_CPU_CYCLES, "reference cycles", NULL),
	CLOCK("cpu-clock", CPU_CLOCK, "CPU time clock"),
	CLOCK("task-clock", TASK_CLOCK, "task time clock"),
};

#define NR_GENERIC (sizeof(generic) / sizeof(generic[0]))

const struct opev_generic *opev_generic_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < NR_GENERIC; i++)
		if (!strcmp(generic[i].name, name))
			return &generic[i];
	return NULL;
}

const struct opev_generic *opev_generic_by_config(uint32_t type,
						  uint64_t config)
{
	size_t i;

	for (i = 0; i < NR_GENERIC; i++)
		if (generic[i].type == type && generic[i].config == config)
			return &generic[i];
	return NULL;
}

/*
 * OProfile names its cycles event CPU_CLK_UNHALTED on x86; libpfm4 has it
 * under that name on some PMUs only (Intel maps it to a model event, AMD
 * Zen calls it CYCLES_NOT_IN_HALT, Goldmont's encodes as event 0).  The
 * architectural spellings come first so the code matches OProfile's.
 */
const char *const *opev_generic_alias(const char *name)
{
	if (!strcasecmp(name, "CPU_CLK_UNHALTED"))
		return cycles_equiv;
	return NULL;
}

/* a == b ignoring case, '_' matching '-'; b may stop at a ':' of its
 * own (an equivalent's unit mask) when a has none */
static bool same_name(const char *a, const char *b, bool b_base)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return !*a && (!*b || (b_base && *b == ':'));
}

bool opev_counts_as(const char *event, const char *perf_name)
{
	const struct opev_generic *g = NULL;
	size_t i, k;

	if (!event || !perf_name)
		return false;
	if (same_name(event, perf_name, false))
		return true;
	for (i = 0; i < NR_GENERIC && !g; i++)
		if (same_name(perf_name, generic[i].name, false))
			g = &generic[i];
	if (!g || !g->equiv)
		return false;
	for (k = 0; g->equiv[k]; k++)
		if (same_name(event, g->equiv[k], true))
			return true;
	return false;
}
