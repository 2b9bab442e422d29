// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack file: stacks interned (a repeat only counts), images by
 * number, a reopened file continues, a truncated or corrupted one is
 * refused by readers (and replaced by a writer), the size limit drops
 * and counts, every committed prefix of a file reads, a symlink in the
 * file's place is replaced (not followed), and -ENOMEM at
 * every allocation leaves nothing open.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb_stacks.h"
#include "libdb/tests/odb_test_util.h"
#include "libutil/op_alloc.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;
static struct op_dir odir = OP_DIR_INIT;
static char path[600];
static const char *const events[] = { "cpu-clock.100000.0", "task-clock.200000.0" };

static int setup(void **state)
{
	(void)state;
	if (op_testdir_make(&dir))
		return -1;
	op_testdir_file(&dir, "stacks", path, sizeof(path));
	return op_testdir_hold(dir.path, &odir);
}

static int teardown(void **state)
{
	(void)state;
	op_dir_close(&odir);
	op_testdir_remove(&dir);
	return 0;
}

static struct odb_stacks_writer *writer(uint64_t limit)
{
	struct odb_stacks_writer *w;

	assert_int_equal(odb_stacks_writer_open(&odir, "stacks", events, 2, limit, &w), 0);
	return w;
}

/* app 0 ("{root}/bin/app"), frames of image 1 at offsets base, base+1, ... */
static void add(struct odb_stacks_writer *w, uint64_t base, size_t nr,
		uint32_t event, uint64_t count)
{
	struct odb_stack_frame f[8] = { { 0 } };
	uint32_t app, lib;
	size_t i;

	assert_int_equal(odb_stacks_writer_image(w, "{root}/bin/app", &app), 0);
	assert_int_equal(odb_stacks_writer_image(w, "{root}/lib/libc.so.6", &lib), 0);
	assert_int_equal(app, 0);
	assert_int_equal(lib, 1);
	for (i = 0; i < nr; i++) {
		f[i].image = i ? app : lib;
		f[i].offset = base + i;
	}
	assert_int_equal(odb_stacks_writer_add(w, app, f, nr, event, count), 0);
}

static void test_intern(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	struct odb_stack st;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 0x100, 3, 0, 5);
	add(w, 0x100, 3, 1, 2);
	add(w, 0x100, 3, 0, 1);
	add(w, 0x200, 2, 0, 7);
	/* readable while written */
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 2);
	odb_stacks_close(s);
	assert_int_equal(odb_stacks_writer_close(w), 0);

	w = writer(0);		/* reopened: the same stacks count on */
	add(w, 0x100, 3, 0, 4);
	assert_int_equal(odb_stacks_writer_close(w), 0);

	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_events(s), 2);
	assert_string_equal(odb_stacks_event(s, 1), "task-clock.200000.0");
	assert_int_equal(odb_stacks_nr_images(s), 2);
	assert_string_equal(odb_stacks_image(s, 1), "{root}/lib/libc.so.6");
	assert_int_equal(odb_stacks_nr_stacks(s), 2);
	odb_stacks_get(s, 0, &st);
	assert_int_equal(st.nr_frames, 3);
	assert_int_equal(st.counts[0], 10);
	assert_int_equal(st.counts[1], 2);
	assert_int_equal(st.frames[0].image, 1);
	assert_int_equal(st.frames[0].offset, 0x100);
	assert_int_equal(st.frames[2].offset, 0x102);
	odb_stacks_get(s, 1, &st);
	assert_int_equal(st.counts[0], 7);
	assert_int_equal(odb_stacks_dropped(s), 0);
	odb_stacks_close(s);
}

static void test_other_events(void **state)
{
	struct odb_stacks_writer *w;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 1, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_writer_open(&odir, "stacks", events, 1, 0, &w),
			 ODB_ERR_STACKS_OTHER_EVENTS);
	assert_null(w);
}

