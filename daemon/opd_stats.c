// SPDX-License-Identifier: GPL-2.0-or-later
/* Names and sums of the engine statistics (see opd_stats.h). */
#include "config.h"

#include <stddef.h>

#include "daemon/opd_stats.h"

static const char *const files[] = {
#define OPD_STAT(id, file, desc) [OPD_STAT_##id] = file,
	OPD_STATS
#undef OPD_STAT
};

static const char *const descs[] = {
#define OPD_STAT(id, file, desc) [OPD_STAT_##id] = desc,
	OPD_STATS
#undef OPD_STAT
};

const char *opd_stat_file(enum opd_stat stat)
{
	return stat < OPD_NR_STATS ? files[stat] : NULL;
}

const char *opd_stat_desc(enum opd_stat stat)
{
	return stat < OPD_NR_STATS ? descs[stat] : "";
}

uint64_t opd_stats_lost(const struct opd_stats *stats)
{
	uint64_t lost = 0;
	int i;

	for (i = OPD_FIRST_LOST; i < OPD_NR_STATS; i++)
		lost += stats->count[i];
	return lost;
}
