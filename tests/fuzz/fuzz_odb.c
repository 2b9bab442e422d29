// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a sample file from untrusted bytes.  Opens it read-only and
 * iterates it; if it opens, also opens it for writing and adds keys enough
 * to grow the table, then reads the result back.  Nothing may crash, hang
 * or leak, and a file that opened must stay valid after writing.
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "libdb/odb.h"
#include "libutil/op_file.h"
#include "tests/fuzz/fuzz.h"

static char path[PATH_MAX];

static void make_path(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/fuzz_odb.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/f", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct odb_file *f;
	odb_key_t key;
	odb_value_t value;
	uint64_t total = 0, before;
	struct odb_iter it;
	int i;

	if (!path[0])
		make_path();
	if (op_write_file_atomic(path, data, size, 0644))
		abort();
	if (odb_file_open(path, ODB_READ, NULL, &f))
		return 0;
	it = odb_iter_init(f);
	while (odb_iter_next(&it, &key, &value))
		total += value;
	odb_file_close(f);
	if (odb_file_open(path, ODB_WRITE, NULL, &f))
		abort();	/* it opened for reading a moment ago */
	for (i = 0; i < 200; i++)
		if (odb_file_add(f, (odb_key_t)i * 0x10001, 1))
			break;
	if (odb_file_close(f))
		abort();
	before = total;
	if (odb_file_open(path, ODB_READ, NULL, &f))
		abort();
	if (odb_file_total(f) != before + (uint64_t)i)
		abort();
	odb_file_close(f);
	return 0;
}
