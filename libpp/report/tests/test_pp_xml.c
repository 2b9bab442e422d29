// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --xml (the "xml" and "xml-callgraph" rows of the table) on the
 * fixture sessions of pp_test_report.h, compared with the document the
 * known counts give: schema 3.1 as OProfile 1.4 writes it (every element
 * on its own line, an element opened for attributes followed by a blank,
 * each attribute with a leading blank, a count on the line after its
 * <count>), symbols grouped by application (its own image's symbols,
 * then a <module> per other image), ids given at first mention, the
 * symbol table in id order; details, call graphs, classes by cpu, and
 * processes and threads.
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


#define PROFILE_OPEN							\
	"<?xml version=\"1.0\" ?>\n"					\
	"<profile  schemaversion=\"3.1\" cputype=\"i386\"\n"		\
	" processor=\"skylake\"\n"					\
	" mhz=\"2400.00\"\n"						\
	" title=\"opreport \">\n"

#define SETUP								\
	"<setup>\n"							\
	"<eventsetup  id=\"0\" eventname=\"ev\" unitmask=\"0\" setupcount=\"100000\"/>\n" \
	"</setup>\n"							\
	"\n"

/* <count>N</count> and a symbol with only its count */
#define COUNT(n) "<count>\n" #n "</count>\n"
#define SYMBOL(id, n) "<symbol  idref=\"" #id "\">\n" COUNT(n) "</symbol>\n"
#define SYMDATA(id, name, addr) \
	"<symboldata  id=\"" #id "\"  name=\"" name "\"  startingaddr=\"" addr "\"/>\n"

/* the kernel's own samples, as -X shows them */
#define K_BINARY							\
	"<binary  name=\"/no-vmlinux\">\n"				\
	COUNT(750)							\
	SYMBOL(0, 500)							\
	SYMBOL(1, 200)							\
	SYMBOL(2, 50)							\
	"</binary>\n"							\
	"<symboltable>\n"						\
	SYMDATA(0, "alpha", "00001000")					\
	SYMDATA(1, "beta", "00001100")					\
	SYMDATA(2, "delta", "00001300")					\
	"</symboltable>\n"

static const char *const spec_args[] = { "image:no-vmlinux", NULL };

