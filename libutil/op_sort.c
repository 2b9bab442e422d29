// SPDX-License-Identifier: GPL-2.0-or-later
/* LSD radix sort of key/value pairs (op_sort.h). */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "libutil/op_sort.h"

/*
 * Digits of at most 13 bits (a count array of 64 KiB, in L2), fewer for
 * fewer keys (a pass costs the keys plus the buckets), as few passes as
 * the range of the keys needs, and the bits spread evenly over them: 25
 * bits (a 30 MiB binary) take two passes of 13, not three of 11.
 */
#define SORT_MIN_BITS 8
#define SORT_MAX_BITS 13
#define SORT_MAX_BUCKETS (1u << SORT_MAX_BITS)

/* one stable counting pass over the digit at shift, from src into dst */
static void sort_pass(const struct op_kv *src, struct op_kv *dst, size_t n,
		      uint64_t min, unsigned shift, unsigned bits)
{
	const uint64_t mask = ((uint64_t)1 << bits) - 1;
	const size_t buckets = (size_t)1 << bits;
	size_t count[SORT_MAX_BUCKETS], sum = 0, i;

	memset(count, 0, buckets * sizeof(count[0]));
	for (i = 0; i < n; i++)
		count[((src[i].key - min) >> shift) & mask]++;
	for (i = 0; i < buckets; i++) {
		size_t c = count[i];

		count[i] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		dst[count[((src[i].key - min) >> shift) & mask]++] = src[i];
}

struct op_kv *op_sort_kv(struct op_kv *v, struct op_kv *tmp, size_t n)
{
	uint64_t min = UINT64_MAX, max = 0;
	unsigned range_bits = 0, max_bits = SORT_MIN_BITS, passes, bits, shift;
	bool sorted = true;
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
	while (range_bits < 64 && (max - min) >> range_bits)
		range_bits++;
	while (max_bits < SORT_MAX_BITS && ((size_t)1 << max_bits) < n)
		max_bits++;
	passes = (range_bits + max_bits - 1) / max_bits;
	bits = (range_bits + passes - 1) / passes;
	for (shift = 0; shift < range_bits; shift += bits) {
		struct op_kv *swap;

		sort_pass(v, tmp, n, min, shift, bits);
		swap = v;
		v = tmp;
		tmp = swap;
	}
	return v;
}
