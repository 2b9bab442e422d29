/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A growable, always NUL-terminated string buffer.
 *
 *	struct op_strbuf sb = OP_STRBUF_INIT;
 *	op_strbuf_addf(&sb, "%s/%d", dir, n);
 *	op_strbuf_add(&sb, "x", 1);
 *	if (op_strbuf_failed(&sb))
 *		return -ENOMEM;
 *	use(sb.buf);
 *	op_strbuf_release(&sb);
 *
 * Allocation failure is sticky: the first failed growth puts the buffer in
 * an error state in which every later append does nothing, so a caller may
 * build a whole string and check op_strbuf_failed() once.  The appending
 * functions also return 0 or -ENOMEM for callers that check each step.
 * sb.buf is never NULL: an empty buffer points at a static "".
 */
#ifndef OP_STRBUF_H
#define OP_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "libutil/op_error.h"

struct op_strbuf {
	char *buf;		/* the string, NUL-terminated; never NULL */
	size_t len;		/* bytes before the NUL */
	size_t alloc;		/* bytes allocated for buf, 0 while static */
	bool failed;		/* an allocation failed; appends are ignored */
};

extern char op_strbuf_empty[];
#define OP_STRBUF_INIT { .buf = op_strbuf_empty }

/*
 * Put sb in the failed state, as a failed growth would: for callers whose
 * text depends on an allocation of their own that failed.
 */
void op_strbuf_set_failed(struct op_strbuf *sb);

/* make sb empty with nothing allocated */
void op_strbuf_init(struct op_strbuf *sb);
/* free the contents; sb is then as after op_strbuf_init().  NULL is fine. */
void op_strbuf_release(struct op_strbuf *sb);
/*
 * Return the string, which the caller frees with free(), and leave sb
 * empty.  NULL if the buffer failed (sb is then released).
 */
char *op_strbuf_detach(struct op_strbuf *sb);

/* make room for extra more bytes (plus the NUL); 0 or -ENOMEM */
int op_strbuf_grow(struct op_strbuf *sb, size_t extra);
/* append len bytes of data / one char / a C string / printf output */
int op_strbuf_add(struct op_strbuf *sb, const void *data, size_t len);
int op_strbuf_addch(struct op_strbuf *sb, char c);
int op_strbuf_addstr(struct op_strbuf *sb, const char *s);
int op_strbuf_addf(struct op_strbuf *sb, const char *fmt, ...) OP_PRINTF(2, 3);
int op_strbuf_vaddf(struct op_strbuf *sb, const char *fmt, va_list ap);
/* cut to len bytes (len <= sb->len) */
void op_strbuf_setlen(struct op_strbuf *sb, size_t len);
/* empty the string but keep the allocation and clear the error state */
void op_strbuf_reset(struct op_strbuf *sb);

static inline bool op_strbuf_failed(const struct op_strbuf *sb)
{
	return sb->failed;
}

#endif
