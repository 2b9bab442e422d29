// SPDX-License-Identifier: GPL-2.0-or-later
/* What the symbol-table tests share (see pp_test_symtab.h). */
#include "config.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/tests/pp_test_symtab.h"
#include "tests/lib/op_testdir.h"

int testdir_setup(void **state)
{
	struct op_testdir *d = calloc(1, sizeof(*d));

	if (!d || op_testdir_make(d)) {
		free(d);
		return -1;
	}
	*state = d;
	return 0;
}

int testdir_teardown(void **state)
{
	struct op_testdir *d = *state;

	op_testdir_remove(d);
	free(d);
	return 0;
}

struct pp_symtab *symtab_of(const char *path, const char *debug_root)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE, .name = (char *)path };
	struct pp_sym_opts opts = { .debug_root = debug_root };
	struct pp_symtab *t;

	assert_int_equal(pp_symtab_load(&id, false, 0x100, &opts, &t), 0);
	return t;
}

const struct pp_sym *find_sym(const struct pp_symtab *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->syms[i].name, name))
			return &t->syms[i];
	return NULL;
}

bool find_section(const char *path, const char *name, uint64_t vma,
		  struct elf_section *out)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t shstrndx;
	Elf *elf;

	assert_true(fd >= 0);
	assert_true(elf_version(EV_CURRENT) != EV_NONE);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	out->clang = false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *n;

		assert_non_null(gelf_getshdr(scn, &sh));
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type != SHT_PROGBITS || !n)
			continue;
		if (!strcmp(n, ".comment") && (d = elf_getdata(scn, NULL)) && d->d_buf)
			out->clang = memmem(d->d_buf, d->d_size, "clang version", 13) != NULL;
		if (!found && (name ? !strcmp(n, name) :
				      vma >= sh.sh_addr && vma < sh.sh_addr + sh.sh_size)) {
			out->addr = sh.sh_addr;
			out->offset = sh.sh_offset;
			out->size = sh.sh_size;
			found = true;
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}
