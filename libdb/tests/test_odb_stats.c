// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats/: OProfile 1.4's counter file names, which counters are lost
 * samples and which lost arcs, the share of samples lost, the counter
 * text, writing (which files, when total_samples is written, throttled
 * events) and reading back, tolerance of bad files, and -ENOMEM at every
 * allocation.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
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

/* OProfile 1.4's names (libop/op_config.c) and ours, and their kinds */
/* odb_stats_write() into directory path, made if missing */
static int stats_write(const char *path, const struct odb_stats *st)
{
	struct op_dir d;
	int ret = op_testdir_hold(path, &d);

	if (!ret)
		ret = odb_stats_write(&d, st);
	op_dir_close(&d);
	return ret;
}

static void test_names(void **state)
{
	static const struct {
		int line;
		enum odb_stat stat;
		const char *file;
		enum odb_stat_kind kind;
	} rows[] = {
		{ __LINE__, ODB_STAT_TOTAL_SAMPLES, "total_samples", ODB_STAT_KIND_TOTAL },
		{ __LINE__, ODB_STAT_LOST_INVALID_DOMAIN, "lost_invalid_domain", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_KERNEL, "lost_kernel", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_SAMPLEFILE, "lost_samplefile", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_NO_MAPPING, "lost_no_mapping", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_NO_APP_KERNEL, "lost_no_app_for_kernel_sample", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_NO_APP_USER, "lost_no_app_for_user_sample", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_BT_NO_MAPPING, "lost_bt_no_mapping", ODB_STAT_KIND_LOST_ARCS },
		{ __LINE__, ODB_STAT_LOST_HYPERVISOR, "lost_invalid_hypervisor_addr", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_BY_KERNEL, "lost_records_by_kernel", ODB_STAT_KIND_LOST_SAMPLES },
		{ __LINE__, ODB_STAT_LOST_BAD_RECORDS, "lost_bad_records", ODB_STAT_KIND_LOST_SAMPLES },
	};
	size_t i;

	(void)state;
	assert_int_equal(sizeof(rows) / sizeof(rows[0]), ODB_NR_STATS);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!odb_stat_file(rows[i].stat) ||
		    strcmp(odb_stat_file(rows[i].stat), rows[i].file) ||
		    odb_stat_kind(rows[i].stat) != rows[i].kind)
			fail_msg("row at line %d: %s, kind %d", rows[i].line,
				 odb_stat_file(rows[i].stat), odb_stat_kind(rows[i].stat));
	}
	assert_null(odb_stat_file(ODB_NR_STATS));
	assert_null(odb_stat_file((enum odb_stat)-1));
}

/* lost samples, lost arcs and the samples taken are separate figures */
static void test_sums(void **state)
{
	struct odb_stats st = { 0 };
	uint64_t taken;

	(void)state;
	st.count[ODB_STAT_LOST_BT_NO_MAPPING] = 80999;
	st.count[ODB_STAT_TOTAL_SAMPLES] = 130829;
	st.present[ODB_STAT_TOTAL_SAMPLES] = true;
	assert_int_equal(odb_stats_lost_samples(&st), 0);
	assert_int_equal(odb_stats_lost_arcs(&st), 80999);
	assert_true(odb_stats_taken(&st, &taken));
	assert_int_equal(taken, 130829);

	st.count[ODB_STAT_LOST_NO_MAPPING] = 100;
	st.count[ODB_STAT_LOST_BY_KERNEL] = 50;
	st.count[ODB_STAT_LOST_NO_APP_KERNEL] = 1;
	assert_int_equal(odb_stats_lost_samples(&st), 151);
	assert_int_equal(odb_stats_lost_arcs(&st), 80999);
	assert_true(odb_stats_taken(&st, &taken));
	assert_int_equal(taken, 130829 + 151);

	/* no total: the lost samples are all that is known */
	st.present[ODB_STAT_TOTAL_SAMPLES] = false;
	st.count[ODB_STAT_TOTAL_SAMPLES] = 0;
	assert_false(odb_stats_taken(&st, &taken));
	assert_int_equal(taken, 151);

	/* sums saturate */
	st.count[ODB_STAT_LOST_KERNEL] = UINT64_MAX - 10;
	st.count[ODB_STAT_TOTAL_SAMPLES] = 5;
	st.present[ODB_STAT_TOTAL_SAMPLES] = true;
	assert_int_equal(odb_stats_lost_samples(&st), UINT64_MAX);
	assert_true(odb_stats_taken(&st, &taken));
	assert_int_equal(taken, UINT64_MAX);
}

