// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The engine on synthetic record streams: where samples land (app, image,
 * key), time ordering across CPUs (a fork read after the child's first
 * sample), exec and the samples of its loading, separation, call-graph arcs, anonymous memory, kernel
 * samples with and without --vmlinux, statistics, the sample-file LRU, name escaping, paths of
 * other mount namespaces, and recorded streams replaying to the same files.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_int.h"
#include "daemon/opd_ns.h"
#include "daemon/opd_proc.h"
#include "daemon/opd_stats.h"
#include "daemon/opd_synth.h"
#include "daemon/opd_record.h"
#include "daemon/opd_session.h"
#include "daemon/opd_stream.h"
#include "daemon/tests/opd_test_records.h"
#include "libdb/odb.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define ID 7			/* perf id of event 0 */
#define US PERF_RECORD_MISC_USER
#define KS PERF_RECORD_MISC_KERNEL
#define MS 1000000ull		/* one millisecond of record time */

static struct op_testdir dir;
static char samples[600];
/* the samples directories engines write, held for them (closed at the end) */
static struct op_dir held[64];
static size_t nr_held;
static struct opev_event events[1];

static int setup(void **state)
{
	(void)state;
	if (op_testdir_make(&dir))
		return -1;
	memset(events, 0, sizeof(events));
	snprintf(events[0].name, sizeof(events[0].name), "cpu-clock");
	events[0].kind = OPEV_SOFTWARE_CLOCK;
	events[0].period = 250000;
	events[0].op_cpu_type = 4;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < 64; i++)
		op_dir_close(&held[i]);
	op_testdir_remove(&dir);
	return 0;
}

struct opts {
	bool thread, cpu, callgraph;
	unsigned max_open;
	const char *layout;
	const char *vmlinux;
	struct opd_ns *ns;
};


static const struct op_dir *hold(const char *path)
{
	struct op_dir *d = &held[nr_held++ % 64];

	op_dir_close(d);
	assert_int_equal(op_testdir_hold(path, d), 0);
	return d;
}

static struct opd_engine *engine(const char *name, const struct opts *o)
{
	struct opd_engine_config cfg = { 0 };
	struct opd_engine *e;

	snprintf(samples, sizeof(samples), "%s/%s", dir.path, name);
	cfg.samples = hold(samples);
	cfg.events = events;
	cfg.nr_events = 1;
	cfg.sample_type = OPD_SAMPLE_TYPE | (o && o->callgraph ? PERF_SAMPLE_CALLCHAIN : 0);
	cfg.separate_thread = o && o->thread;
	cfg.separate_cpu = o && o->cpu;
	cfg.callgraph = o && o->callgraph;
	cfg.nr_cpus = 2;
	cfg.kernel_layout = o && o->layout ? o->layout : "text ffffffff81000000 ffffffff82000000\n"
					 "module ext4 ffffffffc0000000 10000\n";
	cfg.max_open_files = o && o->max_open ? o->max_open : 64;
	cfg.vmlinux = o ? o->vmlinux : NULL;
	cfg.ns = o ? o->ns : NULL;
	e = opd_engine_new(&cfg);
	opd_engine_add_id(e, ID, 0);
	return e;
}

/* the count at key in the sample file samples/<rel> (0 if absent) */
static uint64_t count(const char *rel, uint64_t key)
{
	char path[PATH_MAX];
	struct odb_file *f;
	struct odb_iter it;
	odb_key_t k;
	odb_value_t v;
	uint64_t sum = 0;

	snprintf(path, sizeof(path), "%s/%s", samples, rel);
	if (odb_file_open(path, ODB_READ, NULL, &f))
		return 0;
	it = odb_iter_init(f);
	while (odb_iter_next(&it, &k, &v))
		if (k == key)
			sum += v;
	odb_file_close(f);
	return sum;
}

/* all counts of the sample file samples/<rel>; -1 if it does not open */
static int64_t total(const char *rel)
{
	char path[PATH_MAX];
	struct odb_file *f;
	uint64_t sum;

	snprintf(path, sizeof(path), "%s/%s", samples, rel);
	if (odb_file_open(path, ODB_READ, NULL, &f))
		return -1;
	sum = odb_file_total(f);
	odb_file_close(f);
	return (int64_t)sum;
}

static const struct opd_header *header_of(const char *rel, struct opd_header *copy)
{
	char path[PATH_MAX];
	struct odb_file *f;

	snprintf(path, sizeof(path), "%s/%s", samples, rel);
	if (odb_file_open(path, ODB_READ, NULL, &f))
		return NULL;
	*copy = *odb_file_header(f);
	odb_file_close(f);
	return copy;
}

