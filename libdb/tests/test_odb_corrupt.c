// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Corrupt sample files: a valid file cut at every length, and single-field
 * damage to the header, descriptor, buckets and chains.  Each gives its own
 * error from odb_file_open(), for readers and writers alike; none crashes
 * or hangs.  odb_header_read() gives the same errors for the header,
 * descriptor and size, and the header where only the table is damaged.
 * Tables far bigger than their used nodes, and used nodes in a hole of a
 * sparse file, are refused before anything is mapped or copied.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/tests/odb_test_util.h"
#include "tests/lib/op_testdir.h"

#define HDR sizeof(struct opd_header)
#define DESCR (HDR)
#define NODES (HDR + sizeof(struct odb_descr))
#define NODE(i) (NODES + (i) * sizeof(struct odb_node))
#define HASH(s) (NODES + (s) * sizeof(struct odb_node))

static struct op_testdir dir;
static unsigned char *good;	/* 10 keys, 128 slots */
static size_t good_len;
static char good_path[PATH_MAX], bad_path[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	if (op_testdir_make(&dir))
		return -1;
	op_testdir_file(&dir, "good", good_path, sizeof(good_path));
	op_testdir_file(&dir, "bad", bad_path, sizeof(bad_path));
	if (odb_test_write_keys(good_path, 0x1000, 10))
		return -1;
	good = odb_test_slurp(good_path, &good_len);
	return good ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(good);
	op_testdir_remove(&dir);
	return 0;
}

static void put32(unsigned char *buf, size_t off, uint32_t v)
{
	memcpy(buf + off, &v, sizeof(v));
}

