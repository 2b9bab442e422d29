// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Encoding under a PMU that libpfm4 is made to see: built once per PMU
 * with TEST_PMU set to a LIBPFM_FORCE_PMU value, which main() puts in
 * the environment before libpfm4 starts.  Rows carry the PMU they are
 * for; each binary runs its own.  libpfm4's "perf" PMU is hidden when a
 * PMU is forced, so everything here is the core PMU's or our own table's.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"
#include "libutil/op_alloc.h"

#ifndef TEST_PMU
#error "build with -DTEST_PMU='\"skl\"' (a LIBPFM_FORCE_PMU name)"
#endif

static struct opev_ctx *ctx;

/* what each forced PMU makes of the machine */
static const struct {
	const char *pmu;
	uint32_t cpu_type;
	const char *default_name;
	uint64_t default_config;
	const char *default_pmu_name;
} machines[] = {
	{ "skl", 80, "cpu_clk_unhalted", 0x3c, "skl::UNHALTED_CORE_CYCLES" },
	{ "glm", 81, "cpu_clk_unhalted", 0x3c, "glm::UNHALTED_CORE_CYCLES" },
	{ "amd64_fam15h", 53, "CPU_CLK_UNHALTED", 0x76,
	  "amd64_fam15h_interlagos::CPU_CLK_UNHALTED" },
	{ "amd64_fam17h_zen2", 69, "CPU_CLK_UNHALTED", 0x76,
	  "amd64_fam17h_zen2::CYCLES_NOT_IN_HALT" },
	/* libpfm4 looks in this deprecated PMU only when asked by name */
	{ "amd64_fam17h", 69, "CPU_CLK_UNHALTED", 0x76,
	  "amd64_fam17h::CYCLES_NOT_IN_HALT" },
	/* newer than OProfile 1.4: architectural perfmon */
	{ "icl", 41, "CPU_CLK_UNHALTED", 0x3c, "icl::UNHALTED_CORE_CYCLES" },
};

static size_t machine_idx(void)
{
	size_t i;

	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (!strcmp(machines[i].pmu, TEST_PMU))
			return i;
	fail_msg("no machine row for %s", TEST_PMU);
	return 0;
}

static void test_cpu_type(void **state)
{
	size_t m = machine_idx();

	(void)state;
	assert_int_equal(opev_ctx_cpu_type(ctx), machines[m].cpu_type);
}

static void test_default(void **state)
{
	size_t m = machine_idx();
	struct opev_event ev;
	struct op_err err = { "" };
	int ret;

	(void)state;
	ret = opev_default_event(ctx, &ev, &err);
	if (ret)
		fail_msg("%d: %s", ret, err.msg);
	assert_string_equal(ev.name, machines[m].default_name);
	assert_int_equal(ev.kind, OPEV_HARDWARE);
	assert_int_equal(ev.attr_type, 4);
	assert_int_equal(ev.attr_config, machines[m].default_config);
	assert_int_equal(ev.op_cpu_type, machines[m].cpu_type);
	assert_int_equal(ev.op_event, machines[m].default_config);
	assert_int_equal(ev.op_unit_mask, 0);
	assert_int_equal(ev.period, 100000);
	assert_false(ev.exclude_kernel);
	assert_false(ev.exclude_user);
	assert_string_equal(ev.pmu_name, machines[m].default_pmu_name);
	assert_non_null(strstr(ev.desc, "sample every 100000 events"));
}

#define AMD15 "amd64_fam15h"
#define ZEN2 "amd64_fam17h_zen2"

