/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Engine statistics: samples received and lost by cause, with the file
 * names OProfile 1.4 uses under SESSION/samples/current/stats/
 * (formats.md §1.1), and which events the kernel throttled.
 */
#ifndef OPD_STATS_H
#define OPD_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* name in stats/ (NULL: not written there), description for the log */
#define OPD_STATS							\
	OPD_STAT(SAMPLES, NULL, "samples received")			\
	OPD_STAT(KERNEL_SAMPLES, NULL, "kernel samples")		\
	OPD_STAT(USER_SAMPLES, NULL, "user space samples")		\
	OPD_STAT(ARCS, NULL, "call graph arcs recorded")		\
	OPD_STAT(LOST_INVALID_DOMAIN, "lost_invalid_domain",		\
		 "samples lost: not from a user or kernel context (guest)") \
	OPD_STAT(LOST_KERNEL, "lost_kernel",				\
		 "kernel samples lost: address in no kernel image")	\
	OPD_STAT(LOST_SAMPLEFILE, "lost_samplefile",			\
		 "samples lost: sample file could not be written")	\
	OPD_STAT(LOST_NO_MAPPING, "lost_no_mapping",			\
		 "samples lost: no mapping for the address")		\
	OPD_STAT(LOST_NO_APP_USER, "lost_no_app_for_user_sample",	\
		 "user samples lost: unknown process")			\
	OPD_STAT(LOST_BT_NO_MAPPING, "lost_bt_no_mapping",		\
		 "call graph arcs lost: no mapping for a caller")	\
	OPD_STAT(LOST_HYPERVISOR, "lost_invalid_hypervisor_addr",	\
		 "hypervisor samples dropped")				\
	OPD_STAT(LOST_BY_KERNEL, "lost_records_by_kernel",		\
		 "samples lost by the kernel (ring buffer full)")	\
	OPD_STAT(LOST_BAD_RECORD, "lost_bad_records",			\
		 "records lost: malformed, or of an unknown event")

enum opd_stat {
#define OPD_STAT(id, file, desc) OPD_STAT_##id,
	OPD_STATS
#undef OPD_STAT
	OPD_NR_STATS
};

#define OPD_FIRST_LOST OPD_STAT_LOST_INVALID_DOMAIN

struct opd_stats {
	uint64_t count[OPD_NR_STATS];
	uint64_t throttle_records;	/* THROTTLE records seen */
};

/* the stats/ file name of a counter, NULL if it has none */
const char *opd_stat_file(enum opd_stat stat);
/* the description of a counter */
const char *opd_stat_desc(enum opd_stat stat);

/* samples lost for any reason */
uint64_t opd_stats_lost(const struct opd_stats *stats);

#endif
