// SPDX-License-Identifier: GPL-2.0-or-later
/* Intervals, tests and detectable changes of sampled shares (op_stats.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "libutil/op_stats.h"

double op_normal_upper(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

/*
 * By bisection on erfc(): called a few times per report, so exactness
 * (to a few ulps) matters more than speed.
 */
double op_normal_quantile(double p)
{
	double lo = -40.0, hi = 40.0;
	int i;

	if (!(p > 0.0))
		p = 1e-300;
	if (!(p < 1.0))
		p = 1.0 - 1e-16;
	for (i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = 0.5 * (lo + hi);

		/* P(Z <= mid) = 1 - upper(mid) = upper(-mid) */
		if (op_normal_upper(-mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double op_z_two_sided(double level)
{
	return op_normal_quantile(1.0 - (1.0 - level) / 2.0);
}

void op_wilson_prepare(struct op_wilson_n *w, uint64_t n, double z)
{
	double t;

	w->n = n;
	w->z = z;
	if (!n)
		return;
	w->inv = 1.0 / (double)n;
	t = z * z * w->inv;			/* z^2 / n */
	w->half_t = 0.5 * t;
	w->dinv = 1.0 / (1.0 + t);
	w->zd = z * w->dinv;
	w->quarter = 0.25 * t * w->inv;
}

void op_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	struct op_wilson_n w;

	op_wilson_prepare(&w, n, z);
	op_wilson_at(&w, k, lo, hi);
}

/* log C(n, k) */
static double log_choose(double n, double k)
{
	return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/*
 * Fisher's exact test: X, side 1's count of the K counts, is
 * hypergeometric given the margins; the p-value sums the probabilities of
 * every table no likelier than the one seen.
 */
static double fisher_p(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
	double N = (double)n1 + (double)n2, K = (double)k1 + (double)k2;
	double base = log_choose(N, (double)n1), seen, sum = 0.0;
	uint64_t x, lo, hi, kk = k1 + k2;

	lo = kk > n2 ? kk - n2 : 0;
	hi = kk < n1 ? kk : n1;
	seen = log_choose(K, (double)k1) + log_choose(N - K, (double)(n1 - k1)) - base;
	for (x = lo; x <= hi; x++) {
		double lp = log_choose(K, (double)x) +
			    log_choose(N - K, (double)(n1 - x)) - base;

		/* ties within rounding count as as likely */
		if (lp <= seen + 1e-7)
			sum += exp(lp);
	}
	return sum > 1.0 ? 1.0 : sum;
}

static double z_test_p(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
	double a = (double)n1, b = (double)n2;
	double p1 = (double)k1 / a, p2 = (double)k2 / b;
	double pool = ((double)k1 + (double)k2) / (a + b);
	double se = sqrt(pool * (1.0 - pool) * (1.0 / a + 1.0 / b));

	if (!(se > 0.0))
		return p1 == p2 ? 1.0 : 0.0;
	return fmin(1.0, 2.0 * op_normal_upper(fabs(p1 - p2) / se));
}

double op_two_prop_p(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2)
{
	double N, K, cells[4];
	uint64_t span;
	int i;

	if (!n1 || !n2)
		return 1.0;
	if (k1 > n1)
		k1 = n1;
	if (k2 > n2)
		k2 = n2;
	if (!k1 && !k2)
		return 1.0;
	N = (double)n1 + (double)n2;
	K = (double)k1 + (double)k2;
	cells[0] = K * (double)n1 / N;
	cells[1] = K * (double)n2 / N;
	cells[2] = (N - K) * (double)n1 / N;
	cells[3] = (N - K) * (double)n2 / N;
	/* how many tables Fisher's test would sum */
	span = k1 + k2;
	if (n1 < span)
		span = n1;
	if (n2 < span)
		span = n2;
	for (i = 0; i < 4; i++)
		if (cells[i] < 10.0 && span < 100000)
			return fisher_p(k1, n1, k2, n2);
	return z_test_p(k1, n1, k2, n2);
}

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int op_holm_adjust(const double *p, double *adj, size_t m)
{
	struct ranked *r;
	double run = 0.0;
	size_t j;

	if (!m)
		return 0;
	r = calloc(m, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (j = 0; j < m; j++) {
		r[j].p = p[j];
		r[j].i = j;
	}
	qsort(r, m, sizeof(*r), by_p);
	/* the j-th smallest is tested at alpha / (m - j); the adjusted
	 * values never decrease along the order */
	for (j = 0; j < m; j++) {
		double a = fmin(1.0, (double)(m - j) * r[j].p);

		run = fmax(run, a);
		adj[r[j].i] = run;
	}
	free(r);
	return 0;
}

double op_detectable_change(double share, uint64_t n1, uint64_t n2,
			    double z_alpha, double z_power)
{
	double v;

	if (!n1 || !n2)
		return 1.0;
	v = share * (1.0 - share) * (1.0 / (double)n1 + 1.0 / (double)n2);
	return fmin(1.0, (z_alpha + z_power) * sqrt(v));
}
