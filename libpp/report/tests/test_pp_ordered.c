// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pp_write_ordered(): items come out in order, each with the running
 * totals of the items before it, byte for byte what one thread writes,
 * whether helper threads format chunks or not, for few and for many
 * items (more than its window of chunks ahead), with and without counts;
 * each thread's local state is made and freed once per thread.
 */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/report/report_int.h"

#define NR_CLASSES 2

struct items {
	uint64_t (*counts)[NR_CLASSES];
	int locals;			/* made and not yet freed (atomic) */
	int made;			/* made in all (atomic) */
};

struct local {
	uint64_t sum[NR_CLASSES];
	struct items *it;
};

static const uint64_t *counts_of(void *ctx, size_t i)
{
	return ((struct items *)ctx)->counts[i];
}

static void *local_new(void *ctx)
{
	struct items *it = ctx;

	struct local *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	l->it = it;
	__atomic_fetch_add(&it->locals, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&it->made, 1, __ATOMIC_RELAXED);
	return l;
}

static void local_free(void *local)
{
	struct local *l = local;

	__atomic_fetch_sub(&l->it->locals, 1, __ATOMIC_RELAXED);
	free(l);
}

static void chunk(void *ctx, void *local, const uint64_t *before)
{
	memcpy(((struct local *)local)->sum, before, sizeof(((struct local *)local)->sum));
	(void)ctx;
}

/* "i: count cum count cum\n", the cumulative sums including item i */
static void item(void *ctx, void *local, size_t i, FILE *out)
{
	struct items *it = ctx;
	struct local *l = local;
	size_t c;

	fprintf(out, "%zu:", i);
	for (c = 0; c < NR_CLASSES; c++) {
		l->sum[c] += it->counts ? it->counts[i][c] : 0;
		fprintf(out, " %" PRIu64 " %" PRIu64, it->counts ? it->counts[i][c] : 0,
			l->sum[c]);
	}
	fputc('\n', out);
}

/* what the items must give, written here in one pass */
static char *expected(const struct items *it, size_t nr)
{
	uint64_t sum[NR_CLASSES] = { 0 };
	char *text = NULL;
	size_t len = 0, i, c;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (i = 0; i < nr; i++) {
		fprintf(f, "%zu:", i);
		for (c = 0; c < NR_CLASSES; c++) {
			uint64_t n = it->counts ? it->counts[i][c] : 0;

			sum[c] += n;
			fprintf(f, " %" PRIu64 " %" PRIu64, n, sum[c]);
		}
		fputc('\n', f);
	}
	assert_int_equal(fclose(f), 0);
	return text;
}

static void check(size_t nr, bool with_counts, bool parallel)
{
	struct items it = { NULL, 0, 0 };
	const struct pp_ordered w = {
		.ctx = &it,
		.nr_classes = NR_CLASSES,
		.counts = with_counts ? counts_of : NULL,
		.local_new = local_new,
		.local_free = local_free,
		.chunk = chunk,
		.item = item,
	};
	char *text = NULL, *want;
	size_t len = 0, i;
	FILE *f;

	if (with_counts) {
		it.counts = calloc(nr + 1, sizeof(*it.counts));
		assert_non_null(it.counts);
		for (i = 0; i < nr; i++) {
			it.counts[i][0] = i % 7;
			it.counts[i][1] = (i * 31) % 1000;
		}
	}
	f = open_memstream(&text, &len);
	assert_non_null(f);
	pp_write_ordered(f, nr, &w, parallel);
	assert_int_equal(fclose(f), 0);
	want = expected(&it, nr);
	if (strcmp(text, want))
		fail_msg("%zu items (counts %d, parallel %d): the text differs", nr,
			 (int)with_counts, (int)parallel);
	/* one local per thread, every one freed */
	assert_true(it.made >= 1 && it.made <= 8);
	assert_int_equal(it.locals, 0);
	free(want);
	free(text);
	free(it.counts);
}

static void test_ordered(void **state)
{
	static const size_t sizes[] = { 0, 1, 255, 256, 257, 511, 512, 5000, 50001 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		check(sizes[i], true, true);
		check(sizes[i], true, false);
		check(sizes[i], false, true);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ordered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
