// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Report formatting: the percent and count texts (printf-free fast paths
 * must print exactly what printf prints), and the name stream (every
 * name is its table's shown name, however the helpers and the writer
 * share the work, in and out of order).
 */
#include "config.h"

#include <inttypes.h>
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
#include "libpp/report/tests/pp_test_report.h"
#include "libpp/symbols/tests/pp_test_names.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x9e3779b97f4a7c15ULL;
}

/* OProfile's percent text, straight from printf */
static void reference_percent(char *buf, size_t size, double v, bool showpos)
{
	if (v == 0.0)
		snprintf(buf, size, "%7s", "0");
	else if (fabs(v) > 0.001)
		snprintf(buf, size, showpos ? "%+7.4f" : "%7.4f", v);
	else
		snprintf(buf, size, showpos ? "%+7.1e" : "%7.1e", v);
	if (!strncmp(buf, "100.", 4) || !strncmp(buf, "+100.", 5))
		buf[strlen(buf) - 1] = '\0';
}

static void check_percent(double v, bool showpos)
{
	char got[64], want[64];

	pp_format_percent(got, sizeof(got), v, showpos);
	reference_percent(want, sizeof(want), v, showpos);
	if (strcmp(got, want))
		fail_msg("percent %.17g: got '%s', printf says '%s'", v, got, want);
}

static void test_percent_edges(void **state)
{
	static const double edges[] = {
		0.0, 100.0, 99.99995, 99.99994999, 99.999950001, 0.001, 0.0010001,
		0.00099999, 0.00099995, 0.00099994, 1e-5, 9.95e-5, 9.949999e-5,
		1e-12, 1e-19, 1e-20, 1e-30, 0.00005, 0.00015, 0.12345, 0.12355,
		1.0, 10.0, 33.333333333333336, 66.666666666666671, 50.0, 12.34565,
		-1.5, -0.0001, 5e-324,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		check_percent(edges[i], false);
		check_percent(edges[i], true);
	}
}

/* shares as OProfile 1.4 computes them: (part / whole) * 100 */
static void test_ratio_order(void **state)
{
	char got[64];

	(void)state;
	/* 46 * 100 / 1280 is 3.59375 exactly (printed 3.5938); OProfile's
	 * 46 / 1280 * 100 is just below it */
	pp_format_percent(got, sizeof(got), pp_ratio(46, 1280), false);
	assert_string_equal(got, " 3.5937");
	pp_format_percent(got, sizeof(got), pp_ratio(1, 3), false);
	assert_string_equal(got, "33.3333");
	assert_true(pp_ratio(5, 0) == 0.0);
}

/* the shares reports really print: part/whole for random counts */
static void test_percent_ratios(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 60000; i++) {
		uint64_t whole = 1 + rng() % (i % 2 ? 1000 : 100000000);
		uint64_t part = rng() % (whole + 1);

		check_percent(pp_ratio(part, whole), false);
	}
	for (i = 0; i < 20000; i++) {
		double v = ldexp((double)(rng() >> 11), -53) * pow(10.0, (double)(rng() % 12) - 9);

		check_percent(v, false);
		check_percent(-v, true);
	}
}

static void test_count(void **state)
{
	static const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 4294967296ULL, UINT64_MAX };
	char got[32], want[32], small[4];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		pp_format_count(got, sizeof(got), values[i]);
		snprintf(want, sizeof(want), "%" PRIu64, values[i]);
		assert_string_equal(got, want);
	}
	/* a short buffer keeps the leading digits, terminated */
	pp_format_count(small, sizeof(small), 123456);
	assert_string_equal(small, "123");
}

#define NR_KSYMS 6000

/*
 * The fixture sessions, their kernel symbols replaced by NR_KSYMS symbols
 * of pp_test_write_named_kallsyms(): enough for the name stream's helper
 * threads.
 */
static int stream_setup(void **state)
{
	if (pp_test_fixture_setup(state))
		return -1;
	pp_test_write_named_kallsyms(((struct pp_test_fixture *)*state)->kallsyms, NR_KSYMS);
	return 0;
}

