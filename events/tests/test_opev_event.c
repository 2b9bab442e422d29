// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filling struct opev_event without libpfm4: the software clock, period
 * defaults and limits, OProfile codes from raw configs in each style,
 * and the description line.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"
#include "events/opev_int.h"

static void test_software_clock(void **state)
{
	static const struct {
		int line;
		uint64_t period;
		int ret;
		uint64_t want;
		const char *desc;
	} rows[] = {
		{ .line = __LINE__, .period = 0, .want = OPEV_CLOCK_DEFAULT_NS,
		  .desc = "cpu-clock: CPU time clock (software event), sample "
			  "every 250000 ns" },
		{ .line = __LINE__, .period = 1000000, .want = 1000000,
		  .desc = "cpu-clock: CPU time clock (software event), sample "
			  "every 1000000 ns" },
		{ .line = __LINE__, .period = OPEV_CLOCK_MIN_NS,
		  .want = OPEV_CLOCK_MIN_NS },
		{ .line = __LINE__, .period = OPEV_MAX_PERIOD,
		  .want = OPEV_MAX_PERIOD },
		{ .line = __LINE__, .period = OPEV_CLOCK_MIN_NS - 1,
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .period = 1, .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .period = OPEV_MAX_PERIOD + 1ull,
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .period = UINT64_MAX,
		  .ret = OPEV_ERR_COUNT_RANGE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_event ev;
		int ret;

		memset(&ev, 0xaa, sizeof(ev));
		ret = opev_software_clock(&ev, rows[i].period);
		if (ret != rows[i].ret)
			fail_msg("row at line %d: %d", rows[i].line, ret);
		if (ret)
			continue;
		if (strcmp(ev.name, "cpu-clock") || ev.kind != OPEV_SOFTWARE_CLOCK ||
		    ev.attr_type != 1 || ev.attr_config != 0 ||
		    ev.attr_config1 || ev.attr_config2 ||
		    ev.period != rows[i].want || ev.exclude_kernel ||
		    ev.exclude_user || ev.op_cpu_type != OPEV_CPU_TIMER ||
		    ev.op_event || ev.op_unit_mask ||
		    strcmp(ev.pmu_name, "perf::PERF_COUNT_SW_CPU_CLOCK"))
			fail_msg("row at line %d: fields", rows[i].line);
		if (rows[i].desc && strcmp(ev.desc, rows[i].desc))
			fail_msg("row at line %d: '%s'", rows[i].line, ev.desc);
	}
	assert_int_equal(opev_software_clock(NULL, 0), -EINVAL);
}

static void test_period(void **state)
{
	static const struct {
		int line;
		enum opev_kind kind;
		uint64_t count;
		int ret;
		uint64_t want;
	} rows[] = {
		{ .line = __LINE__, .kind = OPEV_HARDWARE, .count = 0,
		  .want = OPEV_DEFAULT_PERIOD },
		{ .line = __LINE__, .kind = OPEV_HARDWARE, .count = OPEV_MIN_PERIOD,
		  .want = OPEV_MIN_PERIOD },
		{ .line = __LINE__, .kind = OPEV_HARDWARE, .count = 999,
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .kind = OPEV_HARDWARE, .count = 1,
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .kind = OPEV_HARDWARE, .count = 2147483647,
		  .want = 2147483647 },
		{ .line = __LINE__, .kind = OPEV_HARDWARE, .count = 2147483648u,
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .kind = OPEV_SOFTWARE_CLOCK, .count = 0,
		  .want = OPEV_CLOCK_DEFAULT_NS },
		{ .line = __LINE__, .kind = OPEV_SOFTWARE_CLOCK, .count = 5000,
		  .ret = OPEV_ERR_COUNT_RANGE },
	};
	size_t i;

	(void)state;
	assert_int_equal(OPEV_DEFAULT_PERIOD, 100000);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_event ev = { .name = "ev", .kind = rows[i].kind };
		struct op_err err = { "" };
		int ret = opev_event_set_period(&ev, rows[i].count, &err);

		if (ret != rows[i].ret || (!ret && ev.period != rows[i].want))
			fail_msg("row at line %d: %d period %llu", rows[i].line,
				 ret, (unsigned long long)ev.period);
		if (ret && !strstr(err.msg, "sample count"))
			fail_msg("row at line %d: '%s'", rows[i].line, err.msg);
	}
}

