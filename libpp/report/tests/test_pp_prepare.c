// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The preparation every output shares (prepare.c), seen through the
 * outputs on the fixture sessions of pp_test_report.h: -t keeps rows with
 * at least the threshold (a row exactly at it stays), -i/-e by name and
 * glob, --sort by each key and -r, -x; the image column when a shown
 * row's image is not its application's own, the application column when
 * a class has samples of several applications; -t on the call graph;
 * and the annotations' error when nothing is left to show.  Shares are
 * of all samples of the rows built (1000 in session "s"), or with -i/-e
 * of the symbols they select, whatever else (-t, -x) the selection
 * leaves out.
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

#define KALLSYMS_NO_LINES "kernel symbols from kallsyms have no line information " \
	"(a vmlinux with debug information has)\n"
#define P_ONLY "image:/opt/t/prog"	/* the program's */

/* the columns when every kind of row is shown */
#define ALL_COLUMNS \
	"samples  %        image name               app name                 symbol name\n"
#define K_ALPHA "500      50.0000  no-vmlinux               no-vmlinux               alpha\n"
#define K_BETA  "200      20.0000  no-vmlinux               no-vmlinux               beta\n"
#define K_DELTA "50        5.0000  no-vmlinux               no-vmlinux               delta\n"
#define P_PROG  "150      15.0000  prog                     prog                     /opt/t/prog\n"
#define P_GAMMA "60        6.0000  no-vmlinux               prog                     gamma\n"
#define P_ALPHA "40        4.0000  no-vmlinux               prog                     alpha\n"
/* a symbol of session "n" */
#define TIES(name) "10       25.0000  " name "\n"

static const char *const alpha_beta[] = { "alpha", "beta", NULL };
static const char *const alpha[] = { "alpha", NULL };
static const char *const g_glob[] = { "g*", NULL };
static const char *const prog[] = { "/opt/t/prog", NULL };
static const char *const nothing[] = { "nothing", NULL };

