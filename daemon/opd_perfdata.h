/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the files perf record writes (perf.data), for opimport
 * --perf-data: untrusted input, checked in full before anything is made
 * of it.
 *
 * Both forms perf 6.x writes, little-endian, native layout (a file of
 * the other byte order is refused):
 *
 * file mode (perf record -o FILE):
 *	struct header	magic "PERFILE2", size (104), attr_size,
 *			attrs, data, event_types (offset/size pairs),
 *			adds_features bitmap (256 bits)
 *	attrs section	[perf_event_attr (attr_size bytes) + ids section]...
 *	data section	perf_event records back to back
 *	feature table	one offset/size pair per bit set in adds_features,
 *			in bit order, right after the data section
 * pipe mode (perf record -o -):
 *	magic "PERFILE2", size 16, then records only: the attrs come as
 *	PERF_RECORD_HEADER_ATTR (attr + ids), the features as
 *	PERF_RECORD_HEADER_FEATURE, before the samples that use them.
 *
 * The records are the kernel's (PERF_RECORD_SAMPLE, MMAP, MMAP2, COMM,
 * FORK, EXIT, LOST, THROTTLE, ...) as each attr's sample_type lays them
 * out, and perf's own (type >= 64): FINISHED_ROUND ends a read round;
 * TRACING_DATA and AUXTRACE carry payloads after the record, skipped;
 * the others are skipped by their size; COMPRESSED (perf record -z) is
 * refused.
 *
 * Replaying gives the engine's records: each kernel record the engine
 * uses is rewritten with OPD_SAMPLE_TYPE (plus PERF_SAMPLE_CALLCHAIN when
 * an attr has call chains) and sample_id_all, with the attr's index as
 * its event id, so attrs of different sample types, and recordings
 * without sample ids, cpus or periods, all reach the engine alike.
 * perf's LOST_SAMPLES (samples the kernel dropped, counted by perf)
 * becomes a LOST record, which the engine counts as lost samples.
 */
#ifndef OPD_PERFDATA_H
#define OPD_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_error.h"

/* the queues replayed records are spread over (engine nr_cpus) */
#define OPD_PERFDATA_QUEUES 64u

struct opd_perfdata_info {
	bool pipe;				/* pipe mode */
	const struct perf_event_attr *attrs;	/* zero-extended copies */
	size_t nr_attrs;
	uint64_t sample_type;			/* of the replayed records */
	const char *hostname;			/* "" when the file has none */
	const char *osrelease;			/* "" when none */
	const char *cmdline;			/* perf's command line, or "" */
	uint64_t kernel_text;			/* where perf saw the kernel's
						 * text ([kernel.kallsyms]_text
						 * mapping), 0 if it did not */
	uint64_t nr_samples;			/* PERF_RECORD_SAMPLE records */
	uint64_t nr_dropped;			/* samples of no known attr */
};

struct opd_perfdata;

/*
 * Check the size bytes at data (borrowed: must stay valid and unchanged
 * until opd_perfdata_free()) as a perf.data file or pipe: header, attrs,
 * every record, the features used.  Returns 0 with *pd set, or -EINVAL
 * (not perf.data, truncated, corrupt: err says what and at which
 * offset), -ENOTSUP (byte order, version, compression or a sample
 * layout not handled: err says which), -ENOMEM.
 */
int opd_perfdata_open(const void *data, size_t size, struct opd_perfdata **pd,
		      struct op_err *err);

/* what the recording holds; borrowed until opd_perfdata_free() */
const struct opd_perfdata_info *opd_perfdata_info(const struct opd_perfdata *pd);

/* where replayed records go */
struct opd_perfdata_sink {
	/* len bytes of whole records, copied by the callee before returning */
	void (*queue)(void *arg, uint32_t queue_idx, const void *recs, size_t len);
	/* the end of one of perf's read rounds */
	void (*round)(void *arg);
	void *arg;
};

/*
 * Give every record, rewritten for the engine (see above), to sink in
 * file order.  Cannot fail: opd_perfdata_open() checked everything.
 */
void opd_perfdata_replay(struct opd_perfdata *pd, const struct opd_perfdata_sink *sink);

/* NULL is fine */
void opd_perfdata_free(struct opd_perfdata *pd);

#endif
