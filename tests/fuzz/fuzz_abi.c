// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a session's abi file from untrusted bytes.
 * odb_abi_parse() must take any input, count no more bad lines than
 * there are lines, and give keys that the text libdb writes for them
 * (odb_abi_format()) gives back exactly, with no bad line; the file of
 * this build's layout must parse to it.  Nothing may crash or leak.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_abi.h"
#include "tests/fuzz/fuzz.h"

static size_t nr_lines(const char *text, size_t len)
{
	size_t nr = len && text[len - 1] != '\n', i;

	for (i = 0; i < len; i++)
		nr += text[i] == '\n';
	return nr;
}

static void check_round_trip(const struct odb_abi *abi)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_abi again;
	size_t i;

	if (odb_abi_format(abi, &sb)) {
		op_strbuf_release(&sb);
		return;		/* out of memory: nothing to compare */
	}
	odb_abi_parse(sb.buf ? sb.buf : "", sb.len, &again);
	if (again.nr_bad)
		abort();
	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (again.has[i] != abi->has[i] ||
		    (abi->has[i] && again.value[i] != abi->value[i]))
			abort();
	op_strbuf_release(&sb);
}

static void check_native(void)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_abi native, again;
	size_t idx;

	odb_abi_native(&native);
	if (odb_abi_format(&native, &sb)) {
		op_strbuf_release(&sb);
		return;
	}
	odb_abi_parse(sb.buf, sb.len, &again);
	if (again.nr_bad || odb_abi_differs(&again, &native, &idx) ||
	    memcmp(&again, &native, sizeof(again)))
		abort();
	op_strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct odb_abi abi, native;
	size_t idx = ODB_ABI_NR_KEYS;

	odb_abi_parse(text, size, &abi);
	if (abi.nr_bad > nr_lines(text, size))
		abort();
	check_round_trip(&abi);
	odb_abi_native(&native);
	if (odb_abi_differs(&abi, &native, &idx) &&
	    (idx >= ODB_ABI_NR_KEYS || !abi.has[idx] ||
	     abi.value[idx] == native.value[idx]))
		abort();
	check_native();
	return 0;
}
