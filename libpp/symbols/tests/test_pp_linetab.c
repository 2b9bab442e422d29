// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Line tables read by elf_linetab.c (pp_linetab.h) against libdw's, CU by
 * CU: at every row's address and the addresses beside it, the file and
 * line (or none) are dwarf_getsrc_die()'s, dwarf_linesrc()'s and
 * dwarf_lineno()'s, the rows are as many and each file index names what
 * dwarf_filesrc() names.  On the fixtures (DWARF 5, 4 and 3 line
 * programs, as gcc writes them, each CU read here rather than left to
 * libdw) and, when installed, on libc6-dbg's debug file of the C library
 * (compressed sections, inflated as pp_lines_open() inflates them;
 * assembler CUs), and on the files OP_TEST_LINETAB lists (colon-separated:
 * other binaries with debug information, by hand).  Truncated and
 * altered programs give a table or
 * -ENOTSUP, never a crash (the sanitizer builds run this too).
 */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
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
#include "libpp/symbols/pp_linetab.h"

/* an ELF file opened for libdw, inflated as pp_lines_open() does */
struct dw_file {
	int fd;
	Elf *elf;
	struct pp_dwarf_view *view;
	Dwarf *dw;
	struct pp_linetab_sections secs;
};

/* false when path is not there */
static bool dw_open(struct dw_file *f, const char *path)
{
	Elf *elf;

	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return false;
	elf_version(EV_CURRENT);
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	assert_non_null(f->elf);
	elf = f->elf;
	if (!pp_dwarf_view_make(f->elf, &f->view))
		elf = pp_dwarf_view_elf(f->view);
	f->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	assert_non_null(f->dw);
	pp_dwarf_view_sections(elf, &f->secs);
	assert_non_null(f->secs.line);
	return true;
}

static void dw_close(struct dw_file *f)
{
	dwarf_end(f->dw);
	pp_dwarf_view_free(f->view);
	elf_end(f->elf);
	close(f->fd);
}

/* what libdw gives for addr in cu: 0 with file and line, or -ENOENT */
static int libdw_find(Dwarf_Die *cu, uint64_t addr, const char **file, int *line)
{
	Dwarf_Line *row = dwarf_getsrc_die(cu, addr);

	if (!row || dwarf_lineno(row, line))
		return -ENOENT;
	*file = dwarf_linesrc(row, NULL, NULL);
	return *file ? 0 : -ENOENT;
}

struct tally {
	size_t cus, ours, theirs, lookups;
};

static void same_at(Dwarf_Die *cu, const struct pp_linetab *t, uint64_t addr,
		    struct tally *n)
{
	const char *want_file = NULL, *file = NULL;
	int want_line = 0, line = 0;
	int want = libdw_find(cu, addr, &want_file, &want_line);
	int got = pp_linetab_find(t, addr, &file, &line);

	n->lookups++;
	if (want != got || (!got && (strcmp(want_file, file) || want_line != line)))
		fail_msg("CU %#llx at %#llx: libdw %d %s:%d, here %d %s:%d",
			 (unsigned long long)dwarf_dieoffset(cu), (unsigned long long)addr,
			 want, want ? "" : want_file, want_line, got, got ? "" : file, line);
}

/* one CU: the table of its program against libdw's */
static void compare_cu(struct dw_file *f, Dwarf_Die *cu, struct tally *n)
{
	Dwarf_Attribute mem;
	Dwarf_Word off;
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	struct pp_linetab *t;
	uint8_t address_size;
	size_t nr, nr_files, i;
	int ret;

	if (dwarf_formudata(dwarf_attr(cu, DW_AT_stmt_list, &mem), &off))
		return;
	assert_non_null(dwarf_diecu(cu, &(Dwarf_Die){ 0 }, &address_size, NULL));
	n->cus++;
	ret = pp_linetab_read(&f->secs, off, dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &mem)),
			      address_size, &t);
	if (ret) {
		assert_int_equal(ret, -ENOTSUP);
		n->theirs++;
		return;
	}
	n->ours++;
	assert_int_equal(dwarf_getsrclines(cu, &lines, &nr), 0);
	assert_int_equal(pp_linetab_rows(t), nr);
	for (i = 0; i < nr; i++) {
		Dwarf_Addr a;

		assert_int_equal(dwarf_lineaddr(dwarf_onesrcline(lines, i), &a), 0);
		same_at(cu, t, a, n);
		same_at(cu, t, a - 1, n);
		same_at(cu, t, a + 1, n);
	}
	same_at(cu, t, 0, n);
	same_at(cu, t, UINT64_MAX, n);
	assert_int_equal(dwarf_getsrcfiles(cu, &files, &nr_files), 0);
	for (i = 0; i < nr_files; i++)
		assert_string_equal(pp_linetab_file(t, i), dwarf_filesrc(files, i, NULL, NULL));
	assert_null(pp_linetab_file(t, nr_files));
	pp_linetab_free(t);
}