/* the engine's lost samples as libdb counts them */
static uint64_t lost_samples(const struct opd_engine *e)
{
	struct odb_stats st;

	opd_stats_to_odb(opd_engine_stats(e), &st);
	return odb_stats_lost_samples(&st);
}

#define PROG "{root}/bin/prog"
#define LIBC "{root}/lib/libc.so.6"
#define SPEC "cpu-clock.250000.0.all.all.all"

/* pid 100 execs /bin/prog (app) and maps libc */
static void prog_setup(struct op_strbuf *sb, uint32_t pid, uint64_t t)
{
	rec_comm(sb, pid, pid, "prog", 1, t);
	rec_mmap2(sb, pid, 0x400000, 0x2000, 0, 11, "/bin/prog", t + 1);
	rec_mmap2(sb, pid, 0x7f0000000000ull, 0x100000, 0x2000, 12, "/lib/libc.so.6", t + 2);
}

static void test_basic(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("basic", NULL);
	const struct opd_stats *st;
	struct opd_header h;
	int i;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	for (i = 0; i < 3; i++)
		rec_sample(&sb, ID, 100, 100, 0, US, 0x400100, 2 * MS + i, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7f0000000010ull, 3 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 101, 1, US, 0x7f0000000010ull, 3 * MS + 1, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, KS, 0xffffffff81000100ull, 4 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, KS, 0xffffffffc0000010ull, 4 * MS + 1, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x500000, 5 * MS, NULL, 0);	/* unmapped */
	rec_sample(&sb, ID, 999, 999, 0, US, 0x400100, 5 * MS + 1, NULL, 0);	/* unknown */
	rec_lost(&sb, ID, 17, 6 * MS);
	assert_int_equal(opd_engine_queue(e, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x100), 3);
	/* a shared library's key is ip - start + pgoff */
	assert_int_equal(count(PROG "/{dep}/" LIBC "/" SPEC, 0x2010), 2);
	/* no vmlinux: raw address, as OProfile; modules relative to their start */
	assert_int_equal(count(PROG "/{dep}/{kern}/no-vmlinux/" SPEC, 0xffffffff81000100ull), 1);
	assert_int_equal(count(PROG "/{dep}/{kern}/ext4/" SPEC, 0x10), 1);
	assert_non_null(header_of(PROG "/{dep}/{kern}/ext4/" SPEC, &h));
	assert_int_equal(h.is_kernel, 1);
	assert_int_equal(h.cpu_type, 4);
	assert_int_equal(h.ctr_count, 250000);
	assert_int_equal(h.mtime, 0);
	st = opd_engine_stats(e);
	assert_int_equal(st->count[OPD_STAT_SAMPLES], 9);
	assert_int_equal(st->count[OPD_STAT_KERNEL_SAMPLES], 2);
	assert_int_equal(st->count[OPD_STAT_LOST_NO_MAPPING], 1);
	assert_int_equal(st->count[OPD_STAT_LOST_NO_APP_USER], 1);
	assert_int_equal(st->count[OPD_STAT_LOST_BY_KERNEL], 17);
	assert_int_equal(opd_engine_nr_files(e), 4);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * operf --vmlinux: core kernel samples are keyed as offsets from the
 * running kernel's _text (which reports add to the vmlinux file's _text),
 * modules as before, and kernel samples in neither the text range nor a
 * module are lost_kernel.  Without the text range (kallsyms hidden) the
 * vmlinux cannot be used: raw addresses under no-vmlinux, nothing lost.
 */
