// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JIT symbols of an anonymous region from a perf map file
 * (oprofile-ng-session(5), JIT CODE), through pp_symtab_load() with the
 * session's jit directory: entries in the region become symbols keyed by
 * their offset in it, a later line for an address wins, a size running
 * into the next entry is cut there, lines that do not parse and entries
 * outside the region are left out, names keep their blanks; a file of
 * another user, a symlink or none leaves the region one symbol.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

#define START 0x7f0000001000ull
#define MAP_TEXT							\
	"7f0000001000 100 alpha\n"					\
	"0x7f0000001080 0x40 beta\n"					\
	"7f0000001000 20 alpha2\n"					\
	"7f0000005000 10 outside\n"					\
	"not a line\n"							\
	"7f0000001300\n"						\
	"7f0000001200 10 LazyCompile:~f /a b.js:3\r\n"

static struct pp_symtab *load(const char *jit_dir)
{
	struct odb_image_id id = {
		.kind = ODB_IMAGE_ANON, .name = (char *)"anon", .anon_tgid = 4242,
		.anon_start = START, .anon_end = START + 0x1fff,
	};
	struct pp_sym_opts o = { .jit_dir = jit_dir };
	struct pp_symtab *t;

	assert_int_equal(pp_symtab_load(&id, false, 0x2000, &o, &t), 0);
	return t;
}

static void check_sym(const struct pp_symtab *t, size_t i, uint64_t start,
		      uint64_t end, const char *name)
{
	assert_true(i < t->nr);
	assert_int_equal(t->syms[i].start, start);
	assert_int_equal(t->syms[i].end, end);
	assert_int_equal(t->syms[i].vma, start);	/* offsets, as OProfile shows them */
	assert_string_equal(t->syms[i].name, name);
}

static void test_perfmap(void **state)
{
	struct op_testdir dir;
	char path[600];
	struct pp_symtab *t;

	(void)state;
	assert_int_equal(op_testdir_make(&dir), 0);
	assert_non_null(op_testdir_file(&dir, "perf-4242.map", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, MAP_TEXT, strlen(MAP_TEXT), 0644), 0);
	t = load(dir.path);
	assert_int_equal(t->source, PP_SYMS_PERFMAP);
	assert_string_equal(t->symfile, path);
	assert_int_equal(t->nr, 3);
	check_sym(t, 0, 0, 0x20, "alpha2");	/* the later line */
	check_sym(t, 1, 0x80, 0xc0, "beta");
	check_sym(t, 2, 0x200, 0x210, "LazyCompile:~f /a b.js:3");
	/* between them: gaps of the region, by address */
	assert_string_equal(pp_symtab_hold(t, 0x40)->name, "[anon 0x20-0x7f]");
	pp_symtab_free(t);

	/* another user's file is not read (as root: give it away) */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		t = load(dir.path);
		assert_int_equal(t->source, PP_SYMS_NONE);
		assert_int_equal(t->nr, 1);
		pp_symtab_free(t);
	}
	/* nor a symlink */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	t = load(dir.path);
	assert_int_equal(t->source, PP_SYMS_NONE);
	assert_int_equal(t->nr, 1);
	assert_string_equal(t->syms[0].name, "anon (tgid:4242 range:0x7f0000001000-0x7f0000002fff)");
	pp_symtab_free(t);
	op_testdir_remove(&dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perfmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
