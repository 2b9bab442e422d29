// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Event and unit-mask names.  An event name becomes the EVENT field of
 * every sample file name (oprofile-ng-formats(5)), which OProfile splits on '.'
 * and '/' and reads with a tokenizer that treats '\' as an escape, so we
 * allow only letters, digits, '_' and '-' (perf's names have '-').  Bad
 * input is quoted back in messages as printable text on one line.
 */
#include "config.h"

#include <string.h>

#include "events/opev_int.h"

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int check(const char *p, size_t len, size_t *bad, bool dash)
{
	size_t i;

	*bad = 0;
	if (!len)
		return OPEV_ERR_BAD_SYNTAX;
	for (i = 0; i < len; i++) {
		*bad = i;
		if (p[i] == '.' || p[i] == '/')
			return OPEV_ERR_BAD_NAME;
		if (!is_alnum(p[i]) && p[i] != '_' && !(dash && p[i] == '-'))
			return OPEV_ERR_BAD_SYNTAX;
	}
	*bad = OPEV_NAME_MAX - 1;
	return len < OPEV_NAME_MAX ? 0 : OPEV_ERR_NAME_TOO_LONG;
}

int opev_name_check(const char *p, size_t len, size_t *bad)
{
	return check(p, len, bad, true);
}

int opev_um_name_check(const char *p, size_t len, size_t *bad)
{
	int ret = check(p, len, bad, false);

	/* '.' and '/' are just bad characters in a unit mask name */
	return ret == OPEV_ERR_BAD_NAME ? OPEV_ERR_BAD_SYNTAX : ret;
}

const char *opev_quote(char *buf, size_t size, const char *p, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	if (size < 8) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		/* room for this byte as "\xNN", then "..." and the NUL */
		if (n + 4 + 3 + 1 > size) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		if (c >= ' ' && c <= '~' && c != '\\') {
			buf[n++] = (char)c;
			continue;
		}
		buf[n++] = '\\';
		buf[n++] = 'x';
		buf[n++] = hex[c >> 4];
		buf[n++] = hex[c & 0xf];
	}
	buf[n] = '\0';
	return buf;
}

void opev_copy(char *dst, size_t size, const char *src)
{
	size_t len;

	if (!size)
		return;
	len = strnlen(src, size - 1);
	memcpy(dst, src, len);
	dst[len] = '\0';
}
