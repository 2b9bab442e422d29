// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * OProfile cpu types: the 1.4 op_cpu table, which libpfm4 core PMU maps
 * to which type, newer PMUs, the cpuid fallback and the default events.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"
#include "events/opev_int.h"

static void test_names(void **state)
{
	static const struct {
		int line;
		uint32_t type;
		const char *name;	/* NULL: no such type */
	} rows[] = {
		{ .line = __LINE__, .type = 0, .name = "i386/ppro" },
		{ .line = __LINE__, .type = 3, .name = "i386/athlon" },
		{ .line = __LINE__, .type = 4, .name = "timer" },
		{ .line = __LINE__, .type = 6, .name = "x86-64/hammer" },
		{ .line = __LINE__, .type = 32, .name = "i386/core_2" },
		{ .line = __LINE__, .type = 35, .name = "x86-64/family10" },
		{ .line = __LINE__, .type = 41, .name = "i386/arch_perfmon" },
		{ .line = __LINE__, .type = 53, .name = "x86-64/family15h" },
		{ .line = __LINE__, .type = 67, .name = "i386/haswell" },
		{ .line = __LINE__, .type = 69, .name = "x86-64/generic" },
		{ .line = __LINE__, .type = 80, .name = "i386/skylake" },
		{ .line = __LINE__, .type = 81, .name = "i386/goldmont" },
		{ .line = __LINE__, .type = 82, .name = "i386/goldmontplus" },
		{ .line = __LINE__, .type = 83, .name = "s390/z13" },
		{ .line = __LINE__, .type = 86, .name = "i386/knightslanding" },
		{ .line = __LINE__, .type = 87, .name = "arm/armv8-thunderx2" },
		{ .line = __LINE__, .type = 88, .name = NULL },
		{ .line = __LINE__, .type = 1000, .name = NULL },
		{ .line = __LINE__, .type = UINT32_MAX, .name = NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = opev_cpu_name(rows[i].type);

		if (rows[i].name ? !got || strcmp(got, rows[i].name) : got != NULL)
			fail_msg("row at line %d: '%s'", rows[i].line,
				 got ? got : "(null)");
	}
	assert_int_equal(OPEV_NR_CPU_TYPES, 88);
	assert_string_equal(opev_cpu_name(OPEV_CPU_TIMER), "timer");
	assert_string_equal(opev_cpu_name(OPEV_CPU_ARCH_PERFMON),
			    "i386/arch_perfmon");
	/* the names OProfile 1.4's report headers give (its op_cpu table) */
	assert_string_equal(opev_cpu_display_name(80), "Intel Skylake microarchitecture");
	assert_string_equal(opev_cpu_display_name(4), "CPU with timer interrupt");
	assert_string_equal(opev_cpu_display_name(69), "AMD64 generic");
	assert_string_equal(opev_cpu_display_name(0), "Pentium Pro");
	assert_string_equal(opev_cpu_display_name(87), "Cavium ThunderX2");
	assert_null(opev_cpu_display_name(88));
}

/* every entry is there, different, and shaped arch/model but timer */
static void test_table_whole(void **state)
{
	uint32_t a, b;

	(void)state;
	for (a = 0; a < OPEV_NR_CPU_TYPES; a++) {
		const char *n = opev_cpu_name(a);

		assert_non_null(n);
		if (a != OPEV_CPU_TIMER && !strchr(n, '/'))
			fail_msg("type %u: '%s'", a, n);
		for (b = a + 1; b < OPEV_NR_CPU_TYPES; b++)
			if (!strcmp(n, opev_cpu_name(b)))
				fail_msg("types %u and %u are both '%s'", a, b, n);
	}
}

/* names (any case) and numbers back to the type; the rest refused */
static void test_parse(void **state)
{
	static const char *const bad[] = {
		"", "88", "100", "-1", "i386", "i386/", "skylake", "i386/skylake ",
		" 80", "8a", "0x10", "i386/skylakeX",
	};
	uint32_t t, a;
	char num[8];
	size_t i;

	(void)state;
	for (a = 0; a < OPEV_NR_CPU_TYPES; a++) {
		t = 1000;
		assert_int_equal(opev_cpu_parse(opev_cpu_name(a), &t), 0);
		assert_int_equal(t, a);
		snprintf(num, sizeof(num), "%u", a);
		t = 1000;
		assert_int_equal(opev_cpu_parse(num, &t), 0);
		assert_int_equal(t, a);
	}
	assert_int_equal(opev_cpu_parse("I386/SKYLAKE", &t), 0);
	assert_int_equal(t, 80);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = 1000;
		if (opev_cpu_parse(bad[i], &t) != OPEV_ERR_UNKNOWN_CPU)
			fail_msg("'%s' was taken", bad[i]);
		assert_int_equal(t, 1000);
	}
	assert_int_equal(opev_cpu_parse(NULL, &t), OPEV_ERR_UNKNOWN_CPU);
	assert_int_equal(opev_cpu_parse("timer", NULL), OPEV_ERR_UNKNOWN_CPU);
	assert_string_equal(opev_strerror(OPEV_ERR_UNKNOWN_CPU), "unknown cpu type");
	/* the tables' PMU: Skylake's is libpfm4's skl, the timer has none */
	assert_string_equal(opev_cpu_pmu_name(80), "skl");
	assert_null(opev_cpu_pmu_name(OPEV_CPU_TIMER));
}

