// SPDX-License-Identifier: GPL-2.0-or-later
/* popt option parsing with our error format (see op_popt.h). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "libutil/op_error.h"
#include "libutil/op_popt.h"

int op_usage_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = '\0';
	va_end(ap);
	op_error("%s", msg);
	fprintf(stderr, "hint: see '%s --help'\n", program_invocation_short_name);
	return -1;
}

int op_popt_parse(poptContext *ctxp, int argc, char **argv,
		  const struct poptOption *table, const char *args_help,
		  unsigned flags, op_popt_handler handler, void *data)
{
	poptContext ctx;
	int rc;

	ctx = poptGetContext(program_invocation_short_name, argc,
			     (const char **)argv, table, flags);
	if (args_help)
		poptSetOtherOptionHelp(ctx, args_help);
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		if (handler && handler(rc, ctx, data)) {
			poptFreeContext(ctx);
			*ctxp = NULL;
			return -1;
		}
	}
	if (rc < -1) {
		op_usage_error("%s '%s'", poptStrerror(rc),
			       poptBadOption(ctx, POPT_BADOPTION_NOALIAS));
		poptFreeContext(ctx);
		*ctxp = NULL;
		return -1;
	}
	*ctxp = ctx;
	return 0;
}

const char **op_popt_args(poptContext ctx, int *nr)
{
	static const char *none[] = { NULL };
	const char **args = poptGetArgs(ctx);
	int n = 0;

	if (!args)
		args = none;
	while (args[n])
		n++;
	if (nr)
		*nr = n;
	return args;
}
