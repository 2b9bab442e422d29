// SPDX-License-Identifier: GPL-2.0-or-later
/* The --slice length of operf and opcontrol (odb_slices.h). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "libdb/odb_slices.h"

/* decimal digits with at most 9 after a point, in units of 1e-9 */
static int parse_fixed(const char *p, const char *end, uint64_t *nano)
{
	uint64_t whole = 0, frac = 0;
	unsigned nr_frac = 0, nr_whole = 0;

	for (; p < end && *p >= '0' && *p <= '9'; p++, nr_whole++) {
		if (whole > 1000000000ull)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			if (nr_frac < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nr_frac++;
			}
	if (p != end || (!nr_whole && !nr_frac))
		return -EINVAL;
	for (; nr_frac < 9; nr_frac++)
		frac *= 10;
	*nano = whole * 1000000000ull + frac;
	return 0;
}

int odb_slices_parse_length(const char *text, uint64_t *ns, struct op_err *err)
{
	size_t len = strlen(text);
	uint64_t v, div = 1;
	const char *end = text + len;

	if (len > 2 && !strcmp(end - 2, "ms")) {
		end -= 2;
		div = 1000;
	} else if (len > 1 && end[-1] == 's') {
		end--;
	}
	if (parse_fixed(text, end, &v)) {
		op_err_set(err, "'%s' is not a length of time (seconds such as 1 or "
			   "0.25, or milliseconds such as 100ms)", text);
		return -EINVAL;
	}
	v /= div;
	if (v && (v < ODB_SLICES_MIN_NS || v > ODB_SLICES_MAX_NS)) {
		op_err_set(err, "'%s' is outside the slice lengths allowed, 1ms to "
			   "3600s (0 records no slices)", text);
		return -EINVAL;
	}
	*ns = v;
	return 0;
}
