// SPDX-License-Identifier: GPL-2.0-or-later
/* op_sort_kv: against a stable reference sort, edge ranges, stability. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "libutil/op_sort.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	/* xorshift64*: reproducible without libc's rand() */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* reference: by key, then by value (values are the original positions) */
static int by_key_then_pos(const void *pa, const void *pb)
{
	const struct op_kv *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->value < b->value ? -1 : a->value > b->value;
}

/* sort n keys made by gen, check against the reference */
static void check(size_t n, uint64_t (*gen)(size_t i, size_t n))
{
	struct op_kv *v = calloc(n + 1, sizeof(*v));
	struct op_kv *tmp = calloc(n + 1, sizeof(*tmp));
	struct op_kv *ref = calloc(n + 1, sizeof(*ref));
	struct op_kv *out;
	size_t i;

	assert_non_null(v);
	assert_non_null(tmp);
	assert_non_null(ref);
	for (i = 0; i < n; i++) {
		v[i].key = gen(i, n);
		v[i].value = i;
		ref[i] = v[i];
	}
	qsort(ref, n, sizeof(*ref), by_key_then_pos);
	out = op_sort_kv(v, tmp, n);
	assert_true(out == v || out == tmp);
	for (i = 0; i < n; i++) {
		assert_true(out[i].key == ref[i].key);
		/* stable: equal keys keep their input order */
		assert_true(out[i].value == ref[i].value);
	}
	free(v);
	free(tmp);
	free(ref);
}

static uint64_t gen_random(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return rng();
}

static uint64_t gen_small_range(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return 0x400000 + rng() % 5000;	/* many duplicates */
}

static uint64_t gen_offsets(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return rng() % (100u << 20);
}

static uint64_t gen_reverse(size_t i, size_t n)
{
	return (uint64_t)(n - i) << 20;
}

static uint64_t gen_sorted(size_t i, size_t n)
{
	(void)n;
	return i * 3;
}

static uint64_t gen_equal(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return UINT64_MAX;
}

static uint64_t gen_extremes(size_t i, size_t n)
{
	(void)n;
	return i % 3 == 0 ? 0 : i % 3 == 1 ? UINT64_MAX : (uint64_t)1 << 63;
}

/* arc keys: (from << 32) | to */
static uint64_t gen_arcs(size_t i, size_t n)
{
	(void)i;
	(void)n;
	return ((rng() % 4000) << 32) | (rng() % 4000);
}

/* keys spanning exactly range_bits bits above a base */
static unsigned range_bits;

static uint64_t gen_range(size_t i, size_t n)
{
	uint64_t span = range_bits >= 64 ? UINT64_MAX :
			((uint64_t)1 << range_bits) - 1;

	(void)n;
	/* the first two keys pin the ends of the range */
	if (i < 2)
		return 0x1000 + (i ? span : 0);
	return 0x1000 + rng() % (span ? span : 1);
}

static void test_sizes(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 17, 2048, 2049, 50000 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check(sizes[i], gen_random);
		check(sizes[i], gen_small_range);
		check(sizes[i], gen_offsets);
	}
}

static void test_shapes(void **state)
{
	(void)state;
	check(10000, gen_reverse);
	check(10000, gen_sorted);
	check(10000, gen_equal);
	check(10000, gen_extremes);
	check(30000, gen_arcs);
}

/* ranges around the digit widths: one pass, two, three */
static void test_ranges(void **state)
{
	static const unsigned bits[] = { 1, 2, 12, 13, 14, 25, 26, 27, 39, 40, 52 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		range_bits = bits[i];
		check(3000, gen_range);
	}
}

/* sorted input comes back as it is, without passes */
static void test_sorted_in_place(void **state)
{
	struct op_kv v[4] = { { 1, 9 }, { 1, 8 }, { 5, 7 }, { 9, 6 } }, tmp[4];

	(void)state;
	assert_ptr_equal(op_sort_kv(v, tmp, 4), v);
	assert_true(v[0].value == 9 && v[1].value == 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_sorted_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