static void test_parse_count(void **state)
{
	static const struct {
		int line;
		const char *text;
		int ret;
		uint64_t value;
	} rows[] = {
		{ __LINE__, "0", 0, 0 },
		{ __LINE__, "123", 0, 123 },
		{ __LINE__, "123\n", 0, 123 },
		{ __LINE__, "7 \t\r\n\n", 0, 7 },
		{ __LINE__, "0042", 0, 42 },
		{ __LINE__, "18446744073709551615", 0, UINT64_MAX },
		{ __LINE__, "18446744073709551616", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "99999999999999999999", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "\n", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, " 1", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "-1", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "+1", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "0x10", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "1 2", ODB_ERR_BAD_COUNTER, 0 },
		{ __LINE__, "12junk", ODB_ERR_BAD_COUNTER, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t v = 99;
		int ret = odb_stats_parse_count(rows[i].text, strlen(rows[i].text), &v);

		if (ret != rows[i].ret || (!ret && v != rows[i].value) ||
		    (ret && v != 99))
			fail_msg("row at line %d: got %d, %llu", rows[i].line, ret,
				 (unsigned long long)v);
	}
	/* a NUL is not a blank; the length is what counts */
	assert_int_equal(odb_stats_parse_count("5\0", 2, &(uint64_t){ 0 }),
			 ODB_ERR_BAD_COUNTER);
	assert_int_equal(odb_stats_parse_count("56", 1, &(uint64_t){ 0 }), 0);
}

/* the file's text, or NULL when it does not exist */
static char *slurp(const char *rel)
{
	char path[PATH_MAX], *text;
	size_t len;

	op_testdir_file(&dir, rel, path, sizeof(path));
	return op_read_file(path, 1024, &text, &len) ? NULL : text;
}

static bool exists(const char *rel)
{
	char path[PATH_MAX];

	op_testdir_file(&dir, rel, path, sizeof(path));
	return access(path, F_OK) == 0;
}

static void assert_file(const char *rel, const char *want)
{
	char *text = slurp(rel);

	if (!text)
		fail_msg("'%s' is missing", rel);
	if (strcmp(text, want))
		fail_msg("'%s' holds '%s', want '%s'", rel, text, want);
	free(text);
}

static void test_write_read(void **state)
{
	char *names[] = { (char *)"zeta", (char *)"alpha" };
	struct odb_stats st = { 0 }, back;
	char sub[PATH_MAX];
	int i;

	(void)state;
	op_testdir_file(&dir, "w", sub, sizeof(sub));
	st.count[ODB_STAT_TOTAL_SAMPLES] = 1834;
	st.count[ODB_STAT_LOST_NO_MAPPING] = 100;
	st.count[ODB_STAT_LOST_KERNEL] = 50;
	st.count[ODB_STAT_LOST_BT_NO_MAPPING] = 7;
	st.throttled = names;
	st.nr_throttled = 2;
	assert_int_equal(stats_write(sub, &st), 0);
	/* OProfile's text: the decimal number, no newline */
	assert_file("w/stats/lost_no_mapping", "100");
	assert_file("w/stats/lost_kernel", "50");
	assert_file("w/stats/lost_bt_no_mapping", "7");
	assert_file("w/stats/total_samples", "1834");
	assert_file("w/stats/throttled/zeta", "");
	assert_file("w/stats/throttled/alpha", "");
	/* counters at zero have no file */
	assert_false(exists("w/stats/lost_samplefile"));
	assert_false(exists("w/stats/lost_records_by_kernel"));

	assert_int_equal(odb_stats_read(sub, &back), 0);
	for (i = 0; i < ODB_NR_STATS; i++) {
		if (back.count[i] != st.count[i] || back.present[i] != (st.count[i] != 0))
			fail_msg("%s: read %llu (present %d), wrote %llu", odb_stat_file(i),
				 (unsigned long long)back.count[i], back.present[i],
				 (unsigned long long)st.count[i]);
	}
	assert_int_equal(back.nr_throttled, 2);
	assert_string_equal(back.throttled[0], "alpha");
	assert_string_equal(back.throttled[1], "zeta");
	odb_stats_release(&back);
	odb_stats_release(&back);
	odb_stats_release(NULL);
}

/* total_samples goes with any lost_* file, arcs included (OProfile 1.4) */
static void test_write_total(void **state)
{
	struct odb_stats st = { 0 };
	char sub[PATH_MAX];

	(void)state;
	op_testdir_file(&dir, "none", sub, sizeof(sub));
	st.count[ODB_STAT_TOTAL_SAMPLES] = 500;
	assert_int_equal(stats_write(sub, &st), 0);
	assert_true(exists("none/stats"));
	assert_false(exists("none/stats/total_samples"));
	assert_false(exists("none/stats/throttled"));

	op_testdir_file(&dir, "arcs", sub, sizeof(sub));
	st.count[ODB_STAT_LOST_BT_NO_MAPPING] = 3;
	assert_int_equal(stats_write(sub, &st), 0);
	assert_file("arcs/stats/total_samples", "500");
	assert_file("arcs/stats/lost_bt_no_mapping", "3");
}

static void test_write_bad_names(void **state)
{
	static const char *const bad[] = { "", ".", "..", ".hidden", "a/b", "/" };
	char sub[PATH_MAX], rel[64];
	struct odb_stats st = { 0 };
	char *names[2];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(rel, sizeof(rel), "bad%zu", i);
		op_testdir_file(&dir, rel, sub, sizeof(sub));
		names[0] = (char *)"fine";
		names[1] = (char *)bad[i];
		st.throttled = names;
		st.nr_throttled = 2;
		if (stats_write(sub, &st) != -EINVAL)
			fail_msg("throttled name '%s' was accepted", bad[i]);
		snprintf(rel, sizeof(rel), "bad%zu/stats/throttled", i);
		assert_false(exists(rel));
	}
}

