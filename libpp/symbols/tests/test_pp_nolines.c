// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why a symbol table has no line information (pp_symtab_no_lines()):
 * messages name the build-id path or the debuglink and the dpkg package
 * that has the debug symbols (a fake dpkg database, and /usr/bin/true of
 * the system's coreutils when dpkg has it); anonymous memory, kallsyms
 * and missing binaries give their own reasons.
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

#include "libpp/symbols/pp_symbols.h"
#include "libpp/symbols/symbols_int.h"
#include "libpp/symbols/tests/pp_test_symtab.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

static void build_id_path(char *buf, size_t size, const char *root,
			  const struct pp_symtab *t)
{
	assert_int_equal(strlen(t->build_id), 40);
	snprintf(buf, size, "%s/.build-id/%.2s/%s.debug", root, t->build_id, t->build_id + 2);
}

static void test_no_lines(void **state)
{
	char want[1024], path[512], real[512];
	struct pp_symtab *t;

	(void)state;
	/* DWARF in the binary, or in its debug file */
	t = symtab_of(FIX("inl"), NULL);
	assert_null(pp_symtab_no_lines(t));
	pp_symtab_free(t);
	t = symtab_of(FIX("inl-bid"), DBGROOT);
	assert_null(pp_symtab_no_lines(t));
	pp_symtab_free(t);

	/* stripped, no debug file: where one would be found */
	t = symtab_of(FIX("inl-bid"), FIX("nowhere"));
	build_id_path(path, sizeof(path), FIX("nowhere"), t);
	snprintf(want, sizeof(want), "no debug information in '%s': build it with -g, or install a debug file at %s",
		 FIX("inl-bid"), path);
	assert_string_equal(pp_symtab_no_lines(t), want);
	/* ... which is where the test's debug root has it */
	build_id_path(real, sizeof(real), DBGROOT, t);
	assert_int_equal(access(real, R_OK), 0);
	pp_symtab_free(t);

	/* no -g: the default debug root */
	t = symtab_of(FIX("nopie"), NULL);
	build_id_path(path, sizeof(path), "/usr/lib/debug", t);
	snprintf(want, sizeof(want), "no debug information in '%s': build it with -g, or install a debug file at %s",
		 FIX("nopie"), path);
	assert_string_equal(pp_symtab_no_lines(t), want);
	pp_symtab_free(t);

	/* no build-id: where its .gnu_debuglink would be found */
	t = symtab_of(FIX("dl"), FIX("nowhere"));
	assert_string_equal(pp_symtab_no_lines(t),
			    "no debug information in '" FIX("dl") "': build it with -g, or install a debug file at "
			    FIX("nowhere") SYMFIX "/dl.debug");
	pp_symtab_free(t);
}

static void test_no_lines_dpkg(void **state)
{
	static const char *const bin = "/usr/bin/true";
	char want[1024], path[512];
	struct pp_symtab *t, *tabs[3];
	const char *msg;
	struct stat st;

	(void)state;
	if (stat(PP_DPKG_INFO "/coreutils.list", &st)) {
		print_message("no " PP_DPKG_INFO "/coreutils.list: not a dpkg system\n");
		skip();
	}
	t = symtab_of(bin, NULL);
	if (!pp_symtab_no_lines(t)) {
		print_message("%s has debug information here (coreutils-dbgsym installed?)\n", bin);
		pp_symtab_free(t);
		skip();
	}
	build_id_path(path, sizeof(path), "/usr/lib/debug", t);
	snprintf(want, sizeof(want), "no debug information in '%s': install the debug symbols of package coreutils (coreutils-dbgsym or coreutils-dbg), or a debug file at %s",
		 bin, path);
	msg = pp_symtab_no_lines(t);
	assert_string_equal(msg, want);
	assert_null(strchr(msg, '\n'));
	pp_symtab_free(t);
	/* made at once for two tables, one given twice: the same reasons */
	tabs[0] = tabs[2] = t = symtab_of(bin, NULL);
	tabs[1] = symtab_of("/usr/bin/false", NULL);
	assert_int_equal(pp_symtabs_explain_no_lines(tabs, 3), 0);
	assert_string_equal(pp_symtab_no_lines(t), want);
	assert_non_null(strstr(pp_symtab_no_lines(tabs[1]), "of package coreutils ("));
	pp_symtab_free(tabs[1]);
	pp_symtab_free(t);
}

/* the reasons for tables without a binary, and pp_symtab_line()'s */
static void test_no_lines_other(void **state)
{
	struct odb_image_id anon = { .kind = ODB_IMAGE_ANON, .name = (char *)"anon",
				    .anon_start = 0x1000, .anon_end = 0x1fff };
	struct odb_image_id nov = { .kind = ODB_IMAGE_KERNEL, .name = (char *)"no-vmlinux" };
	struct pp_sym_opts kopts = { .kallsyms = SYMFIX_SRC "/kallsyms" };
	struct pp_symtab *t;
	const char *file, *why = NULL;
	unsigned line;

	(void)state;
	assert_int_equal(pp_symtab_load(&anon, false, 0x10, NULL, &t), 0);
	assert_string_equal(pp_symtab_no_lines(t), "anonymous memory has no line information");
	pp_symtab_free(t);
	assert_int_equal(pp_symtab_load(&nov, true, 0, &kopts, &t), 0);
	assert_non_null(strstr(pp_symtab_no_lines(t), "kallsyms"));
	pp_symtab_free(t);
	t = symtab_of("/nonexistent/prog", NULL);
	assert_string_equal(pp_symtab_no_lines(t), "cannot find '/nonexistent/prog'");
	pp_symtab_free(t);
	/* pp_symtab_line() gives the same reason */
	t = symtab_of(FIX("nopie"), NULL);
	assert_int_equal(pp_symtab_line(t, t->syms[0].start, &file, &line, &why), -ENOENT);
	assert_ptr_equal(why, pp_symtab_no_lines(t));
	pp_symtab_free(t);
}

/* === dpkg's file lists =================================================== */

struct dpkg_fix {
	char info[600];
	char real[600], link[600];
};

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(op_write_file_atomic(path, text, strlen(text), 0644), 0);
}

