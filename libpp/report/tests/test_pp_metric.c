// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Derived metrics: values against hand-computed ones (periods applied,
 * events summed over classes, generic names through libpfm4's
 * spellings), the imprecise and undefined marks, which metrics are
 * linear (callgrind's derived events), and pp_metric_format() against
 * printf's "%.4g" (and "~%.2g" when imprecise, "%.6g" for XML) on a
 * 300,000 values of every magnitude, around every power of ten and two.
 * The memo of a line's metric columns (pp_metric_fields_memo()) writes
 * what pp_metric_fields() does, over colliding and recurring counts,
 * columns too long for a slot and lines too full for its copy.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/report/report_int.h"

/* cycles on cpu 0 and 1, instructions, cpu-clock */
static struct pp_class classes[4];
static struct pp_profile prof;

static void setup_profile(void)
{
	memset(&prof, 0, sizeof(prof));
	memset(classes, 0, sizeof(classes));
	classes[0].t.event = "CPU_CLK_UNHALTED";
	classes[0].t.count = 100000;
	classes[1].t.event = "CPU_CLK_UNHALTED";
	classes[1].t.count = 100000;
	classes[2].t.event = "INST_RETIRED";
	classes[2].t.count = 50000;
	classes[3].t.event = "cpu-clock";
	classes[3].t.count = 250000;
	prof.classes = classes;
	prof.nr_classes = 4;
}

static double value_of(const char *def, const uint64_t *counts, bool *imprecise)
{
	const char *defs[] = { def, NULL };
	struct pp_metrics ms;
	struct op_err err;
	double v;

	setup_profile();
	assert_int_equal(pp_metrics_make(&ms, defs, &prof, &err), 0);
	v = pp_metric_value(&ms, 0, counts, imprecise);
	pp_metrics_release(&ms);
	return v;
}

static void test_values(void **state)
{
	const uint64_t c[] = { 300, 100, 200, 40 };
	bool imp;

	(void)state;
	/* (300 + 100) * 100000 / (200 * 50000) */
	assert_true(fabs(value_of("CPI", c, &imp) - 4.0) < 1e-12 && !imp);
	assert_true(fabs(value_of("ipc", c, &imp) - 0.25) < 1e-12 && !imp);
	assert_true(fabs(value_of("X=cpu_clk_unhalted - 2*inst_retired", c, &imp) -
			 (40e6 - 20e6)) < 1e-6);
	assert_true(fabs(value_of("Y=-(1 + 2) * 3 / 4 + cpu_clock/cpu_clock", c, &imp) -
			 (-2.25 + 1.0)) < 1e-12);
	/* 40 samples of cpu-clock, but a constant has no samples */
	assert_false(imp);
	assert_true(fabs(value_of("Z=.5e1*2", c, &imp) - 10.0) < 1e-12 && !imp);
	/* fewer than 30 samples of an event: imprecise */
	{
		const uint64_t few[] = { 10, 5, 200, 0 };

		(void)value_of("CPI", few, &imp);
		assert_true(imp);
	}
	/* a division by zero */
	assert_true(isnan(value_of("W=cycles/(instructions-instructions)", c, &imp)));
}

static void test_refused(void **state)
{
	const char *defs[] = { "M=cache_misses/instructions", NULL };
	struct pp_metrics ms;
	struct op_err err;

	(void)state;
	setup_profile();
	assert_int_equal(pp_metrics_make(&ms, defs, &prof, &err), PP_REPORT_ERR_METRIC);
	assert_non_null(strstr(err.msg, "no event of the profile counts 'cache_misses'"));
	assert_non_null(strstr(err.msg, "CPU_CLK_UNHALTED, INST_RETIRED, cpu-clock"));
	assert_int_equal(pp_metric_check("A=1+", &err), PP_REPORT_ERR_METRIC);
	assert_int_equal(pp_metric_check("A=(1", &err), PP_REPORT_ERR_METRIC);
	assert_int_equal(pp_metric_check("A=1 2", &err), PP_REPORT_ERR_METRIC);
	assert_int_equal(pp_metric_check("nope", &err), PP_REPORT_ERR_METRIC);
	assert_int_equal(pp_metric_check("A=x*(y-z)/3", &err), 0);
}

static void test_linear(void **state)
{
	const char *defs[] = { "A=cycles - 2*instructions", "B=cycles/instructions",
			       "C=cycles*instructions", "D=cycles+1", "E=(cycles/4)*2",
			       "F=cycles/3", NULL };
	struct pp_metrics ms;
	struct op_err err;
	int64_t coef[4];

	(void)state;
	setup_profile();
	assert_int_equal(pp_metrics_make(&ms, defs, &prof, &err), 0);
	assert_true(pp_metric_linear(&ms, 0, coef));
	assert_true(coef[0] == 100000 && coef[1] == 100000 && coef[2] == -100000 &&
		    coef[3] == 0);
	assert_false(pp_metric_linear(&ms, 1, coef));	/* a ratio */
	assert_false(pp_metric_linear(&ms, 2, coef));	/* a product */
	assert_false(pp_metric_linear(&ms, 3, coef));	/* a constant term */
	assert_true(pp_metric_linear(&ms, 4, coef) && coef[0] == 50000);
	assert_false(pp_metric_linear(&ms, 5, coef));	/* 33333.3 per sample */
	pp_metrics_release(&ms);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void same_as_printf(double v)
{
	char got[64], want[64];

	pp_metric_format(got, sizeof(got), v, false);
	snprintf(want, sizeof(want), "%.4g", v);
	if (strcmp(got, want))
		fail_msg("%.17g: got '%s', printf '%s'", v, got, want);
	pp_metric_g6(got, sizeof(got), v);
	snprintf(want, sizeof(want), "%.6g", v);
	if (strcmp(got, want))
		fail_msg("%.17g as %%.6g: got '%s', printf '%s'", v, got, want);
	pp_metric_format(got, sizeof(got), v, true);
	snprintf(want, sizeof(want), "~%.2g", v);
	if (strcmp(got, want))
		fail_msg("%.17g imprecise: got '%s', printf '%s'", v, got, want);
}

static void test_format(void **state)
{
	static const double edges[] = { 0, 1, -1, 9.9995, 9.99949, 99995, 1e-4, 9.9995e-5,
					9.95, 99.5, 0.995, 95, 0.0995,
					0.0001, 1234.5, 12345, 1e4, 9999.5, 9999.4,
					1e11, 1e12, 123456789012.0, 0.5, 2e5, -1e5 };
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		same_as_printf(edges[i]);
	for (i = 0; i < 300000; i++) {
		/* mantissas of 1 to 6 digits at exponents -7 to 13 */
		double m = (double)(rng() % 1000000) / (double)(1 + rng() % 100000);
		int e = (int)(rng() % 21) - 7;

		same_as_printf((rng() & 1 ? -m : m) * pow(10.0, e));
	}
	/* around the powers of ten and of two that bound the exponent's guess */
	for (i = 0; i <= 16; i++) {
		double p = pow(10.0, (double)i - 4.0);

		same_as_printf(nextafter(p, 0.0));
		same_as_printf(p);
		same_as_printf(nextafter(p, INFINITY));
	}
	for (i = 0; i <= 54; i++) {
		double p = ldexp(1.0, (int)i - 14);

		same_as_printf(nextafter(p, 0.0));
		same_as_printf(p);
	}
	pp_metric_format(buf, sizeof(buf), NAN, false);
	assert_string_equal(buf, "-");
	pp_metric_format(buf, sizeof(buf), 0.4, true);
	assert_string_equal(buf, "~0.4");
}

/* lines of counts (4 classes per line) with and without the memo */
static void memo_lines(const char *const *defs, const char *prefix, const uint64_t *counts,
		       size_t nr_lines, char **plain, char **memo)
{
	struct pp_metric_memo *mm = NULL;
	struct pp_metrics ms;
	struct op_err err;
	size_t sz[2], i;
	FILE *f[2];
	int k;

	setup_profile();
	assert_int_equal(pp_metrics_make(&ms, defs, &prof, &err), 0);
	f[0] = open_memstream(plain, &sz[0]);
	f[1] = open_memstream(memo, &sz[1]);
	assert_non_null(f[0]);
	assert_non_null(f[1]);
	for (k = 0; k < 2; k++)
		for (i = 0; i < nr_lines; i++) {
			struct pp_line l;

			pp_line_start(&l, f[k], prefix);
			pp_line_field(&l, "x", 4);
			if (k)
				pp_metric_fields_memo(&l, &ms, counts + 4 * i, &mm);
			else
				pp_metric_fields(&l, &ms, counts + 4 * i);
			pp_line_field(&l, "end", 3);
			pp_line_end(&l);
		}
	fclose(f[0]);
	fclose(f[1]);
	pp_metric_memo_free(mm);
	pp_metrics_release(&ms);
}

static void test_memo(void **state)
{
	const char *few[] = { "CPI", "K=cycles/1000", "Z=cycles/(instructions-instructions)",
			      NULL };
	/* seven columns: more text than a slot holds */
	const char *many[] = { "A=cycles", "B=cycles*3", "C=instructions", "D=cpu_clock",
			       "E=cycles/7", "F=cpu_clock*cpu_clock", "G=1/cycles", NULL };
	static uint64_t counts[4 * 20000];
	char prefix[1000], *a, *b;
	size_t i;

	(void)state;
	/* recurring small counts, many sharing a slot */
	for (i = 0; i < 4 * 20000; i++)
		counts[i] = rng() % (i % 4 == 3 ? 3 : 60);
	memo_lines(few, "  ", counts, 20000, &a, &b);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "~"));
	free(a);
	free(b);
	memo_lines(many, NULL, counts, 2000, &a, &b);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* a line with little room left: the memo's text is copied by length */
	memset(prefix, 'p', sizeof(prefix) - 1);
	prefix[sizeof(prefix) - 1] = '\0';
	memo_lines(few, prefix, counts, 500, &a, &b);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_memo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
