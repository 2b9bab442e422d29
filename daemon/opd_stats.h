/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Engine statistics: samples received, written and lost by cause, and
 * call-graph arcs recorded and lost.  The counters that go to stats/ map
 * onto libdb's (libdb/odb_stats.h), which names their files and says
 * which are lost samples and which lost arcs; the others are kept for
 * operf.log only.
 */
#ifndef OPD_STATS_H
#define OPD_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "libdb/odb_stats.h"

/* id, libdb counter (NONE: not in stats/), description for the log */
#define OPD_STATS							\
	OPD_STAT(SAMPLES, NONE, "samples received")			\
	OPD_STAT(STORED, TOTAL_SAMPLES, "samples written to sample files") \
	OPD_STAT(KERNEL_SAMPLES, NONE, "kernel samples")		\
	OPD_STAT(USER_SAMPLES, NONE, "user space samples")		\
	OPD_STAT(ARCS, NONE, "call graph arcs recorded")		\
	OPD_STAT(STACKS, NONE, "call stacks counted in the stack file") \
	OPD_STAT(LOST_STACKS, NONE,					\
		 "call stacks lost: stack file full or not writable")	\
	OPD_STAT(NOT_SELECTED, NONE,					\
		 "samples left out: of no --image binary")		\
	OPD_STAT(LOST_INVALID_DOMAIN, LOST_INVALID_DOMAIN,		\
		 "samples lost: not from a user or kernel context (guest)") \
	OPD_STAT(LOST_KERNEL, LOST_KERNEL,				\
		 "kernel samples lost: address in no kernel image")	\
	OPD_STAT(LOST_SAMPLEFILE, LOST_SAMPLEFILE,			\
		 "samples lost: sample file could not be written")	\
	OPD_STAT(LOST_NO_MAPPING, LOST_NO_MAPPING,			\
		 "samples lost: no mapping for the address")		\
	OPD_STAT(LOST_NO_APP_USER, LOST_NO_APP_USER,			\
		 "user samples lost: unknown process")			\
	OPD_STAT(LOST_BT_NO_MAPPING, LOST_BT_NO_MAPPING,		\
		 "call graph arcs lost: no mapping for a caller")	\
	OPD_STAT(LOST_ARC_SAMPLEFILE, NONE,				\
		 "call graph arcs lost: sample file could not be written") \
	OPD_STAT(LOST_HYPERVISOR, LOST_HYPERVISOR,			\
		 "hypervisor samples dropped")				\
	OPD_STAT(LOST_BY_KERNEL, LOST_BY_KERNEL,			\
		 "samples lost by the kernel (ring buffer full)")	\
	OPD_STAT(LOST_BAD_RECORD, LOST_BAD_RECORDS,			\
		 "records lost: malformed, or of an unknown event")

enum opd_stat {
#define OPD_STAT(id, odb, desc) OPD_STAT_##id,
	OPD_STATS
#undef OPD_STAT
	OPD_NR_STATS
};

struct opd_stats {
	uint64_t count[OPD_NR_STATS];
	uint64_t throttle_records;	/* THROTTLE records seen */
};

/* the description of a counter */
const char *opd_stat_desc(enum opd_stat stat);

/*
 * The counters as libdb's stats/ counters (st cleared first; no
 * throttled events), to write them or to ask libdb what was lost.
 */
void opd_stats_to_odb(const struct opd_stats *stats, struct odb_stats *st);

#endif
