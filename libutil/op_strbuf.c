// SPDX-License-Identifier: GPL-2.0-or-later
/* Growable string buffer with a sticky allocation error (see op_strbuf.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

char op_strbuf_empty[1];

void op_strbuf_init(struct op_strbuf *sb)
{
	sb->buf = op_strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	sb->failed = false;
}

void op_strbuf_release(struct op_strbuf *sb)
{
	if (!sb)
		return;
	if (sb->alloc)
		free(sb->buf);
	op_strbuf_init(sb);
}

char *op_strbuf_detach(struct op_strbuf *sb)
{
	char *s;

	if (sb->failed) {
		op_strbuf_release(sb);
		return NULL;
	}
	if (!sb->alloc) {
		s = op_strdup("");
	} else {
		s = sb->buf;
	}
	op_strbuf_init(sb);
	return s;
}

int op_strbuf_grow(struct op_strbuf *sb, size_t extra)
{
	size_t need, want;
	char *p;

	if (sb->failed)
		return -ENOMEM;
	if (!op_add_size(sb->len, extra, &need) || !op_add_size(need, 1, &need))
		goto fail;
	if (need <= sb->alloc)
		return 0;
	want = sb->alloc < 64 ? 64 : sb->alloc;
	while (want < need) {
		if (!op_mul_size(want, 2, &want)) {
			want = need;
			break;
		}
	}
	p = op_realloc(sb->alloc ? sb->buf : NULL, want);
	if (!p)
		goto fail;
	if (!sb->alloc)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = want;
	return 0;
fail:
	sb->failed = true;
	return -ENOMEM;
}

int op_strbuf_add(struct op_strbuf *sb, const void *data, size_t len)
{
	if (op_strbuf_grow(sb, len))
		return -ENOMEM;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int op_strbuf_addch(struct op_strbuf *sb, char c)
{
	return op_strbuf_add(sb, &c, 1);
}

int op_strbuf_addstr(struct op_strbuf *sb, const char *s)
{
	return op_strbuf_add(sb, s, strlen(s));
}

int op_strbuf_vaddf(struct op_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int len;

	if (sb->failed)
		return -ENOMEM;
	/* first try whatever room is left, then grow to the exact need */
	va_copy(cp, ap);
	len = vsnprintf(sb->alloc ? sb->buf + sb->len : NULL,
			sb->alloc ? sb->alloc - sb->len : 0, fmt, cp);
	va_end(cp);
	if (len < 0)
		return -EINVAL;
	if (sb->alloc && (size_t)len < sb->alloc - sb->len) {
		sb->len += (size_t)len;
		return 0;
	}
	if (sb->alloc)
		sb->buf[sb->len] = '\0';	/* undo the truncated attempt */
	if (op_strbuf_grow(sb, (size_t)len))
		return -ENOMEM;
	va_copy(cp, ap);
	len = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (len < 0)
		return -EINVAL;
	sb->len += (size_t)len;
	return 0;
}

int op_strbuf_addf(struct op_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = op_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return ret;
}

void op_strbuf_setlen(struct op_strbuf *sb, size_t len)
{
	if (len > sb->len)
		OP_BUG("op_strbuf_setlen beyond the end (%zu > %zu)", len, sb->len);
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void op_strbuf_reset(struct op_strbuf *sb)
{
	sb->failed = false;
	if (sb->alloc)
		op_strbuf_setlen(sb, 0);
}

void op_strbuf_set_failed(struct op_strbuf *sb)
{
	sb->failed = true;
}