static void test_vmlinux(void **state)
{
	static const uint64_t ips[] = {
		0xffffffff81000100ull,	/* _text + 0x100 */
		0xffffffff81000100ull,
		0xffffffff81000000ull,	/* _text itself */
		0xffffffff81ffffffull,	/* the last byte before _etext */
		0xffffffffc0000010ull,	/* ext4 + 0x10 */
		0xffffffff82000000ull,	/* _etext: outside */
		0xffffffff80ffffffull,	/* below _text */
		0xffffffffc0010000ull,	/* just past ext4 */
	};
	const char *vml = PROG "/{dep}/{root}/boot/vmlinux-test/" SPEC;
	const char *raw = PROG "/{dep}/{kern}/no-vmlinux/" SPEC;
	struct opts o = { .vmlinux = "/boot/vmlinux-test" };
	struct op_strbuf sb = OP_STRBUF_INIT;
	const struct opd_stats *st;
	struct opd_engine *e;
	struct opd_header h;
	size_t i;

	(void)state;
	e = engine("vmlinux", &o);
	prog_setup(&sb, 100, 1 * MS);
	for (i = 0; i < sizeof(ips) / sizeof(ips[0]); i++)
		rec_sample(&sb, ID, 100, 100, 0, KS, ips[i], 2 * MS + i, NULL, 0);
	assert_int_equal(opd_engine_queue(e, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(vml, 0x100), 2);
	assert_int_equal(count(vml, 0), 1);
	assert_int_equal(count(vml, 0xffffff), 1);
	assert_int_equal(total(vml), 4);
	assert_non_null(header_of(vml, &h));
	assert_int_equal(h.is_kernel, 1);
	assert_int_equal(count(PROG "/{dep}/{kern}/ext4/" SPEC, 0x10), 1);
	assert_int_equal(total(PROG "/{dep}/{kern}/ext4/" SPEC), 1);
	assert_int_equal(total(raw), -1);
	st = opd_engine_stats(e);
	assert_int_equal(st->count[OPD_STAT_LOST_KERNEL], 3);
	assert_int_equal(st->count[OPD_STAT_STORED], 5);
	assert_int_equal(lost_samples(e), 3);
	opd_engine_free(e);

	/* no text range: the vmlinux is not used */
	o.layout = "module ext4 ffffffffc0000000 10000\n";
	e = engine("vmlinux-hidden", &o);
	assert_int_equal(opd_engine_queue(e, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(total(vml), -1);
	assert_int_equal(count(raw, 0xffffffff81000100ull), 2);
	assert_int_equal(count(raw, 0xffffffff82000000ull), 1);
	assert_int_equal(total(raw), 7);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_LOST_KERNEL], 0);
	opd_engine_free(e);

	/* no vmlinux: every kernel address outside the modules is kept, raw */
	e = engine("no-vmlinux", NULL);
	assert_int_equal(opd_engine_queue(e, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(raw, 0xffffffff80ffffffull), 1);
	assert_int_equal(total(raw), 7);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_LOST_KERNEL], 0);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/* the text of samples/<rel>, or NULL when it does not exist */
static char *file_text(const char *rel)
{
	char path[PATH_MAX], *text;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", samples, rel);
	return op_read_file(path, 4096, &text, &len) ? NULL : text;
}

static void assert_stat_file(const char *name, const char *want)
{
	char rel[128], *got;

	snprintf(rel, sizeof(rel), "stats/%s", name);
	got = file_text(rel);
	if (!want && got)
		fail_msg("'%s' holds '%s', should not exist", rel, got);
	if (want && (!got || strcmp(got, want)))
		fail_msg("'%s' holds '%s', want '%s'", rel, got ? got : "(none)", want);
	free(got);
}

/*
 * Lost samples of each cause the engine sees, and a lost arc, written to
 * stats/ by the daemon (OProfile 1.4's file names, one per non-zero
 * counter, total_samples with them), and read back through libdb as
 * lost samples and lost arcs.
 */
static void test_stats_written(void **state)
{
	/* an arc from prog to libc, and one whose caller has no mapping */
	const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x7f0000000040ull,
				   0x400150, 0x500000 };
	/* with call graphs every sample has a chain: this one has no frames */
	const uint64_t none[] = { (uint64_t)PERF_CONTEXT_USER };
	struct opts o = { .callgraph = true };
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_session session = { 0 };
	struct opd_engine *e = engine("stats", &o);
	const bool throttled[] = { true };
	struct odb_stats st;
	uint64_t taken;
	int i;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	for (i = 0; i < 3; i++)
		rec_sample(&sb, ID, 100, 100, 0, US, 0x400100, 2 * MS + i, none, 1);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7f0000000040ull, 3 * MS, chain, 4);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x500000, 4 * MS, none, 1);	/* unmapped */
	rec_sample(&sb, ID, 999, 999, 0, US, 0x400100, 4 * MS + 1, none, 1);	/* unknown */
	rec_sample(&sb, ID, 100, 100, 0, PERF_RECORD_MISC_HYPERVISOR, 0x10, 4 * MS + 2,
		   none, 1);
	rec_sample(&sb, ID, 100, 100, 0, PERF_RECORD_MISC_GUEST_KERNEL, 0x10, 4 * MS + 3,
		   none, 1);
	rec_sample(&sb, ID + 1, 100, 100, 0, US, 0x400100, 4 * MS + 4, none, 1); /* no event */
	rec_lost(&sb, ID, 17, 5 * MS);
	rec_throttle(&sb, ID, 5 * MS + 1);
	assert_int_equal(opd_engine_queue(e, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_engine_finish(e), 0);

	session.current = samples;
	assert_int_equal(opd_session_write_stats(&session, opd_engine_stats(e), events, 1,
						 throttled, NULL), 0);
	assert_stat_file("total_samples", "4");
	assert_stat_file("lost_no_mapping", "1");
	assert_stat_file("lost_no_app_for_user_sample", "1");
	assert_stat_file("lost_invalid_hypervisor_addr", "1");
	assert_stat_file("lost_invalid_domain", "1");
	assert_stat_file("lost_bad_records", "1");
	assert_stat_file("lost_records_by_kernel", "17");
	assert_stat_file("lost_bt_no_mapping", "1");
	assert_stat_file("lost_kernel", NULL);
	assert_stat_file("lost_samplefile", NULL);
	assert_stat_file("throttled/cpu-clock", "");

	assert_int_equal(odb_stats_read(samples, &st), 0);
	assert_int_equal(odb_stats_lost_samples(&st), 22);
	assert_int_equal(odb_stats_lost_arcs(&st), 1);
	assert_true(odb_stats_taken(&st, &taken));
	assert_int_equal(taken, 26);
	/* every sample taken is in a sample file or counted as lost */
	assert_int_equal(st.count[ODB_STAT_TOTAL_SAMPLES],
			 total(PROG "/{dep}/" PROG "/" SPEC) + total(PROG "/{dep}/" LIBC "/" SPEC));

	/*
	 * Added to what an earlier writer left (operf --append, a restarted
	 * daemon): counts add up, throttled events are the union
	 */
	{
		char *other = (char *)"other-event";
		struct odb_stats prior = { .throttled = &other, .nr_throttled = 1 };

		prior.count[ODB_STAT_TOTAL_SAMPLES] = 10;
		prior.count[ODB_STAT_LOST_NO_MAPPING] = 2;
		prior.count[ODB_STAT_LOST_KERNEL] = 5;
		assert_int_equal(opd_session_write_stats(&session, opd_engine_stats(e),
							 events, 1, throttled, &prior), 0);
	}
	assert_stat_file("total_samples", "14");
	assert_stat_file("lost_no_mapping", "3");
	assert_stat_file("lost_kernel", "5");
	assert_stat_file("lost_records_by_kernel", "17");
	assert_stat_file("throttled/cpu-clock", "");
	assert_stat_file("throttled/other-event", "");
	odb_stats_release(&st);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * A child's first sample sits in CPU 0's buffer, its fork record in CPU
 * 1's, read after it.  Time order must still apply the fork first.
 */
static void test_fork_read_late(void **state)
{
	struct op_strbuf cpu0 = OP_STRBUF_INIT, cpu1 = OP_STRBUF_INIT;
	struct op_strbuf early = OP_STRBUF_INIT;
	struct opd_engine *e = engine("order", NULL);

	(void)state;
	prog_setup(&early, 100, 1 * MS);
	opd_engine_queue(e, 1, early.buf, early.len);
	opd_engine_round(e);
	rec_sample(&cpu0, ID, 200, 200, 0, US, 0x400200, 20 * MS, NULL, 0);
	rec_fork(&cpu1, 200, 100, 200, 10 * MS);
	opd_engine_queue(e, 0, cpu0.buf, cpu0.len);
	opd_engine_queue(e, 1, cpu1.buf, cpu1.len);
	opd_engine_round(e);
	opd_engine_round(e);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x200), 1);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_LOST_NO_APP_USER], 0);
	opd_engine_free(e);
	op_strbuf_release(&cpu0);
	op_strbuf_release(&cpu1);
	op_strbuf_release(&early);
}

