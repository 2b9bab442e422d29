// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Byte identity with the format's reference writer: the files in golden/
 * were written by mksamples.py (make-golden.sh); libdb, given the same keys
 * in the same order, must write the same bytes, including across table
 * growth and for counts that need two nodes.  tests/e2e/t0010 does the same
 * for larger tables with mksamples.py run at check time.
 */
#include "config.h"

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/tests/odb_test_util.h"
#include "tests/lib/op_testdir.h"

static void test_golden(void **state)
{
	static const struct {
		int line;
		const char *name;
		size_t nr;
		int big;
	} rows[] = {
		{ .line = __LINE__, .name = "n1.odb", .nr = 1 },
		{ .line = __LINE__, .name = "n127.odb", .nr = 127 },
		{ .line = __LINE__, .name = "n128.odb", .nr = 128 },
		{ .line = __LINE__, .name = "n1000.odb", .nr = 1000 },
		{ .line = __LINE__, .name = "big.odb", .nr = 3, .big = 1 },
	};
	struct op_testdir dir;
	size_t i;

	(void)state;
	assert_int_equal(op_testdir_make(&dir), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char want_path[PATH_MAX], got_path[PATH_MAX];
		unsigned char *want, *got;
		size_t want_len, got_len, off;

		snprintf(want_path, sizeof(want_path), "%s/%s", GOLDEN_DIR, rows[i].name);
		op_testdir_file(&dir, rows[i].name, got_path, sizeof(got_path));
		assert_int_equal(odb_test_write_golden(got_path, rows[i].nr, rows[i].big), 0);
		want = odb_test_slurp(want_path, &want_len);
		got = odb_test_slurp(got_path, &got_len);
		if (!want || !got)
			fail_msg("row at line %d: cannot read files", rows[i].line);
		if (want_len != got_len)
			fail_msg("row at line %d: %zu bytes, want %zu", rows[i].line,
				 got_len, want_len);
		for (off = 0; off < want_len; off++)
			if (want[off] != got[off])
				fail_msg("row at line %d: first difference at byte %zu",
					 rows[i].line, off);
		free(want);
		free(got);
	}
	op_testdir_remove(&dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
