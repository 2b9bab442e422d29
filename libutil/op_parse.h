/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict number parsing: the whole string must be a number in range, with
 * no sign unless signed, no leading or trailing blanks.  Base 0 accepts
 * decimal, 0x hex and 0 octal as strtoul() does; base 10 or 16 only that.
 * Each returns 0, -EINVAL (not a number, trailing junk) or -ERANGE.
 */
#ifndef OP_PARSE_H
#define OP_PARSE_H

#include <stdint.h>

int op_parse_u64(const char *s, int base, uint64_t max, uint64_t *out);
int op_parse_u32(const char *s, int base, uint32_t *out);
int op_parse_int(const char *s, int base, int min, int max, int *out);

/* the value of hexadecimal digit c, or -1 */
static inline int op_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
