// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Foreign-ABI sample files: files built here byte by byte in the x86-64
 * and i386 layouts, little- and big-endian, convert to the header and
 * nodes they were built from (anon_start with all 64 bits, cpu_speed
 * kept); bad abi descriptions and bad files give their error; converting
 * into an existing file adds to it, and no failure (allocation k failing
 * included) changes the output or leaves a temporary.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/odb_abi.h"
#include "libdb/odb_import.h"
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
	static char buf[600];

	snprintf(buf, sizeof(buf), "%s/%s", dir.path, name);
	return buf;
}

/* set key name of abi to value */
static void abi_set(struct odb_abi *abi, const char *name, uint64_t value)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (!strcmp(odb_abi_key_name(i), name)) {
			abi->value[i] = value;
			abi->has[i] = true;
			return;
		}
	fail_msg("no abi key %s", name);
}

static void abi_drop(struct odb_abi *abi, const char *name)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (!strcmp(odb_abi_key_name(i), name))
			abi->has[i] = false;
}

/* the abi of OProfile's x86-64 or i386 layout, in either byte order */
static void foreign_abi(struct odb_abi *abi, bool i386, bool big_endian)
{
	odb_abi_native(abi);
	abi_set(abi, "little_endian", !big_endian);
	if (!i386)
		return;
	abi_set(abi, "sizeof_struct_opd_header", 64);
	abi_set(abi, "offsetof_header_cpu_speed", 28);
	abi_set(abi, "offsetof_header_mtime", 36);
	abi_set(abi, "offsetof_header_cg_to_is_kernel", 44);
	abi_set(abi, "offsetof_header_anon_start", 48);
	abi_set(abi, "offsetof_header_cg_to_anon_start", 56);
}