static const struct pp_test_out_row rows[] = {
	{ .line = __LINE__, .output = "xml", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .merge = PP_CLASSES_XML,
	  .text = PROFILE_OPEN "<options />\n" SETUP K_BINARY "</profile>\n" },
	/* XML has its own order: --sort is ignored, with a note */
	{ .line = __LINE__, .output = "xml", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .merge = PP_CLASSES_XML, .o = { .sort = { PP_SORT_VMA }, .nr_sort = 1 },
	  .text = PROFILE_OPEN "<options />\n" SETUP K_BINARY "</profile>\n",
	  .notes = "--sort is ignored with the xml output\n" },
	/* -t: the symbols with at least the threshold */
	{ .line = __LINE__, .output = "xml", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .merge = PP_CLASSES_XML, .o = { .threshold = 20.0 },
	  .text = PROFILE_OPEN "<options />\n" SETUP
		  "<binary  name=\"/no-vmlinux\">\n"
		  COUNT(700)
		  SYMBOL(0, 500)
		  SYMBOL(1, 200)
		  "</binary>\n"
		  "<symboltable>\n"
		  SYMDATA(0, "alpha", "00001000")
		  SYMDATA(1, "beta", "00001100")
		  "</symboltable>\n"
		  "</profile>\n" },
	/* the title and <options> repeat the command line */
	{ .line = __LINE__, .output = "xml", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .merge = PP_CLASSES_XML,
	  .o = { .command_line = "opreport -X image:no-vmlinux", .spec = spec_args,
		 .exclude_dependent = true },
	  .text = "<?xml version=\"1.0\" ?>\n"
		  "<profile  schemaversion=\"3.1\" cputype=\"i386\"\n"
		  " processor=\"skylake\"\n"
		  " mhz=\"2400.00\"\n"
		  " title=\"opreport -X image:no-vmlinux \">\n"
		  "<options  session=\"image:no-vmlinux\" excludedependent=\"true\"/>\n"
		  SETUP K_BINARY "</profile>\n" },
	/* two applications: the program's own symbols, then its module */
	{ .line = __LINE__, .output = "xml", .sessions = { "s" }, .merge = PP_CLASSES_XML,
	  .text = PROFILE_OPEN "<options />\n" SETUP
		  "<binary  name=\"/no-vmlinux\">\n"
		  COUNT(750)
		  SYMBOL(0, 500)
		  SYMBOL(1, 200)
		  SYMBOL(2, 50)
		  "</binary>\n"
		  "<binary  name=\"/opt/t/prog\">\n"
		  COUNT(150)
		  SYMBOL(3, 150)
		  "<module  name=\"/no-vmlinux\">\n"
		  COUNT(100)
		  SYMBOL(4, 60)
		  SYMBOL(0, 40)
		  "</module>\n"
		  "</binary>\n"
		  "<symboltable>\n"
		  SYMDATA(0, "alpha", "00001000")
		  SYMDATA(1, "beta", "00001100")
		  SYMDATA(2, "delta", "00001300")
		  SYMDATA(3, "/opt/t/prog", "00000000")
		  SYMDATA(4, "gamma", "00001200")
		  "</symboltable>\n"
		  "</profile>\n",
	  .notes = PP_TEST_MISSING_PROG },
	/* -d: each address in the detail table; code lengths; no bytes of a kernel */
	{ .line = __LINE__, .output = "xml", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .merge = PP_CLASSES_XML, .o = { .details = true },
	  .text = PROFILE_OPEN "<options  details=\"true\"/>\n" SETUP
		  "<binary  name=\"/no-vmlinux\">\n"
		  COUNT(750)
		  "<symbol  idref=\"0\" detaillo=\"0\" detailhi=\"1\">\n" COUNT(500) "</symbol>\n"
		  "<symbol  idref=\"1\" detaillo=\"0\" detailhi=\"0\">\n" COUNT(200) "</symbol>\n"
		  "<symbol  idref=\"2\" detaillo=\"0\" detailhi=\"0\">\n" COUNT(50) "</symbol>\n"
		  "</binary>\n"
		  "<symboltable>\n"
		  "<symboldata  id=\"0\"  name=\"alpha\"  startingaddr=\"00001000\" codelength=\"256\"/>\n"
		  "<symboldata  id=\"1\"  name=\"beta\"  startingaddr=\"00001100\" codelength=\"256\"/>\n"
		  "<symboldata  id=\"2\"  name=\"delta\"  startingaddr=\"00001300\" codelength=\"256\"/>\n"
		  "</symboltable>\n"
		  "<detailtable>\n"
		  "<symboldetails  id=\"0\">\n"
		  "<detaildata  id=\"0\"  vmaoffset=\"00001000\">\n<count  class=\"\">\n300</count>\n</detaildata>\n"
		  "<detaildata  id=\"1\"  vmaoffset=\"00001010\">\n<count  class=\"\">\n200</count>\n</detaildata>\n"
		  "</symboldetails>\n"
		  "<symboldetails  id=\"1\">\n"
		  "<detaildata  id=\"0\"  vmaoffset=\"00001100\">\n<count  class=\"\">\n200</count>\n</detaildata>\n"
		  "</symboldetails>\n"
		  "<symboldetails  id=\"2\">\n"
		  "<detaildata  id=\"0\"  vmaoffset=\"00001300\">\n<count  class=\"\">\n50</count>\n</detaildata>\n"
		  "</symboldetails>\n"
		  "</detailtable>\n"
		  "<bytestable>\n"
		  "</bytestable>\n"
		  "</profile>\n" },
	/* callers smallest first, callees (and the symbol itself) biggest first */
	{ .line = __LINE__, .output = "xml-callgraph", .sessions = { "s" }, .spec = { PP_TEST_K_ONLY },
	  .merge = PP_CLASSES_XML,
	  .text = PROFILE_OPEN "<options />\n" SETUP
		  "<binary  name=\"/no-vmlinux\">\n"
		  COUNT(750)
		  "<symbol  idref=\"0\">\n"
		  "<callers>\n" SYMBOL(1, 20) "</callers>\n"
		  "<callees>\n"
		  "<symbol  idref=\"0\" self=\"true\">\n" COUNT(500) "</symbol>\n"
		  SYMBOL(2, 30)
		  "</callees>\n"
		  COUNT(500)
		  "</symbol>\n"
		  "<symbol  idref=\"2\">\n"
		  "<callers>\n" SYMBOL(1, 10) SYMBOL(0, 30) "</callers>\n"
		  "<callees>\n"
		  "<symbol  idref=\"2\" self=\"true\">\n" COUNT(200) "</symbol>\n"
		  "</callees>\n"
		  COUNT(200)
		  "</symbol>\n"
		  "<symbol  idref=\"1\">\n"
		  "<callers>\n</callers>\n"
		  "<callees>\n"
		  "<symbol  idref=\"1\" self=\"true\">\n" COUNT(50) "</symbol>\n"
		  SYMBOL(0, 20)
		  SYMBOL(2, 10)
		  "</callees>\n"
		  COUNT(50)
		  "</symbol>\n"
		  "</binary>\n"
		  "<symboltable>\n"
		  SYMDATA(0, "alpha", "00001000")
		  SYMDATA(1, "delta", "00001300")
		  SYMDATA(2, "beta", "00001100")
		  "</symboltable>\n"
		  "</profile>\n" },
	/* classes by cpu: named in <classes>, each count naming its class */
	{ .line = __LINE__, .output = "xml", .sessions = { "c" }, .merge = PP_CLASSES_XML,
	  .text = "<?xml version=\"1.0\" ?>\n"
		  "<profile  schemaversion=\"3.1\" cputype=\"i386\"\n"
		  " processor=\"skylake\"\n"
		  " separatedcpus=\"2\"\n"
		  " mhz=\"2400.00\"\n"
		  " title=\"opreport \">\n"
		  "<options />\n"
		  SETUP
		  "<classes>\n"
		  "<class  name=\"c0\" cpu=\"0\"/>\n"
		  "<class  name=\"c1\" cpu=\"1\"/>\n"
		  "</classes>\n"
		  "<binary  name=\"/no-vmlinux\">\n"
		  "<count  class=\"c0\">\n10</count>\n"
		  "<count  class=\"c1\">\n20</count>\n"
		  "<symbol  idref=\"0\">\n<count  class=\"c0\">\n10</count>\n</symbol>\n"
		  "<symbol  idref=\"1\">\n<count  class=\"c1\">\n20</count>\n</symbol>\n"
		  "</binary>\n"
		  "<symboltable>\n"
		  SYMDATA(0, "alpha", "00001000")
		  SYMDATA(1, "beta", "00001100")
		  "</symboltable>\n"
		  "</profile>\n" },
	/* separated by thread: a process per tgid, a thread per tid */
	{ .line = __LINE__, .output = "xml", .sessions = { "t" }, .merge = PP_CLASSES_XML,
	  .text = PROFILE_OPEN "<options />\n" SETUP
		  "<process  pid=\"10\" name=\"/no-vmlinux\">\n"
		  COUNT(5)
		  COUNT(7)
		  "<thread  tid=\"10\">\n"
		  COUNT(5)
		  "<module  name=\"/no-vmlinux\">\n" COUNT(5) SYMBOL(0, 5) "</module>\n"
		  "</thread>\n"
		  "<thread  tid=\"11\">\n"
		  COUNT(7)
		  "<module  name=\"/no-vmlinux\">\n" COUNT(7) SYMBOL(1, 7) "</module>\n"
		  "</thread>\n"
		  "</process>\n"
		  "<symboltable>\n"
		  SYMDATA(0, "alpha", "00001000")
		  SYMDATA(1, "beta", "00001100")
		  "</symboltable>\n"
		  "</profile>\n" },
};

static void test_xml(void **state)
{
	pp_test_out_rows(*state, rows, sizeof(rows) / sizeof(rows[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml),
	};

	return cmocka_run_group_tests(tests, pp_test_fixture_setup, pp_test_fixture_teardown);
}
