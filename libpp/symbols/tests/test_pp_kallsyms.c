// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel symbol tables from a small fake kallsyms and modules file: the
 * core kernel for no-vmlinux (keys are addresses), modules (keys are
 * offsets from the base in the modules file, or from the lowest symbol),
 * {root}/proc/kallsyms (offsets from _text), aliases, data lines as
 * boundaries, and the artificial symbol of a module kallsyms lacks.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/symbols/symbols_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

#define K(x) (0xffffffff81000000ull + (x))

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T srso_alias_untrain_ret\n"
	"ffffffff81000100 T do_one\n"
	"ffffffff81000180 t local_two\n"
	"ffffffff81000180 W weak_two\n"
	"ffffffff81000200 T do_three\n"
	"ffffffff81000240 D some_data\n"
	"ffffffff81000300 T _etext\n"
	"ffffffff81000400 r some_rodata\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffffc0001000 t mod_init_fn\t[fixmod]\n"
	"ffffffffc0001040 T mod_func\t[fixmod]\n"
	"ffffffffc0001080 d mod_data\t[fixmod]\n"
	"ffffffffc0001100 T mod_last\t[fixmod]\n"
	"ffffffffc0002000 t other_fn\t[othermod]\n"
	"ffffffffc0002010 t other_two\t[othermod]";	/* no final newline */

static const char modules[] =
	"fixmod 16384 0 - Live 0xffffffffc0000000\n"
	"othermod 8192 1 fixmod, Live 0x0000000000000000 (O)\n";

static const char zeros[] =
	"0000000000000000 T _text\n"
	"0000000000000000 T do_one\n";

struct fixture {
	char dir[64];
	char kallsyms[128];
	char modules[128];
	char zeros[128];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_pp_kallsyms.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->kallsyms, sizeof(f->kallsyms), "%s/kallsyms", f->dir);
	snprintf(f->modules, sizeof(f->modules), "%s/modules", f->dir);
	snprintf(f->zeros, sizeof(f->zeros), "%s/zeros", f->dir);
	if (op_write_file_atomic(f->kallsyms, kallsyms, strlen(kallsyms), 0644) ||
	    op_write_file_atomic(f->modules, modules, strlen(modules), 0644) ||
	    op_write_file_atomic(f->zeros, zeros, strlen(zeros), 0644))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	op_remove_tree(f->dir);
	free(f);
	return 0;
}

struct esym {
	const char *name;
	uint64_t start, end;
};

struct row {
	int line;
	enum odb_image_kind kind;
	const char *image;
	bool is_kernel;
	bool with_modules;
	uint64_t bias;			/* vma of key 0 */
	const char *missing;		/* start of t->missing, or NULL */
	struct esym syms[8];		/* the whole table, NULL-ended */
};

static const struct row rows[] = {
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .image = "no-vmlinux",
	  .with_modules = true, .bias = 0,
	  .syms = { { "srso_alias_untrain_ret", K(0), K(0x100) },
		    { "do_one", K(0x100), K(0x180) },
		    { "weak_two", K(0x180), K(0x200) },
		    { "do_three", K(0x200), K(0x240) },	/* some_data ends it */
		    { "_etext", K(0x300), K(0x400) } } },
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .image = "fixmod",
	  .with_modules = true, .bias = 0xffffffffc0000000ull,
	  .syms = { { "mod_init_fn", 0x1000, 0x1040 },
		    { "mod_func", 0x1040, 0x1080 },
		    { "mod_last", 0x1100, 0x4000 } } },	/* to the module's end */
	/* without the modules file: the lowest symbol is the base */
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .image = "fixmod",
	  .with_modules = false, .bias = 0xffffffffc0001000ull,
	  .syms = { { "mod_init_fn", 0, 0x40 },
		    { "mod_func", 0x40, 0x80 },
		    { "mod_last", 0x100, 0x100 + PP_SYM_LAST_EXTENT } } },
	/* a zero address in the modules file: the same */
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .image = "othermod",
	  .with_modules = true, .bias = 0xffffffffc0002000ull,
	  .syms = { { "other_fn", 0, 0x10 },
		    { "other_two", 0x10, 0x10 + PP_SYM_LAST_EXTENT } } },
	{ .line = __LINE__, .kind = ODB_IMAGE_KERNEL, .image = "nomod",
	  .with_modules = true, .bias = 0, .missing = "no symbols for module nomod in ",
	  .syms = { { "/nomod", 0, 0x5000 } } },
	/* the kallsyms file as an image: keys from _text */
	{ .line = __LINE__, .kind = ODB_IMAGE_FILE, .image = "/proc/kallsyms",
	  .is_kernel = true, .bias = K(0),
	  .syms = { { "srso_alias_untrain_ret", 0, 0x100 },
		    { "do_one", 0x100, 0x180 },
		    { "weak_two", 0x180, 0x200 },
		    { "do_three", 0x200, 0x240 },
		    { "_etext", 0x300, 0x400 } } },
};