static void test_limit(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stack_frame f = { 1, 0, 0 };
	struct odb_stacks *s;
	uint64_t i;
	int ret = 0;

	(void)state;
	unlink(path);
	w = writer(ODB_STACKS_MIN_LIMIT);
	add(w, 0, 1, 0, 1);
	for (i = 1; i < 1000 && !ret; i++) {
		f.offset = i;
		ret = odb_stacks_writer_add(w, 0, &f, 1, 0, 3);
	}
	assert_int_equal(ret, ODB_ERR_STACKS_FULL);
	f.offset = 0;		/* a known stack still counts */
	assert_int_equal(odb_stacks_writer_add(w, 0, &f, 1, 0, 1), 0);
	assert_int_equal(odb_stacks_writer_dropped(w), 3);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_dropped(s), 3);
	assert_true(odb_stacks_nr_stacks(s) > 50);
	odb_stacks_close(s);
}

/* every prefix of the committed records, as a killed writer leaves it */
static void test_prefixes(void **state)
{
	struct odb_stacks_header h;
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	unsigned char *buf;
	size_t len, total, n;
	uint64_t committed;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 0x10, 4, 0, 1);
	add(w, 0x20, 2, 1, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	buf = odb_test_slurp(path, &len);
	assert_non_null(buf);
	memcpy(&h, buf, sizeof(h));
	total = sizeof(h) + h.committed;
	for (n = sizeof(h); n <= total; n += 8) {
		int ret;

		committed = n - sizeof(h);
		memcpy(buf + offsetof(struct odb_stacks_header, committed), &committed,
		       sizeof(committed));
		assert_int_equal(odb_test_spew(path, buf, len), 0);
		ret = odb_stacks_open(path, &s);
		/* record boundaries open; a cut inside a record is refused */
		if (!ret)
			odb_stacks_close(s);
		else
			assert_int_equal(ret, ODB_ERR_STACKS_BAD_RECORD);
	}
	/* the file cut short of its committed records */
	assert_int_equal(odb_test_spew(path, buf, total - 8), 0);
	assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_STACKS_TRUNCATED);
	assert_int_equal(odb_test_spew(path, buf, 10), 0);
	assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_STACKS_TRUNCATED);
	buf[0] = 'X';
	assert_int_equal(odb_test_spew(path, buf, len), 0);
	assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_BAD_MAGIC);
	/* a writer replaces what it cannot read */
	w = writer(0);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 0);
	odb_stacks_close(s);
	free(buf);
}

/* a frame naming an image not yet recorded is refused */
static void test_bad_image(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stack_frame f = { 5, 0, 0 };

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 1, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_add(w, 0, &f, 1, 0, 1), -EINVAL);
	assert_int_equal(odb_stacks_writer_add(w, 0, &f, 1, 2, 1), -EINVAL);
	assert_int_equal(odb_stacks_writer_close(w), 0);
}

/* a symlink where the file goes is replaced, never followed */
static void test_symlink(void **state)
{
	struct odb_stacks_writer *w;
	char victim[600];
	unsigned char *buf;
	size_t len;

	(void)state;
	unlink(path);
	op_testdir_file(&dir, "victim", victim, sizeof(victim));
	assert_int_equal(odb_test_spew(victim, "x", 1), 0);
	assert_int_equal(symlink(victim, path), 0);
	w = writer(0);
	add(w, 1, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	buf = odb_test_slurp(victim, &len);
	assert_non_null(buf);
	assert_int_equal(len, 1);
	assert_int_equal(buf[0], 'x');
	free(buf);
	unlink(victim);
}

static void test_enomem(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	unsigned long k;
	int ret;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 1, 3, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_stacks_open(path, &s);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(s);
	}
	odb_stacks_close(s);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_stacks_writer_open(&odir, "stacks", events, 2, 0, &w);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(w);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
	unlink(path);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_stacks_writer_open(&odir, "stacks", events, 2, 0, &w);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_other_events),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_bad_image),
		cmocka_unit_test(test_symlink),
		cmocka_unit_test(test_enomem),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
