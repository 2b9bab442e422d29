// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: symbol names from untrusted binaries.  The input is a raw
 * name (up to the first NUL) and, after it, demangled text for the smart
 * rules alone.  pp_demangle() must give NULL or a string in every mode,
 * the same NULL-ness for normal and smart, never more for none; smart
 * never makes a name longer than normal does; the rules on any text give
 * a string no longer than it.  Nothing may crash, hang or leak.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_demangle.h"
#include "tests/fuzz/fuzz.h"

#define MAX_INPUT 4096		/* longer names prove nothing more */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *none, *normal, *smart, *rules;
	size_t raw_len;

	if (size > MAX_INPUT)
		return 0;
	buf = malloc(size + 2);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	raw_len = strlen(buf);

	none = pp_demangle(buf, PP_DEMANGLE_NONE);
	normal = pp_demangle(buf, PP_DEMANGLE_NORMAL);
	smart = pp_demangle(buf, PP_DEMANGLE_SMART);
	if (none)
		abort();
	if (!normal != !smart)
		abort();
	if (normal && strlen(smart) > strlen(normal))
		abort();
	free(normal);
	free(smart);

	/* the text after the name's NUL, as if libiberty had made it */
	if (raw_len < size) {
		const char *text = buf + raw_len + 1;

		rules = pp_demangle_smart(text);
		if (!rules || strlen(rules) > strlen(text))
			abort();
		free(rules);
	}
	free(buf);
	return 0;
}