static const struct row {
	int line;
	const char *pmu;	/* the TEST_PMU this row is for */
	const char *spec;	/* one opev_parse_list() item */
	int ret;
	uint32_t type;		/* perf_event_attr */
	uint64_t config;
	uint64_t config1;
	uint32_t event;		/* OProfile */
	uint32_t um;
	uint64_t period;	/* 0: 100000 */
	const char *pmu_name;	/* when given */
	const char *msg;	/* error message, when given */
} rows[] = {
	/* Skylake */
	{ .line = __LINE__, .pmu = "skl", .spec = "CPU_CLK_UNHALTED:100000",
	  .type = 4, .config = 0x3c, .event = 0x3c,
	  .pmu_name = "skl::UNHALTED_CORE_CYCLES" },
	{ .line = __LINE__, .pmu = "skl", .spec = "cpu_clk_unhalted:50000:0",
	  .type = 4, .config = 0x3c, .event = 0x3c, .period = 50000 },
	{ .line = __LINE__, .pmu = "skl", .spec = "CPU_CLK_UNHALTED:100000:REF_P",
	  .type = 4, .config = 0x13c, .event = 0x3c, .um = 1,
	  .pmu_name = "skl::CPU_CLK_THREAD_UNHALTED:REF_P" },
	{ .line = __LINE__, .pmu = "skl", .spec = "INST_RETIRED::ANY_P",
	  .type = 4, .config = 0xc0, .event = 0xc0,
	  .pmu_name = "skl::INST_RETIRED:ANY_P" },
	{ .line = __LINE__, .pmu = "skl", .spec = "INST_RETIRED:100000:0",
	  .type = 4, .config = 0xc0, .event = 0xc0 },
	{ .line = __LINE__, .pmu = "skl", .spec = "inst_retired",
	  .type = 4, .config = 0xc0, .event = 0xc0 },
	{ .line = __LINE__, .pmu = "skl", .spec = "LONGEST_LAT_CACHE:100000:0x41",
	  .type = 4, .config = 0x412e, .event = 0x2e, .um = 0x41,
	  .pmu_name = "skl::LONGEST_LAT_CACHE:MISS" },
	{ .line = __LINE__, .pmu = "skl", .spec = "LONGEST_LAT_CACHE:100000:MISS",
	  .type = 4, .config = 0x412e, .event = 0x2e, .um = 0x41 },
	{ .line = __LINE__, .pmu = "skl", .spec = "LONGEST_LAT_CACHE:100000:79",
	  .type = 4, .config = 0x4f2e, .event = 0x2e, .um = 0x4f },
	{ .line = __LINE__, .pmu = "skl", .spec = "OFFCORE_RESPONSE_0::ANY_REQUEST",
	  .type = 4, .config = 0x1b7, .config1 = 0x18007, .event = 0xb7,
	  .um = 1 },
	{ .line = __LINE__, .pmu = "skl", .spec = "LONGEST_LAT_CACHE",
	  .ret = OPEV_ERR_BAD_UNIT_MASK,
	  .msg = "event 'LONGEST_LAT_CACHE' needs a unit mask: invalid or "
		 "missing unit mask" },
	{ .line = __LINE__, .pmu = "skl", .spec = "LONGEST_LAT_CACHE:100000:0x42",
	  .ret = OPEV_ERR_BAD_UNIT_MASK,
	  .msg = "bad unit mask 0x42 for event 'LONGEST_LAT_CACHE': valid are "
		 "MISS=0x41 REFERENCE=0x4f" },
	{ .line = __LINE__, .pmu = "skl", .spec = "LONGEST_LAT_CACHE:100000:NOPE",
	  .ret = OPEV_ERR_BAD_UNIT_MASK },
	{ .line = __LINE__, .pmu = "skl", .spec = "INST_RETIRED:999",
	  .ret = OPEV_ERR_COUNT_RANGE },
	{ .line = __LINE__, .pmu = "skl", .spec = "DISPATCHED_FPU_OPS",
	  .ret = OPEV_ERR_UNKNOWN_EVENT,
	  .msg = "unknown event 'DISPATCHED_FPU_OPS': event not found" },
	{ .line = __LINE__, .pmu = "skl", .spec = "page-faults",
	  .ret = OPEV_ERR_UNKNOWN_EVENT },
	{ .line = __LINE__, .pmu = "skl", .spec = "cycles",
	  .type = 0, .config = 0, .event = 0x3c,
	  .pmu_name = "perf::PERF_COUNT_HW_CPU_CYCLES" },
	{ .line = __LINE__, .pmu = "skl", .spec = "instructions:20000",
	  .type = 0, .config = 1, .event = 0xc0, .period = 20000 },
	{ .line = __LINE__, .pmu = "skl", .spec = "cache-misses",
	  .type = 0, .config = 3, .event = 0x2e, .um = 0x41 },
	{ .line = __LINE__, .pmu = "skl", .spec = "cache-references",
	  .type = 0, .config = 2, .event = 0x2e, .um = 0x4f },
	{ .line = __LINE__, .pmu = "skl", .spec = "branches",
	  .type = 0, .config = 4, .event = 0xc4 },
	{ .line = __LINE__, .pmu = "skl", .spec = "branch-misses",
	  .type = 0, .config = 5, .event = 0xc5 },
	{ .line = __LINE__, .pmu = "skl", .spec = "bus-cycles",
	  .type = 0, .config = 6, .event = 0 },
	{ .line = __LINE__, .pmu = "skl", .spec = "cycles:1000:0x3c",
	  .ret = OPEV_ERR_BAD_UNIT_MASK },
	/* Goldmont: libpfm4 encodes its CPU_CLK_UNHALTED as event 0 */
	{ .line = __LINE__, .pmu = "glm", .spec = "CPU_CLK_UNHALTED",
	  .type = 4, .config = 0x3c, .event = 0x3c },
	{ .line = __LINE__, .pmu = "glm", .spec = "INST_RETIRED:100000:0",
	  .type = 4, .config = 0xc0, .event = 0xc0 },
	{ .line = __LINE__, .pmu = "glm", .spec = "cycles",
	  .type = 0, .config = 0, .event = 0x3c },
	/* AMD family 15h */
	{ .line = __LINE__, .pmu = AMD15, .spec = "CPU_CLK_UNHALTED:100000:0",
	  .type = 4, .config = 0x76, .event = 0x76 },
	{ .line = __LINE__, .pmu = AMD15, .spec = "RETIRED_INSTRUCTIONS",
	  .type = 4, .config = 0xc0, .event = 0xc0,
	  .pmu_name = "amd64_fam15h_interlagos::RETIRED_INSTRUCTIONS" },
	{ .line = __LINE__, .pmu = AMD15, .spec = "DISPATCHED_FPU_OPS:100000:0xff",
	  .type = 4, .config = 0xff00, .event = 0, .um = 0xff,
	  .pmu_name = "amd64_fam15h_interlagos::DISPATCHED_FPU_OPS:ALL" },
	{ .line = __LINE__, .pmu = AMD15, .spec = "DISPATCHED_FPU_OPS:100000:OPS_PIPE1",
	  .type = 4, .config = 0x200, .event = 0, .um = 2 },
	/* event select 0x1d8: bits 11:8 live in config bits 35:32 */
	{ .line = __LINE__, .pmu = AMD15, .spec = "DISPATCH_STALL_FOR_STQ_FULL",
	  .type = 4, .config = 0x1000000d8ull, .event = 0x1d8 },
	{ .line = __LINE__, .pmu = AMD15, .spec = "CPU_CLK_UNHALTED:100000:REF_P",
	  .ret = OPEV_ERR_BAD_UNIT_MASK,
	  .msg = "bad unit mask 'REF_P' for event 'CPU_CLK_UNHALTED': invalid "
		 "event attribute" },
	{ .line = __LINE__, .pmu = AMD15, .spec = "RETIRED_INSTRUCTIONS:100000:1",
	  .ret = OPEV_ERR_BAD_UNIT_MASK,
	  .msg = "bad unit mask 0x1 for event 'RETIRED_INSTRUCTIONS': it has "
		 "no unit masks" },
	{ .line = __LINE__, .pmu = AMD15, .spec = "INST_RETIRED",
	  .ret = OPEV_ERR_UNKNOWN_EVENT },
	{ .line = __LINE__, .pmu = AMD15, .spec = "cycles",
	  .type = 0, .config = 0, .event = 0x76 },
	{ .line = __LINE__, .pmu = AMD15, .spec = "instructions",
	  .type = 0, .config = 1, .event = 0xc0 },
	{ .line = __LINE__, .pmu = AMD15, .spec = "branch-misses",
	  .type = 0, .config = 5, .event = 0xc3 },
	{ .line = __LINE__, .pmu = AMD15, .spec = "cache-misses",
	  .type = 0, .config = 3, .event = 0 },
	/* AMD Zen 2: OProfile's name, libpfm4's CYCLES_NOT_IN_HALT */
	{ .line = __LINE__, .pmu = ZEN2, .spec = "CPU_CLK_UNHALTED",
	  .type = 4, .config = 0x76, .event = 0x76,
	  .pmu_name = "amd64_fam17h_zen2::CYCLES_NOT_IN_HALT" },
	{ .line = __LINE__, .pmu = ZEN2, .spec = "RETIRED_FUSED_INSTRUCTIONS",
	  .type = 4, .config = 0x1000000d0ull, .event = 0x1d0 },
	{ .line = __LINE__, .pmu = ZEN2, .spec = "cycles",
	  .type = 0, .config = 0, .event = 0x76 },
	{ .line = __LINE__, .pmu = ZEN2, .spec = "CPU_CLK_UNHALTED:100000:1",
	  .ret = OPEV_ERR_UNKNOWN_EVENT },
	{ .line = __LINE__, .pmu = "amd64_fam17h", .spec = "RETIRED_INSTRUCTIONS",
	  .type = 4, .config = 0xc0, .event = 0xc0,
	  .pmu_name = "amd64_fam17h::RETIRED_INSTRUCTIONS" },
	/* Ice Lake: its branch events need a unit mask named */
	{ .line = __LINE__, .pmu = "icl", .spec = "INST_RETIRED:100000:0",
	  .type = 4, .config = 0xc0, .event = 0xc0 },
	{ .line = __LINE__, .pmu = "icl", .spec = "branches",
	  .type = 0, .config = 4, .event = 0xc4 },
	{ .line = __LINE__, .pmu = "icl", .spec = "branch-misses",
	  .type = 0, .config = 5, .event = 0xc5 },
};

