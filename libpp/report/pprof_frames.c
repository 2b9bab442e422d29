// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Things in (bucket, key) order (report_int.h, struct pp_keyorder): the
 * pprof export's frames, ordered by image and address so that each
 * distinct (image, address) becomes one location, made in address order.
 * One radix sort of (bucket, key) packed into 64 bits, each bucket's
 * range of keys after the last one's; two (by key, then by bucket) when
 * the ranges do not fit 64 bits together.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

void pp_keyorder_init(struct pp_keyorder *o, size_t nr_buckets, size_t nr_items)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->nr_buckets = nr_buckets;
	o->alloc = nr_items;
	o->value = op_xcalloc(nr_items + 1, sizeof(*o->value));
	o->key = op_xcalloc(nr_items + 1, sizeof(*o->key));
	o->bucket = op_xcalloc(nr_items + 1, sizeof(*o->bucket));
	o->lo = op_xcalloc(nr_buckets + 1, sizeof(*o->lo));
	o->hi = op_xcalloc(nr_buckets + 1, sizeof(*o->hi));
	for (i = 0; i < nr_buckets; i++)
		o->lo[i] = UINT64_MAX;
}

void pp_keyorder_add(struct pp_keyorder *o, size_t bucket, uint64_t key, size_t value)
{
	size_t k = o->nr++;

	if (k == o->alloc) {
		o->alloc = o->alloc ? 2 * o->alloc : 4096;
		o->value = op_xreallocarray(o->value, o->alloc, sizeof(*o->value));
		o->key = op_xreallocarray(o->key, o->alloc, sizeof(*o->key));
		o->bucket = op_xreallocarray(o->bucket, o->alloc, sizeof(*o->bucket));
	}
	o->value[k] = value;
	o->bucket[k] = bucket;
	o->key[k] = key;
	if (key < o->lo[bucket])
		o->lo[bucket] = key;
	if (key > o->hi[bucket])
		o->hi[bucket] = key;
}

void pp_keyorder_sort(struct pp_keyorder *o)
{
	uint64_t sum = 0;
	size_t k;

	o->base = op_xcalloc(o->nr_buckets + 1, sizeof(*o->base));
	o->used = op_xcalloc(o->nr_buckets + 1, sizeof(*o->used));
	o->packed = true;
	for (k = 0; k < o->nr_buckets; k++) {
		uint64_t span = o->hi[k] - o->lo[k];

		if (o->hi[k] < o->lo[k])
			continue;		/* nothing there */
		o->used[o->nr_used++] = k;
		o->base[k] = sum;
		if (span >= UINT64_MAX - sum)
			o->packed = false;
		else
			sum += span + 1;
	}
	o->kv = op_xcalloc(o->nr + 1, sizeof(*o->kv));
	for (k = 0; k < o->nr; k++) {
		size_t b = o->bucket[k];

		/* packed, the keys tell bucket and key: the value goes along */
		o->kv[k].key = o->packed ? o->base[b] + (o->key[k] - o->lo[b]) : o->key[k];
		o->kv[k].value = o->packed ? o->value[k] : k;
	}
	if (o->packed) {
		/* not needed any more: their memory serves the sort's */
		free(o->value);
		free(o->key);
		free(o->bucket);
		o->value = o->key = NULL;
		o->bucket = NULL;
	}
	o->tmp = op_xcalloc(o->nr + 1, sizeof(*o->tmp));
	o->sorted = op_sort_kv(o->kv, o->tmp, o->nr);
	if (!o->packed) {
		struct op_kv *by_bucket = o->sorted == o->kv ? o->tmp : o->kv;

		for (k = 0; k < o->nr; k++) {
			by_bucket[k].key = o->bucket[o->sorted[k].value];
			by_bucket[k].value = o->sorted[k].value;
		}
		o->sorted = op_sort_kv(by_bucket, by_bucket == o->kv ? o->tmp : o->kv, o->nr);
	}
}

bool pp_keyorder_next(struct pp_keyorder *o, struct pp_keyorder_item *it)
{
	size_t i = o->next++, k;

	if (i >= o->nr)
		return false;
	k = o->sorted[i].value;
	if (!o->packed) {
		it->value = o->value[k];
		it->bucket = o->bucket[k];
		it->key = o->key[k];
		it->first = !i || it->bucket != o->bucket[o->sorted[i - 1].value] ||
			    it->key != o->key[o->sorted[i - 1].value];
	} else {
		it->value = k;
		it->first = !i || o->sorted[i].key != o->sorted[i - 1].key;
	}
	if (it->first && o->packed) {
		uint64_t key = o->sorted[i].key;

		/* packed keys tell both: the last bucket whose base is not above */
		while (o->at_used + 1 < o->nr_used && o->base[o->used[o->at_used + 1]] <= key)
			o->at_used++;
		it->bucket = o->used[o->at_used];
		it->key = key - o->base[it->bucket] + o->lo[it->bucket];
	}
	return true;
}

void pp_keyorder_release(struct pp_keyorder *o)
{
	free(o->value);
	free(o->key);
	free(o->bucket);
	free(o->lo);
	free(o->hi);
	free(o->base);
	free(o->used);
	free(o->kv);
	free(o->tmp);
}
