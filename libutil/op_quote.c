// SPDX-License-Identifier: GPL-2.0-or-later
/* Quoting untrusted text for messages (see op_quote.h). */
#include "config.h"

#include <string.h>

#include "libutil/op_quote.h"

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