static void check_row(const struct row *r, const struct opev_event *ev)
{
	uint64_t period = r->period ? r->period : 100000;

	if (ev->kind != OPEV_HARDWARE || ev->attr_type != r->type ||
	    ev->attr_config != r->config || ev->attr_config1 != r->config1 ||
	    ev->op_cpu_type != opev_ctx_cpu_type(ctx) ||
	    ev->op_event != r->event || ev->op_unit_mask != r->um ||
	    ev->period != period)
		fail_msg("row at line %d: kind %d type %u config 0x%llx/0x%llx "
			 "cpu %u event 0x%x um 0x%x period %llu", r->line,
			 ev->kind, ev->attr_type,
			 (unsigned long long)ev->attr_config,
			 (unsigned long long)ev->attr_config1, ev->op_cpu_type,
			 ev->op_event, ev->op_unit_mask,
			 (unsigned long long)ev->period);
	if (r->pmu_name && strcmp(ev->pmu_name, r->pmu_name))
		fail_msg("row at line %d: pmu_name '%s'", r->line, ev->pmu_name);
	if (!ev->desc[0] || strchr(ev->desc, '\n'))
		fail_msg("row at line %d: desc '%s'", r->line, ev->desc);
}

static void test_rows(void **state)
{
	size_t i, nr_run = 0;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct opev_spec *spec;
		struct opev_event ev;
		struct op_err err = { "" };
		size_t nr;
		int ret;

		if (strcmp(r->pmu, TEST_PMU))
			continue;
		nr_run++;
		ret = opev_parse_list(r->spec, &spec, &nr, &err);
		if (ret)
			fail_msg("row at line %d: parse: %s", r->line, err.msg);
		ret = opev_encode(ctx, spec, &ev, &err);
		if (ret != r->ret)
			fail_msg("row at line %d: %d (%s), want %d: %s", r->line,
				 ret, opev_strerror(ret), r->ret, err.msg);
		if (ret && r->msg && strcmp(err.msg, r->msg))
			fail_msg("row at line %d: '%s'", r->line, err.msg);
		if (ret && (!err.msg[0] || strchr(err.msg, '\n')))
			fail_msg("row at line %d: message '%s'", r->line, err.msg);
		if (!ret) {
			/* the name is the user's, case and all */
			assert_string_equal(ev.name, spec->name);
			check_row(r, &ev);
		}
		free(spec);
	}
	assert_true(nr_run > 0);
}

