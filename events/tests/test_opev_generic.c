// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf's generic event names: lookup by name and by (type, config), the
 * equivalent PMU events, and the OProfile names with aliases.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "events/opev.h"
#include "events/opev_int.h"

static void test_by_name(void **state)
{
	static const struct {
		int line;
		const char *name;
		bool found;
		uint32_t type;
		uint64_t config;
		bool clock;
		const char *first_equiv;	/* NULL: none */
	} rows[] = {
		{ .line = __LINE__, .name = "cycles", .found = true,
		  .type = OPEV_TYPE_HARDWARE, .config = 0,
		  .first_equiv = "UNHALTED_CORE_CYCLES" },
		{ .line = __LINE__, .name = "cpu-cycles", .found = true,
		  .type = OPEV_TYPE_HARDWARE, .config = 0,
		  .first_equiv = "UNHALTED_CORE_CYCLES" },
		{ .line = __LINE__, .name = "instructions", .found = true,
		  .type = OPEV_TYPE_HARDWARE, .config = 1,
		  .first_equiv = "INSTRUCTION_RETIRED" },
		{ .line = __LINE__, .name = "cache-misses", .found = true,
		  .type = OPEV_TYPE_HARDWARE, .config = 3,
		  .first_equiv = "LLC_MISSES" },
		{ .line = __LINE__, .name = "branch-misses", .found = true,
		  .type = OPEV_TYPE_HARDWARE, .config = 5,
		  .first_equiv = "MISPREDICTED_BRANCH_RETIRED" },
		{ .line = __LINE__, .name = "ref-cycles", .found = true,
		  .type = OPEV_TYPE_HARDWARE, .config = 9 },
		{ .line = __LINE__, .name = "cpu-clock", .found = true,
		  .type = OPEV_TYPE_SOFTWARE, .config = 0, .clock = true },
		{ .line = __LINE__, .name = "task-clock", .found = true,
		  .type = OPEV_TYPE_SOFTWARE, .config = 1, .clock = true },
		/* perf's names are lower case; others go to libpfm4 */
		{ .line = __LINE__, .name = "CYCLES", .found = false },
		{ .line = __LINE__, .name = "page-faults", .found = false },
		{ .line = __LINE__, .name = "", .found = false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct opev_generic *g = opev_generic_by_name(rows[i].name);

		if (!g != !rows[i].found)
			fail_msg("row at line %d: found %d", rows[i].line, !!g);
		if (!g)
			continue;
		if (g->type != rows[i].type || g->config != rows[i].config ||
		    g->is_clock != rows[i].clock || !g->desc || !g->pfm_name)
			fail_msg("row at line %d: type %u config %llu",
				 rows[i].line, g->type,
				 (unsigned long long)g->config);
		if (rows[i].first_equiv ?
		    !g->equiv || strcmp(g->equiv[0], rows[i].first_equiv) :
		    g->equiv != NULL)
			fail_msg("row at line %d: equivalents", rows[i].line);
		/* and back by config, to an entry of the same meaning */
		assert_true(opev_generic_by_config(g->type, g->config)->config ==
			    g->config);
	}
	assert_null(opev_generic_by_config(OPEV_TYPE_SOFTWARE, 2));
	assert_null(opev_generic_by_config(OPEV_TYPE_RAW, 0));
}

static void test_alias(void **state)
{
	const char *const *a = opev_generic_alias("CPU_CLK_UNHALTED");

	(void)state;
	assert_non_null(a);
	assert_string_equal(a[0], "UNHALTED_CORE_CYCLES");
	assert_ptr_equal(opev_generic_alias("cpu_clk_unhalted"), a);
	assert_null(opev_generic_alias("INST_RETIRED"));
	assert_null(opev_generic_alias("cycles"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_alias),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
