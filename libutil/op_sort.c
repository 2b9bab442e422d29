// SPDX-License-Identifier: GPL-2.0-or-later
/* LSD radix sort of key/value pairs (op_sort.h). */
#include "config.h"

#include <stdbool.h>

#include "libutil/op_sort.h"

#define SORT_BITS 11
#define SORT_BUCKETS (1u << SORT_BITS)

/* one stable counting pass over the digit at shift, from src into dst */
static void sort_pass(const struct op_kv *src, struct op_kv *dst, size_t n,
		      uint64_t min, unsigned shift)
{
	size_t count[SORT_BUCKETS] = { 0 }, sum = 0, i;

	for (i = 0; i < n; i++)
		count[((src[i].key - min) >> shift) & (SORT_BUCKETS - 1)]++;
	for (i = 0; i < SORT_BUCKETS; i++) {
		size_t c = count[i];

		count[i] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		dst[count[((src[i].key - min) >> shift) & (SORT_BUCKETS - 1)]++] = src[i];
}

struct op_kv *op_sort_kv(struct op_kv *v, struct op_kv *tmp, size_t n)
{
	uint64_t min = UINT64_MAX, max = 0;
	bool sorted = true;
	unsigned shift;
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i].key < min)
			min = v[i].key;
		if (v[i].key > max)
			max = v[i].key;
		if (i && v[i].key < v[i - 1].key)
			sorted = false;
	}
	if (sorted)
		return v;
	for (shift = 0; shift < 64 && (max - min) >> shift; shift += SORT_BITS) {
		struct op_kv *swap;

		sort_pass(v, tmp, n, min, shift);
		swap = v;
		v = tmp;
		tmp = swap;
	}
	return v;
}