/* modes go to perf_event_attr; a clock is a clock under any PMU */
static void test_modes_and_clock(void **state)
{
	struct opev_spec spec = { .name = "cycles", .user = true };
	struct opev_event ev;

	(void)state;
	assert_int_equal(opev_encode(ctx, &spec, &ev, NULL), 0);
	assert_true(ev.exclude_kernel);
	assert_false(ev.exclude_user);
	assert_non_null(strstr(ev.desc, ", user mode only"));
	snprintf(spec.name, sizeof(spec.name), "cpu-clock");
	spec.kernel = true;
	spec.user = false;
	assert_int_equal(opev_encode(ctx, &spec, &ev, NULL), 0);
	assert_int_equal(ev.kind, OPEV_SOFTWARE_CLOCK);
	assert_int_equal(ev.op_cpu_type, OPEV_CPU_TIMER);
	assert_false(ev.exclude_kernel);
	assert_true(ev.exclude_user);
}

struct walk {
	size_t nr_events;
	size_t nr_encoded;
	size_t nr_with_um;
};

/* every event libpfm4 lists encodes, or fails with one of our codes */
static int encode_listed(const struct opev_info *info, void *data)
{
	struct walk *w = data;
	struct opev_spec spec = { .kernel = true, .user = true };
	struct opev_event ev;
	struct op_err err = { "" };
	int n, ret;

	w->nr_events++;
	if (strcmp(info->pmu, TEST_PMU) && strncmp(info->pmu, TEST_PMU,
						   strlen(TEST_PMU)))
		fail_msg("event %s of PMU %s listed", info->name, info->pmu);
	n = snprintf(spec.name, sizeof(spec.name), "%s", info->name);
	assert_true(n > 0 && (size_t)n < sizeof(spec.name));
	if (info->nr_unit_masks) {
		w->nr_with_um++;
		assert_non_null(info->um_names[0]);
		assert_non_null(info->um_descs[0]);
		snprintf(spec.um_name, sizeof(spec.um_name), "%s",
			 info->um_names[0]);
		spec.has_unit_mask = true;
	}
	ret = opev_encode(ctx, &spec, &ev, &err);
	if (ret && !(ret > OPEV_ERR_BASE && ret < OPEV_ERR_END))
		fail_msg("%s: %d", info->name, ret);
	if (!ret) {
		w->nr_encoded++;
		assert_int_equal(ev.op_cpu_type, opev_ctx_cpu_type(ctx));
	}
	return 0;
}