static void test_exec_in_child(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("exec", NULL);

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_fork(&sb, 300, 100, 300, 2 * MS);
	rec_sample(&sb, ID, 300, 300, 0, US, 0x400300, 3 * MS, NULL, 0);
	rec_comm(&sb, 300, 300, "other", 1, 4 * MS);
	rec_mmap2(&sb, 300, 0x400000, 0x1000, 0, 13, "/bin/other", 4 * MS + 1);
	rec_sample(&sb, ID, 300, 300, 0, US, 0x400300, 5 * MS, NULL, 0);
	/* the old mapping of libc is gone after exec */
	rec_sample(&sb, ID, 300, 300, 0, US, 0x7f0000000010ull, 6 * MS, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x300), 1);
	assert_int_equal(count("{root}/bin/other/{dep}/{root}/bin/other/" SPEC, 0x300), 1);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_LOST_NO_MAPPING], 1);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * operf's command: its exec announced at time 0 (opd_synth_exec), kernel
 * samples before the kernel's COMM and between it and the mapping of the
 * program are the program's, not {kern}'s as their own app.
 */
static void test_exec_window(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("window", NULL);
	int i;

	(void)state;
	assert_int_equal(opd_synth_exec(&sb, 400, "/bin/prog", OPD_SAMPLE_TYPE), 0);
	rec_sample(&sb, ID, 400, 400, 0, KS, 0xffffffff81000100ull, 1 * MS, NULL, 0);
	rec_comm(&sb, 400, 400, "prog", 1, 2 * MS);
	for (i = 0; i < 3; i++)
		rec_sample(&sb, ID, 400, 400, 1, KS, 0xffffffff81000200ull, 3 * MS + i, NULL, 0);
	rec_mmap2(&sb, 400, 0x400000, 0x2000, 0, 11, "/bin/prog", 4 * MS);
	rec_sample(&sb, ID, 400, 400, 0, KS, 0xffffffff81000100ull, 5 * MS, NULL, 0);
	rec_sample(&sb, ID, 400, 400, 0, US, 0x400100, 5 * MS + 1, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/{kern}/no-vmlinux/" SPEC, 0xffffffff81000100ull), 2);
	assert_int_equal(count(PROG "/{dep}/{kern}/no-vmlinux/" SPEC, 0xffffffff81000200ull), 3);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x100), 1);
	assert_int_equal(count("{kern}/no-vmlinux/{dep}/{kern}/no-vmlinux/" SPEC,
			       0xffffffff81000200ull), 0);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_SAMPLES], 6);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_KERNEL_SAMPLES], 5);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * An exec that never maps its program (killed while loading it, or still
 * loading when profiling ends): the held samples are not lost, they go
 * where any sample of a process without an executable goes.  More than
 * the process may hold goes there at once.
 */