static const struct pp_test_out_row rows[] = {
	/* -t: at least the threshold; a row exactly at it (150 of 1000) stays */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .threshold = 15.0 },
	  .text = PP_TEST_HEADER
		  "samples  %        app name                 symbol name\n"
		  "500      50.0000  no-vmlinux               alpha\n"
		  "200      20.0000  no-vmlinux               beta\n"
		  "150      15.0000  prog                     /opt/t/prog\n",
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .threshold = 15.0001 },
	  .text = PP_TEST_HEADER
		  "samples  %        app name                 symbol name\n"
		  "500      50.0000  no-vmlinux               alpha\n"
		  "200      20.0000  no-vmlinux               beta\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* -t on the call graph: the blocks of symbols over it, and in each the
	 * callers and callees with at least 10% of their list (alpha's callee
	 * beta has 5.66%), their shares those of the whole list */
	{ .line = __LINE__, .output = "callgraph", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .o = { .threshold = 10.0 },
	  .text = PP_TEST_HEADER PP_TEST_ARCS_NOTE
		  "samples  %        symbol name\n"
		  PP_TEST_RULE
		  "  20       100.000  delta\n"
		  "500      66.6667  alpha\n"
		  "  500      94.3396  alpha [self]\n"
		  PP_TEST_RULE
		  PP_TEST_CG_BETA
		  PP_TEST_ARCS_S },
	/* -r: the blocks backwards, callers and callees in their own order */
	{ .line = __LINE__, .output = "callgraph", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .o = { .reverse = true, .threshold = 10.0 },
	  .text = PP_TEST_HEADER PP_TEST_ARCS_NOTE
		  "samples  %        symbol name\n"
		  PP_TEST_RULE
		  PP_TEST_CG_BETA
		  "  20       100.000  delta\n"
		  "500      66.6667  alpha\n"
		  "  500      94.3396  alpha [self]\n"
		  PP_TEST_RULE
		  PP_TEST_ARCS_S },
	/* -i and -e: names, globs; shares of the selected symbols' samples,
	 * as OProfile 1.4 gives them (740 and 460 of the 1000 here) */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .include_symbols = alpha_beta },
	  .text = PP_TEST_HEADER ALL_COLUMNS
		  "500      67.5676  no-vmlinux               no-vmlinux               alpha\n"
		  "200      27.0270  no-vmlinux               no-vmlinux               beta\n"
		  "40        5.4054  no-vmlinux               prog                     alpha\n",
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .exclude_symbols = alpha },
	  .text = PP_TEST_HEADER ALL_COLUMNS
		  "200      43.4783  no-vmlinux               no-vmlinux               beta\n"
		  "150      32.6087  prog                     prog                     /opt/t/prog\n"
		  "60       13.0435  no-vmlinux               prog                     gamma\n"
		  "50       10.8696  no-vmlinux               no-vmlinux               delta\n",
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .include_symbols = g_glob },
	  .text = PP_TEST_HEADER ALL_COLUMNS
		  "60       100.000  no-vmlinux               prog                     gamma\n",
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .include_symbols = alpha_beta, .exclude_symbols = alpha },
	  .text = PP_TEST_HEADER
		  "samples  %        app name                 symbol name\n"
		  "200      100.000  no-vmlinux               beta\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* the image column is judged on the rows shown: none of a library here */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .include_symbols = prog },
	  .text = PP_TEST_HEADER
		  "samples  %        app name                 symbol name\n"
		  "150      100.000  prog                     /opt/t/prog\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* --sort and -r; ties broken by the keys the list leaves out, in
	 * OProfile's order (samples, image, application, name, address) */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .sort = { PP_SORT_VMA }, .nr_sort = 1 },
	  .text = PP_TEST_HEADER ALL_COLUMNS P_PROG K_ALPHA P_ALPHA K_BETA P_GAMMA K_DELTA,
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .sort = { PP_SORT_SYMBOL }, .nr_sort = 1 },
	  .text = PP_TEST_HEADER ALL_COLUMNS P_PROG K_ALPHA P_ALPHA K_BETA K_DELTA P_GAMMA,
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .reverse = true },
	  .text = PP_TEST_HEADER ALL_COLUMNS P_ALPHA K_DELTA P_GAMMA P_PROG K_BETA K_ALPHA,
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .sort = { PP_SORT_IMAGE }, .nr_sort = 1 },
	  .text = PP_TEST_HEADER ALL_COLUMNS K_ALPHA K_BETA P_GAMMA K_DELTA P_ALPHA P_PROG,
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .sort = { PP_SORT_APP, PP_SORT_SAMPLE }, .nr_sort = 2 },
	  .text = PP_TEST_HEADER ALL_COLUMNS K_ALPHA K_BETA K_DELTA P_PROG P_GAMMA P_ALPHA,
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" },
	  .o = { .sort = { PP_SORT_APP, PP_SORT_SAMPLE }, .nr_sort = 2, .reverse = true },
	  .text = PP_TEST_HEADER ALL_COLUMNS P_ALPHA P_GAMMA P_PROG K_DELTA K_BETA K_ALPHA,
	  .notes = PP_TEST_MISSING_PROG },
	/* equal samples: by name, not by address (and backwards with -r) */
	{ .line = __LINE__, .output = "symbols", .sessions = { "n" }, .o = { .no_header = true },
	  .text = TIES("alpha") TIES("beta") TIES("delta") TIES("gamma") },
	{ .line = __LINE__, .output = "symbols", .sessions = { "n" },
	  .o = { .no_header = true, .reverse = true },
	  .text = TIES("gamma") TIES("delta") TIES("beta") TIES("alpha") },
	/* --sort vma leaves names out: by address */
	{ .line = __LINE__, .output = "symbols", .sessions = { "n" },
	  .o = { .no_header = true, .sort = { PP_SORT_VMA }, .nr_sort = 1 },
	  .text = TIES("alpha") TIES("beta") TIES("gamma") TIES("delta") },
	/* one application: no app column; its libraries: an image column */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { P_ONLY },
	  	  .text = PP_TEST_HEADER
		  "samples  %        image name               symbol name\n"
		  "150      60.0000  prog                     /opt/t/prog\n"
		  "60       24.0000  no-vmlinux               gamma\n"
		  "40       16.0000  no-vmlinux               alpha\n",
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { P_ONLY },
	  .o = { .include_symbols = prog },
	  .text = PP_TEST_HEADER
		  "samples  %        symbol name\n"
		  "150      100.000  /opt/t/prog\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* -x: the shares of what is left */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { P_ONLY },
	  .o = { .exclude_dependent = true },
	  .text = PP_TEST_HEADER
		  "samples  %        symbol name\n"
		  "150      100.000  /opt/t/prog\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* --merge=lib: the kernel is an application, the program's rows of it too */
	{ .line = __LINE__, .output = "symbols", .sessions = { "s" }, .spec = { P_ONLY },
	  .merge = PP_MERGE_LIB, 	  .text = PP_TEST_HEADER
		  "samples  %        app name                 symbol name\n"
		  "150      60.0000  prog                     /opt/t/prog\n"
		  "60       24.0000  no-vmlinux               gamma\n"
		  "40       16.0000  no-vmlinux               alpha\n",
	  .notes = PP_TEST_MISSING_PROG },
	/*
	 * --- annotations with nothing to show ---
	 * (a symbol is annotated once, its samples summed over applications:
	 * alpha has 540, 54%)
	 */
	{ .line = __LINE__, .output = "assembly", .sessions = { "s" },
	  .o = { .include_symbols = nothing }, .ret = PP_REPORT_ERR_NOTHING,
	  .text = "no symbol with samples passes the filters", .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "assembly", .sessions = { "s" },
	  .o = { .threshold = 54.0001 }, .ret = PP_REPORT_ERR_NOTHING,
	  .text = "no symbol with samples passes the filters and the threshold",
	  .notes = PP_TEST_MISSING_PROG },
	{ .line = __LINE__, .output = "source", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .ret = PP_REPORT_ERR_NOTHING, .text = "no sample has source line information",
	  .notes = KALLSYMS_NO_LINES },
	{ .line = __LINE__, .output = "source", .sessions = { "s" },
	  .o = { .exclude_symbols = nothing }, .ret = PP_REPORT_ERR_NOTHING,
	  .text = "no sample has source line information",
	  .notes = PP_TEST_MISSING_PROG KALLSYMS_NO_LINES },
};

static void test_prepare(void **state)
{
	pp_test_out_rows(*state, rows, sizeof(rows) / sizeof(rows[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prepare),
	};

	return cmocka_run_group_tests(tests, pp_test_fixture_setup, pp_test_fixture_teardown);
}
