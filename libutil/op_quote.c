// SPDX-License-Identifier: GPL-2.0-or-later
/* Quoting untrusted text for messages (see op_quote.h). */
#include "config.h"

#include <string.h>

#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"

char *op_escape_controls(const char *s, int *failed)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i;
	char *out, *w;

	*failed = 0;
	for (i = 0; s[i]; i++)
		n += (unsigned char)s[i] < ' ' || s[i] == 0x7f;
	if (!n)
		return NULL;
	out = w = op_malloc(i + 3 * n + 1);
	if (!out) {
		*failed = 1;
		return NULL;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= ' ' && c != 0x7f) {
			*w++ = (char)c;
			continue;
		}
		*w++ = '\\';
		*w++ = 'x';
		*w++ = hex[c >> 4];
		*w++ = hex[c & 15];
	}
	*w = '\0';
	return out;
}

const char *op_quote(char *buf, size_t size, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;

	if (size < 8) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* room for "%XX", then "..." and the NUL */
		if (n + 3 + 3 + 1 > size) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		if (c >= ' ' && c <= '~') {
			buf[n++] = (char)c;
			continue;
		}
		buf[n++] = '%';
		buf[n++] = hex[c >> 4];
		buf[n++] = hex[c & 15];
	}
	buf[n] = '\0';
	return buf;
}
