// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Message printing for the tools (see op_error.h).  The program name comes
 * from glibc's program_invocation_short_name, so no tool has to register it.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libutil/op_error.h"

static enum op_msg_level msg_level = OP_MSG_NORMAL;

void op_msg_set_level(enum op_msg_level level)
{
	msg_level = level;
}

enum op_msg_level op_msg_get_level(void)
{
	return msg_level;
}

const char *op_strerror(int errnum)
{
	return strerror(errnum < 0 ? -errnum : errnum);
}

/* One whole line per fprintf() so lines of concurrent processes don't mix. */
static void vreport(const char *severity, int errnum, const char *fmt,
		    va_list ap)
{
	char msg[4096];
	int len;

	len = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (len < 0)
		msg[0] = '\0';
	if (errnum)
		fprintf(stderr, "%s: %s%s: %s\n", program_invocation_short_name,
			severity, msg, op_strerror(errnum));
	else
		fprintf(stderr, "%s: %s%s\n", program_invocation_short_name,
			severity, msg);
}

int op_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", 0, fmt, ap);
	va_end(ap);
	return -1;
}

int op_error_errno(int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", errnum, fmt, ap);
	va_end(ap);
	return -1;
}

void op_warning(const char *fmt, ...)
{
	va_list ap;

	if (msg_level < OP_MSG_NORMAL)
		return;
	va_start(ap, fmt);
	vreport("warning: ", 0, fmt, ap);
	va_end(ap);
}

void op_warning_errno(int errnum, const char *fmt, ...)
{
	va_list ap;

	if (msg_level < OP_MSG_NORMAL)
		return;
	va_start(ap, fmt);
	vreport("warning: ", errnum, fmt, ap);
	va_end(ap);
}

static void vline(const char *prefix, const char *fmt, va_list ap)
{
	char msg[4096];

	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = '\0';
	fprintf(stderr, "%s%s\n", prefix, msg);
}

void op_hint(const char *fmt, ...)
{
	va_list ap;

	if (msg_level < OP_MSG_NORMAL)
		return;
	va_start(ap, fmt);
	vline("hint: ", fmt, ap);
	va_end(ap);
}

void op_notice(const char *fmt, ...)
{
	va_list ap;

	if (msg_level < OP_MSG_NORMAL)
		return;
	va_start(ap, fmt);
	vline("", fmt, ap);
	va_end(ap);
}

void op_debug(const char *fmt, ...)
{
	va_list ap;

	if (msg_level < OP_MSG_VERBOSE)
		return;
	va_start(ap, fmt);
	vreport("", 0, fmt, ap);
	va_end(ap);
}

void op_debug_phase(const char *what)
{
	static struct timespec t0;
	struct timespec now;

	if (msg_level < OP_MSG_VERBOSE)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!t0.tv_sec && !t0.tv_nsec)
		t0 = now;
	op_debug("%7.2f ms: %s", (double)(now.tv_sec - t0.tv_sec) * 1e3 +
		 (double)(now.tv_nsec - t0.tv_nsec) / 1e6, what);
}

void op_debug2(const char *fmt, ...)
{
	va_list ap;

	if (msg_level < OP_MSG_DEBUG)
		return;
	va_start(ap, fmt);
	vreport("", 0, fmt, ap);
	va_end(ap);
}

void op_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", 0, fmt, ap);
	va_end(ap);
	exit(status);
}

void op_die_errno(int status, int errnum, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", errnum, fmt, ap);
	va_end(ap);
	exit(status);
}

void op_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	if (vsnprintf(msg, sizeof(msg), fmt, ap) < 0)
		msg[0] = '\0';
	va_end(ap);
	fprintf(stderr, "%s: BUG: %s:%d: %s\n", program_invocation_short_name,
		file, line, msg);
	abort();
}

void op_err_set(struct op_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	if (vsnprintf(err->msg, sizeof(err->msg), fmt, ap) < 0)
		err->msg[0] = '\0';
	va_end(ap);
}
