/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SESSION/samples/NAME/stats/: what a recording lost, as OProfile 1.4's
 * operf writes it and its report tools read it, and which events the
 * kernel throttled.  One directory of small files:
 *
 *	stats/lost_CAUSE	one per counter below that is not zero: a
 *				decimal number (no newline when we write it;
 *				readers accept trailing blanks and newlines)
 *	stats/total_samples	the samples written to sample files, written
 *				only when some lost_* file is
 *	stats/throttled/EVENT	an empty file for each throttled event
 *
 * What the counters mean, defined here once for the writer (the daemon)
 * and the readers (the report tools):
 *
 *  - lost samples: samples the kernel took that are in no sample file
 *    (no mapping for the address, no process, a sample file that could not
 *    be written, records the kernel dropped, ...).  The samples taken are
 *    total_samples + the lost samples, and the share lost is the lost
 *    samples over that.
 *  - lost arcs: lost_bt_no_mapping counts call-graph arcs whose caller
 *    lies in no known mapping.  Those samples were written; only an arc of
 *    their call chain was not, so arcs are never counted as lost samples.
 *    (OProfile 1.4's reader adds every lost_* file into one figure.)
 *
 * Nothing here prints or exits; allocation failures are -ENOMEM.
 */
#ifndef ODB_STATS_H
#define ODB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_dir.h"

enum odb_stat_kind {
	ODB_STAT_KIND_TOTAL,		/* total_samples */
	ODB_STAT_KIND_LOST_SAMPLES,	/* samples in no sample file */
	ODB_STAT_KIND_LOST_ARCS,	/* call-graph arcs not written */
};

/*
 * The counter files: id, file name, kind, and what the lost ones were,
 * for messages.  OProfile 1.4's names and order, then ours.
 * lost_no_app_for_kernel_sample is OProfile's only: our daemon files
 * such samples under the kernel image.
 */
#define ODB_STATS							\
	ODB_STAT(TOTAL_SAMPLES, "total_samples", TOTAL, "written")	\
	ODB_STAT(LOST_INVALID_DOMAIN, "lost_invalid_domain", LOST_SAMPLES, \
		 "not from a user or kernel context")			\
	ODB_STAT(LOST_KERNEL, "lost_kernel", LOST_SAMPLES,		\
		 "at a kernel address in no kernel image")		\
	ODB_STAT(LOST_SAMPLEFILE, "lost_samplefile", LOST_SAMPLES,	\
		 "whose sample file could not be written")	\
	ODB_STAT(LOST_NO_MAPPING, "lost_no_mapping", LOST_SAMPLES,	\
		 "at an address in no mapping")				\
	ODB_STAT(LOST_NO_APP_KERNEL, "lost_no_app_for_kernel_sample",	\
		 LOST_SAMPLES, "in the kernel for no known process")	\
	ODB_STAT(LOST_NO_APP_USER, "lost_no_app_for_user_sample",	\
		 LOST_SAMPLES, "of an unknown process")			\
	ODB_STAT(LOST_BT_NO_MAPPING, "lost_bt_no_mapping", LOST_ARCS,	\
		 "call-graph arcs from no known mapping")		\
	ODB_STAT(LOST_HYPERVISOR, "lost_invalid_hypervisor_addr",	\
		 LOST_SAMPLES, "in the hypervisor")			\
	ODB_STAT(LOST_BY_KERNEL, "lost_records_by_kernel", LOST_SAMPLES, \
		 "dropped by the kernel (its buffers were full)")	\
	ODB_STAT(LOST_BAD_RECORDS, "lost_bad_records", LOST_SAMPLES,	\
		 "in malformed records")

enum odb_stat {
#define ODB_STAT(id, file, kind, what) ODB_STAT_##id,
	ODB_STATS
#undef ODB_STAT
	ODB_NR_STATS
};

/* the counters of one recording */
struct odb_stats {
	uint64_t count[ODB_NR_STATS];	/* 0 where the file is absent */
	bool present[ODB_NR_STATS];	/* the file exists and holds a number */
	char **throttled;		/* event names, sorted; owned */
	size_t nr_throttled;
};

/* the file name of a counter under stats/; NULL for an unknown one */
const char *odb_stat_file(enum odb_stat stat);

/* the kind of a counter (ODB_STAT_KIND_TOTAL for an unknown one) */
enum odb_stat_kind odb_stat_kind(enum odb_stat stat);

/*
 * The lost samples in one line for a warning, into sb: "L of T samples
 * (P%) were lost: N1 dropped by the kernel (...), N2 at an address in
 * no mapping", causes largest first; "L samples were lost: ..." when
 * total_samples is absent.  Nothing when no sample was lost.  operf's
 * summary and the report tools' warnings both say this.  0 or -ENOMEM.
 */
struct op_strbuf;
int odb_stats_describe_lost(const struct odb_stats *st, struct op_strbuf *sb);

/* the sum of the lost-sample counters (saturating at UINT64_MAX) */
uint64_t odb_stats_lost_samples(const struct odb_stats *st);

/* the sum of the lost-arc counters (saturating) */
uint64_t odb_stats_lost_arcs(const struct odb_stats *st);

/*
 * The samples taken: total_samples + the lost samples (saturating).
 * false when total_samples is absent (a session without lost samples, or
 * one whose writer left it out), and *taken is then the lost samples.
 */
bool odb_stats_taken(const struct odb_stats *st, uint64_t *taken);

/*
 * Parse the text of a counter file: decimal digits, then nothing but
 * blanks and newlines.  Returns 0 with *out set, or ODB_ERR_BAD_COUNTER.
 */
int odb_stats_parse_count(const char *text, size_t len, uint64_t *out);

/*
 * Write dir/stats/ (dir: the samples directory, samples/current): a file
 * for each lost counter that is not zero, total_samples when any is, and
 * throttled/EVENT for each of st->throttled (a name that is empty, starts
 * with '.' or holds a '/' is -EINVAL and nothing of it is written).
 * stats/ is created even when nothing else is written.  Each file is
 * written whole through a temporary file, never through a symlink
 * (op_dir.h).  present[] is not used.
 * Returns 0 or a negative errno (-ENOMEM included).
 */
int odb_stats_write(const struct op_dir *dir, const struct odb_stats *st);

/*
 * Read dir/stats/ into *st (cleared first).  A missing directory or file
 * leaves its counter 0 and not present; so does a counter file that is
 * unreadable or does not parse.  Names under stats/ that are not counters
 * above are ignored.  Returns 0 or -ENOMEM (then *st holds nothing to
 * release).  The caller releases *st with odb_stats_release().
 */
int odb_stats_read(const char *dir, struct odb_stats *st);

/* free the throttled names and clear *st; NULL is fine, so is twice */
void odb_stats_release(struct odb_stats *st);

#endif
