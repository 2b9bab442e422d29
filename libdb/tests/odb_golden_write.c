// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper: write the golden key set of golden/golden-spec.py with N
 * keys to a file through libdb.  usage: odb_golden_write N [--big] FILE
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/tests/odb_test_util.h"
#include "libutil/op_parse.h"

int main(int argc, char **argv)
{
	uint64_t nr;
	int big = argc == 4 && !strcmp(argv[2], "--big");
	int ret;

	if ((argc != 3 && !big) || op_parse_u64(argv[1], 10, 100000000, &nr)) {
		fprintf(stderr, "usage: odb_golden_write N [--big] FILE\n");
		return 2;
	}
	ret = odb_test_write_golden(argv[argc - 1], (size_t)nr, big);
	if (ret) {
		fprintf(stderr, "odb_golden_write: %s: %s\n", argv[argc - 1],
			odb_strerror(ret));
		return 1;
	}
	return 0;
}