/* what a reader meets in sessions it did not write */
static void test_read_tolerant(void **state)
{
	struct odb_stats st;
	char sub[PATH_MAX], path[PATH_MAX];

	(void)state;
	op_testdir_file(&dir, "nothing", sub, sizeof(sub));
	assert_int_equal(odb_stats_read(sub, &st), 0);
	assert_int_equal(odb_stats_lost_samples(&st), 0);
	assert_int_equal(st.nr_throttled, 0);
	assert_null(st.throttled);

	op_testdir_file(&dir, "odd", sub, sizeof(sub));
	op_testdir_file(&dir, "odd/stats/throttled", path, sizeof(path));
	assert_int_equal(op_mkdir_p(path, 0755), 0);
	op_testdir_file(&dir, "odd/stats/lost_kernel", path, sizeof(path));
	assert_int_equal(op_write_file_atomic(path, "12\n", 3, 0644), 0);
	op_testdir_file(&dir, "odd/stats/lost_no_mapping", path, sizeof(path));
	assert_int_equal(op_write_file_atomic(path, "junk", 4, 0644), 0);
	op_testdir_file(&dir, "odd/stats/lost_something_new", path, sizeof(path));
	assert_int_equal(op_write_file_atomic(path, "1000", 4, 0644), 0);
	/* a FIFO must not block the reader; a directory is no counter */
	op_testdir_file(&dir, "odd/stats/total_samples", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0644), 0);
	op_testdir_file(&dir, "odd/stats/lost_samplefile", path, sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
	op_testdir_file(&dir, "odd/stats/lost_records_by_kernel", path, sizeof(path));
	assert_int_equal(op_write_file_atomic(path, "1234567890123456789012345678901234567890"
					      "1234567890123456789012345678901234567890",
					      80, 0644), 0);
	assert_int_equal(odb_stats_read(sub, &st), 0);
	assert_int_equal(st.count[ODB_STAT_LOST_KERNEL], 12);
	assert_true(st.present[ODB_STAT_LOST_KERNEL]);
	assert_false(st.present[ODB_STAT_LOST_NO_MAPPING]);
	assert_false(st.present[ODB_STAT_TOTAL_SAMPLES]);
	assert_false(st.present[ODB_STAT_LOST_SAMPLEFILE]);
	assert_false(st.present[ODB_STAT_LOST_BY_KERNEL]);
	assert_int_equal(odb_stats_lost_samples(&st), 12);
	assert_int_equal(st.nr_throttled, 0);
	odb_stats_release(&st);
}

static void test_oom(void **state)
{
	char *names[] = { (char *)"ev1", (char *)"ev2" };
	struct odb_stats st = { 0 }, back;
	char sub[PATH_MAX];
	unsigned long k;
	int ret;

	(void)state;
	st.count[ODB_STAT_TOTAL_SAMPLES] = 10;
	st.count[ODB_STAT_LOST_KERNEL] = 1;
	st.throttled = names;
	st.nr_throttled = 2;
	op_testdir_file(&dir, "oom", sub, sizeof(sub));
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = stats_write(sub, &st);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("write: allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 1);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_stats_read(sub, &back);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_int_equal(back.nr_throttled, 2);
			odb_stats_release(&back);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM || back.throttled || back.nr_throttled)
			fail_msg("read: allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 1);
}

/* the one line operf and the report tools both print */
static void assert_described(const struct odb_stats *st, const char *want)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	assert_int_equal(odb_stats_describe_lost(st, &sb), 0);
	assert_string_equal(sb.buf ? sb.buf : "", want);
	op_strbuf_release(&sb);
}

static void test_describe_lost(void **state)
{
	struct odb_stats st = { 0 };

	(void)state;
	assert_described(&st, "");
	st.count[ODB_STAT_LOST_BT_NO_MAPPING] = 12;	/* arcs, not samples */
	assert_described(&st, "");
	st.count[ODB_STAT_LOST_NO_MAPPING] = 1;
	assert_described(&st, "1 sample was lost: 1 at an address in no mapping");
	st.count[ODB_STAT_LOST_BY_KERNEL] = 300;
	st.count[ODB_STAT_LOST_SAMPLEFILE] = 20;
	st.count[ODB_STAT_TOTAL_SAMPLES] = 679;
	st.present[ODB_STAT_TOTAL_SAMPLES] = true;
	/* largest cause first; the share of written + lost */
	assert_described(&st, "321 of 1000 samples (32.10%) were lost: 300 dropped by "
			 "the kernel (its buffers were full), 20 whose sample file could "
			 "not be written, 1 at an address in no mapping");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sums),
		cmocka_unit_test(test_describe_lost),
		cmocka_unit_test(test_parse_count),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_write_total),
		cmocka_unit_test(test_write_bad_names),
		cmocka_unit_test(test_read_tolerant),
		cmocka_unit_test(test_oom),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
