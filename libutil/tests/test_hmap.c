// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * op_hmap against a reference model: random inserts, lookups and removals
 * (with colliding hashes) must agree with a plain array at every step.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "libutil/op_alloc.h"
#include "libutil/op_hmap.h"

#define N 5000

static int count_under(const struct op_hmap *m, uint64_t h, const void *val)
{
	struct op_hmap_iter it;
	void *p;
	int n = 0;

	for (p = op_hmap_first(m, h, &it); p; p = op_hmap_next(m, h, &it))
		if (p == val)
			n++;
	return n;
}

static int count_all(void *val, void *data)
{
	(void)val;
	(*(size_t *)data)++;
	return 0;
}

static void test_model(void **state)
{
	static int vals[N];
	static uint64_t hashes[N];
	static int present[N];
	struct op_hmap m = OP_HMAP_INIT;
	unsigned seed = 12345;
	size_t i, nr = 0, seen = 0;
	int step;

	(void)state;
	for (i = 0; i < N; i++)
		hashes[i] = (uint64_t)(i % 97) * 0x100000001ull;	/* many collide */
	for (step = 0; step < 100000; step++) {
		size_t k = (size_t)rand_r(&seed) % N;

		if (present[k] && rand_r(&seed) % 3 == 0) {
			assert_int_equal(op_hmap_remove(&m, hashes[k], &vals[k]), 0);
			present[k] = 0;
			nr--;
		} else if (!present[k]) {
			assert_int_equal(op_hmap_insert(&m, hashes[k], &vals[k]), 0);
			present[k] = 1;
			nr++;
		}
		if (step % 997 == 0)
			for (i = 0; i < N; i++)
				assert_int_equal(count_under(&m, hashes[i], &vals[i]), present[i]);
	}
	assert_int_equal(m.nr, nr);
	op_hmap_for_each(&m, count_all, &seen);
	assert_int_equal(seen, nr);
	assert_int_equal(op_hmap_remove(&m, 42, &vals[0]), -ENOENT);	/* 42: no such hash */
	op_hmap_release(&m);
	assert_null(op_hmap_first(&m, 1, &(struct op_hmap_iter){ 0 }));
	assert_int_equal(op_hmap_remove(&m, 1, &vals[0]), -ENOENT);
}

static void test_oom(void **state)
{
	struct op_hmap m = OP_HMAP_INIT;
	int v;

	(void)state;
	op_alloc_fail_at(1);
	assert_int_equal(op_hmap_insert(&m, 1, &v), -ENOMEM);
	op_alloc_fail_at(0);
	assert_int_equal(m.nr, 0);
	assert_int_equal(op_hmap_insert(&m, 1, &v), 0);
	op_hmap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_oom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
