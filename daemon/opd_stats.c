// SPDX-License-Identifier: GPL-2.0-or-later
/* Descriptions and libdb names of the engine statistics (see opd_stats.h). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "daemon/opd_stats.h"

/* a counter that has no file under stats/ */
#define ODB_STAT_NONE ODB_NR_STATS

static const int odb_of[] = {
#define OPD_STAT(id, odb, desc) [OPD_STAT_##id] = ODB_STAT_##odb,
	OPD_STATS
#undef OPD_STAT
};

static const char *const descs[] = {
#define OPD_STAT(id, odb, desc) [OPD_STAT_##id] = desc,
	OPD_STATS
#undef OPD_STAT
};

const char *opd_stat_desc(enum opd_stat stat)
{
	return (unsigned)stat < OPD_NR_STATS ? descs[stat] : "";
}

void opd_stats_to_odb(const struct opd_stats *stats, struct odb_stats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < OPD_NR_STATS; i++) {
		if (odb_of[i] == ODB_STAT_NONE)
			continue;
		st->count[odb_of[i]] += stats->count[i];
		st->present[odb_of[i]] = true;
	}
}
