/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages for the tools.  Only the layer that gives up prints: libraries
 * return error codes and fill a struct op_err; mains report through the
 * functions here.
 *
 * Every message is one line on stderr shaped as
 *	PROGRAM: SEVERITY: what failed 'subject': system reason
 * where PROGRAM is the short name the process was started with.  A line
 * starting "hint:" may follow when the user can fix the problem.
 */
#ifndef OP_ERROR_H
#define OP_ERROR_H

#include <stddef.h>

#define OP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define OP_NORETURN __attribute__((noreturn))

/* Message levels, in increasing verbosity, set once by a tool's main. */
enum op_msg_level {
	OP_MSG_QUIET = 0,	/* errors only */
	OP_MSG_NORMAL = 1,	/* errors, warnings, hints */
	OP_MSG_VERBOSE = 2,	/* plus op_debug() output */
	OP_MSG_DEBUG = 3,	/* plus op_debug2() output */
};

/*
 * Set the verbosity of all later messages (default OP_MSG_NORMAL).  The one
 * piece of process-wide state in this module: a tool's main sets it from its
 * -q/-V options before doing anything else.
 */
void op_msg_set_level(enum op_msg_level level);
enum op_msg_level op_msg_get_level(void);

/* Print "PROGRAM: error: ..." and return -1, so "return op_error(...)" works. */
int op_error(const char *fmt, ...) OP_PRINTF(1, 2);
/* The same, followed by ": strerror(errnum)".  errnum may be negative. */
int op_error_errno(int errnum, const char *fmt, ...) OP_PRINTF(2, 3);

/* "PROGRAM: warning: ...", unless the level is OP_MSG_QUIET. */
void op_warning(const char *fmt, ...) OP_PRINTF(1, 2);
void op_warning_errno(int errnum, const char *fmt, ...) OP_PRINTF(2, 3);

/* "hint: ..." on its own line, unless the level is OP_MSG_QUIET. */
void op_hint(const char *fmt, ...) OP_PRINTF(1, 2);

/* A line of output to stderr at level OP_MSG_NORMAL or above, unprefixed. */
void op_notice(const char *fmt, ...) OP_PRINTF(1, 2);

/* "PROGRAM: ..." debug lines, printed at OP_MSG_VERBOSE / OP_MSG_DEBUG. */
void op_debug(const char *fmt, ...) OP_PRINTF(1, 2);
void op_debug2(const char *fmt, ...) OP_PRINTF(1, 2);
/* -V: "   12.34 ms: what", the time since the first call, at each phase */
void op_debug_phase(const char *what);

/* "PROGRAM: fatal: ..." then exit(status). */
OP_NORETURN void op_die(int status, const char *fmt, ...) OP_PRINTF(2, 3);
OP_NORETURN void op_die_errno(int status, int errnum, const char *fmt, ...)
	OP_PRINTF(3, 4);

/* An impossible state: prints file:line and the message, then aborts. */
#define OP_BUG(...) op_bug(__FILE__, __LINE__, __VA_ARGS__)
OP_NORETURN void op_bug(const char *file, int line, const char *fmt, ...)
	OP_PRINTF(3, 4);

/*
 * Detail from a library call: one line the caller may print.  Libraries
 * take an optional "struct op_err *" and write into it with op_err_set();
 * a NULL pointer means the caller does not want the detail.
 */
struct op_err {
	char msg[512];
};

void op_err_set(struct op_err *err, const char *fmt, ...) OP_PRINTF(2, 3);

/* strerror() that also accepts negative error numbers (-ENOENT). */
const char *op_strerror(int errnum);

#endif
