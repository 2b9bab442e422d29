// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Encoding on this machine, whatever its PMU: the software clocks, perf's
 * generic events, unknown and unrecordable events, period limits, specs
 * made by hand, a NULL context, the default event and allocation
 * failures.  test_opev_pmu.c checks exact PMU encodings under a forced
 * PMU.
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

#define MACHINE UINT32_MAX	/* row value: this machine's cpu type */

static struct opev_ctx *ctx;

static void test_ctx(void **state)
{
	(void)state;
	assert_non_null(opev_cpu_name(opev_ctx_cpu_type(ctx)));
#if defined(__x86_64__) || defined(__i386__)
	assert_int_not_equal(opev_ctx_cpu_type(ctx), OPEV_CPU_TIMER);
#endif
	assert_int_equal(opev_ctx_cpu_type(NULL), OPEV_CPU_TIMER);
	opev_ctx_free(NULL);
}

static void test_rows(void **state)
{
	static const struct {
		int line;
		const char *spec;
		int ret;
		enum opev_kind kind;
		uint32_t type;
		uint64_t config;
		uint64_t period;
		uint32_t cpu_type;
		const char *desc;	/* exact, when given */
		const char *msg;	/* exact error, when given */
	} rows[] = {
		{ .line = __LINE__, .spec = "cpu-clock", .kind = OPEV_SOFTWARE_CLOCK,
		  .type = 1, .config = 0, .period = 250000, .cpu_type = 4,
		  .desc = "cpu-clock: CPU time clock (software event), sample "
			  "every 250000 ns" },
		{ .line = __LINE__, .spec = "task-clock:100000:0:0:1",
		  .kind = OPEV_SOFTWARE_CLOCK, .type = 1, .config = 1,
		  .period = 100000, .cpu_type = 4,
		  .desc = "task-clock: task time clock (software event), sample "
			  "every 100000 ns, user mode only" },
		{ .line = __LINE__, .spec = "cpu-clock:10000",
		  .kind = OPEV_SOFTWARE_CLOCK, .type = 1, .config = 0,
		  .period = 10000, .cpu_type = 4 },
		{ .line = __LINE__, .spec = "cpu-clock:9999",
		  .ret = OPEV_ERR_COUNT_RANGE,
		  .msg = "sample count 9999 of 'cpu-clock' is out of range "
			 "(10000 to 2147483647 ns)" },
		{ .line = __LINE__, .spec = "cpu-clock:10000:0",
		  .kind = OPEV_SOFTWARE_CLOCK, .type = 1, .config = 0,
		  .period = 10000, .cpu_type = 4 },
		{ .line = __LINE__, .spec = "cpu-clock:10000:1",
		  .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .spec = "task-clock::ANY",
		  .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .spec = "cycles", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 0, .period = 100000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "cpu-cycles:2000", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 0, .period = 2000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "instructions:50000", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 1, .period = 50000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "cache-misses", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 3, .period = 100000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "branch-misses", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 5, .period = 100000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "ref-cycles", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 9, .period = 100000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "cycles:999", .ret = OPEV_ERR_COUNT_RANGE,
		  .msg = "sample count 999 of 'cycles' is out of range (1000 to "
			 "2147483647 events)" },
		{ .line = __LINE__, .spec = "cycles:1000", .kind = OPEV_HARDWARE,
		  .type = 0, .config = 0, .period = 1000, .cpu_type = MACHINE },
		{ .line = __LINE__, .spec = "cycles:1000:0x1",
		  .ret = OPEV_ERR_BAD_UNIT_MASK,
		  .msg = "bad unit mask for event 'cycles': perf's generic events "
			 "have none" },
		{ .line = __LINE__, .spec = "NO_SUCH_EVENT_XYZ",
		  .ret = OPEV_ERR_UNKNOWN_EVENT,
		  .msg = "unknown event 'NO_SUCH_EVENT_XYZ': event not found" },
		{ .line = __LINE__, .spec = "NO_SUCH_EVENT_XYZ:100000:0x1",
		  .ret = OPEV_ERR_UNKNOWN_EVENT },
		{ .line = __LINE__, .spec = "NO_SUCH_EVENT_XYZ::UM",
		  .ret = OPEV_ERR_UNKNOWN_EVENT },
		/* perf's other software events: known, but not recordable */
		{ .line = __LINE__, .spec = "page-faults", .ret = OPEV_ERR_UNKNOWN_EVENT },
		{ .line = __LINE__, .spec = "context-switches",
		  .ret = OPEV_ERR_UNKNOWN_EVENT },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_spec *spec;
		struct opev_event ev;
		struct op_err err = { "" };
		uint32_t cpu = rows[i].cpu_type;
		size_t nr;
		int ret;

		if (opev_parse_list(rows[i].spec, &spec, &nr, &err))
			fail_msg("row at line %d: parse: %s", rows[i].line, err.msg);
		ret = opev_encode(ctx, spec, &ev, &err);
		free(spec);
		if (ret != rows[i].ret)
			fail_msg("row at line %d: %d (%s), want %d: %s",
				 rows[i].line, ret, opev_strerror(ret), rows[i].ret,
				 err.msg);
		if (ret) {
			if (rows[i].msg ? strcmp(err.msg, rows[i].msg) :
			    !err.msg[0] || !!strchr(err.msg, '\n'))
				fail_msg("row at line %d: message '%s'",
					 rows[i].line, err.msg);
			continue;
		}
		if (cpu == MACHINE)
			cpu = opev_ctx_cpu_type(ctx);
		if (ev.kind != rows[i].kind || ev.attr_type != rows[i].type ||
		    ev.attr_config != rows[i].config ||
		    ev.period != rows[i].period || ev.op_cpu_type != cpu)
			fail_msg("row at line %d: kind %d type %u config %llu "
				 "period %llu cpu %u", rows[i].line, ev.kind,
				 ev.attr_type, (unsigned long long)ev.attr_config,
				 (unsigned long long)ev.period, ev.op_cpu_type);
		if (ev.kind == OPEV_SOFTWARE_CLOCK &&
		    (ev.op_event || ev.op_unit_mask))
			fail_msg("row at line %d: clock codes", rows[i].line);
		if (rows[i].desc && strcmp(ev.desc, rows[i].desc))
			fail_msg("row at line %d: desc '%s'", rows[i].line, ev.desc);
		if (!ev.desc[0] || strchr(ev.desc, '\n'))
			fail_msg("row at line %d: desc '%s'", rows[i].line, ev.desc);
	}
}