static void test_exec_window_unmapped(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("unmapped", NULL);
	const char *kern = "{kern}/no-vmlinux/{dep}/{kern}/no-vmlinux/" SPEC;
	size_t one, i, many;

	(void)state;
	rec_comm(&sb, 500, 500, "dies", 1, 1 * MS);
	rec_sample(&sb, ID, 500, 500, 0, KS, 0xffffffff81000300ull, 2 * MS, NULL, 0);
	rec_exit(&sb, 500, 500, 3 * MS);
	rec_comm(&sb, 600, 600, "late", 1, 4 * MS);
	one = sb.len;
	rec_sample(&sb, ID, 600, 600, 0, KS, 0xffffffff81000400ull, 5 * MS, NULL, 0);
	one = sb.len - one;
	many = OPD_PROC_HELD_MAX / one + 10;
	for (i = 1; i < many; i++)
		rec_sample(&sb, ID, 600, 600, 0, KS, 0xffffffff81000400ull, 5 * MS + i, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(kern, 0xffffffff81000300ull), 1);
	assert_int_equal(count(kern, 0xffffffff81000400ull), many);
	assert_int_equal(lost_samples(e), 0);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_STORED], 1 + many);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

static void test_separate(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opts o = { .thread = true, .cpu = true };
	struct opd_engine *e = engine("sep", &o);

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x400100, 2 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 104, 1, US, 0x400100, 2 * MS + 1, NULL, 0);
	rec_sample(&sb, ID, 100, 104, 1, US, 0x400104, 2 * MS + 2, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/" PROG "/cpu-clock.250000.0.100.100.0", 0x100), 1);
	assert_int_equal(count(PROG "/{dep}/" PROG "/cpu-clock.250000.0.100.104.1", 0x100), 1);
	assert_int_equal(count(PROG "/{dep}/" PROG "/cpu-clock.250000.0.100.104.1", 0x104), 1);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

static void test_callgraph(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opts o = { .callgraph = true };
	struct opd_engine *e = engine("cg", &o);
	/* leaf in libc called from prog 0x400150, called from prog 0x400190 */
	const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_USER, 0x7f0000000040ull,
				   0x400150, 0x400190 };
	const uint64_t kchain[] = { (uint64_t)PERF_CONTEXT_KERNEL, 0xffffffff81000200ull,
				    (uint64_t)PERF_CONTEXT_USER, 0x400180, 0x500000 };
	const struct opd_stats *st;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7f0000000040ull, 2 * MS, chain, 4);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7f0000000040ull, 2 * MS + 1, chain, 4);
	rec_sample(&sb, ID, 100, 100, 0, KS, 0xffffffff81000200ull, 3 * MS, kchain, 5);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	/* caller image file, {cg}, callee image: key (from << 32) | to */
	assert_int_equal(count(PROG "/{dep}/" PROG "/{cg}/" LIBC "/" SPEC,
			       (0x150ull << 32) | 0x2040), 2);
	assert_int_equal(count(PROG "/{dep}/" PROG "/{cg}/" PROG "/" SPEC,
			       (0x190ull << 32) | 0x150), 2);
	/* a system call: user caller, kernel callee (raw address, cut to 32 bits) */
	assert_int_equal(count(PROG "/{dep}/" PROG "/{cg}/{kern}/no-vmlinux/" SPEC,
			       (0x180ull << 32) | 0x81000200ull), 1);
	st = opd_engine_stats(e);
	assert_int_equal(st->count[OPD_STAT_ARCS], 5);
	assert_int_equal(st->count[OPD_STAT_LOST_BT_NO_MAPPING], 1);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

