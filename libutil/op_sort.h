/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sorting 64-bit keys with a payload, without comparisons: an LSD radix
 * sort.  Sample keys and symbol starts are sorted this way; a comparison
 * sort costs several times as much on tens of thousands of them.
 */
#ifndef OP_SORT_H
#define OP_SORT_H

#include <stddef.h>
#include <stdint.h>

struct op_kv {
	uint64_t key;
	uint64_t value;
};

/*
 * Sort v[0..n) by key, stably (equal keys keep their order), using tmp
 * (n elements) as scratch.  Passes of up to 13 bits (fewer for fewer
 * keys) cover only the range max - min of the keys, so 100 000 keys
 * spread over 30 MiB take two.
 * Returns the sorted array: v or tmp.
 */
struct op_kv *op_sort_kv(struct op_kv *v, struct op_kv *tmp, size_t n);

#endif
