// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The inflated image of compressed debug sections (pp_dwarf_view.h):
 * made only for a file with compressed sections, and the lines and
 * inline chains read through it are those of the same file uncompressed,
 * at every key of the text; a section whose data does not inflate to its
 * size is refused, and its file still read by libdw alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/pp_dwarf_view.h"
#include "libpp/symbols/pp_symbols.h"
#include "libpp/symbols/tests/pp_test_symtab.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

#define MAX_INL 16

/* pp_dwarf_view_make() on the file at path */
static int view_of(const char *path)
{
	struct pp_dwarf_view *v = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	Elf *elf;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(elf);
	ret = pp_dwarf_view_make(elf, &v);
	assert_true(!ret == !!v);
	pp_dwarf_view_free(v);
	elf_end(elf);
	close(fd);
	return ret;
}

static struct pp_symtab *load(const char *path)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)path };
	struct pp_symtab *t;

	assert_int_equal(pp_symtab_load(&id, false, 0x100, NULL, &t), 0);
	return t;
}

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* every key of plain's symbols answers the same in both tables */
static void compare_lines(const char *plain_path, const char *other_path)
{
	struct pp_symtab *plain = load(plain_path), *other = load(other_path);
	size_t i, keys = 0, lines = 0, inlined = 0;

	for (i = 0; i < plain->nr; i++) {
		uint64_t key;

		for (key = plain->syms[i].start; key < plain->syms[i].end; key++) {
			struct pp_inline va[MAX_INL], vb[MAX_INL];
			const char *fa = NULL, *fb = NULL;
			unsigned la = 0, lb = 0;
			int ra = pp_symtab_line(plain, key, &fa, &la, NULL);
			int rb = pp_symtab_line(other, key, &fb, &lb, NULL);
			int na = pp_symtab_inlines(plain, key, va, MAX_INL, NULL);
			int nb = pp_symtab_inlines(other, key, vb, MAX_INL, NULL);
			int k;

			if (ra != rb || la != lb || !same(fa, fb) || na != nb)
				fail_msg("%s key 0x%" PRIx64 ": %d %s:%u (%d inlined) against %d %s:%u (%d)",
					 other_path, key, rb, fb ? fb : "-", lb, nb, ra,
					 fa ? fa : "-", la, na);
			for (k = 0; k < na && k < MAX_INL; k++)
				if (!same(va[k].function, vb[k].function) ||
				    !same(va[k].call_file, vb[k].call_file) ||
				    va[k].call_line != vb[k].call_line)
					fail_msg("%s key 0x%" PRIx64 ": inline %d differs", other_path,
						 key, k);
			keys++;
			lines += !ra;
			inlined += na > 0;
		}
	}
	/* the comparison saw lines and inline chains, not only their absence */
	assert_true(keys > 100 && lines > keys / 2 && inlined > 10);
	pp_symtab_free(plain);
	pp_symtab_free(other);
}

static void test_uncompressed(void **state)
{
	(void)state;
	assert_int_equal(view_of(FIX("inl")), -ENOTSUP);	/* nothing to inflate */
	assert_int_equal(view_of(FIX("nopie")), -ENOTSUP);	/* no DWARF at all */
}

static void test_zlib(void **state)
{
	(void)state;
	assert_int_equal(view_of(FIX("inl-z")), 0);
	compare_lines(FIX("inl"), FIX("inl-z"));
}

static void test_zstd(void **state)
{
	(void)state;
	if (access(FIX("inl-zstd"), F_OK))
		skip();			/* this objcopy cannot write zstd */
	/* another compression is libdw's to read (or not) */
	assert_int_equal(view_of(FIX("inl-zstd")), -ENOTSUP);
}

/*
 * The offset and size of section name's bytes in the ELF image at data
 * (found with libelf); false when there is no such section
 */
static bool section_bytes(char *data, size_t size, const char *name, size_t *off,
			  size_t *len)
{
	Elf *elf = elf_memory(data, size);
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	bool found = false;

	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while (!found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		assert_non_null(gelf_getshdr(scn, &sh));
		if (strcmp(elf_strptr(elf, shstrndx, sh.sh_name), name))
			continue;
		*off = sh.sh_offset;
		*len = sh.sh_size;
		found = true;
	}
	elf_end(elf);
	return found;
}

/* compressed data spoilt in the middle of .debug_line: refused, not used */
static void test_corrupt(void **state)
{
	struct op_testdir *dir = *state;
	char path[4096], *data;
	size_t size, off = 0, len = 0;
	struct pp_symtab *t;
	const char *file;
	unsigned line;

	assert_int_equal(op_read_file(FIX("inl-z"), 64 << 20, &data, &size), 0);
	assert_true(section_bytes(data, size, ".debug_line", &off, &len));
	assert_true(len > 64);
	memset(data + off + len / 2, 0xa5, 16);
	op_testdir_file(dir, "inl-bad", path, sizeof(path));
	assert_int_equal(op_write_file_atomic(path, data, size, 0644), 0);
	free(data);
	assert_int_equal(view_of(path), -EINVAL);
	/* libdw alone then: whatever it makes of it, no crash */
	t = load(path);
	(void)pp_symtab_line(t, t->nr ? t->syms[0].start : 0, &file, &line, NULL);
	pp_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uncompressed),
		cmocka_unit_test(test_zlib),
		cmocka_unit_test(test_zstd),
		cmocka_unit_test_setup_teardown(test_corrupt, testdir_setup, testdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
