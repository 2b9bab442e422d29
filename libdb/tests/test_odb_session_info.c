// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session.info: the exact text written for a run, parsing it (unknown
 * and malformed lines skipped, control characters as spaces, a NUL ending
 * its line), round trips, names that could not be read back, the file
 * written and read, and -ENOMEM at every allocation.  The abi file and
 * the kernel copies (odb_session.h) are here too.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/odb_session.h"
#include "libdb/odb_session_info.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;

static int setup(void **state)
{
	(void)state;
	return op_testdir_make(&dir);
}

static int teardown(void **state)
{
	(void)state;
	op_testdir_remove(&dir);
	return 0;
}

/* the struct owns its strings; these tests only lend literals */
#define S(literal) ((char *)(literal))

static struct odb_session_event events[] = {
	{ .name = S("cpu-clock"), .software = true, .period = 100000, .cpu_type = 99,
	  .desc = S("CPU clock timer, in ns") },
	{ .name = S("CPU_CLK_UNHALTED"), .period = 1000003, .cpu_type = 115,
	  .code = 60, .unit_mask = 0, .desc = S("Clock cycles when not halted") },
	{ .name = S("nodesc"), .period = 5, .cpu_type = 1, .code = 2, .unit_mask = 3,
	  .desc = S("") },
};

static const struct odb_session_info full = {
	.tool = S("operf 0.1"),
	.started = S("2024-01-01 00:00:00"),
	.target = ODB_TARGET_COMMAND,
	.command = S("./prog -x"),
	.events = events,
	.nr_events = 3,
	.fallback = true,
	.fallback_reason = S("cycles not supported: no PMU"),
	.kernel_excluded = true,
	.kernel_excluded_reason = S("perf_event_paranoid"),
	.separate_thread = true,
	.callgraph = true,
	.vmlinux = S("/boot/vmlinux with space"),
};

static const char full_text[] =
	"tool operf 0.1\n"
	"started 2024-01-01 00:00:00\n"
	"target command ./prog -x\n"
	"event cpu-clock software 100000 99 0 0 CPU clock timer, in ns\n"
	"event CPU_CLK_UNHALTED hardware 1000003 115 60 0 Clock cycles when not halted\n"
	"event nodesc hardware 5 1 2 3 \n"
	"fallback cycles not supported: no PMU\n"
	"kernel-excluded perf_event_paranoid\n"
	"separate-thread 1\n"
	"separate-cpu 0\n"
	"callgraph 1\n"
	"vmlinux /boot/vmlinux with space\n";

static void assert_str(const char *got, const char *want)
{
	if (!got || !want) {
		assert_ptr_equal(got, want);
		return;
	}
	assert_string_equal(got, want);
}

static void assert_info_equal(const struct odb_session_info *a,
			      const struct odb_session_info *b)
{
	size_t i;

	assert_str(a->tool, b->tool);
	assert_str(a->started, b->started);
	assert_int_equal(a->target, b->target);
	assert_int_equal(a->pid, b->pid);
	assert_str(a->command, b->command);
	assert_int_equal(a->nr_events, b->nr_events);
	for (i = 0; i < a->nr_events; i++) {
		assert_string_equal(a->events[i].name, b->events[i].name);
		assert_int_equal(a->events[i].software, b->events[i].software);
		assert_int_equal(a->events[i].period, b->events[i].period);
		assert_int_equal(a->events[i].cpu_type, b->events[i].cpu_type);
		assert_int_equal(a->events[i].code, b->events[i].code);
		assert_int_equal(a->events[i].unit_mask, b->events[i].unit_mask);
		assert_string_equal(a->events[i].desc, b->events[i].desc);
	}
	assert_int_equal(a->fallback, b->fallback);
	assert_str(a->fallback_reason, b->fallback_reason);
	assert_int_equal(a->kernel_excluded, b->kernel_excluded);
	assert_str(a->kernel_excluded_reason, b->kernel_excluded_reason);
	assert_int_equal(a->separate_thread, b->separate_thread);
	assert_int_equal(a->separate_cpu, b->separate_cpu);
	assert_int_equal(a->callgraph, b->callgraph);
	assert_str(a->vmlinux, b->vmlinux);
}

/* the writers into directory path, held for the call */
static int info_write(const char *path, const struct odb_session_info *info)
{
	struct op_dir d;
	int ret = op_testdir_hold(path, &d);

	if (!ret)
		ret = odb_session_info_write(&d, info);
	op_dir_close(&d);
	return ret;
}

static int abi_write(const char *path)
{
	struct op_dir d;
	int ret = op_testdir_hold(path, &d);

	if (!ret)
		ret = odb_session_write_abi(&d);
	op_dir_close(&d);
	return ret;
}

static int store_kernel(const char *path, const char *kallsyms, size_t klen,
			const char *modules, size_t mlen)
{
	struct op_dir d;
	int ret = op_testdir_hold(path, &d);

	if (!ret)
		ret = odb_session_store_kernel(&d, kallsyms, klen, modules, mlen);
	op_dir_close(&d);
	return ret;
}

