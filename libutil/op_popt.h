/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line parsing through popt, the one place popt is called.  A
 * tool keeps its option table in its main file (ending with POPT_AUTOHELP
 * and POPT_TABLEEND) and calls op_popt_parse(); popt's --help and --usage
 * print and exit 0 themselves.
 */
#ifndef OP_POPT_H
#define OP_POPT_H

#include <popt.h>

/*
 * Parse argv against table.  On success returns 0 and leaves the popt
 * context in *ctxp for op_popt_args(); the caller frees it with
 * poptFreeContext() once it has copied the arguments it keeps.  On a bad
 * option prints "TOOL: error: MESSAGE 'OPTION'" and "hint: see 'TOOL
 * --help'", frees the context and returns -1: the caller exits 2.
 * args_help names the non-option arguments in --help ("[FILE]...").
 * flags: popt context flags, e.g. POPT_CONTEXT_POSIXMEHARDER to stop at
 * the first non-option (a command to run and its own options).
 */
/*
 * Called for every option whose table entry has a non-zero val, with that
 * val; poptGetOptArg(ctx) then returns its argument, which the handler
 * owns (free() it).  Returns 0, or -1 after printing a usage error.
 */
typedef int (*op_popt_handler)(int val, poptContext ctx, void *data);

int op_popt_parse(poptContext *ctxp, int argc, char **argv,
		  const struct poptOption *table, const char *args_help,
		  unsigned flags, op_popt_handler handler, void *data);

/* the non-option arguments, NULL-terminated (empty list when none) */
const char **op_popt_args(poptContext ctx, int *nr);

/* "TOOL: error: ..." plus the --help hint; returns -1 */
int op_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