/*
 * The first nr symbols of the kernel's table (each asked twice when twice
 * is set, so two chunks share symbols) through a stream, asked for in
 * order or backwards, and through pp_shown_names().
 */
static void check_stream(struct pp_test_fixture *f, size_t nr, enum pp_demangle_mode mode,
			 bool backwards, bool twice)
{
	struct pp_test_profile t;
	size_t total = twice ? 2 * nr : nr, image, i;
	size_t *images = calloc(total + 1, sizeof(*images));
	const struct pp_sym **syms = calloc(total + 1, sizeof(*syms));
	const char **all = calloc(total + 1, sizeof(*all));
	struct pp_name_stream *s;
	struct pp_symtab *tab;

	assert_non_null(images);
	assert_non_null(syms);
	assert_non_null(all);
	f->sym_opts.demangle = mode;
	pp_test_fixture_profile(&t, f, "s2", NULL, 0);
	image = pp_test_image(&t.p, "no-vmlinux");
	tab = pp_image_symtab(&t.p, image);
	assert_int_equal(tab->nr, NR_KSYMS);
	for (i = 0; i < total; i++) {
		images[i] = image;
		syms[i] = &tab->syms[i % nr];
	}
	s = pp_name_stream_start(&t.p, images, syms, total);
	for (i = 0; i < total; i++) {
		size_t k = backwards ? total - 1 - i : i;

		pp_test_check_shown(syms[k], pp_name_stream_get(s, k), mode);
	}
	pp_name_stream_end(s);
	pp_shown_names(&t.p, images, syms, total, all);
	for (i = 0; i < total; i++) {
		pp_test_check_shown(syms[i], all[i], mode);
		/* the names are the table's, made once */
		assert_ptr_equal(all[i], pp_shown_name(&t.p, image, syms[i]));
	}
	pp_test_profile_release(&t);
	free(all);
	free(syms);
	free(images);
}

static void test_name_stream(void **state)
{
	check_stream(*state, 0, PP_DEMANGLE_NORMAL, false, false);
	check_stream(*state, 1, PP_DEMANGLE_SMART, false, false);
	check_stream(*state, 300, PP_DEMANGLE_NONE, false, false);
	/* enough names for helper threads, in and out of order */
	check_stream(*state, NR_KSYMS, PP_DEMANGLE_NORMAL, false, false);
	check_stream(*state, NR_KSYMS, PP_DEMANGLE_SMART, true, false);
	check_stream(*state, NR_KSYMS / 2, PP_DEMANGLE_SMART, false, true);
}

/* a stream ended before its names were asked for stops its helpers */
static void test_name_stream_abandoned(void **state)
{
	struct pp_test_fixture *f = *state;
	struct pp_test_profile t;
	size_t *images = calloc(NR_KSYMS, sizeof(*images));
	const struct pp_sym **syms = calloc(NR_KSYMS, sizeof(*syms));
	struct pp_name_stream *s;
	struct pp_symtab *tab;
	size_t image, i;

	assert_non_null(images);
	assert_non_null(syms);
	f->sym_opts.demangle = PP_DEMANGLE_NORMAL;
	pp_test_fixture_profile(&t, f, "s2", NULL, 0);
	image = pp_test_image(&t.p, "no-vmlinux");
	tab = pp_image_symtab(&t.p, image);
	for (i = 0; i < NR_KSYMS; i++) {
		images[i] = image;
		syms[i] = &tab->syms[i];
	}
	s = pp_name_stream_start(&t.p, images, syms, NR_KSYMS);
	assert_non_null(pp_name_stream_get(s, 3));
	pp_name_stream_end(s);
	pp_test_profile_release(&t);
	free(syms);
	free(images);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percent_edges),
		cmocka_unit_test(test_percent_ratios),
		cmocka_unit_test(test_ratio_order),
		cmocka_unit_test(test_count),
	};
	const struct CMUnitTest stream_tests[] = {
		cmocka_unit_test(test_name_stream),
		cmocka_unit_test(test_name_stream_abandoned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) |
	       cmocka_run_group_tests(stream_tests, stream_setup, pp_test_fixture_teardown);
}