static void test_codes(void **state)
{
	static const struct {
		int line;
		enum opev_style style;
		uint64_t config;
		uint32_t event;
		uint32_t um;
	} rows[] = {
		{ .line = __LINE__, .style = OPEV_STYLE_INTEL, .config = 0x3c,
		  .event = 0x3c, .um = 0 },
		{ .line = __LINE__, .style = OPEV_STYLE_INTEL, .config = 0x412e,
		  .event = 0x2e, .um = 0x41 },
		/* edge, cmask and the like stay out of the OProfile fields */
		{ .line = __LINE__, .style = OPEV_STYLE_INTEL, .config = 0x1c4412e,
		  .event = 0x2e, .um = 0x41 },
		{ .line = __LINE__, .style = OPEV_STYLE_AMD, .config = 0x76,
		  .event = 0x76, .um = 0 },
		{ .line = __LINE__, .style = OPEV_STYLE_AMD, .config = 0xff00,
		  .event = 0, .um = 0xff },
		{ .line = __LINE__, .style = OPEV_STYLE_AMD, .config = 0x1000000d8ull,
		  .event = 0x1d8, .um = 0 },
		{ .line = __LINE__, .style = OPEV_STYLE_AMD, .config = 0xf030003c1ull,
		  .event = 0xfc1, .um = 3 },
		{ .line = __LINE__, .style = OPEV_STYLE_PLAIN, .config = 0x11,
		  .event = 0x11, .um = 0 },
		{ .line = __LINE__, .style = OPEV_STYLE_PLAIN,
		  .config = 0x1234567890ull, .event = 0x34567890, .um = 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_event ev;

		memset(&ev, 0, sizeof(ev));
		opev_event_set_codes(&ev, rows[i].style, rows[i].config);
		if (ev.op_event != rows[i].event || ev.op_unit_mask != rows[i].um)
			fail_msg("row at line %d: 0x%x 0x%x", rows[i].line,
				 ev.op_event, ev.op_unit_mask);
	}
}

static void test_start(void **state)
{
	static const struct {
		int line;
		struct opev_spec spec;
		int ret;
	} rows[] = {
		{ .line = __LINE__, .spec = { .name = "cycles", .kernel = true,
					      .user = true } },
		{ .line = __LINE__, .spec = { .name = "cycles", .user = true } },
		{ .line = __LINE__, .spec = { .name = "cycles" },
		  .ret = OPEV_ERR_NO_MODE },
		/* specs made by hand get the parser's name checks */
		{ .line = __LINE__, .spec = { .name = "a.b", .kernel = true },
		  .ret = OPEV_ERR_BAD_NAME },
		{ .line = __LINE__, .spec = { .name = "", .kernel = true },
		  .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .spec = { .name = "a b", .kernel = true },
		  .ret = OPEV_ERR_BAD_SYNTAX },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_event ev;
		struct op_err err = { "" };
		int ret = opev_event_start(&ev, &rows[i].spec, &err);

		if (ret != rows[i].ret || (ret && !err.msg[0]))
			fail_msg("row at line %d: %d '%s'", rows[i].line, ret,
				 err.msg);
		if (!ret && (strcmp(ev.name, rows[i].spec.name) ||
			     ev.exclude_kernel != !rows[i].spec.kernel ||
			     ev.exclude_user != !rows[i].spec.user))
			fail_msg("row at line %d: fields", rows[i].line);
	}
	/* a name filling the whole array has no NUL: refused, not overrun */
	{
		struct opev_spec spec = { .kernel = true };
		struct opev_event ev;

		memset(spec.name, 'a', sizeof(spec.name));
		assert_int_equal(opev_event_start(&ev, &spec, NULL),
				 OPEV_ERR_NAME_TOO_LONG);
	}
}

static void test_describe(void **state)
{
	static const struct {
		int line;
		bool clock, xk, xu;
		const char *what, *detail, *want;
	} rows[] = {
		{ .line = __LINE__, .what = "w", .want = "ev: w, sample every "
		  "100000 events" },
		{ .line = __LINE__, .what = "w", .xk = true, .want = "ev: w, "
		  "sample every 100000 events, user mode only" },
		{ .line = __LINE__, .what = "w", .xu = true, .detail = "d\ne",
		  .want = "ev: w, sample every 100000 events, kernel mode only: "
			  "d e" },
		{ .line = __LINE__, .what = "w", .clock = true, .want = "ev: w, "
		  "sample every 100000 ns" },
	};
	size_t i;
	char big[1000];

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_event ev = {
			.name = "ev", .period = 100000,
			.kind = rows[i].clock ? OPEV_SOFTWARE_CLOCK : OPEV_HARDWARE,
			.exclude_kernel = rows[i].xk, .exclude_user = rows[i].xu,
		};

		opev_event_describe(&ev, rows[i].what, rows[i].detail);
		if (strcmp(ev.desc, rows[i].want))
			fail_msg("row at line %d: '%s'", rows[i].line, ev.desc);
	}
	/* too long: cut, still terminated */
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	{
		struct opev_event ev = { .name = "ev", .period = 1 };

		opev_event_describe(&ev, "w", big);
		assert_int_equal(strlen(ev.desc), sizeof(ev.desc) - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_software_clock),
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_start),
		cmocka_unit_test(test_describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
