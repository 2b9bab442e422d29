// SPDX-License-Identifier: GPL-2.0-or-later
/* Column writing, percentages, counts and source locations for reports. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

const char pp_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/*
 * Values at or below 0.001, "%7.1e" ("9.9e-04"), without printf; near
 * rounding ties it defers to printf as pp_fast_percent() does.
 */
static size_t fast_small_percent(char *buf, size_t size, double value)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
					1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
					1e15, 1e16, 1e17, 1e18, 1e19, 1e20 };
	int e = 3;	/* at most 0.001: m is below 1 for e up to 2 */
	uint32_t r;

	if (value <= 0.0 || value > 0.001 || size < 8)
		return 0;
	/* value = m * 10^-e with 1 <= m < 10 */
	while (e < 20 && value * pow10[e] < 1.0)
		e++;
	if (e >= 20)
		return 0;
	if (!pp_round_clear(value * pow10[e] * 10.0, &r))
		return 0;
	if (r >= 100) {		/* 9.95 rounds up to 1.0e-(e-1) */
		r = 10;
		e--;
	}
	if (r < 10 || e <= 0 || e > 99)
		return 0;
	buf[0] = (char)('0' + r / 10);
	buf[1] = '.';
	buf[2] = (char)('0' + r % 10);
	buf[3] = 'e';
	buf[4] = '-';
	buf[5] = (char)('0' + e / 10);
	buf[6] = (char)('0' + e % 10);
	buf[7] = '\0';
	return 7;
}

void pp_format_count(char *buf, size_t size, uint64_t v)
{
	char tmp[24];
	size_t n = 0, i, len;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	len = n < size ? n : size - 1;	/* the leading digits, if cut */
	for (i = 0; i < len; i++)
		buf[i] = tmp[n - 1 - i];
	buf[len] = '\0';
}

size_t pp_format_percent(char *buf, size_t size, double value, bool showpos)
{
	size_t n;

	if (!showpos && ((n = pp_fast_percent(buf, size, value)) ||
			 (n = fast_small_percent(buf, size, value))))
		return n;
	/* all of the calls, all of a symbol's samples: common in -c */
	if (!showpos && value == 100.0 && size >= 8) {
		memcpy(buf, "100.000", 8);
		return 7;
	}
	if (value == 0.0) {
		snprintf(buf, size, "%7s", "0");
		return strlen(buf);
	}
	if (fabs(value) > 0.001)
		snprintf(buf, size, showpos ? "%+7.4f" : "%7.4f", value);
	else
		snprintf(buf, size, showpos ? "%+7.1e" : "%7.1e", value);
	/* 100.0000 is shown with three decimals, as OProfile does */
	if (!strncmp(buf, "100.", 4) || !strncmp(buf, "+100.", 5))
		buf[strlen(buf) - 1] = '\0';
	return strlen(buf);
}

/* the line so far to the stream, for lines longer than the buffer */
static void line_flush(struct pp_line *l)
{
	fwrite(l->buf, 1, l->len, l->out);
	l->len = 0;
}

static void line_put(struct pp_line *l, const char *s, size_t len)
{
	if (l->len + len > sizeof(l->buf)) {
		line_flush(l);
		if (len > sizeof(l->buf)) {
			fwrite(s, 1, len, l->out);
			return;
		}
	}
	memcpy(l->buf + l->len, s, len);
	l->len += len;
}

void pp_line_start(struct pp_line *l, FILE *out, const char *prefix)
{
	l->out = out;
	l->pad = 0;
	l->len = 0;
	if (prefix)
		line_put(l, prefix, strlen(prefix));
}

void pp_line_field(struct pp_line *l, const char *s, size_t width)
{
	pp_line_field_len(l, s, strlen(s), width);
}

void pp_line_field_len(struct pp_line *l, const char *s, size_t len, size_t width)
{
	static const char blanks[] = "                                        ";
	char *o = pp_line_room(l, len);
	size_t pad = l->pad;

	if (o) {		/* the common case */
		memcpy(o, s, len);
		pp_line_done(l, len, width);
		return;
	}
	while (pad) {
		size_t n = pad < sizeof(blanks) - 1 ? pad : sizeof(blanks) - 1;

		line_put(l, blanks, n);
		pad -= n;
	}
	line_put(l, s, len);
	l->pad = len < width ? width - len : 1;
}

void pp_line_hidden(struct pp_line *l, size_t width)
{
	l->pad += width;
}

void pp_line_end(struct pp_line *l)
{
	line_put(l, "\n", 1);
	line_flush(l);
}

void pp_linenr(struct op_strbuf *sb, struct pp_profile *p, size_t image,
	       uint64_t key, bool long_names)
{
	struct pp_symtab *t = pp_image_symtab(p, image);
	const char *file, *why;
	unsigned line;

	if (pp_symtab_line(t, key, &file, &line, &why) || !file) {
		op_strbuf_addstr(sb, "(no location information)");
		return;
	}
	if (!long_names && strrchr(file, '/'))
		file = strrchr(file, '/') + 1;
	op_strbuf_addf(sb, "%s:%u", file, line);
}

void pp_format_vma(char *buf, size_t size, uint64_t vma, bool vma64)
{
	static const char hex[] = "0123456789abcdef";
	size_t digits = vma64 ? 16 : 8, i;

	if (!vma64 && vma > 0xffffffffull) {	/* wider than the column: all of it */
		snprintf(buf, size, "%" PRIx64, vma);
		return;
	}
	if (size <= digits) {
		if (size)
			buf[0] = '\0';
		return;
	}
	for (i = 0; i < digits; i++)
		buf[i] = hex[(vma >> (4 * (digits - 1 - i))) & 0xf];
	buf[digits] = '\0';
}
