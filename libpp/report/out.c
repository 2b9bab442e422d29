// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A buffer in front of the report's stream (report_int.h, struct pp_out):
 * outputs that write many small pieces (XML writes an element in a dozen
 * of them) append to memory and reach the stream in large writes, without
 * a stdio call and its lock per piece.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libpp/report/report_int.h"

void pp_out_init(struct pp_out *o, FILE *f)
{
	o->f = f;
	o->len = 0;
}

void pp_out_flush(struct pp_out *o)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, o->f);
	o->len = 0;
}

void pp_out_add(struct pp_out *o, const char *s, size_t len)
{
	if (o->len + len > sizeof(o->buf)) {
		pp_out_flush(o);
		if (len > sizeof(o->buf)) {
			fwrite(s, 1, len, o->f);
			return;
		}
	}
	memcpy(o->buf + o->len, s, len);
	o->len += len;
}

void pp_out_str(struct pp_out *o, const char *s)
{
	pp_out_add(o, s, strlen(s));
}

void pp_out_ch(struct pp_out *o, char c)
{
	if (o->len == sizeof(o->buf))
		pp_out_flush(o);
	o->buf[o->len++] = c;
}

void pp_out_u64(struct pp_out *o, uint64_t value)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	pp_out_add(o, buf + i, sizeof(buf) - i);
}

void pp_out_fmt(struct pp_out *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		pp_out_add(o, small, (size_t)n);
		return;
	}
	pp_out_flush(o);
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
}