static void test_anon_and_names(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("anon", NULL);
	struct opd_header h;
	const char *anon = PROG "/{dep}/{anon:anon}/100.0x7e0000000000.0x7e0000000fff/" SPEC;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_mmap2(&sb, 100, 0x7e0000000000ull, 0x1000, 0, 0, "//anon", 2 * MS);
	rec_mmap2(&sb, 100, 0x7d0000000000ull, 0x1000, 0, 0, "[vdso]", 2 * MS);
	rec_mmap2(&sb, 100, 0x600000, 0x1000, 0, 14, "/tmp/{dep}/../x lib%", 2 * MS);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7e0000000010ull, 3 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7d0000000020ull, 3 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x600030, 3 * MS, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(anon, 0x10), 1);
	assert_non_null(header_of(anon, &h));
	assert_int_equal(h.anon_start, 0x7e0000000000ull);
	assert_int_equal(count(PROG "/{dep}/{anon:[vdso]}/100.0x7d0000000000.0x7d0000000fff/" SPEC,
			       0x20), 1);
	/* the escaping rule: no {dep} component, no climbing out */
	assert_int_equal(count(PROG "/{dep}/{root}/tmp/%7Bdep}/%2E%2E/x lib%25/" SPEC, 0x30), 1);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * Every process maps a [vdso]: its image is made only when a sample lands
 * in it, so a thousand processes that never sample there leave no image
 * each.  A forked child that samples in the [vdso] it inherited names it
 * after its parent, as when images were made at mmap.
 */
static void test_vdso_later(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("vdso", NULL);
	uint32_t pid, images;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_mmap2(&sb, 100, 0x7d0000000000ull, 0x2000, 0, 0, "[vdso]", 1 * MS + 5);
	for (pid = 200; pid < 1200; pid++) {
		uint64_t t = 2 * MS + pid * 10;

		rec_fork(&sb, pid, 100, pid, t);
		rec_comm(&sb, pid, pid, "prog", 1, t + 1);
		rec_mmap2(&sb, pid, 0x400000, 0x2000, 0, 11, "/bin/prog", t + 2);
		rec_mmap2(&sb, pid, 0x7c0000000000ull, 0x2000, 0, 0, "[vdso]", t + 3);
		rec_sample(&sb, ID, pid, pid, 0, US, 0x400010, t + 4, NULL, 0);
		rec_exit(&sb, pid, pid, t + 5);
	}
	/* one in its own [vdso], one forked child in its parent's */
	rec_fork(&sb, 2000, 100, 2000, 20 * MS);
	rec_sample(&sb, ID, 2000, 2000, 0, US, 0x7d0000000030ull, 20 * MS + 1, NULL, 0);
	rec_comm(&sb, 2001, 2001, "prog", 1, 20 * MS + 2);
	rec_mmap2(&sb, 2001, 0x7c0000000000ull, 0x2000, 0, 0, "[vdso]", 20 * MS + 3);
	rec_sample(&sb, ID, 2001, 2001, 0, US, 0x7c0000000040ull, 20 * MS + 4, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	images = e->images.nr;
	assert_true(images < 20);
	assert_int_equal(count(PROG "/{dep}/{anon:[vdso]}/100.0x7d0000000000.0x7d0000001fff/" SPEC,
			       0x30), 1);
	/* no program known: the region is the application too */
	assert_int_equal(count("{anon:[vdso]}/2001.0x7c0000000000.0x7c0000001fff/{dep}/"
			       "{anon:[vdso]}/2001.0x7c0000000000.0x7c0000001fff/" SPEC, 0x40), 1);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * A program replaced on disk while running: the old mapping's path ends in
 * " (deleted)" and is a different image from the new file at that path.
 */
static void test_deleted(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("deleted", NULL);

	(void)state;
	rec_comm(&sb, 100, 100, "prog", 1, 1 * MS);
	rec_mmap2(&sb, 100, 0x400000, 0x1000, 0, 11, "/bin/prog (deleted)", 1 * MS);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x400010, 2 * MS, NULL, 0);
	rec_comm(&sb, 200, 200, "prog", 1, 3 * MS);
	rec_mmap2(&sb, 200, 0x400000, 0x1000, 0, 12, "/bin/prog", 3 * MS);
	rec_sample(&sb, ID, 200, 200, 0, US, 0x400010, 4 * MS, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count("{root}/bin/prog (deleted)/{dep}/{root}/bin/prog (deleted)/" SPEC,
			       0x10), 1);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x10), 1);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/*
 * A fake system for opd_ns: pid 100 runs in another mount namespace, in
 * which /bin/prog is the file bound there from the host's /srv/prog;
 * its libc is nowhere here.
 */