static void make_dpkg(const struct op_testdir *f, struct dpkg_fix *d)
{
	char text[700];

	snprintf(d->info, sizeof(d->info), "%s/info", f->path);
	snprintf(d->real, sizeof(d->real), "%s/real-prog", f->path);
	snprintf(d->link, sizeof(d->link), "%s/link-prog", f->path);
	assert_int_equal(op_mkdir_p(d->info, 0755), 0);
	write_file(d->info, "aa.list", "/.\n/usr\n/usr/bin\n/usr/bin/aa\n/usr/share/doc/aa\n");
	write_file(d->info, "bb.list", "/.\n/usr/bin/aaa\n/bin/bb\n");
	write_file(d->info, "libz1:amd64.list", "/.\n/lib/x86_64-linux-gnu/libz.so.1\n");
	/* not lists: never read as such */
	write_file(d->info, "cc.md5sums", "0123  /usr/bin/cc\n");
	write_file(d->info, "cc.list.bak", "/usr/bin/cc\n");
	/* the last line without a newline */
	snprintf(text, sizeof(text), "/.\n%s", d->real);
	write_file(d->info, "real.list", text);
	write_file(f->path, "real-prog", "x");
	unlink(d->link);
	assert_int_equal(symlink(d->real, d->link), 0);
}

