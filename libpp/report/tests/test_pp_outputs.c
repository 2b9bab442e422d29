// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each text output of the table (outputs.c) run through pp_report_run()
 * on the fixture sessions of pp_test_report.h, its text compared with
 * what the known counts give: the image summary, symbols (with details,
 * addresses, running totals, without header lines), the call graph,
 * and the differential report; the notes each gives; and a differential
 * of profiles with different columns.  The expected texts are worked
 * out from the counts by OProfile's rules (doc/opreport.1): column
 * widths 9 (samples, %, vma), 14 and 11 (running totals), 25 (image,
 * app), at least one blank between columns; shares of the samples in
 * symbols (of all samples in the summary).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/report/pp_report.h"
#include "libpp/report/tests/pp_test_report.h"



/* session "g": 40 of its 100 samples are in gaps */
#define GAP_NOTE "Note: 40 of 100 samples (40.00%) are outside every named symbol: " \
	"shown as [IMAGE 0xFIRST-0xLAST], a row per gap between symbols\n"

static const struct pp_test_out_row out_rows[] = {
	/* --- the image summary: all samples, each application's images --- */
	{ .line = __LINE__, .output = "summary", .sessions = { "s" },
	  .text = PP_TEST_HEADER
		  "        ev:100000|\n"
		  "  samples|      %|\n"
		  "------------------\n"
		  "      750 75.0000 no-vmlinux\n"
		  "      250 25.0000 prog\n"
		  "\t        ev:100000|\n"
		  "\t  samples|      %|\n"
		  "\t------------------\n"
		  "\t      150 60.0000 prog\n"
		  "\t      100 40.0000 no-vmlinux\n" },
	/* -%: an application's images in shares of the whole */
	{ .line = __LINE__, .output = "summary", .sessions = { "s" },
	  .o = { .global_percent = true, .no_header = true },
	  .text = "      750 75.0000 no-vmlinux\n"
		  "      250 25.0000 prog\n"
		  "\t      150 15.0000 prog\n"
		  "\t      100 10.0000 no-vmlinux\n" },
	/* -t selects applications: at least the threshold */
	{ .line = __LINE__, .output = "summary", .sessions = { "s" },
	  .o = { .threshold = 25.0, .no_header = true },
	  .text = "      750 75.0000 no-vmlinux\n"
		  "      250 25.0000 prog\n"
		  "\t      150 60.0000 prog\n"
		  "\t      100 40.0000 no-vmlinux\n" },
	{ .line = __LINE__, .output = "summary", .sessions = { "s" },
	  .o = { .threshold = 25.0001, .no_header = true },
	  .text = "      750 75.0000 no-vmlinux\n" },
	{ .line = __LINE__, .output = "summary", .sessions = { "s" },
	  .o = { .reverse = true, .no_header = true },
	  .text = "      250 25.0000 prog\n"
		  "\t      100 40.0000 no-vmlinux\n"
		  "\t      150 60.0000 prog\n"
		  "      750 75.0000 no-vmlinux\n" },
	/* --- samples outside every symbol: gap rows, shares of all samples,
	 * the header's note; arcs into and out of gaps --- */
	{ .line = __LINE__, .output = "symbols", .sessions = { "g" },
	  .text = PP_TEST_HEADER GAP_NOTE
		  "samples  %        symbol name\n"
		  "60       60.0000  alpha\n"
		  "30       30.0000  [no-vmlinux 0x0-0xfff]\n"
		  "10       10.0000  [no-vmlinux 0x1280-0x12ff]\n" },
	{ .line = __LINE__, .output = "symbols", .sessions = { "g" },
	  .o = { .details = true, .no_header = true },
	  .text = "00001000 60       60.0000  alpha\n"
		  "  00001000 60       100.000\n"
		  "00000000 30       30.0000  [no-vmlinux 0x0-0xfff]\n"
		  "  00000800 25       83.3333\n"
		  "  00000900 5        16.6667\n"
		  "00001280 10       10.0000  [no-vmlinux 0x1280-0x12ff]\n"
		  "  00001290 10       100.000\n" },
	{ .line = __LINE__, .output = "callgraph", .sessions = { "g" },
	  .text = PP_TEST_HEADER GAP_NOTE PP_TEST_ARCS_NOTE
		  "samples  %        symbol name\n"
		  PP_TEST_RULE
		  "  7        100.000  [no-vmlinux 0x0-0xfff]\n"
		  "60       60.0000  alpha\n"
		  "  60       95.2381  alpha [self]\n"
		  "  3         4.7619  [no-vmlinux 0x1280-0x12ff]\n"
		  PP_TEST_RULE
		  "30       30.0000  [no-vmlinux 0x0-0xfff]\n"
		  "  30       81.0811  [no-vmlinux 0x0-0xfff] [self]\n"
		  "  7        18.9189  alpha\n"
		  PP_TEST_RULE
		  "  3        100.000  alpha\n"
		  "10       10.0000  [no-vmlinux 0x1280-0x12ff]\n"
		  "  10       100.000  [no-vmlinux 0x1280-0x12ff] [self]\n"
		  PP_TEST_RULE
		  PP_TEST_ARCS_HEAD
		  "  60       60.0000  63       63.0000  no-vmlinux               alpha\n"
		  "  30       30.0000  37       37.0000  no-vmlinux               [no-vmlinux 0x0-0xfff]\n"
		  "  10       10.0000  10       10.0000  no-vmlinux               [no-vmlinux 0x1280-0x12ff]\n" },
	/* a profile without call-graph files: -c says so */
	{ .line = __LINE__, .output = "callgraph", .sessions = { "n" },
	  .text = PP_TEST_HEADER
		  "Note: the profile has no call-graph samples, so no callers or callees "
		  "are listed: record with operf --callgraph (-g)\n"
		  "samples  %        symbol name\n"
		  PP_TEST_RULE
		  "10       25.0000  alpha\n"
		  "  10       100.000  alpha [self]\n"
		  PP_TEST_RULE
		  "10       25.0000  beta\n"
		  "  10       100.000  beta [self]\n"
		  PP_TEST_RULE
		  "10       25.0000  delta\n"
		  "  10       100.000  delta [self]\n"
		  PP_TEST_RULE
		  "10       25.0000  gamma\n"
		  "  10       100.000  gamma [self]\n"
		  PP_TEST_RULE },
	/* --- symbols: shares of all samples --- */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .text = PP_TEST_HEADER
		  "samples  %        image name               app name                 symbol name\n"
		  "500      50.0000  no-vmlinux               no-vmlinux               alpha\n"
		  "200      20.0000  no-vmlinux               no-vmlinux               beta\n"
		  "150      15.0000  prog                     prog                     /opt/t/prog\n"
		  "60        6.0000  no-vmlinux               prog                     gamma\n"
		  "50        5.0000  no-vmlinux               no-vmlinux               delta\n"
		  "40        4.0000  no-vmlinux               prog                     alpha\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* -x: the applications' own images, shares of their samples */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .exclude_dependent = true },
	  .text = PP_TEST_HEADER
		  "samples  %        app name                 symbol name\n"
		  "500      55.5556  no-vmlinux               alpha\n"
		  "200      22.2222  no-vmlinux               beta\n"
		  "150      16.6667  prog                     /opt/t/prog\n"
		  "50        5.5556  no-vmlinux               delta\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* -d: each address under its symbol, in shares of the symbol */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .o = { .details = true },
	  .text = PP_TEST_HEADER
		  "vma      samples  %        symbol name\n"
		  "00001000 500      66.6667  alpha\n"
		  "  00001000 300      60.0000\n"
		  "  00001010 200      40.0000\n"
		  "00001100 200      26.6667  beta\n"
		  "  00001100 200      100.000\n"
		  "00001300 50        6.6667  delta\n"
		  "  00001300 50       100.000\n" },
	/* -w -a: addresses and running totals */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .o = { .show_address = true, .accumulated = true },
	  .text = PP_TEST_HEADER
		  "vma      samples  cum. samples  %        cum. %     symbol name\n"
		  "00001000 500      500           66.6667  66.6667    alpha\n"
		  "00001100 200      700           26.6667  93.3333    beta\n"
		  "00001300 50       750            6.6667  100.000    delta\n" },
	/* -n: no header lines, no column titles */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .o = { .no_header = true },
	  .text = "500      66.6667  alpha\n"
		  "200      26.6667  beta\n"
		  "50        6.6667  delta\n" },
	/* --- the call graph: callers, the symbol, its callees and itself --- */
	{ .line = __LINE__, .output = "callgraph", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .text = PP_TEST_HEADER PP_TEST_ARCS_NOTE
		  "samples  %        symbol name\n"
		  PP_TEST_RULE
		  PP_TEST_CG_ALPHA
		  PP_TEST_CG_BETA
		  "50        6.6667  delta\n"
		  "  50       62.5000  delta [self]\n"
		  "  20       25.0000  alpha\n"
		  "  10       12.5000  beta\n"
		  PP_TEST_RULE
		  PP_TEST_ARCS_S },
	/* -c honours -x: no call into the kernel from the program */
	{ .line = __LINE__, .output = "callgraph", .sessions = { "s" },
	  .o = { .exclude_dependent = true },
	  .text = PP_TEST_HEADER PP_TEST_ARCS_NOTE
		  "samples  %        app name                 symbol name\n"
		  PP_TEST_RULE
		  "  20       100.000  no-vmlinux               delta\n"
		  "500      55.5556  no-vmlinux               alpha\n"
		  "  500      94.3396  no-vmlinux               alpha [self]\n"
		  "  30        5.6604  no-vmlinux               beta\n"
		  PP_TEST_RULE
		  "  10       25.0000  no-vmlinux               delta\n"
		  "  30       75.0000  no-vmlinux               alpha\n"
		  "200      22.2222  no-vmlinux               beta\n"
		  "  200      100.000  no-vmlinux               beta [self]\n"
		  PP_TEST_RULE
		  "150      16.6667  prog                     /opt/t/prog\n"
		  "  150      100.000  prog                     /opt/t/prog [self]\n"
		  PP_TEST_RULE
		  "50        5.5556  no-vmlinux               delta\n"
		  "  50       62.5000  no-vmlinux               delta [self]\n"
		  "  20       25.0000  no-vmlinux               alpha\n"
		  "  10       12.5000  no-vmlinux               beta\n"
		  PP_TEST_RULE
		  PP_TEST_ARCS_HEAD
		  "  500      55.5556  530      58.8889  no-vmlinux               alpha\n"
		  "  200      22.2222  200      22.2222  no-vmlinux               beta\n"
		  "  150      16.6667  150      16.6667  prog                     /opt/t/prog\n"
		  "  50        5.5556  80        8.8889  no-vmlinux               delta\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* --- the differential: the second's shares, their change --- */
	{ .line = __LINE__, .output = "diff", .sessions = { "s", "s2" }, .spec = { PP_TEST_K_ONLY },
	  /* p-values: the pooled z test (every cell expects 25 or more),
	   * Holm over four, computed apart with Python's math.erfc */
	  .text = PP_TEST_HEADER
		  "Changes: each row's share tested against the first profile's "
		  "(Fisher's exact test at small counts, else the pooled "
		  "two-proportion z test), Holm-corrected over 4 tests at 5 %: "
		  "\"*\" significant, \"~\" within noise; adj. p is the corrected "
		  "p-value\n"
		  "Samples: 750 then 750 (ev:100000): the smallest change found "
		  "with 80 % power is 1.7 points in a 1 % share, 5.2 in a 10 % share\n"
		  "samples  %        diff %    adj. p   sig symbol name\n"
		  "390      52.0000  -22.0000  1.5e-08  *   alpha\n"
		  "300      40.0000  +50.0000  4.3e-08  *   beta\n"
		  "60        8.0000  +++       1.1e-14  *   gamma\n"
		  "50       ---      ---       1.9e-12  *   delta\n" },
	{ .line = __LINE__, .output = "diff", .sessions = { "s", "c" }, .spec = { PP_TEST_K_ONLY },
	  .ret = PP_REPORT_ERR_COLUMNS,
	  .text = "the two profiles of the differential have different columns: "
		  "ev:100000 against cpu:0, cpu:1" },
};