/* specs not made by the parser get its checks too */
static void test_hand_made(void **state)
{
	static const struct {
		int line;
		struct opev_spec spec;
		int ret;
	} rows[] = {
		{ .line = __LINE__, .spec = { .name = "cycles", .kernel = true } },
		{ .line = __LINE__, .spec = { .name = "cycles" },
		  .ret = OPEV_ERR_NO_MODE },
		{ .line = __LINE__, .spec = { .name = "a.b", .kernel = true },
		  .ret = OPEV_ERR_BAD_NAME },
		{ .line = __LINE__, .spec = { .name = "a:k=0", .kernel = true },
		  .ret = OPEV_ERR_BAD_SYNTAX },
		{ .line = __LINE__, .spec = { .name = "NO_SUCH_EVENT_XYZ",
					      .um_name = "A:k=0", .kernel = true },
		  .ret = OPEV_ERR_BAD_UNIT_MASK },
		{ .line = __LINE__, .spec = { .name = "cpu-clock", .count = 1,
					      .kernel = true },
		  .ret = OPEV_ERR_COUNT_RANGE },
		/* 0 written is refused; 0 not written is the default */
		{ .line = __LINE__, .spec = { .name = "cpu-clock", .has_count = true,
					      .kernel = true },
		  .ret = OPEV_ERR_COUNT_RANGE },
		{ .line = __LINE__, .spec = { .name = "task-clock", .kernel = true } },
		{ .line = __LINE__, .spec = { .name = "cycles", .has_count = true,
					      .kernel = true },
		  .ret = OPEV_ERR_COUNT_RANGE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_event ev;
		struct op_err err = { "" };
		int ret = opev_encode(ctx, &rows[i].spec, &ev, &err);

		if (ret != rows[i].ret || (ret && !err.msg[0]))
			fail_msg("row at line %d: %d '%s'", rows[i].line, ret,
				 err.msg);
	}
	{
		struct opev_spec spec = { .name = "cycles", .user = true };
		struct opev_event ev;

		assert_int_equal(opev_encode(ctx, NULL, &ev, NULL), -EINVAL);
		assert_int_equal(opev_encode(ctx, &spec, NULL, NULL), -EINVAL);
	}
}

/* without a context only the software clocks encode */
static void test_no_ctx(void **state)
{
	static const struct {
		int line;
		const char *name;
		int ret;
	} rows[] = {
		{ .line = __LINE__, .name = "cpu-clock" },
		{ .line = __LINE__, .name = "task-clock" },
		{ .line = __LINE__, .name = "cycles", .ret = OPEV_ERR_PFM_INIT },
		{ .line = __LINE__, .name = "CPU_CLK_UNHALTED",
		  .ret = OPEV_ERR_PFM_INIT },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct opev_spec spec = { .kernel = true, .user = true };
		struct opev_event ev;
		struct op_err err = { "" };
		int ret;

		snprintf(spec.name, sizeof(spec.name), "%s", rows[i].name);
		ret = opev_encode(NULL, &spec, &ev, &err);
		if (ret != rows[i].ret)
			fail_msg("row at line %d: %d '%s'", rows[i].line, ret,
				 err.msg);
	}
	{
		struct opev_event ev;

		assert_int_equal(opev_default_event(NULL, &ev, NULL), -EINVAL);
	}
}

/* OProfile's default if libpfm4 knows a cycles event here, else NO_DEFAULT */
static void test_default(void **state)
{
	struct opev_event ev;
	struct op_err err = { "" };
	int ret;

	(void)state;
	ret = opev_default_event(ctx, &ev, &err);
	if (ret == OPEV_ERR_NO_DEFAULT) {
		assert_non_null(strstr(err.msg, "no default event"));
		return;
	}
	if (ret)
		fail_msg("%d: %s", ret, err.msg);
	assert_true(!strcmp(ev.name, "CPU_CLK_UNHALTED") ||
		    !strcmp(ev.name, "cpu_clk_unhalted") ||
		    !strcmp(ev.name, "CPU_CYCLES") || !strcmp(ev.name, "CYCLES"));
	assert_int_equal(ev.kind, OPEV_HARDWARE);
	assert_int_equal(ev.op_cpu_type, opev_ctx_cpu_type(ctx));
	assert_int_equal(ev.period, 100000);
	assert_false(ev.exclude_kernel || ev.exclude_user);
}

static int count_events(const struct opev_info *info, void *data)
{
	size_t i;

	assert_non_null(info->pmu);
	assert_non_null(info->name);
	assert_non_null(info->desc);
	for (i = 0; i < info->nr_unit_masks; i++)
		assert_non_null(info->um_names[i]);
	++*(size_t *)data;
	return 0;
}

static void test_list(void **state)
{
	size_t nr = 0;

	(void)state;
	assert_int_equal(opev_for_each_event(ctx, count_events, &nr), 0);
	assert_true(nr > 0);
}

static void test_alloc_failures(void **state)
{
	unsigned long k;

	(void)state;
	for (k = 1;; k++) {
		struct opev_ctx *c;
		int err = 1;

		op_alloc_fail_at(k);
		c = opev_ctx_new(&err);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_non_null(c);
			assert_int_equal(err, 0);
			opev_ctx_free(c);
			break;
		}
		op_alloc_fail_at(0);
		if (c || err != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, err);
	}
	assert_true(k > 1);
	/* NULL err is fine */
	opev_ctx_free(opev_ctx_new(NULL));
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
		cmocka_unit_test(test_ctx),
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_hand_made),
		cmocka_unit_test(test_no_ctx),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_alloc_failures),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