static void test_format(void **state)
{
	char *text;
	size_t len;

	(void)state;
	assert_int_equal(odb_session_info_format(&full, &text, &len), 0);
	assert_string_equal(text, full_text);
	assert_int_equal(len, strlen(full_text));
	free(text);
}

static void test_targets(void **state)
{
	static const struct {
		int line;
		struct odb_session_info info;
		const char *text;
	} rows[] = {
		{ __LINE__, { .target = ODB_TARGET_SYSTEM },
		  "target system-wide\nseparate-thread 0\nseparate-cpu 0\ncallgraph 0\n" },
		{ __LINE__, { .target = ODB_TARGET_PID, .pid = 4242 },
		  "target pid 4242\nseparate-thread 0\nseparate-cpu 0\ncallgraph 0\n" },
		{ __LINE__, { .target = ODB_TARGET_COMMAND, .command = S("") },
		  "target command\nseparate-thread 0\nseparate-cpu 0\ncallgraph 0\n" },
		{ __LINE__, { .target = ODB_TARGET_UNKNOWN, .separate_cpu = true },
		  "separate-thread 0\nseparate-cpu 1\ncallgraph 0\n" },
		/* values are one line: control characters become spaces */
		{ __LINE__, { .target = ODB_TARGET_COMMAND, .command = S("a\nb\tc"),
			      .fallback = true, .fallback_reason = S("x\ry"),
			      .vmlinux = S("/v\n") },
		  "target command a b c\nfallback x y\nseparate-thread 0\n"
		  "separate-cpu 0\ncallgraph 0\nvmlinux /v \n" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct odb_session_info back;
		char *text;
		size_t len;

		assert_int_equal(odb_session_info_format(&rows[i].info, &text, &len), 0);
		if (strcmp(text, rows[i].text))
			fail_msg("row at line %d: got\n%s", rows[i].line, text);
		/* and the text reads back as the struct (up to the spaces) */
		assert_int_equal(odb_session_info_parse(text, len, &back), 0);
		assert_int_equal(back.target, rows[i].info.target);
		assert_int_equal(back.pid, rows[i].info.pid);
		odb_session_info_release(&back);
		free(text);
	}
}

static void test_parse(void **state)
{
	static const char text[] =
		"tool operf 0.1\n"
		"unknown line\n"
		"started 2024-01-01 00:00:00\n"
		"target command ./prog -x\n"
		"target pid x\n"			/* bad: the command stays */
		"target nonsense\n"
		"event cpu-clock software 100000 99 0 0 CPU clock timer, in ns\n"
		"event CPU_CLK_UNHALTED hardware 1000003 115 60 0 Clock cycles when not halted\n"
		"event broken software x 1 2 3 bad period\n"
		"event short hardware 1 2\n"
		"event bad firmware 1 2 3 4\n"
		"event  hardware 1 2 3 4 empty name\n"
		"event big hardware 1 4294967296 3 4\n"
		"event nodesc hardware 5 1 2 3\n"
		"fallbacks are not this\n"
		"fallback cycles not supported: no PMU\n"
		"kernel-excluded perf_event_paranoid\n"
		"separate-thread 1\r\n"			/* \r reads as a space */
		"separate-thread 2\n"			/* bad: 1 stays */
		"separate-cpu 0\ncallgraph 1\n"
		"vmlinux\n"				/* empty: ignored */
		"vmlinux /boot/vmlinux with space";	/* no final newline */
	struct odb_session_info info;

	(void)state;
	assert_int_equal(odb_session_info_parse(text, sizeof(text) - 1, &info), 0);
	/* "separate-thread 1\r" reads "1 ": not a flag; "2" neither */
	assert_false(info.separate_thread);
	info.separate_thread = true;
	assert_info_equal(&info, &full);
	odb_session_info_release(&info);
	odb_session_info_release(&info);
	odb_session_info_release(NULL);
}

static void test_parse_odd(void **state)
{
	struct odb_session_info info;
	static const char nul[] = "vmlinux /a\0/b\nfallback\nkernel-excluded";
	static const char ctl[] = "event a\tb software 1 2 3 4 d\te\x7f\n";

	(void)state;
	assert_int_equal(odb_session_info_parse("", 0, &info), 0);
	assert_int_equal(info.nr_events, 0);
	assert_null(info.tool);
	odb_session_info_release(&info);
	/* a NUL ends its line; bare keys give empty reasons */
	assert_int_equal(odb_session_info_parse(nul, sizeof(nul) - 1, &info), 0);
	assert_string_equal(info.vmlinux, "/a");
	assert_true(info.fallback);
	assert_string_equal(info.fallback_reason, "");
	assert_true(info.kernel_excluded);
	assert_string_equal(info.kernel_excluded_reason, "");
	odb_session_info_release(&info);
	/* a tab splits words as a space does: "a" is the name, "b" no kind */
	assert_int_equal(odb_session_info_parse(ctl, sizeof(ctl) - 1, &info), 0);
	assert_int_equal(info.nr_events, 0);
	odb_session_info_release(&info);
}

/* a name that would not read back is refused */
static void test_bad_names(void **state)
{
	static const char *const bad[] = { "", "a b", "a\tb", "a\nb" };
	struct odb_session_event ev = { .desc = S("") };
	struct odb_session_info info = { .events = &ev, .nr_events = 1 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *text = (char *)1;
		size_t len = 1;

		ev.name = (char *)bad[i];
		if (odb_session_info_format(&info, &text, &len) != -EINVAL)
			fail_msg("name '%s' was accepted", bad[i]);
		assert_null(text);
		assert_int_equal(len, 0);
	}
	ev.name = NULL;
	assert_int_equal(odb_session_info_format(&info, &(char *){ NULL }, &(size_t){ 0 }),
			 -EINVAL);
}

static void test_write_read(void **state)
{
	struct odb_session_info back;
	char sub[PATH_MAX], path[PATH_MAX];

	(void)state;
	op_testdir_file(&dir, "run", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	assert_int_equal(info_write(sub, &full), 0);
	assert_int_equal(odb_session_info_read(sub, &back), 0);
	assert_info_equal(&back, &full);
	odb_session_info_release(&back);

	/* none (OProfile 1.4), not a file, a FIFO: errors and an empty info */
	op_testdir_file(&dir, "none", sub, sizeof(sub));
	assert_int_equal(odb_session_info_read(sub, &back), -ENOENT);
	assert_int_equal(back.nr_events, 0);
	op_testdir_file(&dir, "dir/session.info", path, sizeof(path));
	assert_int_equal(op_mkdir_p(path, 0755), 0);
	op_testdir_file(&dir, "dir", sub, sizeof(sub));
	assert_int_equal(odb_session_info_read(sub, &back), ODB_ERR_NOT_REGULAR);
	op_testdir_file(&dir, "fifo", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	op_testdir_file(&dir, "fifo/session.info", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(odb_session_info_read(sub, &back), ODB_ERR_NOT_REGULAR);
	assert_null(back.tool);
}

static void test_oom(void **state)
{
	struct odb_session_info back;
	char sub[PATH_MAX], *text;
	unsigned long k;
	size_t len;
	int ret;

	(void)state;
	op_testdir_file(&dir, "oom", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = info_write(sub, &full);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("write: allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 1);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_session_info_read(sub, &back);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_info_equal(&back, &full);
			odb_session_info_release(&back);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM || back.events || back.tool || back.vmlinux)
			fail_msg("read: allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 2);
	op_alloc_fail_at(1);
	ret = odb_session_info_format(&full, &text, &len);
	op_alloc_fail_at(0);
	assert_int_equal(ret, -ENOMEM);
	assert_null(text);
}

/* the abi keys opimport reads, and the kernel copies */
static void test_session_files(void **state)
{
	char sub[PATH_MAX], path[PATH_MAX], *text, *p;
	size_t len;
	int err;

	(void)state;
	op_testdir_file(&dir, "sess", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	assert_int_equal(abi_write(sub), 0);
	op_testdir_file(&dir, "sess/abi", path, sizeof(path));
	assert_int_equal(op_read_file(path, 4096, &text, &len), 0);
	assert_non_null(strstr(text, "\nsizeof_struct_opd_header 72\n"));
	assert_non_null(strstr(text, "\noffsetof_header_cg_to_anon_start 64\n"));
	assert_non_null(strstr(text, "\nsizeof_odb_node_t 16\n"));
	assert_non_null(strstr(text, "\nlittle_endian 1\n"));
	assert_int_equal(strncmp(text, "sizeof_double 8\n", 16), 0);
	free(text);

	assert_null(odb_session_kernel_copy(sub, ODB_KERNEL_KALLSYMS, &err));
	assert_int_equal(err, -ENOENT);
	assert_int_equal(store_kernel(sub, "0 T _text\njunk", 10, NULL, 0), 0);
	p = odb_session_kernel_copy(sub, ODB_KERNEL_KALLSYMS, &err);
	op_testdir_file(&dir, "sess/kernel/kallsyms", path, sizeof(path));
	assert_string_equal(p, path);
	assert_int_equal(err, 0);
	assert_int_equal(op_read_file(p, 4096, &text, &len), 0);
	assert_string_equal(text, "0 T _text\n");
	free(text);
	free(p);
	assert_null(odb_session_kernel_copy(sub, ODB_KERNEL_MODULES, &err));
	assert_int_equal(store_kernel(sub, NULL, 0, "ext4 1 0 - Live 0x0\n",
						  20), 0);
	p = odb_session_kernel_copy(sub, ODB_KERNEL_MODULES, &err);
	assert_non_null(p);
	free(p);
	op_alloc_fail_at(1);
	p = odb_session_kernel_copy(sub, ODB_KERNEL_MODULES, &err);
	op_alloc_fail_at(0);
	assert_null(p);
	assert_int_equal(err, -ENOMEM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_odd),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_oom),
		cmocka_unit_test(test_session_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