static void check_row(const struct fixture *f, const struct row *r)
{
	struct odb_image_id id = { .kind = r->kind, .name = (char *)r->image };
	struct pp_sym_opts opts = {
		.kallsyms = f->kallsyms,
		.modules = r->with_modules ? f->modules : NULL,
	};
	struct pp_symtab *t;
	size_t i, n = 0;

	if (pp_symtab_load(&id, r->is_kernel, 0x5000, &opts, &t))
		fail_msg("row at line %d: load failed", r->line);
	while (n < 8 && r->syms[n].name)
		n++;
	if (t->nr != n)
		fail_msg("row at line %d: %zu symbols, expected %zu", r->line, t->nr, n);
	for (i = 0; i < n; i++) {
		const struct pp_sym *s = &t->syms[i];

		if (strcmp(s->name, r->syms[i].name) || s->start != r->syms[i].start ||
		    s->end != r->syms[i].end)
			fail_msg("row at line %d: symbol %zu is %s [%#llx, %#llx), expected %s [%#llx, %#llx)",
				 r->line, i, s->name, (unsigned long long)s->start,
				 (unsigned long long)s->end, r->syms[i].name,
				 (unsigned long long)r->syms[i].start,
				 (unsigned long long)r->syms[i].end);
		if (pp_symtab_lookup(t, s->start) != s || pp_symtab_lookup(t, s->end - 1) != s)
			fail_msg("row at line %d: lookup at the edges of %s", r->line, s->name);
	}
	if (pp_symtab_vma(t, 0x40) != r->bias + 0x40)
		fail_msg("row at line %d: vma of 0x40 is %#llx", r->line,
			 (unsigned long long)pp_symtab_vma(t, 0x40));
	if (r->missing) {
		if (!t->missing || strncmp(t->missing, r->missing, strlen(r->missing)))
			fail_msg("row at line %d: missing is '%s'", r->line,
				 t->missing ? t->missing : "(null)");
		assert_int_equal(t->source, PP_SYMS_NONE);
		assert_true(t->syms[0].flags & PP_SYM_ARTIFICIAL);
	} else {
		assert_null(t->missing);
		assert_int_equal(t->source, PP_SYMS_KALLSYMS);
		assert_string_equal(t->symfile, f->kallsyms);
	}
	assert_null(t->file);
	assert_int_equal(t->mtime, -1);
	pp_symtab_free(t);
}

static void test_rows(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_row(*state, &rows[i]);
}

static void test_gaps_and_lines(void **state)
{
	struct fixture *f = *state;
	struct odb_image_id id = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts opts = { .kallsyms = f->kallsyms };
	const char *file = NULL, *why = NULL;
	struct pp_symtab *t;
	unsigned line = 0;

	assert_int_equal(pp_symtab_load(&id, true, 0, &opts, &t), 0);
	assert_null(pp_symtab_lookup(t, K(0) - 1));
	assert_null(pp_symtab_lookup(t, K(0x240)));	/* data, not code */
	assert_null(pp_symtab_lookup(t, K(0x2ff)));
	assert_null(pp_symtab_lookup(t, K(0x400)));
	assert_null(pp_symtab_lookup(t, 0));
	assert_null(pp_symtab_lookup(t, UINT64_MAX));
	assert_string_equal(pp_symtab_lookup(t, K(0x1ff))->name, "weak_two");
	assert_true(pp_symtab_lookup(t, K(0x100))->flags & PP_SYM_GLOBAL);
	assert_int_equal(pp_symtab_line(t, K(0x100), &file, &line, &why), -ENOENT);
	assert_non_null(why);
	assert_non_null(strstr(why, "kallsyms"));
	pp_symtab_free(t);
}

