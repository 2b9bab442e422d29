// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How metric values are written (metric.c computes them): "%.4g" in
 * text, "~%.2g" when imprecise, "%.6g" in XML, "-" when undefined; the
 * common cases without printf.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "libpp/report/report_int.h"

/*
 * "%.Pg" (P 2, 4 or 6) without printf, which costs more than the rest of a
 * report line: 0 when v is out of the common range or within a hair of
 * a rounding tie (then printf decides), else the length written
 */
static size_t fast_g(char *buf, size_t size, double v, int prec)
{
	static const double p10[] = { 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
				      1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
				      1e7, 1e8, 1e9, 1e10, 1e11, 1e12 };
	const unsigned lo = prec == 2 ? 10 : prec == 4 ? 1000 : 100000, hi = lo * 10;
	char digits[6], *o = buf;
	double a = fabs(v);
	uint64_t bits;
	uint32_t r;
	int b, e, nd, i;

	if (size < 16 || (prec != 2 && prec != 4 && prec != 6) || !(a >= 1e-4) ||
	    !(a < 1e12))
		return 0;
	/*
	 * The decimal exponent from the binary one: with a in [2^b, 2^(b+1)),
	 * floor(log10 a) is floor(b log10 2) or one more; 78913 / 2^18 is
	 * log10 2 closely enough for these b
	 */
	memcpy(&bits, &a, sizeof(bits));
	b = (int)((bits >> 52) & 0x7ff) - 1023;
	e = b >= 0 ? (b * 78913) >> 18 : -((-b * 78913 + (1 << 18) - 1) >> 18);
	if (a >= p10[e + 10 + 1])
		e++;
	/* a = m * 10^(e - prec + 1) with lo <= m < hi; p10[k] is 10^(k - 10) */
	if (!pp_round_clear(a / p10[e - prec + 1 + 10], &r))
		return 0;
	if (r >= hi) {
		r /= 10;
		e++;
	}
	if (r < lo)
		return 0;
	/* prec is even: two digits at a time */
	for (i = prec - 2; i >= 0; i -= 2, r /= 100)
		memcpy(digits + i, pp_digit_pairs + 2 * (r % 100), 2);
	for (nd = prec; nd > 1 && digits[nd - 1] == '0'; nd--)
		;
	if (v < 0)
		*o++ = '-';
	if (e < -4 || e >= prec) {
		*o++ = digits[0];
		if (nd > 1) {
			*o++ = '.';
			for (i = 1; i < nd; i++)
				*o++ = digits[i];
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		e = e < 0 ? -e : e;
		*o++ = (char)('0' + e / 10);
		*o++ = (char)('0' + e % 10);
	} else if (e >= 0) {
		for (i = 0; i <= e; i++)
			*o++ = digits[i];
		if (nd > e + 1) {
			*o++ = '.';
			for (i = e + 1; i < nd; i++)
				*o++ = digits[i];
		}
	} else {
		*o++ = '0';
		*o++ = '.';
		for (i = -1; i > e; i--)
			*o++ = '0';
		for (i = 0; i < nd; i++)
			*o++ = digits[i];
	}
	*o = '\0';
	return (size_t)(o - buf);
}

size_t pp_metric_format(char *buf, size_t size, double v, bool imprecise)
{
	size_t fast;
	int n;

	if (isnan(v) || isinf(v))
		n = snprintf(buf, size, "-");
	else if (imprecise && size > 1 && (fast = fast_g(buf + 1, size - 1, v, 2))) {
		buf[0] = '~';
		return fast + 1;
	} else if (imprecise)
		n = snprintf(buf, size, "~%.2g", v);
	else if ((fast = fast_g(buf, size, v, 4)))
		return fast;
	else
		n = snprintf(buf, size, "%.4g", v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t pp_metric_g6(char *buf, size_t size, double v)
{
	size_t fast = fast_g(buf, size, v, 6);
	int n;

	if (fast)
		return fast;
	n = snprintf(buf, size, "%.6g", v);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

size_t pp_metric_text(const struct pp_metrics *ms, size_t k, const uint64_t *counts,
		      char *buf, size_t size, bool *imprecise)
{
	double v = pp_metric_value(ms, k, counts, imprecise);

	return pp_metric_format(buf, size, v, *imprecise);
}

void pp_metric_fields(struct pp_line *l, const struct pp_metrics *ms, const uint64_t *counts)
{
	char buf[64];
	bool imprecise;
	size_t k;

	for (k = 0; k < ms->nr; k++)
		pp_line_field_len(l, buf, pp_metric_text(ms, k, counts, buf, sizeof(buf),
							 &imprecise), W_METRIC);
}
