/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_events records as the engine sees them.  Every perf event we open
 * has the same sample_type (OPD_SAMPLE_TYPE, plus PERF_SAMPLE_CALLCHAIN
 * with call graphs) and sample_id_all, so every record carries its event
 * id, pid/tid, time and cpu at known places.  opd_record_decode() checks a
 * raw record against its size before reading any field: records may come
 * from a recorded stream file, which is untrusted input.
 */
#ifndef OPD_RECORD_H
#define OPD_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_strbuf.h"

#define OPD_SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* perf_event_header plus body; records are at most 64 KiB (u16 size) */
#define OPD_RECORD_MAX 65536u

/* the fields of interest of any record we handle */
struct opd_record {
	uint32_t type;			/* PERF_RECORD_* */
	uint16_t misc;			/* PERF_RECORD_MISC_* */
	uint64_t id;			/* event id (sample identifier) */
	uint32_t pid, tid;		/* of the sample, or the sample_id */
	uint64_t time;			/* perf clock, ns */
	uint32_t cpu;
	union {
		struct {		/* PERF_RECORD_SAMPLE */
			uint64_t ip;
			uint64_t period;
			uint64_t nr_chain;	/* callchain entries */
			const uint64_t *chain;	/* in the record; unaligned ok */
		} sample;
		struct {		/* PERF_RECORD_MMAP2 (and MMAP) */
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint32_t prot, flags;
			const char *filename;	/* NUL-terminated, in the record */
		} mmap;
		struct {		/* PERF_RECORD_COMM */
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {		/* PERF_RECORD_FORK / PERF_RECORD_EXIT */
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task;
		struct {		/* PERF_RECORD_LOST */
			uint64_t id, lost;
		} lost;
		struct {		/* PERF_RECORD_THROTTLE / UNTHROTTLE */
			uint64_t time, id, stream_id;
		} throttle;
	} u;
};

/*
 * Decode the record at data (len bytes, len == header.size) taken with
 * sample_type.  Returns 0; -EINVAL for a record too short for its fields,
 * a callchain longer than the record, or a string without its NUL;
 * -ENOTSUP for a record type we do not use (the caller skips it).
 */
int opd_record_decode(const void *data, size_t len, uint64_t sample_type,
		      struct opd_record *rec);

/*
 * The time of a raw record, from the sample body or the sample_id trailer,
 * without decoding the rest; 0 when the record is too short to hold one.
 */
uint64_t opd_record_time(const void *data, size_t len, uint64_t sample_type);

/*
 * Append to out the MMAP2 record at data (len bytes) with filename in
 * place of its path; every other field, and the sample_id trailer, stay
 * as they were.  Returns 0; -EINVAL when data is not a whole MMAP2
 * record, -ENAMETOOLONG when the new record would pass OPD_RECORD_MAX,
 * -ENOMEM (out failed).
 */
int opd_record_mmap2_rename(const void *data, size_t len, const char *filename,
			    struct op_strbuf *out);

/* the callchain marker values (PERF_CONTEXT_*) are all >= this */
#define OPD_CONTEXT_MIN ((uint64_t)-4095)

#endif
