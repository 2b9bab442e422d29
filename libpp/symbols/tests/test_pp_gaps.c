// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols for samples outside every symbol (pp_symtab_hold()): every key
 * of a code section is held by exactly one symbol; a gap runs from the
 * symbol (or section start) before it to the symbol (or section end)
 * after it, is named by the image and its addresses, and is the same
 * symbol for each of its keys; PLT entries get objdump's names.
 */
#include "config.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/symbols/pp_symbols.h"
#include "libpp/symbols/tests/pp_test_symtab.h"

/* every key of path's section name: held, gaps bounded by symbols */
static size_t check_section(const char *path, const char *debug_root,
			    const char *name)
{
	struct pp_symtab *t = symtab_of(path, debug_root);
	struct elf_section sec;
	const struct pp_sym *prev = NULL;
	uint64_t k, end;
	size_t gaps = 0;

	assert_true(find_section(path, name, 0, &sec));
	end = sec.offset + sec.size;
	for (k = sec.offset; k < end; k++) {
		const struct pp_sym *s = pp_symtab_hold(t, k);

		assert_non_null(s);
		assert_true(s->start <= k && k < s->end);
		if (!(s->flags & PP_SYM_GAP)) {
			assert_ptr_equal(s, pp_symtab_lookup(t, k));
			prev = s;
			continue;
		}
		assert_null(pp_symtab_lookup(t, k));
		assert_ptr_equal(pp_symtab_hold(t, s->start), s);
		assert_ptr_equal(pp_symtab_hold(t, s->end - 1), s);
		/* widest: bounded by a symbol or the section on each side */
		assert_true(s->start == sec.offset || pp_symtab_lookup(t, s->start - 1));
		assert_true(s->end == end || pp_symtab_lookup(t, s->end));
		if (s != prev) {
			char want[256];
			const char *base = strrchr(path, '/') + 1;

			snprintf(want, sizeof(want), "[%s 0x%" PRIx64 "-0x%" PRIx64 "]", base,
				 s->vma, s->vma + (s->end - s->start) - 1);
			assert_string_equal(s->name, want);
			assert_string_equal(pp_symtab_shown_name(t, s), want);
			assert_int_equal(s->vma, pp_symtab_vma(t, s->start));
			gaps++;
		}
		prev = s;
	}
	pp_symtab_free(t);
	return gaps;
}

static void test_stripped(void **state)
{
	struct pp_symtab *t = symtab_of(FIX("bid"), FIX("nowhere"));
	struct elf_section sec;
	const struct pp_sym *s;

	(void)state;
	/* no symbols at all: .text is one gap */
	assert_int_equal(t->nr, 0);
	assert_non_null(t->missing);
	assert_true(find_section(FIX("bid"), ".text", 0, &sec));
	s = pp_symtab_hold(t, sec.offset + 1);
	assert_non_null(s);
	assert_int_equal(s->start, sec.offset);
	assert_int_equal(s->end, sec.offset + sec.size);
	assert_int_equal(s->vma, sec.addr);
	pp_symtab_free(t);
	assert_int_equal(check_section(FIX("bid"), FIX("nowhere"), ".text"), 1);
}

static void test_dynsym_gaps(void **state)
{
	(void)state;
	/* .dynsym names the exported functions: the static ones are gaps */
	assert_true(check_section(FIX("lib-stripped.so"), FIX("nowhere"), ".text") > 0);
	/* a full .symtab leaves only padding */
	check_section(FIX("pie"), NULL, ".text");
}

static void test_plt(void **state)
{
	struct pp_symtab *t = symtab_of(FIX("lib-stripped.so"), FIX("nowhere"));
	struct elf_section sec;
	const struct pp_sym *s, *first;

	(void)state;
	/* as objdump -d names it: lib_one@plt at 0x1030, after PLT0 */
	assert_true(find_section(FIX("lib-stripped.so"), NULL, 0x1030, &sec));
	s = pp_symtab_hold(t, sec.offset + (0x1030 - sec.addr) + 4);
	assert_non_null(s);
	assert_string_equal(s->name, "lib_one@plt");
	assert_true(s->flags & PP_SYM_PLT);
	assert_int_equal(s->vma, 0x1030);
	/* PLT0 before it is a gap that stops at the entry */
	first = pp_symtab_hold(t, sec.offset);
	assert_true(first->flags & PP_SYM_GAP);
	assert_int_equal(first->end, s->start);
	assert_ptr_equal(pp_symtab_hold(t, s->start), s);
	pp_symtab_free(t);
	/* .plt.got of a binary with a .symtab */
	t = symtab_of(FIX("pie"), NULL);
	assert_true(find_section(FIX("pie"), NULL, 0x1030, &sec));
	s = pp_symtab_hold(t, sec.offset + (0x1030 - sec.addr));
	assert_string_equal(s->name, "__cxa_finalize@plt");
	pp_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stripped),
		cmocka_unit_test(test_dynsym_gaps),
		cmocka_unit_test(test_plt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
