// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pp_symtab_shown_name: each symbol's shown name is what pp_demangle
 * makes of it in the table's mode (or the raw name where that is NULL),
 * is made once (the same pointer every time), and comes out the same
 * when several threads ask for the same names at once in different
 * orders.  The table is a kernel table from a kallsyms file of mangled,
 * plain and broken names.
 */
#include "config.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/symbols/pp_symbols.h"
#include "libpp/symbols/tests/pp_test_names.h"
#include "libpp/symbols/tests/pp_test_symtab.h"
#include "tests/lib/op_testdir.h"

#define NR_SYMS 6000
#define NR_THREADS 4

/* the table of a kallsyms of NR_SYMS symbols of pp_test_write_named_kallsyms() */
static struct pp_symtab *load_table(const struct op_testdir *d, enum pp_demangle_mode mode)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts opts = { .demangle = mode };
	struct pp_symtab *t;
	char path[600];

	op_testdir_file(d, "kallsyms", path, sizeof(path));
	pp_test_write_named_kallsyms(path, NR_SYMS);
	opts.kallsyms = path;
	if (pp_symtab_load(&id, true, 0, &opts, &t))
		fail_msg("cannot load the table of %s", path);
	assert_int_equal(t->nr, NR_SYMS);
	return t;
}

static void test_modes(void **state)
{
	static const enum pp_demangle_mode modes[] = {
		PP_DEMANGLE_NONE, PP_DEMANGLE_NORMAL, PP_DEMANGLE_SMART,
	};
	size_t m, i;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		struct pp_symtab *t = load_table(*state, modes[m]);

		for (i = 0; i < t->nr; i++) {
			const char *got = pp_symtab_shown_name(t, &t->syms[i]);

			assert_non_null(got);
			pp_test_check_shown(&t->syms[i], got, modes[m]);
			/* made once: the same string the second time */
			assert_ptr_equal(pp_symtab_shown_name(t, &t->syms[i]), got);
		}
		pp_symtab_free(t);
	}
}

struct asker {
	pthread_t thread;
	struct pp_symtab *t;
	unsigned order;			/* 0 forwards, 1 backwards, 2.. strided */
	const char *got[NR_SYMS];
};

static void *ask(void *arg)
{
	struct asker *a = arg;
	size_t n, i;

	for (n = 0; n < NR_SYMS; n++) {
		if (a->order == 0)
			i = n;
		else if (a->order == 1)
			i = NR_SYMS - 1 - n;
		else
			i = (n * 7 + a->order) % NR_SYMS;	/* 7 is prime to 6000 */
		a->got[i] = pp_symtab_shown_name(a->t, &a->t->syms[i]);
	}
	return NULL;
}

/* threads asking at once all get the one name of each symbol */
static void test_threads(void **state)
{
	struct pp_symtab *t = load_table(*state, PP_DEMANGLE_SMART);
	static struct asker askers[NR_THREADS];
	size_t k, i;

	for (k = 0; k < NR_THREADS; k++) {
		askers[k].t = t;
		askers[k].order = (unsigned)k;
		assert_int_equal(pthread_create(&askers[k].thread, NULL, ask, &askers[k]), 0);
	}
	for (k = 0; k < NR_THREADS; k++)
		assert_int_equal(pthread_join(askers[k].thread, NULL), 0);
	for (i = 0; i < NR_SYMS; i++) {
		pp_test_check_shown(&t->syms[i], askers[0].got[i], PP_DEMANGLE_SMART);
		for (k = 1; k < NR_THREADS; k++)
			assert_ptr_equal(askers[k].got[i], askers[0].got[i]);
	}
	pp_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