static struct tally compare_file(const char *path)
{
	struct tally n = { 0 };
	struct dw_file f;
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (!dw_open(&f, path))
		return n;
	while (!dwarf_nextcu(f.dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Die cu;

		if (dwarf_offdie(f.dw, off + hsize, &cu))
			compare_cu(&f, &cu, &n);
		off = next;
	}
	dw_close(&f);
	return n;
}

/* each fixture's every CU read here, and the same as libdw's */
static void test_fixtures(void **state)
{
	static const char *const names[] = { "inl", "inl-nopie", "libinl.so", "pie",
					     "inl-dwarf4", "inl-dwarf3" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[512];
		struct tally n;

		snprintf(path, sizeof(path), "%s/%s", SYMFIX, names[i]);
		n = compare_file(path);
		print_message("%s: %zu CUs, %zu lookups\n", names[i], n.cus, n.lookups);
		assert_true(n.cus > 0);
		assert_int_equal(n.theirs, 0);
		assert_true(n.lookups > 100);
	}
}

/* the C library's debug file (libc6-dbg), by the library's build-id */
static bool libc_debug_file(char *path, size_t size)
{
	static const char *const libs[] = { "/usr/lib/x86_64-linux-gnu/libc.so.6",
					    "/lib/x86_64-linux-gnu/libc.so.6" };
	size_t i;

	for (i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		int fd = open(libs[i], O_RDONLY | O_CLOEXEC);
		Elf *elf;
		const void *id = NULL;
		ssize_t len;
		char hex[128];
		ssize_t k;

		if (fd < 0)
			continue;
		elf_version(EV_CURRENT);
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		len = elf ? dwelf_elf_gnu_build_id(elf, &id) : -1;
		for (k = 0; len > 1 && k < len && 2 * (size_t)k + 2 < sizeof(hex); k++)
			snprintf(hex + 2 * k, 3, "%02x", ((const unsigned char *)id)[k]);
		elf_end(elf);
		close(fd);
		if (len > 1) {
			snprintf(path, size, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
			return access(path, R_OK) == 0;
		}
	}
	return false;
}

/* the files OP_TEST_LINETAB lists, when it is set */
static void compare_listed(void)
{
	const char *list = getenv("OP_TEST_LINETAB");
	char *copy, *path, *save = NULL;

	if (!list || !*list)
		return;
	copy = strdup(list);
	assert_non_null(copy);
	for (path = strtok_r(copy, ":", &save); path; path = strtok_r(NULL, ":", &save)) {
		struct tally n = compare_file(path);

		print_message("%s: %zu CUs (%zu read here), %zu lookups\n", path, n.cus, n.ours,
			      n.lookups);
		assert_true(n.cus > 0);
	}
	free(copy);
}

static void test_debug_files(void **state)
{
	char path[512];
	struct tally n;

	(void)state;
	compare_listed();
	if (!libc_debug_file(path, sizeof(path))) {
		print_message("no debug file of the C library (libc6-dbg): not compared\n");
		skip();
	}
	n = compare_file(path);
	print_message("%s: %zu CUs (%zu read here), %zu lookups\n", path, n.cus, n.ours,
		      n.lookups);
	assert_true(n.ours > 100);
}

/* inl's first program, cut short at every length and with bytes altered */
static void test_damaged(void **state)
{
	char path[512];
	struct dw_file f;
	unsigned char *buf;
	size_t len, i, kept = 0;
	uint32_t seed = 12345;

	(void)state;
	snprintf(path, sizeof(path), "%s/inl", SYMFIX);
	assert_true(dw_open(&f, path));
	len = f.secs.line_size;
	buf = malloc(len + 1);
	assert_non_null(buf);
	for (i = 0; i <= len; i++) {
		struct pp_linetab_sections s = f.secs;
		struct pp_linetab *t;
		int ret;

		memcpy(buf, f.secs.line, i);
		s.line = buf;
		s.line_size = i;
		ret = pp_linetab_read(&s, 0, "/c", 8, &t);
		assert_true(ret == 0 || ret == -ENOTSUP);
		if (!ret) {
			const char *file;
			int line;

			(void)pp_linetab_find(t, 0x1000, &file, &line);
			pp_linetab_free(t);
			kept++;
		}
	}
	assert_true(kept > 0);	/* the whole section at least */
	for (i = 0; i < 20000; i++) {
		struct pp_linetab_sections s = f.secs;
		struct pp_linetab *t;
		size_t k;
		int ret;

		memcpy(buf, f.secs.line, len);
		for (k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[(seed >> 8) % len] = (unsigned char)(seed >> 24);
		}
		s.line = buf;
		ret = pp_linetab_read(&s, 0, NULL, 8, &t);
		assert_true(ret == 0 || ret == -ENOTSUP);
		if (!ret) {
			const char *file;
			int line;
			uint64_t a;

			for (a = 0; a < 0x2000; a += 0x101)
				(void)pp_linetab_find(t, a, &file, &line);
			(void)pp_linetab_file(t, 3);
			pp_linetab_free(t);
		}
	}
	free(buf);
	dw_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_debug_files),
		cmocka_unit_test(test_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
