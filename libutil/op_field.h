/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Blank-separated fields of the session's small text files (comms,
 * buildids): a field that may hold anything (a path, a process name) is
 * written with bytes outside printable ASCII, blanks and backslashes as
 * \xHH, so a line splits on blanks and a name with a newline or a space
 * survives.
 */
#ifndef OP_FIELD_H
#define OP_FIELD_H

#include "libutil/op_strbuf.h"

/* append s to sb escaped as a field */
void op_field_add(struct op_strbuf *sb, const char *s);

/*
 * The text of field f (\xHH escapes undone; a \x00 ends it), new memory
 * the caller frees, or NULL when memory runs out.
 */
char *op_field_text(const char *f);

#endif
