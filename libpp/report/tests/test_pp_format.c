// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Report formatting: the percent and count texts (printf-free fast paths
 * must print exactly what printf prints), and the name stream (every
 * name as pp_symbol_display() makes it, however the helpers and the
 * writer share the work).
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

/* mangled names (some needing the smart rules), plain C names, artificial */
static const char *const names[] = {
	"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE6appendEPKcm",
	"_ZNSt6vectorIiSaIiEE9push_backERKi",
	"main",
	"_ZN2v88internal4Heap14CollectGarbageENS0_15AllocationSpaceENS0_"
	"23GarbageCollectionReasonENS_15GCCallbackFlagsE",
	"_Z3fooi",
	"not_mangled_Z",
	"_Zbroken",
};

static void check_stream(size_t nr, enum pp_demangle_mode mode, bool backwards)
{
	struct pp_sym *syms = calloc(nr + 1, sizeof(*syms));
	const struct pp_sym **ptrs = calloc(nr + 1, sizeof(*ptrs));
	struct pp_name_stream *s;
	char **all;
	size_t i;

	assert_non_null(syms);
	assert_non_null(ptrs);
	for (i = 0; i < nr; i++) {
		syms[i].name = names[i % (sizeof(names) / sizeof(names[0]))];
		syms[i].flags = i % 97 == 5 ? PP_SYM_ARTIFICIAL : 0;
		ptrs[i] = &syms[i];
	}
	s = pp_name_stream_start(ptrs, nr, mode);
	for (i = 0; i < nr; i++) {
		size_t k = backwards ? nr - 1 - i : i;
		char *want = pp_symbol_display(&syms[k], mode);

		assert_string_equal(pp_name_stream_get(s, k), want);
		free(want);
	}
	pp_name_stream_end(s);
	all = pp_display_sym_names(ptrs, nr, mode);
	for (i = 0; i < nr; i++) {
		char *want = pp_symbol_display(&syms[i], mode);

		assert_string_equal(all[i], want);
		free(want);
		free(all[i]);
	}
	free(all);
	free(syms);
	free(ptrs);
}

static void test_name_stream(void **state)
{
	(void)state;
	check_stream(0, PP_DEMANGLE_NORMAL, false);
	check_stream(1, PP_DEMANGLE_SMART, false);
	check_stream(300, PP_DEMANGLE_NONE, false);
	/* enough names for helper threads, in and out of order */
	check_stream(5000, PP_DEMANGLE_NORMAL, false);
	check_stream(5000, PP_DEMANGLE_SMART, true);
}

/* a stream ended before its names were asked for stops its helpers */
static void test_name_stream_abandoned(void **state)
{
	struct pp_sym *syms = calloc(50000, sizeof(*syms));
	const struct pp_sym **ptrs = calloc(50000, sizeof(*ptrs));
	struct pp_name_stream *s;
	size_t i;

	(void)state;
	assert_non_null(syms);
	assert_non_null(ptrs);
	for (i = 0; i < 50000; i++) {
		syms[i].name = names[i % 4];
		ptrs[i] = &syms[i];
	}
	s = pp_name_stream_start(ptrs, 50000, PP_DEMANGLE_NORMAL);
	assert_non_null(pp_name_stream_get(s, 3));
	pp_name_stream_end(s);
	free(syms);
	free(ptrs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percent_edges),
		cmocka_unit_test(test_percent_ratios),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_name_stream),
		cmocka_unit_test(test_name_stream_abandoned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
