// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libdb: counts in and out, table growth at OProfile's sizes, counts past
 * 2^32, reopening to append, the header, read-only refusals, allocation
 * failures at every step, and a file size limit (as on a full disk).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

static const char *path_of(const char *name)
{
	static char buf[PATH_MAX];

	return op_testdir_file(&dir, name, buf, sizeof(buf));
}

/* growth follows OProfile: S = smallest 128 * 2^k with n + 1 <= S */
static void test_sizes(void **state)
{
	static const struct {
		int line;
		size_t nr_keys;
		size_t slots;
	} rows[] = {
		{ .line = __LINE__, .nr_keys = 0, .slots = 128 },
		{ .line = __LINE__, .nr_keys = 1, .slots = 128 },
		{ .line = __LINE__, .nr_keys = 127, .slots = 128 },
		{ .line = __LINE__, .nr_keys = 128, .slots = 256 },
		{ .line = __LINE__, .nr_keys = 1000, .slots = 1024 },
		{ .line = __LINE__, .nr_keys = 5000, .slots = 8192 },
		{ .line = __LINE__, .nr_keys = 70000, .slots = 131072 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *p = path_of("sizes");
		struct odb_file *f;
		struct stat st;
		size_t nr, k;
		const struct odb_node *nodes;

		unlink(p);
		if (odb_test_write_keys(p, 0x400000, rows[i].nr_keys))
			fail_msg("row at line %d: write failed", rows[i].line);
		assert_int_equal(stat(p, &st), 0);
		if ((uint64_t)st.st_size != odb_layout_size(rows[i].slots))
			fail_msg("row at line %d: size %lld", rows[i].line,
				 (long long)st.st_size);
		assert_int_equal(odb_file_open(p, ODB_READ, NULL, &f), 0);
		assert_int_equal(odb_file_nr_slots(f), rows[i].slots);
		nodes = odb_file_nodes(f, &nr);
		assert_int_equal(nr, rows[i].nr_keys);
		/* nodes stay in insertion order */
		for (k = 0; k < nr; k++) {
			assert_true(nodes[k].key == 0x400000 + k + 1);
			assert_int_equal(nodes[k].value, (k + 1) % 7 + 1);
		}
		assert_int_equal(odb_file_close(f), 0);
	}
}

/* add sequences: the sum per key and the number of nodes used */
static void test_counts(void **state)
{
	static const struct {
		int line;
		struct { uint64_t key, count; } adds[4];
		uint64_t key;
		uint64_t total;
		size_t nodes;
	} rows[] = {
		{ .line = __LINE__, .adds = { { 5, 1 }, { 5, 1 }, { 5, 3 } },
		  .key = 5, .total = 5, .nodes = 1 },
		{ .line = __LINE__, .adds = { { 0, 7 } }, .key = 0, .total = 7, .nodes = 1 },
		{ .line = __LINE__, .adds = { { UINT64_MAX, 2 }, { 1, 1 } },
		  .key = UINT64_MAX, .total = 2, .nodes = 2 },
		/* never wraps: 0xffffffff + 1 continues in a second node */
		{ .line = __LINE__, .adds = { { 9, 0xffffffffu }, { 9, 1 } },
		  .key = 9, .total = 0x100000000ull, .nodes = 2 },
		{ .line = __LINE__, .adds = { { 9, 0xfffffff0u }, { 9, 0x20 }, { 9, 5 } },
		  .key = 9, .total = 0x100000015ull, .nodes = 2 },
		{ .line = __LINE__, .adds = { { 3, 5000000000ull } },
		  .key = 3, .total = 5000000000ull, .nodes = 2 },
		{ .line = __LINE__, .adds = { { 3, 3 * 0x100000000ull } },
		  .key = 3, .total = 3 * 0x100000000ull, .nodes = 4 },
		/* keys that share a bucket (t = hi ^ lo is equal) stay apart */
		{ .line = __LINE__, .adds = { { 0x100000001ull, 4 }, { 0, 1 }, { 0x200000002ull, 2 } },
		  .key = 0x100000001ull, .total = 4, .nodes = 3 },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *p = path_of("counts");
		struct odb_file *f;
		size_t nr;

		unlink(p);
		assert_int_equal(odb_file_open(p, ODB_WRITE, NULL, &f), 0);
		for (j = 0; j < 4 && rows[i].adds[j].count; j++)
			assert_int_equal(odb_file_add(f, rows[i].adds[j].key,
						      rows[i].adds[j].count), 0);
		assert_int_equal(odb_file_close(f), 0);
		assert_int_equal(odb_file_open(p, ODB_READ, NULL, &f), 0);
		odb_file_nodes(f, &nr);
		if (odb_test_count(f, rows[i].key) != rows[i].total || nr != rows[i].nodes)
			fail_msg("row at line %d: total %llu nodes %zu", rows[i].line,
				 (unsigned long long)odb_test_count(f, rows[i].key), nr);
		odb_file_close(f);
	}
}

static uint64_t expect_total(size_t nr)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 1; i <= nr; i++)
		sum += i % 7 + 1;
	return sum;
}