static uint32_t get32(const unsigned char *buf, size_t off)
{
	uint32_t v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

/* errors odb_file_open() finds beyond header, descriptor, size and holes */
static bool beyond_header(int err)
{
	return err == ODB_ERR_BAD_BUCKET || err == ODB_ERR_BAD_NEXT ||
	       err == ODB_ERR_CHAIN_LOOP;
}

/*
 * odb_header_read() of the file odb_file_open() gave open_err for: the
 * same error, or the header bytes where only the table is bad
 */
static void check_header_read(const unsigned char *data, size_t len, int open_err)
{
	struct opd_header h;
	int ret;

	memset(&h, 0xa5, sizeof(h));
	ret = odb_header_read(AT_FDCWD, bad_path, &h);
	if (beyond_header(open_err) || !open_err) {
		if (ret)
			fail_msg("%zu bytes, open gave %d: header read gave %d (%s)",
				 len, open_err, ret, odb_strerror(ret));
		assert_memory_equal(&h, data, sizeof(h));
	} else if (ret != open_err) {
		fail_msg("%zu bytes: header read gave %d (%s), open %d (%s)", len,
			 ret, odb_strerror(ret), open_err, odb_strerror(open_err));
	}
}

/*
 * odb_file_open() of the bytes; for a reader, odb_reader_read() must give
 * the same answer (and the same nodes), and odb_header_read() the same
 * error or the header (check_header_read()).
 */
static int open_bytes(const unsigned char *data, size_t len, enum odb_mode mode)
{
	struct odb_reader r = ODB_READER_INIT;
	struct odb_snapshot snap;
	struct odb_file *f;
	int ret, rret;

	if (odb_test_spew(bad_path, data, len))
		return INT_MIN;
	ret = odb_file_open(bad_path, mode, NULL, &f);
	if (mode == ODB_READ) {
		rret = odb_reader_read(&r, AT_FDCWD, bad_path, &snap);
		if (rret != ret)
			fail_msg("%zu bytes: odb_file_open %d (%s), odb_reader_read %d (%s)",
				 len, ret, odb_strerror(ret), rret, odb_strerror(rret));
	}
	if (!ret) {
		/* a file that opens must iterate, and the copy is the same */
		size_t nr;
		const struct odb_node *nodes = odb_file_nodes(f, &nr);

		if (mode == ODB_READ) {
			assert_int_equal(snap.nr, nr);
			assert_memory_equal(snap.nodes, nodes, nr * sizeof(*nodes));
			assert_memory_equal(snap.hdr, odb_file_header(f),
					    sizeof(struct opd_header));
		}
		odb_file_total(f);
		odb_file_close(f);
	}
	if (mode == ODB_READ)
		check_header_read(data, len, ret);
	odb_reader_release(&r);
	return ret;
}

/* what is not a sample file at all: the same errors as odb_file_open() */
static void test_header_read_kinds(void **state)
{
	char path[PATH_MAX];
	struct opd_header h;
	struct odb_file *f;

	(void)state;
	op_testdir_file(&dir, "nothing", path, sizeof(path));
	assert_int_equal(odb_header_read(AT_FDCWD, path, &h), -ENOENT);
	op_testdir_file(&dir, "subdir", path, sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(odb_header_read(AT_FDCWD, path, &h), ODB_ERR_NOT_REGULAR);
	/* a FIFO must not block the reader */
	op_testdir_file(&dir, "fifo", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(odb_header_read(AT_FDCWD, path, &h), ODB_ERR_NOT_REGULAR);
	/* the good file: its header, as odb_file_open() gives it */
	assert_int_equal(odb_header_read(AT_FDCWD, good_path, &h), 0);
	assert_int_equal(odb_file_open(good_path, ODB_READ, NULL, &f), 0);
	assert_memory_equal(&h, odb_file_header(f), sizeof(h));
	odb_file_close(f);
}

static void test_good_opens(void **state)
{
	(void)state;
	assert_int_equal(good_len, odb_layout_size(128));
	assert_int_equal(open_bytes(good, good_len, ODB_READ), 0);
	assert_int_equal(open_bytes(good, good_len, ODB_WRITE), 0);
	/* OProfile tolerates 1..19 trailing bytes: less than a slot */
	{
		unsigned char *big = calloc(1, good_len + 20);

		memcpy(big, good, good_len);
		assert_int_equal(open_bytes(big, good_len + 19, ODB_READ), 0);
		assert_int_equal(open_bytes(big, good_len + 20, ODB_READ),
				 ODB_ERR_TRAILING_DATA);
		free(big);
	}
}

/* every truncation, at every byte boundary */
static void test_truncated(void **state)
{
	size_t len;

	(void)state;
	for (len = 0; len < good_len; len++) {
		int want = len == 0 ? ODB_ERR_EMPTY
			 : len < NODES ? ODB_ERR_TRUNCATED
			 : ODB_ERR_BEYOND_EOF;
		int ret = open_bytes(good, len, ODB_READ);

		if (ret != want)
			fail_msg("truncated to %zu: got %d (%s), want %d", len,
				 ret, odb_strerror(ret), want);
		ret = open_bytes(good, len, ODB_WRITE);
		if (ret != want)
			fail_msg("write-open truncated to %zu: got %d", len, ret);
	}
}

enum patch_kind { P32, PBYTE };

static void test_damage(void **state)
{
	static const struct {
		int line;
		size_t off;
		uint32_t val;
		enum patch_kind kind;
		int err;
	} rows[] = {
		{ .line = __LINE__, .off = 0, .val = 'X', .kind = PBYTE, .err = ODB_ERR_BAD_MAGIC },
		{ .line = __LINE__, .off = 3, .val = 0, .kind = PBYTE, .err = ODB_ERR_BAD_MAGIC },
		{ .line = __LINE__, .off = 4, .val = 0x12, .kind = P32, .err = ODB_ERR_BAD_VERSION },
		{ .line = __LINE__, .off = 4, .val = 0x13000000, .kind = P32, .err = ODB_ERR_BAD_VERSION },
		/* descriptor: table size */
		{ .line = __LINE__, .off = DESCR, .val = 0, .kind = P32, .err = ODB_ERR_BAD_TABLE_SIZE },
		{ .line = __LINE__, .off = DESCR, .val = 64, .kind = P32, .err = ODB_ERR_BAD_TABLE_SIZE },
		{ .line = __LINE__, .off = DESCR, .val = 129, .kind = P32, .err = ODB_ERR_BAD_TABLE_SIZE },
		{ .line = __LINE__, .off = DESCR, .val = 0xffffffff, .kind = P32, .err = ODB_ERR_BAD_TABLE_SIZE },
		{ .line = __LINE__, .off = DESCR, .val = 256, .kind = P32, .err = ODB_ERR_BEYOND_EOF },
		{ .line = __LINE__, .off = DESCR, .val = 0x80000000, .kind = P32, .err = ODB_ERR_BEYOND_EOF },
		/* descriptor: used count */
		{ .line = __LINE__, .off = DESCR + 4, .val = 0, .kind = P32, .err = ODB_ERR_BAD_USED_COUNT },
		{ .line = __LINE__, .off = DESCR + 4, .val = 129, .kind = P32, .err = ODB_ERR_BAD_USED_COUNT },
		{ .line = __LINE__, .off = DESCR + 4, .val = 0xffffffff, .kind = P32, .err = ODB_ERR_BAD_USED_COUNT },
		/* node 3 links to a node that is not in use */
		{ .line = __LINE__, .off = NODE(3) + 12, .val = 11, .kind = P32, .err = ODB_ERR_BAD_NEXT },
		{ .line = __LINE__, .off = NODE(3) + 12, .val = 0xffffffff, .kind = P32, .err = ODB_ERR_BAD_NEXT },
	};
	unsigned char *buf = malloc(good_len);
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret;

		memcpy(buf, good, good_len);
		if (rows[i].kind == PBYTE)
			buf[rows[i].off] = (unsigned char)rows[i].val;
		else
			put32(buf, rows[i].off, rows[i].val);
		ret = open_bytes(buf, good_len, ODB_READ);
		if (ret != rows[i].err)
			fail_msg("row at line %d: got %d (%s)", rows[i].line, ret,
				 odb_strerror(ret));
		ret = open_bytes(buf, good_len, ODB_WRITE);
		if (ret != rows[i].err)
			fail_msg("row at line %d, write-open: got %d", rows[i].line, ret);
	}
	free(buf);
}

/*
 * A table of S slots with used - 1 used nodes, every byte written (zero
 * nodes and buckets: empty chains): readable exactly when the table is at
 * most twice the used nodes, or the smallest
 */
static void test_oversized(void **state)
{
	static const struct {
		int line;
		uint32_t slots, used;
		int err;
	} rows[] = {
		{ .line = __LINE__, .slots = 128, .used = 1 },
		{ .line = __LINE__, .slots = 256, .used = 129 },
		/* a writer killed just after growing a full table of 128 */
		{ .line = __LINE__, .slots = 256, .used = 128 },
		{ .line = __LINE__, .slots = 256, .used = 127, .err = ODB_ERR_OVERSIZED_TABLE },
		{ .line = __LINE__, .slots = 256, .used = 1, .err = ODB_ERR_OVERSIZED_TABLE },
		{ .line = __LINE__, .slots = 1u << 16, .used = 1u << 15 },
		{ .line = __LINE__, .slots = 1u << 16, .used = (1u << 15) - 1,
		  .err = ODB_ERR_OVERSIZED_TABLE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		size_t len = (size_t)odb_layout_size(rows[i].slots);
		unsigned char *buf = calloc(1, len);
		int ret;

		assert_non_null(buf);
		memcpy(buf, good, HDR);
		put32(buf, DESCR, rows[i].slots);
		put32(buf, DESCR + 4, rows[i].used);
		ret = open_bytes(buf, len, ODB_READ);
		if (ret != rows[i].err)
			fail_msg("row at line %d: got %d (%s)", rows[i].line, ret,
				 odb_strerror(ret));
		ret = open_bytes(buf, len, ODB_WRITE);
		if (ret != rows[i].err)
			fail_msg("row at line %d, write-open: got %d", rows[i].line, ret);
		free(buf);
	}
}

/*
 * bad_path as a sparse file of S slots, all used: header and descriptor
 * written, then the first nr_written bytes of nodes (non-zero keys and
 * values, no chains), the rest a hole.  false where the file system keeps
 * no holes (nothing to test there).
 */
static bool write_sparse(uint32_t slots, size_t nr_written)
{
	size_t len = (size_t)odb_layout_size(slots);
	unsigned char *head = calloc(1, NODES + nr_written);
	int fd = open(bad_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool sparse;
	size_t i;

	assert_non_null(head);
	assert_true(fd >= 0);
	memcpy(head, good, HDR);
	put32(head, DESCR, slots);
	put32(head, DESCR + 4, slots);
	for (i = NODES; i + 16 <= NODES + nr_written; i += 16) {
		put32(head, i, (uint32_t)i);		/* key */
		put32(head, i + 8, 1);			/* value */
	}
	assert_int_equal(ftruncate(fd, (off_t)len), 0);
	assert_int_equal(pwrite(fd, head, NODES + nr_written, 0),
			 (ssize_t)(NODES + nr_written));
	sparse = lseek(fd, 0, SEEK_HOLE) < (off_t)len;
	close(fd);
	free(head);
	return sparse;
}

/* every reader of bad_path gives err */
static void check_all_readers(int line, int err)
{
	struct odb_reader r = ODB_READER_INIT;
	struct odb_snapshot snap;
	struct opd_header h;
	struct odb_file *f;
	int ret;

	ret = odb_file_open(bad_path, ODB_READ, NULL, &f);
	if (!ret)
		odb_file_close(f);
	if (ret != err)
		fail_msg("line %d: odb_file_open %d (%s)", line, ret, odb_strerror(ret));
	ret = odb_file_open(bad_path, ODB_WRITE, NULL, &f);
	if (!ret)
		odb_file_close(f);
	if (ret != err)
		fail_msg("line %d: write-open %d (%s)", line, ret, odb_strerror(ret));
	ret = odb_reader_read(&r, AT_FDCWD, bad_path, &snap);
	if (ret != err)
		fail_msg("line %d: odb_reader_read %d (%s)", line, ret, odb_strerror(ret));
	odb_reader_release(&r);
	ret = odb_header_read(AT_FDCWD, bad_path, &h);
	if (ret != err)
		fail_msg("line %d: odb_header_read %d (%s)", line, ret, odb_strerror(ret));
}

/*
 * Used nodes in a hole were never written: refused, for a file the
 * reader copies (2^16 slots, 1.3 MB) and one it maps (2^20, 21 MB).  A
 * file whose used nodes are written, its buckets a hole (as OProfile's
 * libodb grows tables, with ftruncate()), reads.
 */
static void test_sparse(void **state)
{
	static const uint32_t sizes[] = { 1u << 16, 1u << 20 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t nodes = (size_t)sizes[i] * sizeof(struct odb_node);

		if (!write_sparse(sizes[i], 0)) {
			print_message("no holes in this file system: not checked\n");
			return;
		}
		check_all_readers(__LINE__, ODB_ERR_NODES_IN_HOLE);
		/* half of them written: still a hole among them */
		write_sparse(sizes[i], nodes / 2);
		check_all_readers(__LINE__, ODB_ERR_NODES_IN_HOLE);
		/* all written but the last node's block */
		write_sparse(sizes[i], nodes - 8192);
		check_all_readers(__LINE__, ODB_ERR_NODES_IN_HOLE);
		/* every used node written, the buckets a hole */
		write_sparse(sizes[i], nodes);
		check_all_readers(__LINE__, 0);
	}
}

/* index of the bucket that holds node i of the good file */
static uint32_t bucket_of(uint32_t i)
{
	odb_key_t key;

	memcpy(&key, good + NODE(i), sizeof(key));
	return odb_hash(key, 127);
}

static void test_chains(void **state)
{
	unsigned char *buf = malloc(good_len);
	uint32_t b2 = bucket_of(2), b5 = bucket_of(5);

	(void)state;
	/* a bucket pointing past the used nodes */
	memcpy(buf, good, good_len);
	put32(buf, HASH(128) + 4 * b2, 11);
	assert_int_equal(open_bytes(buf, good_len, ODB_READ), ODB_ERR_BAD_BUCKET);
	put32(buf, HASH(128) + 4 * b2, 0x7fffffff);
	assert_int_equal(open_bytes(buf, good_len, ODB_READ), ODB_ERR_BAD_BUCKET);

	/* a node that links to itself */
	memcpy(buf, good, good_len);
	put32(buf, NODE(2) + 12, 2);
	assert_int_equal(open_bytes(buf, good_len, ODB_READ), ODB_ERR_CHAIN_LOOP);

	/* a two-node cycle: bucket -> 2 -> 5 -> 2 */
	memcpy(buf, good, good_len);
	put32(buf, HASH(128) + 4 * b2, 2);
	put32(buf, NODE(2) + 12, 5);
	put32(buf, NODE(5) + 12, 2);
	assert_int_equal(open_bytes(buf, good_len, ODB_READ), ODB_ERR_CHAIN_LOOP);
	assert_int_equal(open_bytes(buf, good_len, ODB_WRITE), ODB_ERR_CHAIN_LOOP);

	/* two buckets sharing a tail is not a loop: it still opens */
	memcpy(buf, good, good_len);
	if (b5 != b2) {
		put32(buf, NODE(5) + 12, 2);
		assert_int_equal(open_bytes(buf, good_len, ODB_READ), 0);
	}

	/* a long cycle through every used node */
	memcpy(buf, good, good_len);
	{
		uint32_t i;

		for (i = 1; i < 10; i++)
			put32(buf, NODE(i) + 12, i + 1);
		put32(buf, NODE(10) + 12, 1);
		put32(buf, HASH(128) + 4 * b2, 1);
	}
	assert_int_equal(open_bytes(buf, good_len, ODB_READ), ODB_ERR_CHAIN_LOOP);
	(void)get32;
	free(buf);
}

static void test_not_regular(void **state)
{
	struct odb_file *f;

	(void)state;
	assert_int_equal(odb_file_open("/dev/null", ODB_READ, NULL, &f), ODB_ERR_NOT_REGULAR);
	assert_int_equal(odb_file_open(dir.path, ODB_READ, NULL, &f), ODB_ERR_NOT_REGULAR);
	{
		struct odb_reader r = ODB_READER_INIT;
		struct odb_snapshot snap;

		assert_int_equal(odb_reader_read(&r, AT_FDCWD, "/dev/null", &snap),
				 ODB_ERR_NOT_REGULAR);
		assert_int_equal(odb_reader_read(&r, AT_FDCWD, dir.path, &snap),
				 ODB_ERR_NOT_REGULAR);
		odb_reader_release(&r);
	}
}

/* every error has its own message */
static void test_messages(void **state)
{
	int a, b;

	(void)state;
	for (a = ODB_ERR_BASE + 1; a < ODB_ERR_END; a++) {
		assert_non_null(odb_strerror(a));
		assert_string_not_equal(odb_strerror(a), "unknown error");
		for (b = a + 1; b < ODB_ERR_END; b++)
			assert_string_not_equal(odb_strerror(a), odb_strerror(b));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_opens),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_oversized),
		cmocka_unit_test(test_sparse),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_header_read_kinds),
		cmocka_unit_test(test_messages),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