static void put(unsigned char *p, uint64_t v, size_t size, bool be)
{
	size_t i;

	for (i = 0; i < size; i++)
		p[be ? size - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

#define NR_KEYS 5
static const odb_key_t keys[NR_KEYS] = {
	0x10, 0x1139, 0xffffffff00000001ull, 0x10, 0x7f1234560123ull
};
static const odb_value_t values[NR_KEYS] = { 1, 100, 0xfffffffe, 7, 3 };

/* the file size for S = 128 slots */
static size_t foreign_size(bool i386)
{
	return (i386 ? 64 : 72) + 32 + 128 * 20;
}

/* a file of 128 slots and the NR_KEYS nodes, its header from the test's */
static unsigned char *foreign_file(bool i386, bool be, size_t *len)
{
	size_t h = i386 ? 64 : 72, i;
	unsigned char *b = calloc(1, foreign_size(i386));
	uint64_t speed;
	double mhz = 2394.5;

	assert_non_null(b);
	memcpy(b, OPD_MAGIC, 4);
	put(b + 4, OPD_VERSION, 4, be);
	put(b + 8, 80, 4, be);			/* cpu_type */
	put(b + 12, 0x3c, 4, be);		/* ctr_event */
	put(b + 16, 1, 4, be);			/* ctr_um */
	put(b + 20, 100000, 4, be);		/* ctr_count */
	put(b + 24, 1, 4, be);			/* is_kernel */
	memcpy(&speed, &mhz, 8);
	put(b + (i386 ? 28 : 32), speed, 8, be);
	put(b + (i386 ? 36 : 40), 0x123456789ull, 8, be);
	put(b + (i386 ? 44 : 48), 1, 4, be);
	put(b + (i386 ? 48 : 56), 0x7f1234560000ull, 8, be);
	put(b + (i386 ? 56 : 64), 0xffffffff80001000ull, 8, be);
	put(b + h, 128, 4, be);
	put(b + h + 4, NR_KEYS + 1, 4, be);
	for (i = 0; i < NR_KEYS; i++) {
		unsigned char *n = b + h + 32 + (i + 1) * 16;

		put(n, keys[i], 8, be);
		put(n + 8, values[i], 4, be);
		put(n + 12, 0xdeadbeef, 4, be);	/* foreign chains: ignored */
	}
	*len = foreign_size(i386);
	return b;
}

static void check_header(const struct opd_header *h)
{
	assert_memory_equal(h->magic, OPD_MAGIC, 4);
	assert_int_equal(h->version, OPD_VERSION);
	assert_int_equal(h->cpu_type, 80);
	assert_int_equal(h->ctr_event, 0x3c);
	assert_int_equal(h->ctr_um, 1);
	assert_int_equal(h->ctr_count, 100000);
	assert_int_equal(h->is_kernel, 1);
	assert_true(h->cpu_speed == 2394.5);
	assert_int_equal(h->mtime, 0x123456789ull);
	assert_int_equal(h->cg_to_is_kernel, 1);
	assert_int_equal(h->anon_start, 0x7f1234560000ull);
	assert_int_equal(h->cg_to_anon_start, 0xffffffff80001000ull);
}

static const struct layout_row {
	const char *name;
	bool i386, be;
	int line;
} layouts[] = {
	{ .name = "x86_64", .line = __LINE__ },
	{ .name = "x86_64-be", .be = true, .line = __LINE__ },
	{ .name = "i386", .i386 = true, .line = __LINE__ },
	{ .name = "i386-be", .i386 = true, .be = true, .line = __LINE__ },
};

static void test_layouts(void **state)
{
	size_t r, i, len, nr;

	(void)state;
	for (r = 0; r < sizeof(layouts) / sizeof(layouts[0]); r++) {
		const struct layout_row *row = &layouts[r];
		struct odb_import_layout lay;
		struct odb_node *nodes;
		struct opd_header hdr;
		struct odb_abi abi;
		unsigned char *b = foreign_file(row->i386, row->be, &len);

		print_message("row at line %d: %s\n", row->line, row->name);
		foreign_abi(&abi, row->i386, row->be);
		assert_int_equal(odb_import_layout_init(&lay, &abi, NULL), 0);
		assert_int_equal(odb_import_parse(&lay, b, len, &hdr, &nodes, &nr), 0);
		check_header(&hdr);
		assert_int_equal(nr, NR_KEYS);
		for (i = 0; i < NR_KEYS; i++) {
			assert_int_equal(nodes[i].key, keys[i]);
			assert_int_equal(nodes[i].value, values[i]);
		}
		free(nodes);
		free(b);
	}
}

/* abi descriptions that cannot be converted: drop or set one key */
static const struct abi_row {
	const char *key;
	bool drop;
	uint64_t value;
	int err;
	int line;
} bad_abis[] = {
	{ "little_endian", .drop = true, .err = ODB_ERR_ABI_MISSING_KEY, .line = __LINE__ },
	{ "offsetof_header_anon_start", .drop = true, .err = ODB_ERR_ABI_MISSING_KEY, .line = __LINE__ },
	{ "sizeof_u32", .drop = true, .err = ODB_ERR_ABI_MISSING_KEY, .line = __LINE__ },
	{ "sizeof_odb_node_t", .drop = true, .err = ODB_ERR_ABI_MISSING_KEY, .line = __LINE__ },
	{ "little_endian", .value = 2, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_u32", .value = 8, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_odb_key_t", .value = 4, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_double", .value = 4, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_struct_opd_header", .value = 0, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_struct_opd_header", .value = 64, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_struct_opd_header", .value = 1u << 20, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "offsetof_header_anon_start", .value = 68, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "offsetof_header_magic", .value = UINT64_MAX, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "offsetof_node_key", .value = 9, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "offsetof_descr_current_size", .value = 29, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "sizeof_odb_node_t", .value = 0, .err = ODB_ERR_ABI_BAD_LAYOUT, .line = __LINE__ },
	{ "offsetof_header_cpu_speed", .value = 40, .err = 0, .line = __LINE__ },
};

static void test_bad_abi(void **state)
{
	size_t r, missing;

	(void)state;
	for (r = 0; r < sizeof(bad_abis) / sizeof(bad_abis[0]); r++) {
		const struct abi_row *row = &bad_abis[r];
		struct odb_import_layout lay;
		struct odb_abi abi;

		print_message("row at line %d: %s\n", row->line, row->key);
		odb_abi_native(&abi);
		if (row->drop)
			abi_drop(&abi, row->key);
		else
			abi_set(&abi, row->key, row->value);
		missing = ODB_ABI_NR_KEYS;
		assert_int_equal(odb_import_layout_init(&lay, &abi, &missing),
				 row->err);
		if (row->err == ODB_ERR_ABI_MISSING_KEY)
			assert_string_equal(odb_abi_key_name(missing), row->key);
	}
}

/* files that cannot be converted: a length, or a patch of 4 bytes */
static const struct file_row {
	const char *what;
	size_t len;		/* 0: whole file */
	size_t patch_at;	/* 0: no patch */
	uint32_t patch;		/* little-endian value written there */
	int err;
	int line;
} bad_files[] = {
	{ "empty", .len = 1, .err = ODB_ERR_TRUNCATED, .line = __LINE__ },
	{ "header only", .len = 72, .err = ODB_ERR_TRUNCATED, .line = __LINE__ },
	{ "no descriptor end", .len = 103, .err = ODB_ERR_TRUNCATED, .line = __LINE__ },
	{ "table cut", .len = 104, .err = ODB_ERR_BEYOND_EOF, .line = __LINE__ },
	{ "one byte short", .len = 72 + 32 + 128 * 20 - 1, .err = ODB_ERR_BEYOND_EOF, .line = __LINE__ },
	{ "magic", .patch_at = 0, .len = 0, .patch = 0, .err = 0, .line = __LINE__ },
	{ "bad magic", .patch_at = 1, .patch = 0x41414141, .err = ODB_ERR_BAD_MAGIC, .line = __LINE__ },
	{ "version 0x12", .patch_at = 4, .patch = 0x12, .err = ODB_ERR_BAD_VERSION, .line = __LINE__ },
	{ "current_size 0", .patch_at = 76, .patch = 0, .err = ODB_ERR_BAD_USED_COUNT, .line = __LINE__ },
	{ "current_size past S", .patch_at = 76, .patch = 129, .err = ODB_ERR_BAD_USED_COUNT, .line = __LINE__ },
	{ "S past the file", .patch_at = 72, .patch = 0x40000000, .err = ODB_ERR_BEYOND_EOF, .line = __LINE__ },
	{ "S huge, used huge", .patch_at = 76, .patch = 0xffffffff, .err = ODB_ERR_BAD_USED_COUNT, .line = __LINE__ },
	{ "current_size 1: no nodes", .patch_at = 76, .patch = 1, .err = 0, .line = __LINE__ },
};

static void test_bad_files(void **state)
{
	struct odb_import_layout lay;
	struct odb_abi abi;
	size_t r;

	(void)state;
	foreign_abi(&abi, false, false);
	assert_int_equal(odb_import_layout_init(&lay, &abi, NULL), 0);
	for (r = 0; r < sizeof(bad_files) / sizeof(bad_files[0]); r++) {
		const struct file_row *row = &bad_files[r];
		struct odb_node *nodes = NULL;
		struct opd_header hdr;
		size_t len, nr;
		unsigned char *b = foreign_file(false, false, &len);
		int err;

		print_message("row at line %d: %s\n", row->line, row->what);
		if (row->patch_at)
			put(b + row->patch_at, row->patch, 4, false);
		err = odb_import_parse(&lay, b, row->len ? row->len : len,
				       &hdr, &nodes, &nr);
		assert_int_equal(err, row->err);
		if (!err)
			free(nodes);
		free(b);
	}
}

static int write_foreign(const char *name, bool i386, bool be)
{
	size_t len;
	unsigned char *b = foreign_file(i386, be, &len);
	int ret = odb_test_spew(path_of(name), b, len);

	free(b);
	return ret;
}

/* nothing named out.opimport.tmp (or its own .tmp) is left */
static void assert_no_tmp(void)
{
	assert_int_equal(access(path_of("out.opimport.tmp"), F_OK), -1);
	assert_int_equal(access(path_of("out.opimport.tmp.tmp"), F_OK), -1);
}

static void test_file_merge(void **state)
{
	struct odb_import_layout lay;
	struct odb_file *f;
	struct odb_abi abi;
	unsigned char *before, *after;
	size_t len_before, len_after;
	bool in_failed = true;
	char out[600];

	(void)state;
	foreign_abi(&abi, true, true);
	assert_int_equal(odb_import_layout_init(&lay, &abi, NULL), 0);
	assert_int_equal(write_foreign("in", true, true), 0);
	snprintf(out, sizeof(out), "%s", path_of("out"));
	unlink(out);
	assert_int_equal(odb_import_file(&lay, path_of("in"), out, &in_failed), 0);
	assert_false(in_failed);
	assert_int_equal(odb_import_file(&lay, path_of("in"), out, NULL), 0);
	assert_int_equal(odb_file_open(out, ODB_READ, NULL, &f), 0);
	check_header(odb_file_header(f));
	assert_int_equal(odb_test_count(f, 0x10), 16);
	assert_int_equal(odb_test_count(f, 0x1139), 200);
	assert_int_equal(odb_test_count(f, 0xffffffff00000001ull),
			 2ull * 0xfffffffe);
	assert_int_equal(odb_file_total(f),
			 2ull * (1 + 100 + 0xfffffffeull + 7 + 3));
	odb_file_close(f);
	assert_no_tmp();

	/* another event: refused, the output as it was */
	before = odb_test_slurp(out, &len_before);
	assert_non_null(before);
	{
		size_t len;
		unsigned char *b = foreign_file(true, true, &len);

		put(b + 12, 0x3d, 4, true);
		assert_int_equal(odb_test_spew(path_of("in2"), b, len), 0);
		free(b);
	}
	assert_int_equal(odb_import_file(&lay, path_of("in2"), out, &in_failed),
			 ODB_ERR_HEADER_MISMATCH);
	assert_false(in_failed);
	/* a truncated input: refused, the output as it was */
	assert_int_equal(odb_test_spew(path_of("in3"), before, 90), 0);
	assert_int_equal(odb_import_file(&lay, path_of("in3"), out, &in_failed),
			 ODB_ERR_TRUNCATED);
	assert_true(in_failed);
	assert_int_equal(odb_import_file(&lay, path_of("nonexistent"), out,
					 &in_failed), -ENOENT);
	assert_true(in_failed);
	after = odb_test_slurp(out, &len_after);
	assert_non_null(after);
	assert_int_equal(len_before, len_after);
	assert_memory_equal(before, after, len_before);
	assert_no_tmp();
	free(before);
	free(after);
}

/* allocation k failing: -ENOMEM, the output as it was, no temporary */
static void test_alloc_failures(void **state)
{
	struct odb_import_layout lay;
	struct odb_abi abi;
	unsigned char *before, *after;
	size_t len_before, len_after;
	char out[600];
	unsigned long k;

	(void)state;
	foreign_abi(&abi, false, true);
	assert_int_equal(odb_import_layout_init(&lay, &abi, NULL), 0);
	assert_int_equal(write_foreign("in", false, true), 0);
	snprintf(out, sizeof(out), "%s", path_of("out"));
	unlink(out);
	assert_int_equal(odb_import_file(&lay, path_of("in"), out, NULL), 0);
	before = odb_test_slurp(out, &len_before);
	assert_non_null(before);
	for (k = 1;; k++) {
		int ret;

		op_alloc_fail_at(k);
		ret = odb_import_file(&lay, path_of("in"), out, NULL);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, ret);
		after = odb_test_slurp(out, &len_after);
		assert_non_null(after);
		assert_int_equal(len_before, len_after);
		assert_memory_equal(before, after, len_before);
		free(after);
		assert_no_tmp();
	}
	assert_true(k > 3);
	free(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_bad_abi),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_file_merge),
		cmocka_unit_test(test_alloc_failures),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