static void test_append_and_header(void **state)
{
	const char *p = path_of("append");
	struct opd_header hdr, hdr2;
	struct odb_file *f;
	const struct opd_header *h;

	(void)state;
	unlink(p);
	assert_int_equal(odb_test_write_keys(p, 0, 200), 0);
	odb_test_header(&hdr2);
	hdr2.ctr_count = 5000;
	hdr2.mtime = 42;
	memset(hdr2.magic, 'x', 4);	/* the library keeps magic and version */
	hdr2.version = 7;
	assert_int_equal(odb_file_open(p, ODB_WRITE, &hdr2, &f), 0);
	assert_int_equal(odb_file_add(f, 1, 10), 0);
	assert_int_equal(odb_file_add(f, 1000, 3), 0);
	assert_int_equal(odb_file_close(f), 0);
	assert_int_equal(odb_file_open(p, ODB_READ, NULL, &f), 0);
	assert_int_equal(odb_test_count(f, 1), 1 % 7 + 1 + 10);
	assert_int_equal(odb_test_count(f, 1000), 3);
	assert_int_equal(odb_file_total(f), expect_total(200) + 13);
	h = odb_file_header(f);
	assert_memory_equal(h->magic, OPD_MAGIC, 4);
	assert_int_equal(h->version, OPD_VERSION);
	assert_int_equal(h->ctr_count, 5000);
	assert_int_equal(h->mtime, 42);
	odb_test_header(&hdr);
	assert_int_equal(odb_file_set_header(f, &hdr), ODB_ERR_READ_ONLY);
	assert_int_equal(odb_file_add(f, 1, 1), ODB_ERR_READ_ONLY);
	assert_int_equal(odb_file_sync(f, true), 0);
	assert_int_equal(odb_file_close(f), 0);
	assert_int_equal(odb_file_close(NULL), 0);
}

static void test_open_errors(void **state)
{
	struct odb_file *f = (void *)1;

	(void)state;
	assert_int_equal(odb_file_open(path_of("missing"), ODB_READ, NULL, &f), -ENOENT);
	assert_null(f);
	assert_int_equal(odb_file_open(path_of("no/such/dir/f"), ODB_WRITE, NULL, &f), -ENOENT);
	assert_int_equal(odb_file_open(dir.path, ODB_READ, NULL, &f), ODB_ERR_NOT_REGULAR);
	assert_int_equal(odb_file_open(dir.path, ODB_WRITE, NULL, &f), -EISDIR);
	assert_string_equal(odb_strerror(ODB_ERR_BAD_MAGIC), "bad magic number");
	assert_string_equal(odb_strerror(-ENOENT), strerror(ENOENT));
	assert_string_equal(odb_strerror(ODB_ERR_BASE), "unknown error");
	assert_string_equal(odb_strerror(1), "unknown error");
}

/* one full round: create, grow twice, close, reopen, read back */
static int alloc_scenario(const char *p)
{
	struct odb_file *f;
	int ret, i;

	unlink(p);
	ret = odb_file_open(p, ODB_WRITE, NULL, &f);
	if (ret)
		return ret;
	for (i = 1; i <= 300 && !ret; i++)
		ret = odb_file_add(f, (odb_key_t)i, 1);
	odb_file_close(f);
	if (ret)
		return ret;
	ret = odb_file_open(p, ODB_READ, NULL, &f);
	if (ret)
		return ret;
	ret = odb_file_total(f) == 300 ? 0 : -EIO;
	odb_file_close(f);
	return ret;
}

static void test_alloc_failures(void **state)
{
	const char *p = path_of("alloc");
	unsigned long k;

	(void)state;
	for (k = 1;; k++) {
		int ret;

		op_alloc_fail_at(k);
		ret = alloc_scenario(p);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, ret);
		/* whatever was written is still a valid file */
		if (access(p, F_OK) == 0) {
			struct odb_file *f;

			assert_int_equal(odb_file_open(p, ODB_READ, NULL, &f), 0);
			odb_file_close(f);
		}
	}
	assert_true(k > 3);
}

/* a file size limit makes growth fail as a full disk would */
static void test_no_space(void **state)
{
	const char *p = path_of("full");
	struct rlimit old, lim;
	struct odb_file *f;
	int ret = 0, i;

	(void)state;
	unlink(p);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = odb_layout_size(512);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(odb_file_open(p, ODB_WRITE, NULL, &f), 0);
	for (i = 1; i <= 1000 && !ret; i++)
		ret = odb_file_add(f, (odb_key_t)i, 2);
	assert_int_equal(ret, -EFBIG);
	assert_int_equal(i - 1, 512);	/* the 512th key needed 1024 slots */
	/* the writer stays usable for keys it already has */
	assert_int_equal(odb_file_add(f, 5, 1), 0);
	assert_int_equal(odb_file_close(f), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(odb_file_open(p, ODB_READ, NULL, &f), 0);
	assert_int_equal(odb_file_total(f), 511 * 2 + 1);
	odb_file_close(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_append_and_header),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_alloc_failures),
		cmocka_unit_test(test_no_space),
	};

	umask(022);
	return cmocka_run_group_tests(tests, setup, teardown);
}
