// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * op_stats: intervals and tests against published values (Newcombe's
 * examples of the Wilson interval, Fisher's tea-tasting table), and the
 * tests' false-positive rate on simulated draws of one share.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "libutil/op_stats.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void test_quantile(void **state)
{
	(void)state;
	near(op_normal_quantile(0.975), 1.959963984540054, 1e-12);
	near(op_normal_quantile(0.5), 0.0, 1e-12);
	near(op_normal_quantile(0.8), 0.8416212335729143, 1e-12);
	near(op_normal_quantile(0.001), -3.090232306167813, 1e-11);
	near(op_z_two_sided(0.99), 2.5758293035489004, 1e-12);
	near(op_normal_upper(1.959963984540054), 0.025, 1e-14);
	/* out of range: clamped, not NaN */
	assert_false(isnan(op_normal_quantile(0.0)));
	assert_false(isnan(op_normal_quantile(1.0)));
	assert_false(isnan(op_normal_quantile(NAN)));
}

static void wilson_is(uint64_t k, uint64_t n, double lo, double hi)
{
	double l, h;

	op_wilson(k, n, 1.959963984540054, &l, &h);
	near(l, lo, 5e-5);
	near(h, hi, 5e-5);
}

static void test_wilson(void **state)
{
	double l, h;

	(void)state;
	/* Newcombe (1998), table I, method 3 */
	wilson_is(81, 263, 0.2553, 0.3662);
	wilson_is(15, 148, 0.0624, 0.1605);
	wilson_is(0, 20, 0.0, 0.1611);
	wilson_is(1, 29, 0.0061, 0.1718);
	/* the example: 40 of 10,000 is 0.4 % +- about 0.12 % */
	op_wilson(40, 10000, 1.959963984540054, &l, &h);
	assert_true(l < 0.004 && h > 0.004);
	near(h - l, 0.0025, 0.0002);
	/* all, none, nothing known, more than all */
	op_wilson(10, 10, 1.96, &l, &h);
	assert_true(h == 1.0 && l < 1.0 && l > 0.6);
	op_wilson(0, 0, 1.96, &l, &h);
	assert_true(l == 0.0 && h == 1.0);
	op_wilson(20, 10, 1.96, &l, &h);
	assert_true(h == 1.0 && l <= 1.0);
	/* huge counts: a tight interval around the share */
	op_wilson(1ULL << 40, 1ULL << 41, 1.96, &l, &h);
	assert_true(l < 0.5 && h > 0.5 && h - l < 1e-5);
}

static void test_two_prop(void **state)
{
	(void)state;
	/* Fisher's tea-tasting table: 3 of 4 against 1 of 4 */
	near(op_two_prop_p(3, 4, 1, 4), 0.4857142857, 1e-9);
	/* a table one-sided by chance: 0 of 10,000 against 5 of 10,000 */
	near(op_two_prop_p(0, 10000, 5, 10000), 0.0625, 1e-3);
	/* the pooled z test: 50 of 100 against 70 of 100 */
	near(op_two_prop_p(50, 100, 70, 100), 0.0038924, 1e-6);
	/* the same share is not a change */
	near(op_two_prop_p(500, 1000, 500, 1000), 1.0, 1e-12);
	near(op_two_prop_p(5, 1000, 5, 1000), 1.0, 1e-9);
	assert_true(op_two_prop_p(0, 100, 0, 100) == 1.0);
	assert_true(op_two_prop_p(1, 0, 1, 100) == 1.0);
	/* a share of everything on both sides */
	assert_true(op_two_prop_p(1000, 1000, 1000, 1000) == 1.0);
	/* a big change at a big size */
	assert_true(op_two_prop_p(1000, 100000, 1500, 100000) < 1e-20);
}

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545f4914f6cdd1dULL) >> 11) / 9007199254740992.0;
}

static uint64_t binomial(uint64_t n, double p)
{
	uint64_t k = 0, i;

	for (i = 0; i < n; i++)
		k += uniform() < p;
	return k;
}

/*
 * Under one share, each test rejects at 5 % about 5 % of the time (at
 * most: Fisher's test is conservative), small and large counts alike.
 */
static void false_positives(uint64_t n, double share, int rounds)
{
	int i, rejected = 0;

	for (i = 0; i < rounds; i++)
		if (op_two_prop_p(binomial(n, share), n, binomial(n, share), n) <= 0.05)
			rejected++;
	print_message("n %llu share %g: %d of %d rejected\n", (unsigned long long)n,
		      share, rejected, rounds);
	assert_true(rejected <= rounds * 8 / 100);
	assert_true(rejected >= rounds / 100);
}

static void test_false_positives(void **state)
{
	(void)state;
	false_positives(2000, 0.002, 1000);	/* Fisher's test */
	false_positives(2000, 0.1, 1000);	/* the z test */
}

static void test_holm(void **state)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double adj[4];
	double one = 0.2;

	(void)state;
	assert_int_equal(op_holm_adjust(p, adj, 4), 0);
	near(adj[0], 0.03, 1e-12);
	near(adj[1], 0.06, 1e-12);
	near(adj[2], 0.06, 1e-12);
	near(adj[3], 0.02, 1e-12);
	assert_int_equal(op_holm_adjust(&one, &one, 1), 0);
	near(one, 0.2, 1e-12);
	assert_int_equal(op_holm_adjust(NULL, NULL, 0), 0);
}

static void test_detectable(void **state)
{
	double z = op_z_two_sided(0.95), zp = op_normal_quantile(0.8);
	double d = op_detectable_change(0.01, 10000, 10000, z, zp);

	(void)state;
	/* 2.8 standard errors of a difference at 1 % and 10,000 each */
	near(d, 2.8015 * sqrt(0.01 * 0.99 * 2e-4), 1e-4);
	assert_true(op_detectable_change(0.01, 40000, 40000, z, zp) < d / 1.99);
	assert_true(op_detectable_change(0.01, 0, 10, z, zp) == 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_two_prop),
		cmocka_unit_test(test_false_positives),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_detectable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