static int ns_mnt_ns(void *data, uint32_t pid, uint64_t *ns)
{
	(void)data;
	if (pid && pid != 100)
		return -ENOENT;
	*ns = pid ? 2 : 1;
	return 0;
}

static int ns_mountinfo(void *data, uint32_t pid, char **text)
{
	(void)data;
	*text = op_xstrdup(pid ? "1 0 8:1 / / rw - ext4 a rw\n"
				 "2 1 8:1 /srv/prog /bin/prog rw - ext4 a rw\n" :
				 "1 0 8:1 / / rw - ext4 a rw\n");
	return 0;
}

static int ns_stat(void *data, const char *path, struct opd_ns_file *f)
{
	(void)data;
	if (strcmp(path, "/srv/prog"))
		return -ENOENT;
	*f = (struct opd_ns_file){ .maj = 8, .min = 1, .ino = 11 };
	return 0;
}

/* live records of another mount namespace: named by the paths here */
static void test_ns_paths(void **state)
{
	struct opd_ns_sys sys = { .mnt_ns = ns_mnt_ns, .mountinfo = ns_mountinfo,
				  .stat = ns_stat };
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_ns *ns = opd_ns_new(&sys);
	struct opts o = { .ns = ns };
	struct opd_engine *e = engine("ns", &o);

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x400100, 2 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x7f0000000010ull, 3 * MS, NULL, 0);
	assert_int_equal(opd_engine_queue(e, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count("{root}/srv/prog/{dep}/{root}/srv/prog/" SPEC, 0x100), 1);
	assert_int_equal(count("{root}/srv/prog/{dep}/" LIBC "/" SPEC, 0x2010), 1);
	assert_int_equal(total(PROG "/{dep}/" PROG "/" SPEC), -1);
	assert_int_equal(opd_ns_stats(ns)->renamed, 1);
	assert_int_equal(opd_ns_stats(ns)->unresolved, 1);
	opd_engine_free(e);
	opd_ns_free(ns);
	op_strbuf_release(&sb);
}

/* more files than may be open at once: evicted ones are reopened */
static void test_lru(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opts o = { .thread = true, .max_open = 2 };
	struct opd_engine *e = engine("lru", &o);
	uint32_t round, t;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	for (round = 0; round < 10; round++)
		for (t = 0; t < 5; t++)
			rec_sample(&sb, ID, 100, 100 + t, 0, US, 0x400100, 2 * MS + round * 10 + t,
				   NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	for (t = 0; t < 5; t++) {
		char rel[256];

		snprintf(rel, sizeof(rel), PROG "/{dep}/" PROG "/cpu-clock.250000.0.100.%u.all",
			 100 + t);
		assert_int_equal(count(rel, 0x100), 10);
	}
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

/* exited processes are freed after the grace period; a reused pid is new */
static void test_exit_and_reuse(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_engine *e = engine("reuse", NULL);
	const uint64_t s = 1000 * MS;

	(void)state;
	prog_setup(&sb, 100, 1 * MS);
	rec_exit(&sb, 100, 100, 2 * MS);
	/* a thread outliving its leader, within the grace period */
	rec_sample(&sb, ID, 100, 105, 0, US, 0x400100, 3 * MS, NULL, 0);
	/* long after: gone */
	rec_sample(&sb, ID, 100, 105, 0, US, 0x400100, 20 * s, NULL, 0);
	rec_sample(&sb, ID, 100, 105, 0, US, 0x400100, 21 * s, NULL, 0);
	/* the pid comes back as another program */
	rec_comm(&sb, 100, 100, "other", 1, 22 * s);
	rec_mmap2(&sb, 100, 0x400000, 0x1000, 0, 13, "/bin/other", 22 * s + 1);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x400100, 23 * s, NULL, 0);
	opd_engine_queue(e, 0, sb.buf, sb.len);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x100), 1);
	assert_int_equal(count("{root}/bin/other/{dep}/{root}/bin/other/" SPEC, 0x100), 1);
	assert_int_equal(opd_engine_stats(e)->count[OPD_STAT_LOST_NO_APP_USER], 2);
	opd_engine_free(e);
	op_strbuf_release(&sb);
}

