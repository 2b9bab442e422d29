// SPDX-License-Identifier: GPL-2.0-or-later
/* Time ordering of per-CPU record streams (see opd_order.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "daemon/opd_order.h"
#include "libutil/op_alloc.h"

void opd_order_init(struct opd_order *o, uint32_t nr_queues, opd_order_fn fn,
		    void *data)
{
	memset(o, 0, sizeof(*o));
	o->nr_queues = nr_queues ? nr_queues : 1;
	o->queues = op_xcalloc(o->nr_queues, sizeof(*o->queues));
	o->heap = op_xcalloc(o->nr_queues, sizeof(*o->heap));
	o->fn = fn;
	o->data = data;
}

void opd_order_release(struct opd_order *o)
{
	uint32_t i;

	if (!o || !o->queues)
		return;
	for (i = 0; i < o->nr_queues; i++) {
		free(o->queues[i].bytes);
		free(o->queues[i].items);
	}
	free(o->queues);
	free(o->heap);
	memset(o, 0, sizeof(*o));
}

static int item_before(const struct opd_order_item *a,
		       const struct opd_order_item *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* drop released records from the front once they are half the queue */
static void compact(struct opd_order_queue *q)
{
	size_t i, base;

	if (q->first == q->nr) {
		q->first = q->nr = 0;
		q->bytes_len = 0;
		return;
	}
	if (q->first < q->nr / 2 || q->first < 64)
		return;
	base = q->bytes_len;
	for (i = q->first; i < q->nr; i++)
		if (!q->items[i].rec && q->items[i].off < base)
			base = q->items[i].off;
	if (base) {	/* copied records behind the pending ones: drop them */
		memmove(q->bytes, q->bytes + base, q->bytes_len - base);
		q->bytes_len -= base;
	}
	memmove(q->items, q->items + q->first, (q->nr - q->first) * sizeof(*q->items));
	q->nr -= q->first;
	q->first = 0;
	for (i = 0; base && i < q->nr; i++)
		if (!q->items[i].rec)
			q->items[i].off -= (uint32_t)base;
}

/* append item to q, keeping the pending items in (time, seq) order */
static void insert(struct opd_order *o, struct opd_order_queue *q,
		   struct opd_order_item *item)
{
	size_t i;

	if (q->nr == q->alloc) {
		q->alloc = q->alloc ? q->alloc * 2 : 1024;
		q->items = op_xreallocarray(q->items, q->alloc, sizeof(*q->items));
	}
	item->seq = o->seq++;
	/* almost always in order already; otherwise insert in place */
	i = q->nr;
	while (i > q->first && item_before(item, &q->items[i - 1])) {
		q->items[i] = q->items[i - 1];
		i--;
	}
	q->items[i] = *item;
	q->nr++;
	o->nr_pending++;
	if (item->time > o->round_max)
		o->round_max = item->time;
}

static struct opd_order_queue *queue_of(struct opd_order *o, uint32_t cpu)
{
	return &o->queues[cpu < o->nr_queues ? cpu : 0];
}

void opd_order_add(struct opd_order *o, uint32_t cpu, const void *rec,
		   size_t len, uint64_t time)
{
	struct opd_order_queue *q = queue_of(o, cpu);
	struct opd_order_item item = { .time = time, .len = (uint32_t)len };

	if (q->bytes_len + len > q->bytes_alloc) {
		size_t alloc = q->bytes_alloc ? q->bytes_alloc : 65536;

		while (alloc < q->bytes_len + len)
			alloc *= 2;
		q->bytes = op_xrealloc(q->bytes, alloc);
		q->bytes_alloc = alloc;
	}
	memcpy(q->bytes + q->bytes_len, rec, len);
	item.off = (uint32_t)q->bytes_len;
	q->bytes_len += len;
	insert(o, q, &item);
}

void opd_order_add_ref(struct opd_order *o, uint32_t cpu, const void *rec,
		       size_t len, uint64_t time)
{
	struct opd_order_item item = { .time = time, .rec = rec, .len = (uint32_t)len };

	insert(o, queue_of(o, cpu), &item);
}

/* min-heap of queue indexes by their first pending item */
static const struct opd_order_item *head(const struct opd_order *o, size_t qi)
{
	const struct opd_order_queue *q = &o->queues[qi];

	return &q->items[q->first];
}

static void sift_down(struct opd_order *o, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;

		if (l < n && item_before(head(o, o->heap[l]), head(o, o->heap[m])))
			m = l;
		if (l + 1 < n && item_before(head(o, o->heap[l + 1]), head(o, o->heap[m])))
			m = l + 1;
		if (m == i)
			return;
		t = o->heap[i];
		o->heap[i] = o->heap[m];
		o->heap[m] = t;
		i = m;
	}
}

void opd_order_flush(struct opd_order *o, uint64_t limit)
{
	size_t n = 0, i;

	if (!o->nr_pending)
		return;
	for (i = 0; i < o->nr_queues; i++) {
		struct opd_order_queue *q = &o->queues[i];

		if (q->first < q->nr && q->items[q->first].time <= limit)
			o->heap[n++] = i;
	}
	for (i = n / 2; i-- > 0;)
		sift_down(o, n, i);
	while (n) {
		struct opd_order_queue *q = &o->queues[o->heap[0]];
		const struct opd_order_item *it = &q->items[q->first];

		o->fn(o->data, it->rec ? it->rec : q->bytes + it->off, it->len);
		q->first++;
		o->nr_pending--;
		if (q->first == q->nr || q->items[q->first].time > limit) {
			o->heap[0] = o->heap[--n];
			sift_down(o, n, 0);
			continue;
		}
		/* still first unless a child queue's head is now earlier */
		if ((n > 1 && item_before(head(o, o->heap[1]), &q->items[q->first])) ||
		    (n > 2 && item_before(head(o, o->heap[2]), &q->items[q->first])))
			sift_down(o, n, 0);
	}
	for (i = 0; i < o->nr_queues; i++)
		compact(&o->queues[i]);
}

void opd_order_round(struct opd_order *o)
{
	opd_order_flush(o, o->prev_round_max);
	o->prev_round_max = o->round_max;
}

void opd_order_flush_all(struct opd_order *o)
{
	opd_order_flush(o, UINT64_MAX);
	o->prev_round_max = o->round_max;
}