static void test_dpkg_package(void **state)
{
	struct op_testdir *f = *state;
	struct dpkg_fix d;
	const struct {
		int line;
		const char *path;
		const char *pkg;	/* NULL: -ENOENT */
	} rows[] = {
		{ .line = __LINE__, .path = "/usr/bin/aa", .pkg = "aa" },
		/* the other side of the /usr merge, both ways */
		{ .line = __LINE__, .path = "/bin/aa", .pkg = "aa" },
		{ .line = __LINE__, .path = "/usr/bin/bb", .pkg = "bb" },
		{ .line = __LINE__, .path = "/usr/lib/x86_64-linux-gnu/libz.so.1", .pkg = "libz1" },
		/* whole lines only */
		{ .line = __LINE__, .path = "/usr/bin/a" },
		{ .line = __LINE__, .path = "/usr/bin/aaa", .pkg = "bb" },
		{ .line = __LINE__, .path = "/usr/share/doc" },
		{ .line = __LINE__, .path = "/usr/bin/cc" },
		{ .line = __LINE__, .path = d.real, .pkg = "real" },
		/* through the link to the listed file */
		{ .line = __LINE__, .path = d.link, .pkg = "real" },
	};
	const size_t n = sizeof(rows) / sizeof(rows[0]);
	const char *paths[sizeof(rows) / sizeof(rows[0])];
	char *pkgs[sizeof(rows) / sizeof(rows[0])];
	size_t i;

	make_dpkg(f, &d);
	for (i = 0; i < n; i++) {
		char *pkg = (char *)"untouched";
		int ret = pp_dpkg_package(d.info, rows[i].path, &pkg);

		if (rows[i].pkg ? ret || !pkg || strcmp(pkg, rows[i].pkg) : ret != -ENOENT || pkg)
			fail_msg("row at line %d: %d, '%s'", rows[i].line, ret,
				 pkg ? pkg : "(null)");
		free(pkg);
		paths[i] = rows[i].path;
	}
	/* all at once, each list read once: the same packages */
	assert_int_equal(pp_dpkg_packages(d.info, paths, n, pkgs), 0);
	for (i = 0; i < n; i++) {
		if (rows[i].pkg ? !pkgs[i] || strcmp(pkgs[i], rows[i].pkg) : pkgs[i] != NULL)
			fail_msg("row at line %d, all at once: '%s'", rows[i].line,
				 pkgs[i] ? pkgs[i] : "(null)");
		free(pkgs[i]);
	}
	assert_int_equal(pp_dpkg_packages(FIX("nowhere"), paths, n, pkgs), -ENOENT);
	for (i = 0; i < n; i++)
		assert_null(pkgs[i]);
	assert_int_equal(pp_dpkg_package(FIX("nowhere"), "/usr/bin/aa", &(char *){ NULL }),
			 -ENOENT);
}

static void test_dpkg_out_of_memory(void **state)
{
	struct op_testdir *f = *state;
	struct dpkg_fix d;
	unsigned long k;
	char *pkg;
	int ret;

	make_dpkg(f, &d);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = pp_dpkg_package(d.info, d.link, &pkg);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, ret);
		assert_null(pkg);
	}
	assert_int_equal(ret, 0);
	assert_string_equal(pkg, "real");
	free(pkg);
	assert_true(k > 3);
	/* two at once: nothing found is left allocated when one fails */
	for (k = 1;; k++) {
		const char *paths[] = { d.link, "/usr/bin/aa" };
		char *pkgs[2];

		op_alloc_fail_at(k);
		ret = pp_dpkg_packages(d.info, paths, 2, pkgs);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_string_equal(pkgs[0], "real");
			assert_string_equal(pkgs[1], "aa");
			free(pkgs[0]);
			free(pkgs[1]);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("allocation %lu failing gave %d", k, ret);
		free(pkgs[0]);
		free(pkgs[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_lines),
		cmocka_unit_test(test_no_lines_dpkg),
		cmocka_unit_test(test_no_lines_other),
		cmocka_unit_test(test_dpkg_package),
		cmocka_unit_test(test_dpkg_out_of_memory),
	};

	return cmocka_run_group_tests(tests, testdir_setup, testdir_teardown);
}
