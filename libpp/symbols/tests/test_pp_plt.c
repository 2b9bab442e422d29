// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PLT entries read with libelf (pp_plt_x86_64()) are libbfd's
 * synthetic symbols of the .plt sections, address for address and name
 * for name: on the fixtures, on the seeds of the fuzz target (among them
 * the IBT layout, .plt.sec and 16-byte .plt.got entries, and the 8-byte
 * .plt.got entries of -z now), and on every x86-64 ELF file of the
 * system's program and library directories.  A file whose PLT the reader does not
 * know (-ENOTSUP) is left to libbfd and only counted; the fixtures and
 * most files must be compared.  A name is checked by its bytes, as
 * objdump -d prints it.
 */
#include "config.h"

#include <bfd.h>
#include <dirent.h>
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/symbols_int.h"

struct entry {
	uint64_t vma;
	char *name;
};

static int by_vma(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->vma < y->vma ? -1 : x->vma > y->vma;
}

/* libbfd's synthetic symbols of path in .plt sections, sorted; -1: none read */
static long bfd_entries(const char *path, struct entry **out)
{
	asymbol **dyn = NULL, *synth = NULL;
	struct bfd *abfd;
	long size, nr_dyn, nr_synth = 0, i, n = 0;

	*out = NULL;
	if (pp_bfd_open(path, &abfd))
		return -1;
	size = bfd_get_dynamic_symtab_upper_bound(abfd);
	if (size > 0) {
		dyn = malloc((size_t)size);
		assert_non_null(dyn);
		nr_dyn = bfd_canonicalize_dynamic_symtab(abfd, dyn);
		if (nr_dyn > 0)
			nr_synth = bfd_get_synthetic_symtab(abfd, 0, NULL, nr_dyn, dyn, &synth);
	}
	*out = calloc((size_t)(nr_synth > 0 ? nr_synth : 0) + 1, sizeof(**out));
	assert_non_null(*out);
	for (i = 0; i < nr_synth; i++) {
		const char *sec = synth[i].section ? bfd_section_name(synth[i].section) : "";

		if (!synth[i].name || strncmp(sec, ".plt", 4))
			continue;
		(*out)[n].vma = bfd_asymbol_value(&synth[i]);
		(*out)[n++].name = strdup(synth[i].name);
	}
	qsort(*out, (size_t)n, sizeof(**out), by_vma);
	free(synth);
	free(dyn);
	bfd_close(abfd);
	return n;
}

struct tally {
	size_t compared, with_entries, entries, left_to_bfd;
};

/* compare path's two readings; false when the file is not one to compare */
static bool compare_file(const char *path, struct tally *tl)
{
	struct pp_plt_entry *v = NULL;
	struct entry *want;
	size_t nr = 0, i;
	long n;
	Elf *elf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(fd);
		return false;
	}
	ret = pp_plt_x86_64(elf, &v, &nr);
	elf_end(elf);
	close(fd);
	if (ret == -ENOTSUP) {
		tl->left_to_bfd++;
		return true;
	}
	assert_int_equal(ret, 0);
	n = bfd_entries(path, &want);
	if (n < 0) {	/* libbfd cannot read it: nothing to compare with */
		for (i = 0; i < nr; i++)
			free((char *)v[i].name);
		free(v);
		return false;
	}
	if ((size_t)n != nr)
		fail_msg("%s: %zu PLT entries read, libbfd has %ld", path, nr, n);
	for (i = 0; i < nr; i++) {
		if (v[i].vma != want[i].vma || strcmp(v[i].name, want[i].name))
			fail_msg("%s: entry %zu is %s at 0x%" PRIx64 ", libbfd's %s at 0x%" PRIx64,
				 path, i, v[i].name, v[i].vma, want[i].name, want[i].vma);
		free((char *)v[i].name);
		free(want[i].name);
	}
	free(v);
	free(want);
	tl->compared++;
	tl->with_entries += nr > 0;
	tl->entries += nr;
	return true;
}

static void test_fixtures(void **state)
{
	static const char *const files[] = { "pie", "nopie", "lib.so" };
	static const char *const seeds[] = { "ibt", "now" };
	struct tally tl = { 0 };
	char path[4096];
	size_t i;

	(void)state;
#ifndef __x86_64__
	skip();		/* the fixtures are of this machine */
#endif
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", SYMFIX, files[i]);
		assert_true(compare_file(path, &tl));
	}
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", PLT_CORPUS, seeds[i]);
		assert_true(compare_file(path, &tl));
	}
	assert_int_equal(tl.left_to_bfd, 0);
	/* all but nopie call through theirs: 6 entries in each seed */
	assert_int_equal(tl.with_entries, 4);
	assert_true(tl.entries >= 12);
}

/* every regular ELF file of dir (not below it) */
static void compare_dir(const char *dir, struct tally *tl)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];
	struct stat st;

	if (!d)
		return;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
			continue;
		compare_file(path, tl);
	}
	closedir(d);
}

static void test_system(void **state)
{
	static const char *const dirs[] = {
		"/usr/bin", "/usr/sbin", "/usr/lib/x86_64-linux-gnu",
		"/usr/lib/gcc/x86_64-linux-gnu/12",
	};
	struct tally tl = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		compare_dir(dirs[i], &tl);
	print_message("compared %zu files (%zu with PLT entries, %zu entries); "
		      "%zu left to libbfd\n", tl.compared, tl.with_entries, tl.entries,
		      tl.left_to_bfd);
	if (tl.compared < 20)
		skip();	/* not an x86-64 system with programs to compare */
	/* a layout the reader does not know is rare, not the rule */
	assert_true(tl.left_to_bfd * 10 < tl.compared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_system),
	};

	elf_version(EV_CURRENT);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
