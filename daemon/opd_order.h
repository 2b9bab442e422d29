/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Putting the per-CPU record streams back into time order.
 *
 * Each CPU's ring buffer is (nearly) in time order, but the CPUs are read
 * one after the other, so a fork on CPU 1 can be read after the child's
 * first sample on CPU 0.  Records are queued per CPU (kept sorted) and
 * released in global time order by a k-way merge, up to a limit that is
 * safe: after a read round over all buffers, every record stamped before
 * the newest time seen in the previous round has been read (perf's
 * "finished round" rule), since it was written before that round ended.
 */
#ifndef OPD_ORDER_H
#define OPD_ORDER_H

#include <stddef.h>
#include <stdint.h>

struct opd_order_item {
	uint64_t time;
	uint64_t seq;		/* arrival order, breaks time ties */
	const void *rec;	/* a borrowed record, or NULL: copied to bytes */
	uint32_t off;		/* offset of a copied record in the queue's bytes */
	uint32_t len;
};

struct opd_order_queue {
	unsigned char *bytes;	/* records back to back */
	size_t bytes_len, bytes_alloc;
	struct opd_order_item *items;	/* sorted by (time, seq) */
	size_t first, nr, alloc;	/* items[first .. nr) are pending */
};

/* the function records are released to, in time order */
typedef void (*opd_order_fn)(void *data, const void *rec, size_t len);

struct opd_order {
	struct opd_order_queue *queues;	/* one per cpu */
	uint32_t nr_queues;
	uint64_t seq;
	uint64_t round_max;	/* newest time queued this round */
	uint64_t prev_round_max;	/* the same for the previous round */
	size_t *heap;		/* queue indexes, for the merge */
	opd_order_fn fn;
	void *data;
	size_t nr_pending;
};

void opd_order_init(struct opd_order *o, uint32_t nr_queues, opd_order_fn fn,
		    void *data);
void opd_order_release(struct opd_order *o);

/* queue a copy of one record of cpu (queue index) with its time */
void opd_order_add(struct opd_order *o, uint32_t cpu, const void *rec,
		   size_t len, uint64_t time);

/* the same without copying: rec must stay valid until it is released */
void opd_order_add_ref(struct opd_order *o, uint32_t cpu, const void *rec,
		       size_t len, uint64_t time);

/* release every queued record stamped at or before limit, in order */
void opd_order_flush(struct opd_order *o, uint64_t limit);

/* end of a read round: release what is safe now (see above) */
void opd_order_round(struct opd_order *o);

/* release everything queued */
void opd_order_flush_all(struct opd_order *o);

#endif
