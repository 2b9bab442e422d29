// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The build-id of an ELF file (odb_buildid.h), from files the test
 * writes byte by byte: 64-bit little-endian and 32-bit big-endian ELF
 * with a PT_NOTE holding another note first and then the GNU build-id;
 * an id longer than 20 bytes cut at 40 hex digits; no note, a note
 * segment past the end, a truncated header, not ELF, a FIFO and a
 * directory; and a system binary's id as readelf prints it.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb_buildid.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

struct image {
	unsigned char b[1024];
	size_t len;
	int big, is64;
};

static void put(struct image *im, size_t off, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		im->b[off + (im->big ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

/* a note at off: name, type, desc of dlen bytes from desc; its size */
static size_t note(struct image *im, size_t off, const char *name, unsigned type,
		   const unsigned char *desc, size_t dlen)
{
	size_t nlen = strlen(name) + 1, at = off + 12;

	put(im, off, nlen, 4);
	put(im, off + 4, dlen, 4);
	put(im, off + 8, type, 4);
	memcpy(im->b + at, name, nlen);
	at += (nlen + 3) & ~(size_t)3;
	memcpy(im->b + at, desc, dlen);
	at += (dlen + 3) & ~(size_t)3;
	return at - off;
}

/* an ELF file with one PT_NOTE at 0x200 holding a vendor note, then the
 * GNU build-id of idlen bytes 1, 2, 3 ... (no build-id when idlen 0) */
static void make_elf(struct image *im, int is64, int big, size_t idlen, uint64_t note_off)
{
	unsigned char id[32], other[5] = { 9, 9, 9, 9, 9 };
	size_t ph = is64 ? 64 : 52, len = 0, i;

	memset(im, 0, sizeof(*im));
	im->is64 = is64;
	im->big = big;
	memcpy(im->b, "\177ELF", 4);
	im->b[4] = is64 ? 2 : 1;
	im->b[5] = big ? 2 : 1;
	im->b[6] = 1;
	if (is64) {
		put(im, 32, ph, 8);		/* e_phoff */
		put(im, 54, 56, 2);		/* e_phentsize */
		put(im, 56, 1, 2);		/* e_phnum */
	} else {
		put(im, 28, ph, 4);
		put(im, 42, 32, 2);
		put(im, 44, 1, 2);
	}
	for (i = 0; i < sizeof(id); i++)
		id[i] = (unsigned char)(i + 1);
	len += note(im, 0x200, "Vendor", 1, other, sizeof(other));
	if (idlen)
		len += note(im, 0x200 + len, "GNU", 3, id, idlen);
	put(im, ph, 4, 4);			/* p_type PT_NOTE */
	if (is64) {
		put(im, ph + 8, note_off, 8);
		put(im, ph + 32, len, 8);
	} else {
		put(im, ph + 4, note_off, 4);
		put(im, ph + 16, len, 4);
	}
	im->len = 0x200 + len;
}

static int id_of(const struct op_testdir *dir, const struct image *im, size_t len,
		 char hex[ODB_BUILD_ID_HEX])
{
	char path[600];

	assert_non_null(op_testdir_file(dir, "elf", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, im->b, len, 0644), 0);
	return odb_build_id(path, hex);
}

static void test_build_ids(void **state)
{
	struct op_testdir dir;
	struct image im;
	char hex[ODB_BUILD_ID_HEX], path[600];

	(void)state;
	assert_int_equal(op_testdir_make(&dir), 0);
	make_elf(&im, 1, 0, 20, 0x200);
	assert_int_equal(id_of(&dir, &im, im.len, hex), 0);
	assert_string_equal(hex, "0102030405060708090a0b0c0d0e0f1011121314");
	make_elf(&im, 0, 1, 8, 0x200);
	assert_int_equal(id_of(&dir, &im, im.len, hex), 0);
	assert_string_equal(hex, "0102030405060708");
	/* longer than 20 bytes: cut at 40 digits */
	make_elf(&im, 1, 1, 32, 0x200);
	assert_int_equal(id_of(&dir, &im, im.len, hex), 0);
	assert_string_equal(hex, "0102030405060708090a0b0c0d0e0f1011121314");
	/* no build-id; a note segment past the end; a cut file */
	make_elf(&im, 1, 0, 0, 0x200);
	assert_int_equal(id_of(&dir, &im, im.len, hex), -ENOENT);
	assert_string_equal(hex, "");
	make_elf(&im, 1, 0, 20, 0x10000);
	assert_int_equal(id_of(&dir, &im, im.len, hex), -ENOENT);
	make_elf(&im, 1, 0, 20, 0x200);
	assert_int_equal(id_of(&dir, &im, im.len - 8, hex), -ENOENT);
	assert_int_equal(id_of(&dir, &im, 40, hex), -ENOEXEC);
	memcpy(im.b, "#!/b", 4);
	assert_int_equal(id_of(&dir, &im, im.len, hex), -ENOEXEC);
	/* not regular files; none at all */
	assert_non_null(op_testdir_file(&dir, "fifo", path, sizeof(path)));
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(odb_build_id(path, hex), -ENOEXEC);
	assert_int_equal(odb_build_id(dir.path, hex), -ENOEXEC);
	assert_non_null(op_testdir_file(&dir, "none", path, sizeof(path)));
	assert_int_equal(odb_build_id(path, hex), -ENOENT);
	op_testdir_remove(&dir);
}

/* a system binary's build-id, as readelf -n prints it (not this
 * program's: under valgrind /proc/self/exe is not what readelf sees) */
static void test_system(void **state)
{
	static const char bin[] = "/usr/bin/true";
	char hex[ODB_BUILD_ID_HEX], want[128] = "", cmd[128];
	FILE *f;

	(void)state;
	if (access(bin, R_OK) || odb_build_id(bin, hex) == -ENOENT)
		skip();		/* none here, or linked without a build-id */
	snprintf(cmd, sizeof(cmd), "readelf -n %s 2>/dev/null", bin);
	f = popen(cmd, "r");
	if (!f)
		skip();
	while (fgets(cmd, sizeof(cmd), f))
		if (sscanf(cmd, " Build ID: %100s", want) == 1)
			break;
	pclose(f);
	if (!want[0])
		skip();		/* no readelf */
	assert_string_equal(hex, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_ids),
		cmocka_unit_test(test_system),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