static void test_bad_bytes(void **state)
{
	struct opd_engine *e = engine("bad", NULL);
	unsigned char junk[64];

	(void)state;
	memset(junk, 0xff, sizeof(junk));
	assert_int_equal(opd_engine_queue(e, 0, junk, sizeof(junk)), -EINVAL);
	memset(junk, 0, sizeof(junk));
	assert_int_equal(opd_engine_queue(e, 0, junk, 4), -EINVAL);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_true(opd_engine_stats(e)->count[OPD_STAT_LOST_BAD_RECORD] >= 2);
	opd_engine_free(e);
}

/* the same records through a recorded stream give the same files */
static void test_stream_roundtrip(void **state)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_stream_writer *w;
	struct opd_stream_reader *r;
	const struct opd_stream_info *ri;
	struct opd_stream_id ids[1] = { { .id = ID, .event = 0 } };
	struct opd_stream_info info = {
		.sample_type = OPD_SAMPLE_TYPE, .nr_cpus = 2, .events = events,
		.nr_events = 1, .ids = ids, .nr_ids = 1,
		.layout = "text ffffffff81000000 ffffffff82000000\n",
	};
	struct op_err err;
	char path[PATH_MAX];
	struct opd_engine *e;

	(void)state;
	op_testdir_file(&dir, "stream.data", path, sizeof(path));
	prog_setup(&sb, 100, 1 * MS);
	rec_sample(&sb, ID, 100, 100, 0, US, 0x400100, 2 * MS, NULL, 0);
	rec_sample(&sb, ID, 100, 100, 1, KS, 0xffffffff81000300ull, 2 * MS, NULL, 0);
	assert_int_equal(opd_stream_create(path, &info, &w), 0);
	assert_int_equal(opd_stream_write(w, 0, sb.buf, sb.len), 0);
	assert_int_equal(opd_stream_round(w), 0);
	assert_int_equal(opd_stream_close_writer(w), 0);
	assert_int_equal(opd_stream_open(path, &r, &err), 0);
	ri = opd_stream_reader_info(r);
	assert_int_equal(ri->nr_events, 1);
	assert_string_equal(ri->events[0].name, "cpu-clock");
	assert_string_equal(ri->layout, info.layout);
	e = engine("stream", NULL);
	assert_int_equal(opd_stream_replay(r, e, &err), 0);
	assert_int_equal(opd_engine_finish(e), 0);
	assert_int_equal(count(PROG "/{dep}/" PROG "/" SPEC, 0x100), 1);
	assert_int_equal(count(PROG "/{dep}/{kern}/no-vmlinux/" SPEC, 0xffffffff81000300ull), 1);
	opd_engine_free(e);
	opd_stream_close(r);
	/* a stream cut short replays its whole chunks and says so */
	{
		char cut[PATH_MAX];
		unsigned char *data;
		size_t len;
		FILE *f;

		op_testdir_file(&dir, "cut.data", cut, sizeof(cut));
		assert_int_equal(op_read_file(path, 1 << 20, (char **)&data, &len), 0);
		f = fopen(cut, "w");
		fwrite(data, 1, len - 16 - 10, f);
		fclose(f);
		free(data);
		assert_int_equal(opd_stream_open(cut, &r, &err), 0);
		e = engine("cut", NULL);
		assert_int_equal(opd_stream_replay(r, e, &err), OPD_STREAM_TRUNCATED);
		opd_engine_finish(e);
		opd_engine_free(e);
		opd_stream_close(r);
	}
	op_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_vmlinux),
		cmocka_unit_test(test_stats_written),
		cmocka_unit_test(test_fork_read_late),
		cmocka_unit_test(test_exec_in_child),
		cmocka_unit_test(test_exec_window),
		cmocka_unit_test(test_exec_window_unmapped),
		cmocka_unit_test(test_separate),
		cmocka_unit_test(test_callgraph),
		cmocka_unit_test(test_anon_and_names),
		cmocka_unit_test(test_vdso_later),
		cmocka_unit_test(test_deleted),
		cmocka_unit_test(test_ns_paths),
		cmocka_unit_test(test_lru),
		cmocka_unit_test(test_exit_and_reuse),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_stream_roundtrip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