static void test_pmu_map(void **state)
{
	static const struct {
		int line;
		const char *pmu;
		bool known;
		uint32_t type;
		enum opev_style style;
	} rows[] = {
		{ .line = __LINE__, .pmu = "skl", .known = true, .type = 80,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "SKL", .known = true, .type = 80,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "skx", .known = true, .type = 80,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "hsw", .known = true, .type = 67,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "bdw_ep", .known = true, .type = 77,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "snb", .known = true, .type = 57,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "ivb", .known = true, .type = 63,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "nhm", .known = true, .type = 47,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "wsm", .known = true, .type = 54,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "core", .known = true, .type = 32,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "atom", .known = true, .type = 45,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "slm", .known = true, .type = 74,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "glm", .known = true, .type = 81,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "knl", .known = true, .type = 86,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "ix86arch", .known = true, .type = 41,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "amd64_k8_revg", .known = true, .type = 6,
		  .style = OPEV_STYLE_AMD },
		{ .line = __LINE__, .pmu = "amd64_fam10h_barcelona", .known = true,
		  .type = 35, .style = OPEV_STYLE_AMD },
		{ .line = __LINE__, .pmu = "amd64_fam15h_interlagos", .known = true,
		  .type = 53, .style = OPEV_STYLE_AMD },
		{ .line = __LINE__, .pmu = "amd64_fam19h_zen3", .known = true,
		  .type = 69, .style = OPEV_STYLE_AMD },
		{ .line = __LINE__, .pmu = "arm_ac57", .known = true, .type = 78,
		  .style = OPEV_STYLE_PLAIN },
		{ .line = __LINE__, .pmu = "arm_thunderx2", .known = true, .type = 87,
		  .style = OPEV_STYLE_PLAIN },
		{ .line = __LINE__, .pmu = "power8", .known = true, .type = 71,
		  .style = OPEV_STYLE_PLAIN },
		{ .line = __LINE__, .pmu = "icl", .known = false },
		{ .line = __LINE__, .pmu = "perf", .known = false },
		{ .line = __LINE__, .pmu = "", .known = false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum opev_style style = (enum opev_style)-1;
		uint32_t type = 12345;
		bool known = opev_cpu_of_pmu(rows[i].pmu, &type, &style);

		if (known != rows[i].known ||
		    (known && (type != rows[i].type || style != rows[i].style)))
			fail_msg("row at line %d: %d type %u style %d",
				 rows[i].line, known, type, style);
	}
}

static void test_new_pmu(void **state)
{
#if defined(__x86_64__) || defined(__i386__)
	static const struct {
		int line;
		const char *pmu;
		uint32_t type;
		enum opev_style style;
	} rows[] = {
		{ .line = __LINE__, .pmu = "icl", .type = 41,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "spr", .type = 41,
		  .style = OPEV_STYLE_INTEL },
		{ .line = __LINE__, .pmu = "amd64_fam1ah_zen5", .type = 69,
		  .style = OPEV_STYLE_AMD },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		enum opev_style style;
		uint32_t type;

		if (!opev_cpu_of_new_pmu(rows[i].pmu, &type, &style) ||
		    type != rows[i].type || style != rows[i].style)
			fail_msg("row at line %d: type %u style %d",
				 rows[i].line, type, style);
	}
#else
	skip();
#endif
}

/* whatever this machine is, the fallback is a type that exists */
static void test_fallback(void **state)
{
	enum opev_style style;
	uint32_t type = opev_cpu_fallback(&style);

	(void)state;
	assert_non_null(opev_cpu_name(type));
#if defined(__x86_64__) || defined(__i386__)
	assert_int_not_equal(type, OPEV_CPU_TIMER);
#endif
}

static void test_default_event(void **state)
{
	static const struct {
		int line;
		uint32_t type;
		const char *name;	/* NULL: none */
	} rows[] = {
		{ .line = __LINE__, .type = 80, .name = "cpu_clk_unhalted" },
		{ .line = __LINE__, .type = 81, .name = "cpu_clk_unhalted" },
		{ .line = __LINE__, .type = 82, .name = "cpu_clk_unhalted" },
		{ .line = __LINE__, .type = 67, .name = "CPU_CLK_UNHALTED" },
		{ .line = __LINE__, .type = 41, .name = "CPU_CLK_UNHALTED" },
		{ .line = __LINE__, .type = 69, .name = "CPU_CLK_UNHALTED" },
		{ .line = __LINE__, .type = 53, .name = "CPU_CLK_UNHALTED" },
		{ .line = __LINE__, .type = 0, .name = "CPU_CLK_UNHALTED" },
		{ .line = __LINE__, .type = 78, .name = "CPU_CYCLES" },
		{ .line = __LINE__, .type = 87, .name = "CPU_CYCLES" },
		{ .line = __LINE__, .type = 71, .name = "CYCLES" },
		{ .line = __LINE__, .type = 4, .name = NULL },
		{ .line = __LINE__, .type = 5, .name = NULL },
		{ .line = __LINE__, .type = 7, .name = NULL },
		{ .line = __LINE__, .type = 61, .name = NULL },
		{ .line = __LINE__, .type = 17, .name = NULL },
		{ .line = __LINE__, .type = 88, .name = NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = opev_cpu_default_name(rows[i].type);

		if (rows[i].name ? !got || strcmp(got, rows[i].name) : got != NULL)
			fail_msg("row at line %d: '%s'", rows[i].line,
				 got ? got : "(null)");
	}
}

/* events described from libpfm4's tables of a type's PMU, present or not */
static void test_describe(void **state)
{
	char desc[512], um[256];

	(void)state;
	/* i386/skylake (80): skl, whatever this machine is */
	assert_int_equal(opev_describe(80, "cpu_clk_unhalted", 0, desc, sizeof(desc),
				       um, sizeof(um)), 0);
	assert_non_null(strstr(desc, "cycles"));
	assert_true(um[0] != '\0');
	assert_int_equal(opev_describe(80, "L2_RQSTS", 0x21, desc, sizeof(desc),
				       um, sizeof(um)), 0);
	assert_true(desc[0] != '\0');
	assert_string_not_equal(um, "multiple flags");
	assert_string_not_equal(um, "No unit mask");
	/* a value no single unit mask has */
	assert_int_equal(opev_describe(80, "L2_RQSTS", 0xfe, desc, sizeof(desc),
				       um, sizeof(um)), 0);
	assert_string_equal(um, "multiple flags");
	/* unknown events and types */
	assert_int_equal(opev_describe(80, "no_such_event", 0, desc, sizeof(desc),
				       um, sizeof(um)), OPEV_ERR_UNKNOWN_EVENT);
	assert_int_equal(opev_describe(OPEV_CPU_TIMER, "cpu-clock", 0, desc, sizeof(desc),
				       um, sizeof(um)), OPEV_ERR_UNKNOWN_EVENT);
	assert_int_equal(opev_describe(88, "cycles", 0, desc, sizeof(desc),
				       um, sizeof(um)), OPEV_ERR_UNKNOWN_EVENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_table_whole),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_pmu_map),
		cmocka_unit_test(test_new_pmu),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_default_event),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
