// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opd_proc: mappings that overlap earlier ones replace the overlapped part
 * (left and right remainders keep their keys), lookups at every edge, the
 * app chosen at exec, fork copies, exit and reaping.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "daemon/opd_proc.h"

struct probe {
	uint64_t ip;
	uint32_t cookie;	/* 0: unmapped */
	uint64_t key;
};

static void check(struct opd_proc *p, const struct probe *probes, size_t n,
		  int line)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct opd_map *m = opd_proc_find_map(p, probes[i].ip);
		uint32_t cookie = m ? m->cookie : 0;
		uint64_t key = m ? probes[i].ip - m->start + m->pgoff : 0;

		if (cookie != probes[i].cookie || (m && key != probes[i].key))
			fail_msg("row at line %d, probe %zu (ip %#llx): cookie %u key %#llx",
				 line, i, (unsigned long long)probes[i].ip, cookie,
				 (unsigned long long)key);
	}
}

static void test_overlaps(void **state)
{
	struct opd_procs procs;
	struct opd_proc *p;

	(void)state;
	opd_procs_init(&procs);
	p = opd_procs_new(&procs, 1);
	opd_proc_map(p, 0x1000, 0x3000, 0x10000, 1, true);	/* [1000, 4000) */
	opd_proc_map(p, 0x8000, 0x1000, 0, 2, true);		/* [8000, 9000) */
	{
		const struct probe pr[] = {
			{ 0xfff, 0, 0 }, { 0x1000, 1, 0x10000 }, { 0x3fff, 1, 0x12fff },
			{ 0x4000, 0, 0 }, { 0x8000, 2, 0 }, { 0x8fff, 2, 0xfff },
			{ 0x9000, 0, 0 },
		};
		check(p, pr, sizeof(pr) / sizeof(pr[0]), __LINE__);
	}
	/* into the middle of map 1: left and right parts survive */
	opd_proc_map(p, 0x2000, 0x800, 0, 3, true);
	{
		const struct probe pr[] = {
			{ 0x1fff, 1, 0x10fff }, { 0x2000, 3, 0 }, { 0x27ff, 3, 0x7ff },
			{ 0x2800, 1, 0x11800 }, { 0x3fff, 1, 0x12fff },
		};
		check(p, pr, sizeof(pr) / sizeof(pr[0]), __LINE__);
	}
	/* across several maps and gaps at once */
	opd_proc_map(p, 0x1800, 0x7000, 0x500, 4, true);	/* [1800, 8800) */
	{
		const struct probe pr[] = {
			{ 0x17ff, 1, 0x107ff }, { 0x1800, 4, 0x500 }, { 0x5000, 4, 0x3d00 },
			{ 0x87ff, 4, 0x74ff }, { 0x8800, 2, 0x800 }, { 0x8fff, 2, 0xfff },
		};
		check(p, pr, sizeof(pr) / sizeof(pr[0]), __LINE__);
	}
	assert_int_equal(p->nr_maps, 3);
	/* exactly over an existing map */
	opd_proc_map(p, 0x8800, 0x800, 0, 5, true);
	{
		const struct probe pr[] = { { 0x8800, 5, 0 }, { 0x87ff, 4, 0x74ff } };
		check(p, pr, sizeof(pr) / sizeof(pr[0]), __LINE__);
	}
	assert_int_equal(p->nr_maps, 3);
	/* an empty or wrapping range changes nothing */
	opd_proc_map(p, 0x100, 0, 0, 9, true);
	opd_proc_map(p, UINT64_MAX - 10, 100, 0, 9, true);
	assert_int_equal(p->nr_maps, 3);
	opd_procs_release(&procs);
}

static void test_many_maps(void **state)
{
	struct opd_procs procs;
	struct opd_proc *p;
	uint32_t i;

	(void)state;
	opd_procs_init(&procs);
	p = opd_procs_new(&procs, 1);
	/* inserted in reverse order, then every one found */
	for (i = 500; i > 0; i--)
		opd_proc_map(p, (uint64_t)i * 0x10000, 0x1000, i, i, true);
	assert_int_equal(p->nr_maps, 500);
	for (i = 1; i <= 500; i++) {
		const struct opd_map *m = opd_proc_find_map(p, (uint64_t)i * 0x10000 + 0x10);

		assert_non_null(m);
		assert_int_equal(m->cookie, i);
		assert_null(opd_proc_find_map(p, (uint64_t)i * 0x10000 + 0x1000));
	}
	opd_procs_release(&procs);
}

static void test_app_fork_exec(void **state)
{
	struct opd_procs procs;
	struct opd_proc *p, *c;

	(void)state;
	opd_procs_init(&procs);
	p = opd_procs_new(&procs, 10);
	opd_proc_exec(p, "prog");
	opd_proc_map(p, 0x7000, 0x1000, 0, 7, false);	/* [vdso]: not the app */
	opd_proc_map(p, 0x400000, 0x1000, 0, 8, true);	/* the executable */
	opd_proc_map(p, 0x500000, 0x1000, 0, 9, true);	/* a library */
	assert_int_equal(p->app, 8);
	c = opd_procs_fork(&procs, 11, p);
	assert_int_equal(c->app, 8);
	assert_int_equal(c->nr_maps, 3);
	assert_ptr_equal(opd_procs_find(&procs, 10), p);
	opd_proc_exec(c, "other");
	assert_int_equal(c->nr_maps, 0);
	assert_int_equal(c->app, 0);
	opd_proc_map(c, 0x400000, 0x1000, 0, 12, true);
	assert_int_equal(c->app, 12);
	assert_int_equal(p->app, 8);		/* the parent is untouched */
	assert_int_equal(p->nr_maps, 3);
	/* a fork from an unknown parent: an empty process */
	c = opd_procs_fork(&procs, 12, NULL);
	assert_int_equal(c->nr_maps, 0);
	assert_int_equal(procs.nr, 3);
	opd_procs_exit(&procs, 10, 1000);
	opd_procs_exit(&procs, 10, 2000);	/* twice is fine */
	opd_procs_reap(&procs, 1000 + OPD_PROC_GRACE_NS - 1);
	assert_non_null(opd_procs_find(&procs, 10));
	opd_procs_reap(&procs, 1000 + OPD_PROC_GRACE_NS);
	assert_null(opd_procs_find(&procs, 10));
	assert_int_equal(procs.nr, 2);
	/* pid reuse replaces the old process */
	p = opd_procs_new(&procs, 11);
	assert_int_equal(p->nr_maps, 0);
	assert_int_equal(procs.nr, 2);
	opd_procs_release(&procs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlaps),
		cmocka_unit_test(test_many_maps),
		cmocka_unit_test(test_app_fork_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
