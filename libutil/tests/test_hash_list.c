// SPDX-License-Identifier: GPL-2.0-or-later
/* op_hash and op_list: known FNV-1a values, spread, list operations. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "libutil/op_hash.h"
#include "libutil/op_list.h"

static void test_fnv(void **state)
{
	(void)state;
	/* published FNV-1a 64-bit test vectors */
	assert_true(op_hash_str("") == 0xcbf29ce484222325ULL);
	assert_true(op_hash_str("a") == 0xaf63dc4c8601ec8cULL);
	assert_true(op_hash_str("foobar") == 0x85944171f73967e8ULL);
	assert_true(op_hash_bytes(OP_FNV_OFFSET, "foobar", 6) == op_hash_str("foobar"));
}

static void test_u64_spread(void **state)
{
	unsigned buckets[64] = { 0 };
	uint64_t i;

	(void)state;
	/* consecutive keys land evenly in the low bits */
	for (i = 0; i < 64 * 100; i++)
		buckets[op_hash_u64(i) & 63]++;
	for (i = 0; i < 64; i++)
		assert_in_range(buckets[i], 50, 150);
	assert_true(op_hash_combine(1, 2) != op_hash_combine(2, 1));
}

struct item {
	int v;
	struct op_list link;
};

static void test_list(void **state)
{
	struct op_list head = OP_LIST_INIT(head), *pos, *tmp;
	struct item items[4];
	int i, order[4], n = 0;

	(void)state;
	assert_true(op_list_empty(&head));
	for (i = 0; i < 4; i++) {
		items[i].v = i;
		op_list_add_tail(&items[i].link, &head);
	}
	op_list_move(&items[2].link, &head);
	op_list_del(&items[0].link);
	op_list_for_each(pos, &head)
		order[n++] = op_list_entry(pos, struct item, link)->v;
	assert_int_equal(n, 3);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 3);
	op_list_for_each_safe(pos, tmp, &head)
		op_list_del(pos);
	assert_true(op_list_empty(&head));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv),
		cmocka_unit_test(test_u64_spread),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
