// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What report headers say of an event (opev.h, opev_describe()): its
 * description and its unit mask's, from libpfm4's tables for the PMU of
 * the recorded cpu type, whether or not this machine has that PMU, so a
 * session is described on any machine.
 */
#include "config.h"

#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "events/opev.h"
#include "events/opev_int.h"

/* the libpfm4 index of event in pmu, or -1 */
static int find_event(const pfm_pmu_info_t *pi, const char *event, pfm_event_info_t *ei)
{
	int e;

	for (e = pi->first_event; e != -1; e = pfm_get_event_next(e)) {
		memset(ei, 0, sizeof(*ei));
		ei->size = sizeof(*ei);
		if (pfm_get_event_info(e, PFM_OS_NONE, ei) == PFM_SUCCESS && ei->name &&
		    !strcasecmp(ei->name, event))
			return e;
	}
	return -1;
}

/* the description of unit mask um of event e: the last with that code */
static const char *um_desc(int e, const pfm_event_info_t *ei, uint32_t um)
{
	const char *desc = NULL;
	int i;

	for (i = 0; i < ei->nattrs; i++) {
		pfm_event_attr_info_t ai;

		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(e, i, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK && ai.code == um && ai.desc)
			desc = ai.desc;
	}
	return desc;
}

int opev_describe(uint32_t cpu_type, const char *event, uint32_t um, char *desc,
		  size_t desc_size, char *umdesc, size_t umdesc_size)
{
	const char *pmu = opev_cpu_pmu_name(cpu_type), *ud;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	int p, e;

	if (!pmu || pfm_initialize() != PFM_SUCCESS)
		return OPEV_ERR_UNKNOWN_EVENT;
	pfm_for_all_pmus(p) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.name || strcmp(pi.name, pmu))
			continue;
		e = find_event(&pi, event, &ei);
		if (e < 0)
			return OPEV_ERR_UNKNOWN_EVENT;
		snprintf(desc, desc_size, "%s", ei.desc ? ei.desc : "");
		ud = um_desc(e, &ei, um);
		snprintf(umdesc, umdesc_size, "%s",
			 ud ? ud : um ? "multiple flags" : "No unit mask");
		return 0;
	}
	return OPEV_ERR_UNKNOWN_EVENT;
}
