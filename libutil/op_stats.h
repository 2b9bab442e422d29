/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics of sample counts: a sampled profile is a draw, and each
 * share it shows is an estimate.  Confidence intervals of a share (Wilson
 * score intervals), the two-proportion test of a share that changed
 * between two profiles (Fisher's exact test at small counts, the pooled
 * z test above them), Holm's step-down correction of many such tests, and
 * the smallest change a profile of a given size can detect.
 *
 * Shares and p-values are fractions (0 to 1), not percentages.  Nothing
 * here allocates except op_holm_adjust().
 */
#ifndef OP_STATS_H
#define OP_STATS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* P(Z > z) for a standard normal Z */
double op_normal_upper(double z);

/* the z with P(Z <= z) = p; p is clamped into (0, 1) */
double op_normal_quantile(double p);

/* the z of a two-sided interval of that level (0 < level < 1): 1.95996
 * for 0.95 */
double op_z_two_sided(double level);

/*
 * The Wilson score interval of the share k/n at z: *lo and *hi in [0, 1].
 * It stays inside [0, 1] and is not empty at k = 0 or k = n, where the
 * plain normal interval fails.  n = 0: [0, 1], nothing is known.
 */
void op_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/*
 * The same for many k of one n: what op_wilson() computes from n and z
 * alone, made once by op_wilson_prepare()
 */
struct op_wilson_n {
	uint64_t n;
	double z, inv, half_t, dinv, zd, quarter;
};

void op_wilson_prepare(struct op_wilson_n *w, uint64_t n, double z);
/* inline: --confidence computes one per line of a report */
static inline void op_wilson_at(const struct op_wilson_n *w, uint64_t k, double *lo, double *hi)
{
	double ph, centre, half;

	if (!w->n) {
		*lo = 0.0;
		*hi = 1.0;
		return;
	}
	if (k > w->n)
		k = w->n;
	ph = (double)k * w->inv;
	centre = (ph + w->half_t) * w->dinv;
	half = w->zd * sqrt(ph * (1.0 - ph) * w->inv + w->quarter);
	/* finite here: plain comparisons, not calls of fmax() and fmin() */
	*lo = k == 0 || centre - half < 0.0 ? 0.0 : centre - half;
	*hi = k == w->n || centre + half > 1.0 ? 1.0 : centre + half;
}

/*
 * The two-sided p-value of "k1 of n1 and k2 of n2 are draws of one
 * share": Fisher's exact test when a cell of the 2x2 table expects fewer
 * than 10 counts, else the pooled two-proportion z test.  1 when either
 * n is 0 or k1 + k2 is 0.
 */
double op_two_prop_p(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2);

/*
 * Holm's step-down adjustment of the m p-values p[]: adj[i] is p[i]'s
 * adjusted p-value, and "adj[i] <= alpha" rejects at a family-wise error
 * rate of alpha over all m.  adj may be p.  0, or -ENOMEM.
 */
int op_holm_adjust(const double *p, double *adj, size_t m);

/*
 * The smallest change of a share near share (0 to 1), in share, that a
 * two-sided test at z_alpha detects with the power of z_power (0.8416 for
 * 80 %) between profiles of n1 and n2 samples; 1 when either n is 0.
 */
double op_detectable_change(double share, uint64_t n1, uint64_t n2,
			    double z_alpha, double z_power);

#endif
