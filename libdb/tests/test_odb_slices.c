// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time-slice file: slice lengths parsed, slices read back as written
 * (widest keys and counts too), file names interned once across reopens,
 * bytes a killed writer left past the committed length cut by the next
 * one, every prefix and every flipped byte of a file read or refused
 * without a crash, the size limit drops and counts, a symlink in the
 * file's place replaced (not followed), and -ENOMEM at every allocation
 * leaves nothing open.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb_slices.h"
#include "libdb/tests/odb_test_util.h"
#include "libutil/op_alloc.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;
static struct op_dir odir = OP_DIR_INIT;
static char path[600];

static int setup(void **state)
{
	(void)state;
	if (op_testdir_make(&dir))
		return -1;
	op_testdir_file(&dir, "slices", path, sizeof(path));
	return op_testdir_hold(dir.path, &odir);
}

static int teardown(void **state)
{
	(void)state;
	op_dir_close(&odir);
	op_testdir_remove(&dir);
	return 0;
}

static void test_length(void **state)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} good[] = {
		{ "1", 1000000000ull }, { "0.25", 250000000ull }, { "2s", 2000000000ull },
		{ "100ms", 100000000ull }, { "1ms", 1000000ull }, { "0", 0 },
		{ "3600", 3600000000000ull }, { ".5", 500000000ull }, { "1.5ms", 1500000ull },
	};
	static const char *const bad[] = {
		"", "s", "ms", "-1", "1x", "0.0001", "3601", "1e3", "1..2", " 1",
		"0.5us", "99999999999999999999",
	};
	struct op_err err;
	uint64_t ns;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(odb_slices_parse_length(good[i].text, &ns, &err), 0);
		assert_int_equal(ns, good[i].ns);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.msg[0] = '\0';
		assert_int_equal(odb_slices_parse_length(bad[i], &ns, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "'"));
	}
}

static struct odb_slices_writer *writer(uint64_t now, uint64_t limit)
{
	struct odb_slices_writer *w;

	assert_int_equal(odb_slices_writer_open(&odir, "slices", now, limit, &w), 0);
	return w;
}

static const struct odb_slice_entry slice0[] = {
	{ 0, 0x10, 3 }, { 0, 0x11, 1 }, { 0, 0x4000, 200 },
	{ 1, UINT64_MAX - 1, UINT64_MAX }, { 1, UINT64_MAX, 1 }, { 2, 0, 7 },
};

/* slice i of s equals e[0 .. nr) */
static void check_slice(const struct odb_slices *s, size_t i, uint64_t start,
			const struct odb_slice_entry *e, size_t nr)
{
	struct odb_slice sl;
	struct odb_slice_entry got;
	size_t k;

	odb_slices_get(s, i, &sl);
	assert_int_equal(sl.start_ns, start);
	assert_int_equal(sl.length_ns, 1000000000ull);
	assert_int_equal(sl.nr_entries, nr);
	for (k = 0; k < nr; k++) {
		assert_true(odb_slice_next(&sl, &got));
		assert_int_equal(got.file, e[k].file);
		assert_int_equal(got.key, e[k].key);
		assert_int_equal(got.count, e[k].count);
	}
	assert_false(odb_slice_next(&sl, &got));
}

