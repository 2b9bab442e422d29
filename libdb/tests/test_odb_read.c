// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * struct odb_reader: files read by copy give the nodes and header
 * odb_file_open() gives, by absolute path and relative to a directory, one
 * after another with one reader (the buffer grows and shrinks back to
 * small files), through a mapping above ODB_READER_COPY_MAX; errors are
 * those of odb_file_open() (test_odb_corrupt.c compares every damaged
 * file).  odb_header_read() reads headers alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/tests/odb_test_util.h"
#include "libutil/op_alloc.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;

static int setup(void **state)
{
	(void)state;
	return op_testdir_make(&dir);
}

static int teardown(void **state)
{
	(void)state;
	op_testdir_remove(&dir);
	return 0;
}

/* the reader's snapshot equals what odb_file_open() maps */
static void check_same(const struct odb_snapshot *snap, const char *path)
{
	const struct odb_node *nodes;
	struct odb_file *f;
	size_t nr;

	assert_int_equal(odb_file_open(path, ODB_READ, NULL, &f), 0);
	nodes = odb_file_nodes(f, &nr);
	assert_int_equal(snap->nr, nr);
	assert_memory_equal(snap->nodes, nodes, nr * sizeof(*nodes));
	assert_memory_equal(snap->hdr, odb_file_header(f), sizeof(*snap->hdr));
	odb_file_close(f);
}

static void test_read_sizes(void **state)
{
	static const struct {
		int line;
		size_t nr_keys;
	} rows[] = {
		{ .line = __LINE__, .nr_keys = 0 },
		{ .line = __LINE__, .nr_keys = 1 },
		{ .line = __LINE__, .nr_keys = 127 },
		{ .line = __LINE__, .nr_keys = 128 },
		{ .line = __LINE__, .nr_keys = 5000 },
		{ .line = __LINE__, .nr_keys = 3 },	/* the buffer was bigger */
	};
	struct odb_reader r = ODB_READER_INIT;
	char path[PATH_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct odb_snapshot snap;
		char name[32];

		snprintf(name, sizeof(name), "f%zu", i);
		op_testdir_file(&dir, name, path, sizeof(path));
		assert_int_equal(odb_test_write_keys(path, 0x400000, rows[i].nr_keys), 0);
		if (odb_reader_read(&r, AT_FDCWD, path, &snap))
			fail_msg("row at line %d: cannot read", rows[i].line);
		if (snap.nr != rows[i].nr_keys)
			fail_msg("row at line %d: %zu nodes", rows[i].line, snap.nr);
		assert_null(r.mapped);
		check_same(&snap, path);
	}
	odb_reader_release(&r);
	odb_reader_release(&r);		/* twice is fine */
}

/* a name relative to an open directory; a missing one is -ENOENT */
static void test_read_at(void **state)
{
	struct odb_reader r = ODB_READER_INIT;
	struct odb_snapshot snap;
	struct opd_header hdr, want;
	char path[PATH_MAX];
	int dfd;

	(void)state;
	op_testdir_file(&dir, "rel", path, sizeof(path));
	assert_int_equal(odb_test_write_keys(path, 0x1000, 10), 0);
	dfd = open(dir.path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(odb_reader_read(&r, dfd, "rel", &snap), 0);
	check_same(&snap, path);
	assert_int_equal(odb_reader_read(&r, dfd, "missing", &snap), -ENOENT);
	/* an absolute path ignores the directory */
	assert_int_equal(odb_reader_read(&r, dfd, path, &snap), 0);
	assert_int_equal(snap.nr, 10);
	odb_test_header(&want);
	assert_int_equal(odb_header_read(dfd, "rel", &hdr), 0);
	assert_memory_equal(&hdr, &want, sizeof(hdr));
	assert_int_equal(odb_header_read(AT_FDCWD, path, &hdr), 0);
	assert_int_equal(odb_header_read(dfd, "missing", &hdr), -ENOENT);
	close(dfd);
	odb_reader_release(&r);
}

/* a file above ODB_READER_COPY_MAX is mapped; the next small one copied */
static void test_read_big(void **state)
{
	struct odb_reader r = ODB_READER_INIT;
	struct odb_snapshot snap;
	char big[PATH_MAX], small[PATH_MAX];
	size_t slots = ODB_MIN_NODES, nr;

	(void)state;
	/* a table of S slots holds S - 1 keys: S / 2 keys need S slots */
	while (odb_layout_size(slots) <= ODB_READER_COPY_MAX)
		slots *= 2;
	nr = slots / 2;
	op_testdir_file(&dir, "big", big, sizeof(big));
	op_testdir_file(&dir, "small", small, sizeof(small));
	assert_int_equal(odb_test_write_keys(big, 0, nr), 0);
	assert_int_equal(odb_test_write_keys(small, 0, 2), 0);
	assert_int_equal(odb_reader_read(&r, AT_FDCWD, big, &snap), 0);
	assert_non_null(r.mapped);
	assert_int_equal(snap.nr, nr);
	check_same(&snap, big);
	assert_int_equal(odb_reader_read(&r, AT_FDCWD, small, &snap), 0);
	assert_null(r.mapped);
	assert_true(r.buf_size < ODB_READER_COPY_MAX);
	check_same(&snap, small);
	odb_reader_release(&r);
}

/* allocation failures: -ENOMEM, and the reader still works afterwards */
static void test_read_oom(void **state)
{
	char path[PATH_MAX];
	unsigned long k;

	(void)state;
	op_testdir_file(&dir, "oom", path, sizeof(path));
	assert_int_equal(odb_test_write_keys(path, 0x1000, 1000), 0);
	for (k = 1; k < 20; k++) {
		struct odb_reader r = ODB_READER_INIT;
		struct odb_snapshot snap;
		int ret;

		op_alloc_fail_at(k);
		ret = odb_reader_read(&r, AT_FDCWD, path, &snap);
		op_alloc_fail_at(0);
		if (ret) {
			assert_int_equal(ret, -ENOMEM);
			assert_int_equal(odb_reader_read(&r, AT_FDCWD, path, &snap), 0);
		}
		assert_int_equal(snap.nr, 1000);
		odb_reader_release(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_sizes),
		cmocka_unit_test(test_read_at),
		cmocka_unit_test(test_read_big),
		cmocka_unit_test(test_read_oom),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
