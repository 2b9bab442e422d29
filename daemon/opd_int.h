/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine's state, shared by its modules in daemon/; nothing else. */
#ifndef OPD_INT_H
#define OPD_INT_H

#include "daemon/opd_comm.h"
#include "daemon/opd_engine.h"
#include "daemon/opd_image.h"
#include "daemon/opd_jit.h"
#include "daemon/opd_kernel.h"
#include "daemon/opd_ns.h"
#include "daemon/opd_order.h"
#include "daemon/opd_proc.h"
#include "daemon/opd_record.h"
#include "daemon/opd_sfile.h"
#include "daemon/opd_slices.h"
#include "daemon/opd_stacks.h"
#include "daemon/opd_stats.h"
#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

#define OPD_ID_CACHE 64

struct opd_id_map {
	uint64_t id;
	uint32_t event;
};

struct opd_engine {
	struct opd_engine_config cfg;
	struct opd_images images;
	struct opd_procs procs;
	struct opd_comms comms;		/* names of processes and threads */
	struct opd_kernel kernel;
	struct opd_sfiles sfiles;
	struct opd_order order;
	struct opd_stats stats;
	struct opd_id_map *ids;		/* sorted by id */
	size_t nr_ids;
	struct opd_id_map id_cache[OPD_ID_CACHE];	/* id % size -> event */
	uint64_t next_reap;		/* record time of the next reaping */
	bool *throttled;		/* per event */
	uint64_t now;			/* time of the record being processed */
	struct op_strbuf ns_rec;	/* an MMAP2 record with its path fixed */
	struct opd_jit_dumps jitdumps;	/* the jitdump files processes mapped */
	struct opd_stacks stacks;	/* whole call stacks (--callgraph) */
	struct opd_slices slices;	/* time slices (cfg.slice_ns) */
};

/* the event index of a perf id, or UINT32_MAX if unknown */
uint32_t opd_engine_event_of(struct opd_engine *e, uint64_t id);

/* a PERF_RECORD_SAMPLE, decoded (opd_trans.c) */
void opd_trans_sample(struct opd_engine *e, const struct opd_record *rec);

#endif