static int stop_at_third(const struct opev_info *info, void *data)
{
	int *calls = data;

	(void)info;
	return ++*calls == 3 ? 42 : 0;
}

static void test_list(void **state)
{
	struct walk w = { 0 };
	int calls = 0;

	(void)state;
	assert_int_equal(opev_for_each_event(ctx, encode_listed, &w), 0);
	assert_true(w.nr_events > 20);
	assert_true(w.nr_with_um > 0);
	/* most encode; some need a second unit mask or an attribute */
	assert_true(w.nr_encoded * 2 > w.nr_events);
	assert_int_equal(opev_for_each_event(ctx, stop_at_third, &calls), 42);
	assert_int_equal(calls, 3);
	assert_int_equal(opev_for_each_event(NULL, stop_at_third, &calls),
			 OPEV_ERR_PFM_INIT);
	assert_int_equal(opev_for_each_event(ctx, NULL, NULL), -EINVAL);
}

static int count_events(const struct opev_info *info, void *data)
{
	(void)info;
	++*(size_t *)data;
	return 0;
}

/* a failure at each allocation is -ENOMEM and leaks nothing */
static void test_alloc_failures(void **state)
{
	unsigned long k;

	(void)state;
	for (k = 1;; k++) {
		struct opev_ctx *c;
		size_t nr = 0;
		int err = 1, ret;

		op_alloc_fail_at(k);
		c = opev_ctx_new(&err);
		ret = c ? opev_for_each_event(c, count_events, &nr) : err;
		opev_ctx_free(c);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_true(nr > 0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 2);
}

static int setup(void **state)
{
	int err;

	(void)state;
	ctx = opev_ctx_new(&err);
	return ctx ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	opev_ctx_free(ctx);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_type),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_modes_and_clock),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_alloc_failures),
	};

	/* libpfm4 reads this once, in the first pfm_initialize() */
	if (setenv("LIBPFM_FORCE_PMU", TEST_PMU, 1))
		return 99;
	return cmocka_run_group_tests(tests, setup, teardown);
}
