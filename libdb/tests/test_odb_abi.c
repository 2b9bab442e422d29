// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The abi file: this build's text is OProfile 1.4's x86-64 one (on
 * x86-64), it parses back to this build's layout, lines that are not
 * "NAME VALUE" of a known key are counted and skipped, and a foreign
 * layout is told apart by its first differing key.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb_abi.h"
#include "libdb/odb_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
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

/* the file operf writes, read back: this build's layout, nothing bad */
static void test_round_trip(void **state)
{
	struct odb_abi native, got;
	char sub[PATH_MAX];
	size_t idx;

	(void)state;
	op_testdir_file(&dir, "sess", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	assert_int_equal(odb_abi_read(sub, &got), -ENOENT);
	{
		struct op_dir d;

		assert_int_equal(op_testdir_hold(sub, &d), 0);
		assert_int_equal(odb_session_write_abi(&d), 0);
		op_dir_close(&d);
	}
	assert_int_equal(odb_abi_read(sub, &got), 0);
	odb_abi_native(&native);
	assert_memory_equal(&got, &native, sizeof(got));
	assert_false(odb_abi_differs(&got, &native, &idx));
	assert_string_equal(odb_abi_key_name(0), "sizeof_double");
	assert_string_equal(odb_abi_key_name(ODB_ABI_NR_KEYS - 1), "little_endian");
	assert_null(odb_abi_key_name(ODB_ABI_NR_KEYS));
}

#if defined(__x86_64__)
/* OProfile 1.4's x86-64 abi file, byte for byte (oprofile-ng-session(5)) */
static void test_oprofile_text(void **state)
{
	static const char want[] =
		"sizeof_double 8\nsizeof_u64 8\nsizeof_u8 1\nsizeof_u32 4\n"
		"sizeof_int 4\nsizeof_unsigned_int 4\nsizeof_odb_key_t 8\n"
		"sizeof_odb_index_t 4\nsizeof_odb_value_t 4\n"
		"sizeof_odb_node_nr_t 4\nsizeof_odb_descr_t 32\n"
		"sizeof_odb_node_t 16\nsizeof_struct_opd_header 72\n"
		"offsetof_node_key 0\noffsetof_node_value 8\noffsetof_node_next 12\n"
		"offsetof_descr_size 0\noffsetof_descr_current_size 4\n"
		"offsetof_header_magic 0\noffsetof_header_version 4\n"
		"offsetof_header_cpu_type 8\noffsetof_header_ctr_event 12\n"
		"offsetof_header_ctr_um 16\noffsetof_header_ctr_count 20\n"
		"offsetof_header_is_kernel 24\noffsetof_header_cpu_speed 32\n"
		"offsetof_header_mtime 40\noffsetof_header_cg_to_is_kernel 48\n"
		"offsetof_header_anon_start 56\noffsetof_header_cg_to_anon_start 64\n"
		"little_endian 1\n";
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_abi native;

	(void)state;
	odb_abi_native(&native);
	assert_int_equal(odb_abi_format(&native, &sb), 0);
	assert_string_equal(sb.buf, want);
	op_strbuf_release(&sb);
}
#else
static void test_oprofile_text(void **state)
{
	(void)state;
	skip();
}
#endif

/* which lines count, and what they say */
static void test_parse(void **state)
{
	static const struct {
		int line;
		const char *text;
		size_t len;		/* 0: strlen(text) */
		size_t nr_bad;
		int key;		/* a key that must be given, or -1 */
		uint64_t value;
		size_t nr_given;
	} rows[] = {
		{ .line = __LINE__, .text = "", .key = -1 },
		{ .line = __LINE__, .text = "\n\n\r\n", .key = -1 },
		{ .line = __LINE__, .text = "little_endian 0", .key = 30, .value = 0,
		  .nr_given = 1 },
		{ .line = __LINE__, .text = "little_endian\t \t1\r\n", .key = 30,
		  .value = 1, .nr_given = 1 },
		/* the last of a repeated key wins, as in opimport's map */
		{ .line = __LINE__, .text = "sizeof_u64 4\nsizeof_u64 8\n", .key = 1,
		  .value = 8, .nr_given = 1 },
		{ .line = __LINE__, .text = "sizeof_u64 18446744073709551615", .key = 1,
		  .value = UINT64_MAX, .nr_given = 1 },
		{ .line = __LINE__, .text = "sizeof_u64 000000000000000000008", .key = 1,
		  .value = 8, .nr_given = 1 },
		/* bad lines: skipped, counted */
		{ .line = __LINE__, .text = "sizeof_u64 18446744073709551616", .nr_bad = 1,
		  .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u64", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u64 ", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = " sizeof_u64 8", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u64 8 9", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u64 -8", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u64 0x8", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u128 16", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "SIZEOF_U64 8", .nr_bad = 1, .key = -1 },
		{ .line = __LINE__, .text = "sizeof_u64 8\0\nlittle_endian 1",
		  .len = sizeof("sizeof_u64 8\0\nlittle_endian 1") - 1,
		  .nr_bad = 1, .key = 30, .value = 1, .nr_given = 1 },
		{ .line = __LINE__, .text = "junk\nsizeof_int 4\nmore junk\n", .nr_bad = 2,
		  .key = 4, .value = 4, .nr_given = 1 },
	};
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct odb_abi abi;
		size_t given = 0;

		odb_abi_parse(rows[i].text,
			      rows[i].len ? rows[i].len : strlen(rows[i].text), &abi);
		for (k = 0; k < ODB_ABI_NR_KEYS; k++)
			given += abi.has[k];
		if (abi.nr_bad != rows[i].nr_bad || given != rows[i].nr_given ||
		    (rows[i].key >= 0 && (!abi.has[rows[i].key] ||
					  abi.value[rows[i].key] != rows[i].value)))
			fail_msg("row at line %d: %zu bad, %zu given", rows[i].line,
				 abi.nr_bad, given);
	}
}

#define FOREIGN "little_endian 7\nsizeof_struct_opd_header 64\n"

/* the first key that differs, among those both give */
static void test_differs(void **state)
{
	struct odb_abi native, other;
	size_t idx = 99;

	(void)state;
	odb_abi_native(&native);
	odb_abi_parse(FOREIGN, strlen(FOREIGN), &other);
	assert_true(odb_abi_differs(&other, &native, &idx));
	assert_string_equal(odb_abi_key_name(idx), "sizeof_struct_opd_header");
	/* a partial file that agrees, and one that says nothing */
	odb_abi_parse("sizeof_u64 8\n", 13, &other);
	assert_false(odb_abi_differs(&other, &native, &idx));
	odb_abi_parse("nonsense\n", 9, &other);
	assert_false(odb_abi_differs(&other, &native, &idx));
	assert_int_equal(other.nr_bad, 1);
}

/* formatting reports out of memory, and leaves sb safe to release */
static void test_format_enomem(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_abi native;

	(void)state;
	odb_abi_native(&native);
	op_alloc_fail_at(1);
	assert_int_equal(odb_abi_format(&native, &sb), -ENOMEM);
	op_alloc_fail_at(0);
	op_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_oprofile_text),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_differs),
		cmocka_unit_test(test_format_enomem),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
