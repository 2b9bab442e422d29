/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the output tests share: fixture sessions with exactly known
 * counts, written in a fresh directory, whose kernel symbols come from a
 * kallsyms file of the test's own (so every symbol's extent is known);
 * running an output of the table on their profiles into a memory stream;
 * and comparing a report with the text expected, line by line.  Each
 * helper fails the running cmocka test on error.
 *
 * The sessions (event "ev", count 100000, i386/skylake at 2400 MHz):
 *
 *  "s": the kernel's own samples (application {kern}/no-vmlinux): alpha
 *	500, beta 200, delta 50, and 250 below every symbol; a program
 *	/opt/t/prog (missing: one artificial symbol) 150 in itself and 100
 *	in the kernel (alpha 40, gamma 60).  Calls in the kernel: delta ->
 *	alpha 20, delta -> beta 10, alpha -> beta 30; the program into
 *	the kernel's alpha 5.  Samples in symbols: 1000, in all 1250.
 *  "s2": the kernel alone: alpha 390, beta 300, gamma 60 (750).
 *  "c": the kernel by cpu: cpu 0 alpha 10, cpu 1 beta 20.
 *  "t": the kernel by thread: process 10, its thread 10 alpha 5, its
 *	thread 11 beta 7.
 *  "n": the kernel alone, alpha, beta, gamma and delta 10 each (address
 *	order is not name order).
 */
#ifndef PP_TEST_REPORT_H
#define PP_TEST_REPORT_H

#include <stddef.h>

#include "libpp/profile/tests/pp_test_session.h"
#include "libpp/report/pp_report.h"
#include "tests/lib/op_testdir.h"

/* kernel symbols: alpha 0x1000-0x1100, beta -0x1200, gamma -0x1280,
 * (a gap), delta 0x1300-0x1400 */
#define PP_TEST_KALLSYMS						\
	"0000000000001000 T alpha\n"					\
	"0000000000001100 T beta\n"					\
	"0000000000001200 t gamma\n"					\
	"0000000000001280 D data_gap\n"					\
	"0000000000001300 T delta\n"					\
	"0000000000001400 D the_end\n"

/* the header lines of every report of the sessions */
#define PP_TEST_HEADER							\
	"CPU: Intel Skylake microarchitecture, speed 2400 MHz (estimated)\n"		\
	"Counted ev events with a unit mask of 0x00 count 100000\n"

/* the note about session "s"'s missing program, for every symbol output */
#define PP_TEST_MISSING_PROG \
	"cannot find '/opt/t/prog'; its samples are counted under the image" \
	" (moved? --image-path DIR or --root DIR finds it)\n"

/* the specification of the kernel's own samples: alpha 500, beta 200, delta 50 */
#define PP_TEST_K_ONLY "image:no-vmlinux"

/* the call graph of PP_TEST_K_ONLY: the blocks of alpha and beta */
/* -c without a stack file: its note, and the section from the arcs */
#define PP_TEST_ARCS_NOTE						\
	"Note: self and total samples per symbol, after the blocks, come from "	\
	"the call-graph arcs: the session has no readable stack file\n"
#define PP_TEST_ARCS_HEAD						\
	"Self and total samples per symbol, from the call-graph arcs (total: its " \
	"own samples and those of the calls it makes; a call into itself counts " \
	"again):\n"							\
	"  self     %        total    %        image name               symbol name\n"
/* the section of the "s" session's kernel symbols (K_ONLY) */
#define PP_TEST_ARCS_S							\
	PP_TEST_ARCS_HEAD						\
	"  500      66.6667  530      70.6667  no-vmlinux               alpha\n" \
	"  200      26.6667  200      26.6667  no-vmlinux               beta\n" \
	"  50        6.6667  80       10.6667  no-vmlinux               delta\n"
#define PP_TEST_RULE \
	"-------------------------------------------------------------------------------\n"
#define PP_TEST_CG_ALPHA						\
	"  20       100.000  delta\n"					\
	"500      66.6667  alpha\n"					\
	"  500      94.3396  alpha [self]\n"				\
	"  30        5.6604  beta\n"					\
	PP_TEST_RULE
#define PP_TEST_CG_BETA							\
	"  10       25.0000  delta\n"					\
	"  30       75.0000  alpha\n"					\
	"200      26.6667  beta\n"					\
	"  200      100.000  beta [self]\n"				\
	PP_TEST_RULE

struct pp_test_fixture {
	struct op_testdir dir;
	char kallsyms[600];
	struct pp_sym_opts sym_opts;
};

/* cmocka group setup and teardown: *state is the fixture with its sessions */
int pp_test_fixture_setup(void **state);
int pp_test_fixture_teardown(void **state);

/* the profile of session name ("s", "s2", "c", "t", "n") that spec selects (NULL: all) */
void pp_test_fixture_profile(struct pp_test_profile *t, struct pp_test_fixture *f,
			     const char *name, const char *const *spec, unsigned merge);

/*
 * Run the output of that name on profiles t[0..nr) with o, notes going
 * to t[0]'s.  Returns pp_report_run()'s result; *text is what it wrote
 * (caller frees).
 */
int pp_test_report_run(const char *output, struct pp_test_profile *const *t, size_t nr,
		       const struct pp_report_opts *o, char **text, struct op_err *err);
/* the same, with the length of *text (a binary output) in *len */
int pp_test_report_run_len(const char *output, struct pp_test_profile *const *t,
			   size_t nr, const struct pp_report_opts *o, char **text,
			   size_t *len, struct op_err *err);

/* fail (naming the row's line) unless got is want, showing where they part */
void pp_test_same_text(int line, const char *got, const char *want);

/* an output run on fixture sessions, and what it must give */
struct pp_test_out_row {
	int line;
	const char *output;
	const char *sessions[2];	/* a second: the differential's */
	const char *spec[3];		/* of each side, NULL-ended */
	unsigned merge;
	struct pp_report_opts o;
	int ret;
	const char *text;		/* written, or the message with ret */
	const char *notes;		/* every note, each ending in '\n' */
};

/* run each row on the fixture's sessions, checking text, result and notes */
void pp_test_out_rows(struct pp_test_fixture *f, const struct pp_test_out_row *rows,
		      size_t nr);

#endif