static void test_outputs(void **state)
{
	pp_test_out_rows(*state, out_rows, sizeof(out_rows) / sizeof(out_rows[0]));
}

/* the output each set of modes asks for: the first row of the table */
static void test_choose(void **state)
{
	static const struct {
		int line;
		unsigned modes;
		const char *name;
	} rows[] = {
		{ __LINE__, 0, "summary" },
		{ __LINE__, PP_MODE_SYMBOLS, "symbols" },
		{ __LINE__, PP_MODE_CALLGRAPH, "callgraph" },
		{ __LINE__, PP_MODE_CALLGRAPH | PP_MODE_SYMBOLS, "callgraph" },
		{ __LINE__, PP_MODE_XML, "xml" },
		{ __LINE__, PP_MODE_XML | PP_MODE_SYMBOLS, "xml" },
		{ __LINE__, PP_MODE_XML | PP_MODE_CALLGRAPH, "xml-callgraph" },
		{ __LINE__, PP_MODE_XML | PP_MODE_CALLGRAPH | PP_MODE_SYMBOLS, "xml-callgraph" },
		{ __LINE__, PP_MODE_DIFF, "diff" },
		{ __LINE__, PP_MODE_DIFF | PP_MODE_XML | PP_MODE_CALLGRAPH, "diff" },
		{ __LINE__, PP_MODE_ASSEMBLY, "assembly" },
		{ __LINE__, PP_MODE_SOURCE, "source" },
		{ __LINE__, PP_MODE_ASSEMBLY | PP_MODE_SOURCE, "assembly-source" },
		{ __LINE__, PP_MODE_SOURCE | PP_MODE_SYMBOLS, "symbols" },
		{ __LINE__, PP_MODE_PPROF, "pprof" },
		{ __LINE__, PP_MODE_PPROF | PP_MODE_SYMBOLS | PP_MODE_CALLGRAPH, "pprof" },
	};
	static const char *const names[] = {
		"diff", "xml-callgraph", "xml", "callgraph", "symbols", "assembly-source",
		"assembly", "source", "summary",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pp_output *o = pp_output_choose(rows[i].modes);

		if (!o || strcmp(o->name, rows[i].name))
			fail_msg("row at line %d: %s", rows[i].line, o ? o->name : "(null)");
		if (o != pp_output_find(rows[i].name))
			fail_msg("row at line %d: not the row pp_output_find() gives",
				 rows[i].line);
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct pp_output *o = pp_output_find(names[i]);

		assert_non_null(o);
		assert_string_equal(o->name, names[i]);
		assert_non_null(o->write);
	}
	assert_null(pp_output_find("nope"));
	assert_null(pp_output_find(""));
	/* what each needs */
	assert_true(pp_output_find("diff")->needs & PP_NEEDS_TWO);
	assert_true(pp_output_find("callgraph")->needs & PP_NEEDS_ARCS);
	assert_true(pp_output_find("xml-callgraph")->needs & PP_NEEDS_ARCS);
	assert_false(pp_output_find("xml")->needs & PP_NEEDS_ARCS);
	assert_false(pp_output_find("summary")->needs & PP_NEEDS_SYMBOLS);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(pp_report_strerror(PP_REPORT_ERR_COLUMNS),
			    "the two profiles have different columns");
	assert_string_equal(pp_report_strerror(PP_REPORT_ERR_NOTHING), "nothing to show");
	assert_string_equal(pp_report_strerror(PP_PROFILE_ERR_UNREADABLE),
			    "no sample file could be read");
	assert_string_equal(pp_report_strerror(PP_SYMBOLS_ERR_BAD_OPTIONS),
			    "disassembler options not understood");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, pp_test_fixture_setup, pp_test_fixture_teardown);
}
