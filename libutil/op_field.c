// SPDX-License-Identifier: GPL-2.0-or-later
/* Escaped fields of the session's text files (op_field.h). */
#include "config.h"

#include <string.h>

#include "libutil/op_alloc.h"
#include "libutil/op_field.h"
#include "libutil/op_parse.h"

void op_field_add(struct op_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch <= ' ' || ch >= 0x7f || ch == '\\')
			op_strbuf_addf(sb, "\\x%02x", ch);
		else
			op_strbuf_addch(sb, (char)ch);
	}
}

char *op_field_text(const char *f)
{
	char *out = op_malloc(strlen(f) + 1), *w = out;
	int hi, lo;

	if (!out)
		return NULL;
	while (*f) {
		if (f[0] == '\\' && f[1] == 'x' && (hi = op_hex_digit(f[2])) >= 0 &&
		    (lo = op_hex_digit(f[3])) >= 0) {
			*w++ = (char)(hi * 16 + lo);
			f += 4;
		} else {
			*w++ = *f++;
		}
	}
	*w = '\0';
	return out;
}