static void write_two(void)
{
	struct odb_slices_writer *w;
	uint32_t id;

	unlink(path);
	w = writer(12345, 0);
	assert_int_equal(odb_slices_writer_start(w), 12345);
	assert_int_equal(odb_slices_writer_file(w, "{root}/a/{dep}/{root}/a/E.1.0.all.all.all", &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(odb_slices_writer_file(w, "{root}/b", &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(odb_slices_writer_file(w, "{root}/c", &id), 0);
	assert_int_equal(odb_slices_writer_file(w, "{root}/b", &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(odb_slices_writer_add(w, 0, 1000000000ull, slice0, 6), 0);
	assert_int_equal(odb_slices_writer_add(w, 2000000000ull, 1000000000ull,
					       slice0 + 5, 1), 0);
	assert_int_equal(odb_slices_writer_close(w), 0);
}

static void test_roundtrip(void **state)
{
	struct odb_slices_writer *w;
	struct odb_slices *s;
	uint32_t id;

	(void)state;
	write_two();
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_start(s), 12345);
	assert_int_equal(odb_slices_nr_files(s), 3);
	assert_string_equal(odb_slices_file(s, 1), "{root}/b");
	assert_int_equal(odb_slices_nr_slices(s), 2);
	check_slice(s, 0, 0, slice0, 6);
	check_slice(s, 1, 2000000000ull, slice0 + 5, 1);
	odb_slices_close(s);
	/* reopened: the start is kept, names are not repeated */
	w = writer(99999, 0);
	assert_int_equal(odb_slices_writer_start(w), 12345);
	assert_int_equal(odb_slices_writer_file(w, "{root}/c", &id), 0);
	assert_int_equal(id, 2);
	assert_int_equal(odb_slices_writer_file(w, "{root}/d", &id), 0);
	assert_int_equal(id, 3);
	assert_int_equal(odb_slices_writer_close(w), 0);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_nr_files(s), 4);
	odb_slices_close(s);
}

/* bytes past the committed length: ignored by readers, cut by a writer */
static void test_uncommitted(void **state)
{
	static const unsigned char junk[40] = { 2, 0, 0, 0, 40, 0, 0, 0, 0xff };
	struct odb_slices_writer *w;
	struct odb_slices *s;
	size_t len;
	unsigned char *buf;
	int fd;

	(void)state;
	write_two();
	buf = odb_test_slurp(path, &len);
	fd = open(path, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	close(fd);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_nr_slices(s), 2);
	odb_slices_close(s);
	w = writer(1, 0);
	assert_int_equal(odb_slices_writer_add(w, 5000000000ull, 1000000000ull,
					       slice0, 1), 0);
	assert_int_equal(odb_slices_writer_close(w), 0);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_nr_slices(s), 3);
	check_slice(s, 2, 5000000000ull, slice0, 1);
	odb_slices_close(s);
	free(buf);
	(void)len;
}

/* every prefix and every byte changed: read or refused, never a crash */
static void test_damage(void **state)
{
	struct odb_slices *s;
	unsigned char *buf;
	size_t len, i, ok = 0;
	int bit;

	(void)state;
	write_two();
	buf = odb_test_slurp(path, &len);
	assert_non_null(buf);
	for (i = 0; i < len; i++)
		if (!odb_slices_open_mem(buf, i, &s))
			odb_slices_close(s);
		else
			assert_null(s);
	for (i = 0; i < len; i++)
		for (bit = 0; bit < 8; bit++) {
			buf[i] ^= (unsigned char)(1u << bit);
			if (!odb_slices_open_mem(buf, len, &s)) {
				struct odb_slice sl;
				struct odb_slice_entry e;
				size_t k;

				for (k = 0; k < odb_slices_nr_slices(s); k++)
					for (odb_slices_get(s, k, &sl);
					     odb_slice_next(&sl, &e);)
						assert_true(e.file < odb_slices_nr_files(s));
				odb_slices_close(s);
				ok++;
			}
			buf[i] ^= (unsigned char)(1u << bit);
		}
	/* some changes (counts, keys, the start) still read */
	assert_true(ok > 0);
	/* the whole file reads, a committed length beyond it does not */
	assert_int_equal(odb_slices_open_mem(buf, len, &s), 0);
	odb_slices_close(s);
	buf[16] += 8;
	assert_int_equal(odb_slices_open_mem(buf, len, &s), ODB_ERR_SLICES_TRUNCATED);
	/* as a file: refused before anything of that size is allocated */
	buf[16] = 0;
	buf[20] = 0x80;		/* committed 2^39 */
	assert_int_equal(odb_test_spew(path, buf, len), 0);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), ODB_ERR_SLICES_TRUNCATED);
	{
		struct odb_slices_cursor c = { 0, 0, 0 };

		assert_int_equal(odb_slices_follow(AT_FDCWD, path, &c),
				 ODB_ERR_SLICES_TRUNCATED);
	}
	memcpy(buf, "OPSTACK\n", 8);
	assert_int_equal(odb_slices_open_mem(buf, len, &s), ODB_ERR_SLICES_BAD_MAGIC);
	free(buf);
}

static void test_limit(void **state)
{
	struct odb_slices_writer *w;
	struct odb_slice_entry e[400];
	struct odb_slices *s;
	uint32_t id;
	size_t i;
	int ret = 0;

	(void)state;
	unlink(path);
	w = writer(1, ODB_SLICES_MIN_LIMIT);
	assert_int_equal(odb_slices_writer_file(w, "{root}/x", &id), 0);
	for (i = 0; i < 400; i++) {
		e[i].file = 0;
		e[i].key = i * 1000;
		e[i].count = 2;
	}
	for (i = 0; i < 20 && !ret; i++)
		ret = odb_slices_writer_add(w, i * 1000000000ull, 1000000000ull, e, 400);
	assert_int_equal(ret, ODB_ERR_SLICES_FULL);
	assert_int_equal(odb_slices_writer_dropped(w), 800);
	assert_int_equal(odb_slices_writer_close(w), 0);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_dropped(s), 800);
	assert_int_equal(odb_slices_nr_slices(s), i - 1);
	odb_slices_close(s);
}

/* a symlink where the file goes is replaced, never followed */
static void test_symlink(void **state)
{
	struct odb_slices_writer *w;
	struct odb_slices *s;
	char victim[600];
	unsigned char *buf;
	size_t len;

	(void)state;
	unlink(path);
	op_testdir_file(&dir, "victim", victim, sizeof(victim));
	assert_int_equal(odb_test_spew(victim, "x", 1), 0);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), ODB_ERR_NOT_REGULAR);
	w = writer(7, 0);
	assert_int_equal(odb_slices_writer_add(w, 0, 1000000000ull, slice0 + 5, 0), 0);
	assert_int_equal(odb_slices_writer_close(w), 0);
	buf = odb_test_slurp(victim, &len);
	assert_non_null(buf);
	assert_int_equal(len, 1);
	assert_int_equal(buf[0], 'x');
	free(buf);
	unlink(victim);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_start(s), 7);
	odb_slices_close(s);
}

static void test_enomem(void **state)
{
	struct odb_slices_writer *w;
	struct odb_slices *s;
	unsigned long k;
	int ret;

	(void)state;
	write_two();
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_slices_open(AT_FDCWD, path, &s);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(s);
	}
	odb_slices_close(s);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_slices_writer_open(&odir, "slices", 1, 0, &w);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(w);
	}
	assert_int_equal(odb_slices_writer_close(w), 0);
	assert_int_equal(odb_slices_open(AT_FDCWD, path, &s), 0);
	assert_int_equal(odb_slices_nr_slices(s), 2);
	odb_slices_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_length),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_uncommitted),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_symlink),
		cmocka_unit_test(test_enomem),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
