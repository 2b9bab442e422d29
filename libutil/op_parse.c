// SPDX-License-Identifier: GPL-2.0-or-later
/* Strict number parsing on top of strtoull()/strtoll() (see op_parse.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "libutil/op_parse.h"

int op_parse_u64(const char *s, int base, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull() skips blanks and accepts a sign; we want neither */
	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int op_parse_u32(const char *s, int base, uint32_t *out)
{
	uint64_t v;
	int ret = op_parse_u64(s, base, UINT32_MAX, &v);

	if (!ret)
		*out = (uint32_t)v;
	return ret;
}

int op_parse_int(const char *s, int base, int min, int max, int *out)
{
	long long v;
	char *end;

	if (!s || !(isdigit((unsigned char)s[0]) ||
		    (s[0] == '-' && isdigit((unsigned char)s[1]))))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, base);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = (int)v;
	return 0;
}