/* a session copy without addresses is not used; /proc/kallsyms may be */
static void test_no_addresses(void **state)
{
	struct fixture *f = *state;
	struct odb_image_id id = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts opts = { .kallsyms = f->zeros };
	struct pp_symtab *t;

	assert_int_equal(pp_symtab_load(&id, true, 0x1000, &opts, &t), 0);
	if (t->source == PP_SYMS_KALLSYMS) {
		assert_string_equal(t->symfile, "/proc/kallsyms");
	} else {
		assert_int_equal(t->nr, 1);
		assert_string_equal(t->syms[0].name, "/no-vmlinux");
		assert_int_equal(t->syms[0].end, 0x1000);
		assert_non_null(t->missing);
		assert_non_null(strstr(t->missing, f->zeros));
	}
	pp_symtab_free(t);
}

static int holds(const void *key, const void *sym)
{
	uint64_t k = *(const uint64_t *)key;
	const struct pp_sym *s = sym;

	return k < s->start ? -1 : k >= s->end ? 1 : 0;
}

/* the symbol holding key, found by bsearch() over the whole table */
static const struct pp_sym *holder(const struct pp_symtab *t, uint64_t key)
{
	return bsearch(&key, t->syms, t->nr, sizeof(*t->syms), holds);
}

/*
 * A big table is searched through its bucket index: 3000 symbols of
 * uneven sizes, data between some, a cluster far above the rest (as
 * modules lie above the kernel): every key around each symbol's edges
 * and keys at random give the symbol the whole table's bisection gives
 */
static void test_index(void **state)
{
	struct fixture *f = *state;
	struct odb_image_id id = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts opts = { .kallsyms = f->zeros };
	struct op_strbuf sb = OP_STRBUF_INIT;
	const struct symtab_priv *p;
	struct pp_symtab *t;
	uint64_t at = K(0), x = 1, key;
	char path[160];
	size_t i;

	for (i = 0; i < 3000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if (i == 2500)
			at = 0xffffffffc0000000ull;	/* far above: sparse buckets */
		op_strbuf_addf(&sb, "%016" PRIx64 " %c f%zu\n", at, i % 7 ? 'T' : 't', i);
		if (i % 5 == 4)
			op_strbuf_addf(&sb, "%016" PRIx64 " D d%zu\n", at + 8, i);
		at += 16 + (x >> 58) * 16;
	}
	op_strbuf_addf(&sb, "%016" PRIx64 " D the_end\n", at);
	assert_false(op_strbuf_failed(&sb));
	snprintf(path, sizeof(path), "%s/big", f->dir);
	assert_int_equal(op_write_file_atomic(path, sb.buf, sb.len, 0644), 0);
	op_strbuf_release(&sb);
	opts.kallsyms = path;
	assert_int_equal(pp_symtab_load(&id, true, 0, &opts, &t), 0);
	assert_int_equal(t->nr, 3000);
	p = t->priv;
	assert_non_null(p->index);
	for (i = 0; i < t->nr; i++) {
		const struct pp_sym *s = &t->syms[i];

		for (key = s->start - 1; key <= s->end; key++)
			assert_ptr_equal(pp_symtab_lookup(t, key), holder(t, key));
		assert_ptr_equal(pp_symtab_lookup(t, s->start), s);
	}
	for (i = 0; i < 100000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		key = i % 2 ? K(0) + (x >> 44) : 0xffffffffbf000000ull + (x >> 30);
		assert_ptr_equal(pp_symtab_lookup(t, key), holder(t, key));
	}
	assert_null(pp_symtab_lookup(t, 0));
	assert_null(pp_symtab_lookup(t, UINT64_MAX));
	pp_symtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_gaps_and_lines),
		cmocka_unit_test(test_no_addresses),
		cmocka_unit_test(test_index),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
