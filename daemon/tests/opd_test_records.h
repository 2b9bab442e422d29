/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building perf records for engine tests, laid out as the kernel writes
 * them for OPD_SAMPLE_TYPE (plus PERF_SAMPLE_CALLCHAIN when chain is
 * given) with sample_id_all.  Each appends one record to sb.
 */
#ifndef OPD_TEST_RECORDS_H
#define OPD_TEST_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "libutil/op_strbuf.h"

void rec_comm(struct op_strbuf *sb, uint32_t pid, uint32_t tid, const char *comm,
	      int exec, uint64_t time);
void rec_mmap2(struct op_strbuf *sb, uint32_t pid, uint64_t start, uint64_t len,
	       uint64_t pgoff, uint64_t ino, const char *file, uint64_t time);
void rec_fork(struct op_strbuf *sb, uint32_t pid, uint32_t ppid, uint32_t tid,
	      uint64_t time);
void rec_exit(struct op_strbuf *sb, uint32_t pid, uint32_t tid, uint64_t time);
void rec_lost(struct op_strbuf *sb, uint64_t id, uint64_t lost, uint64_t time);
void rec_throttle(struct op_strbuf *sb, uint64_t id, uint64_t time);
/* misc: PERF_RECORD_MISC_USER or _KERNEL; chain may be NULL */
void rec_sample(struct op_strbuf *sb, uint64_t id, uint32_t pid, uint32_t tid,
		uint32_t cpu, uint16_t misc, uint64_t ip, uint64_t time,
		const uint64_t *chain, size_t nr_chain);

#endif
