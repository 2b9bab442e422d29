/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Untrusted text (file names, names read from sessions) made safe to put
 * in a one-line message.
 */
#ifndef OP_QUOTE_H
#define OP_QUOTE_H

#include <stddef.h>

/*
 * s as printable text on one line: bytes outside ' '..'~' are written
 * %XX (as in sample-file names) and text longer than buf is cut with
 * "...".  Returns buf, which needs at least 8 bytes (a smaller one gets
 * an empty string).
 */
const char *op_quote(char *buf, size_t size, const char *s);

/*
 * s with its control characters (below ' ', and DEL) written \xHH, for
 * names printed in reports, where a newline would split a line and an
 * escape sequence would reach the terminal: a new string (op_malloc), or
 * NULL when s has none (print s itself) or memory runs out (*failed).
 */
char *op_escape_controls(const char *s, int *failed);

#endif
