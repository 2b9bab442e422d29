// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * operf: profile a command (with its forks, threads and execs), a running
 * process or the whole system into OProfile sample files.
 *
 *   operf [options] [--system-wide | --pid PID | command [args]]
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_front.h"
#include "daemon/opd_jit.h"
#include "daemon/opd_kernel.h"
#include "daemon/opd_record.h"
#include "daemon/opd_session.h"
#include "daemon/opd_stream.h"
#include "daemon/opd_synth.h"
#include "daemon/operf_events.h"
#include "daemon/operf_run.h"
#include "daemon/operf_target.h"
#include "daemon/perf_events.h"
#include "libdb/odb.h"
#include "libdb/odb_session.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_stats.h"
#include "libdb/odb_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_parse.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "libutil/op_vdso.h"

#define RING_KIB 512		/* per-CPU ring buffer */
#define POLL_MS 100		/* longest wait between read rounds */
#define STOP_GRACE_MS 2000	/* after forwarding SIGINT to the command */


/* filled by popt, then passed down as const */
static struct operf_options opts;

/* string options go through handle_option(): see there */
enum { OPT_EVENTS = 1, OPT_SESSION_DIR, OPT_VMLINUX, OPT_VERBOSE, OPT_SLICE };

static const struct poptOption options_table[] = {
	{ "events", 'e', POPT_ARG_STRING, NULL, OPT_EVENTS,
	  "comma-separated events: NAME:count[:unitmask[:kernel[:user]]]", "EVENTS" },
	{ "callgraph", 'g', POPT_ARG_NONE, &opts.callgraph, 0,
	  "record call graphs (caller/callee arcs)", NULL },
	{ "separate-thread", 't', POPT_ARG_NONE, &opts.separate_thread, 0,
	  "separate samples by process and thread (tgid, tid)", NULL },
	{ "separate-cpu", 'c', POPT_ARG_NONE, &opts.separate_cpu, 0,
	  "separate samples by cpu", NULL },
	{ "session-dir", 'd', POPT_ARG_STRING, NULL, OPT_SESSION_DIR,
	  "session directory (default ./oprofile_data)", "DIR" },
	{ "append", 'a', POPT_ARG_NONE, &opts.append, 0,
	  "add to the current profile instead of moving it to 'previous'", NULL },
	{ "vmlinux", 'k', POPT_ARG_STRING, NULL, OPT_VMLINUX,
	  "vmlinux file of the running kernel, for kernel samples", "FILE" },
	{ "slice", '\0', POPT_ARG_STRING, NULL, OPT_SLICE,
	  "also count samples per slice of time of this length (default 1 "
	  "second; 100ms, 0.5 ...; 0: none), for time: in reports", "SECONDS" },
	{ "lazy-conversion", 'l', POPT_ARG_NONE, &opts.lazy, 0,
	  "record the raw sample stream and convert it after profiling", NULL },
	{ "verbose", 'V', POPT_ARG_STRING, NULL, OPT_VERBOSE,
	  "debug output: debug, perf_events, misc, sfile, arcs or all", "LEVELS" },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	{ NULL, 'h', POPT_ARG_NONE, &opts.help, 0, "show this help and exit", NULL },
	{ "system-wide", 's', POPT_ARG_NONE, &opts.system_wide, 0,
	  "profile every process on every cpu (root or perf_event_paranoid <= 0)", NULL },
	{ "pid", 'p', POPT_ARG_INT, &opts.pid, 0,
	  "profile the running process PID and its threads", "PID" },
	{ "convert", '\0', POPT_ARG_NONE, &opts.convert, 0,
	  "convert the recording a killed --lazy-conversion run left in the "
	  "session directory", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

/*
 * Several --events add up (-e A -e B is -e A,B, as with perf); any other
 * string option given twice keeps the last.  We own the strings popt hands
 * over, so replaced ones are freed rather than leaked.
 */
static int handle_option(int val, poptContext ctx, void *data)
{
	struct operf_options *o = data;
	char *arg = poptGetOptArg(ctx), **slot;

	if (!arg)
		return op_usage_error("missing argument to an option");
	switch (val) {
	case OPT_EVENTS:
		o->events = operf_events_join(o->events, arg);
		return 0;
	case OPT_SESSION_DIR:
		slot = &o->session_dir;
		break;
	case OPT_VMLINUX:
		slot = &o->vmlinux;
		break;
	case OPT_SLICE:
		slot = &o->slice;
		break;
	default:
		slot = &o->verbose;
		break;
	}
	free(*slot);
	*slot = arg;
	return 0;
}

static void options_release(struct operf_options *o)
{
	free(o->events);
	free(o->session_dir);
	free(o->vmlinux);
	free(o->slice);
	free(o->verbose);
}


static int setup_signals(struct run *r)
{
	r->sigfd = operf_target_signalfd();
	return r->sigfd < 0 ? r->sigfd : 0;
}

/* feed one ring's data to the engine or the stream */
static void consume(struct run *r, uint32_t cpu, const void *data, size_t len)
{
	if (!len)
		return;
	r->nr_read += len;
	if (r->stream) {
		/* the replay has no live processes to ask: fixed now */
		if (r->ns && opd_ns_fix_records(r->ns, data, len, r->perf.sample_type,
						&r->ns_buf)) {
			data = r->ns_buf.buf;
			len = r->ns_buf.len;
		}
		opd_stream_write(r->stream, cpu, data, len);
	} else {
		opd_engine_queue(r->engine, cpu, data, len);
	}
}

static void end_round(struct run *r)
{
	if (r->stream)
		opd_stream_round(r->stream);
	else
		opd_engine_round(r->engine);
}

static void read_rings(struct run *r)
{
	uint64_t before = r->nr_read;
	size_t i;

	for (i = 0; i < r->perf.nr_rings; i++) {
		const void *data;
		size_t len;

		opd_perf_read(&r->perf, i, &data, &len);
		consume(r, r->perf.rings[i].cpu, data, len);
	}
	if (r->nr_read != before)
		end_round(r);
}

static int start_engine(struct run *r)
{
	struct opd_stream_id *ids;
	struct opd_stream_info info;
	size_t i;
	int ret = 0;

	opd_front_config(&r->cfg, &r->session, &r->evs, &r->perf, &r->layout,
			 r->o->vmlinux);
	r->cfg.separate_thread = r->o->separate_thread;
	r->cfg.separate_cpu = r->o->separate_cpu;
	r->cfg.callgraph = r->o->callgraph;
	r->cfg.slice_ns = operf_slice_ns(r->o);
	r->ns = opd_ns_new(NULL);
	op_strbuf_init(&r->ns_buf);
	if (!r->o->lazy) {
		r->cfg.ns = r->ns;
		r->engine = opd_front_engine(&r->cfg, &r->perf);
		return 0;
	}
	ids = op_xcalloc(r->perf.nr_ids + 1, sizeof(*ids));
	for (i = 0; i < r->perf.nr_ids; i++) {
		ids[i].id = r->perf.ids[i].id;
		ids[i].event = r->perf.ids[i].event;
	}
	info = (struct opd_stream_info){
		.sample_type = r->perf.sample_type, .nr_cpus = r->perf.nr_cpus,
		.events = r->evs.events, .nr_events = r->evs.nr,
		.ids = ids, .nr_ids = r->perf.nr_ids, .layout = r->layout.buf,
	};
	{
		struct op_strbuf sb = OP_STRBUF_INIT;

		op_strbuf_addf(&sb, "%s/operf.data", r->session.samples);
		r->stream_path = op_strbuf_detach(&sb);
		if (!r->stream_path)
			op_die(1, "out of memory");
	}
	/*
	 * What operf --convert needs if this run is killed before converting,
	 * there before the recording is
	 */
	operf_write_info(r);
	/* named operf.data once its header is written: never seen empty */
	ret = op_dir_open_file(&r->session.sdir, OPERF_DATA ".tmp",
			       O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (ret >= 0)
		ret = opd_stream_create_fd(ret, &info, &r->stream);
	if (!ret)
		ret = op_dir_rename(&r->session.sdir, OPERF_DATA ".tmp", OPERF_DATA);
	free(ids);
	if (ret)
		op_error_errno(ret, "cannot create '%s'", r->stream_path);
	return ret;
}

/*
 * The processes that existed before we started, as records at time 0;
 * for a command, the exec it is about to do.
 */
static void synthesize(struct run *r)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	if (r->target.kind == OPD_TARGET_SYSTEM)
		opd_synth_all(&sb, r->perf.sample_type);
	else if (r->target.kind == OPD_TARGET_PID)
		opd_synth_process(&sb, r->target.pid, r->perf.sample_type);
	else if (r->target.kind == OPD_TARGET_COMMAND)
		opd_synth_exec(&sb, r->child.pid, r->argv[0],
			       r->perf.sample_type);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	consume(r, 0, sb.buf, sb.len);
	op_strbuf_release(&sb);
}

/* handle pending signals; true when profiling should stop now */
static bool handle_signals(struct run *r, struct timespec *stop_by)
{
	struct signalfd_siginfo si;
	bool stop = false;

	while (read(r->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGCHLD:
			if (r->child.pid > 0 && !r->child_exited &&
			    waitpid(r->child.pid, &r->child_status, WNOHANG) == r->child.pid)
				r->child_exited = true;
			/* reap other children we may have (none expected) */
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			break;
		default:
			r->stop_asked = true;
			if (r->target.kind == OPD_TARGET_COMMAND && !r->child_exited) {
				/* let the command end first, as perf record does */
				kill(r->child.pid, (int)si.ssi_signo);
				clock_gettime(CLOCK_MONOTONIC, stop_by);
				stop_by->tv_sec += STOP_GRACE_MS / 1000;
			} else {
				stop = true;
			}
			break;
		}
	}
	if (r->child_exited)
		stop = true;
	if (stop_by->tv_sec) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > stop_by->tv_sec ||
		    (now.tv_sec == stop_by->tv_sec && now.tv_nsec >= stop_by->tv_nsec))
			stop = true;
	}
	if (r->target.kind == OPD_TARGET_PID && kill(r->target.pid, 0) && errno == ESRCH)
		stop = true;
	return stop;
}

static void profile_loop(struct run *r)
{
	size_t n = r->perf.nr_rings + 1, i;
	struct pollfd *fds = op_xcalloc(n, sizeof(*fds));
	struct timespec stop_by = { 0, 0 };

	for (i = 0; i < r->perf.nr_rings; i++) {
		fds[i].fd = r->perf.rings[i].fd;
		fds[i].events = POLLIN;
	}
	fds[n - 1].fd = r->sigfd;
	fds[n - 1].events = POLLIN;
	for (;;) {
		if (poll(fds, n, POLL_MS) < 0 && errno != EINTR)
			break;
		read_rings(r);
		if (handle_signals(r, &stop_by))
			break;
	}
	free(fds);
}

static int run_command_start(struct run *r)
{
	return operf_target_start(&r->child, r->argv[0]);
}

/*
 * operf's exit status once the profile is written: the command's, as
 * perf record gives it (128 + the signal that killed it), unless operf
 * was asked to stop (the command then got that signal from operf)
 */
static int command_status(const struct run *r)
{
	if (r->target.kind != OPD_TARGET_COMMAND || !r->child_exited || r->stop_asked)
		return 0;
	return operf_target_exit_status(r->child_status);
}

/* operf --convert takes everything but the session from the recording */
static int check_convert_usage(const struct operf_options *o, int nr_args)
{
	if (o->system_wide || o->pid || nr_args > 0)
		return op_usage_error("--convert converts a recording: give no command, "
				      "--pid or --system-wide");
	if (o->events || o->callgraph || o->separate_thread || o->separate_cpu ||
	    o->append || o->vmlinux || o->lazy || o->slice)
		return op_usage_error("--convert takes the run's options from its "
				      "recording: give only --session-dir and --verbose");
	if (o->session_dir && !*o->session_dir)
		return op_usage_error("--session-dir is empty: give a directory");
	if (o->verbose && opd_front_parse_verbose(o->verbose))
		return -1;
	return 0;
}

static int check_usage(const struct operf_options *o, int nr_args)
{
	int modes = (o->system_wide != 0) + (o->pid != 0) + (nr_args > 0);

	if (o->convert)
		return check_convert_usage(o, nr_args);
	if (modes == 0)
		return op_usage_error("nothing to profile: give a command, --pid or --system-wide");
	if (modes > 1)
		return op_usage_error("a command, --pid and --system-wide cannot be combined");
	if (o->pid < 0)
		return op_usage_error("--pid needs a positive process id");
	if (o->session_dir && !*o->session_dir)
		return op_usage_error("--session-dir is empty: give a directory");
	if (o->vmlinux && opd_front_check_vmlinux(o->vmlinux))
		return -1;
	if (o->verbose && opd_front_parse_verbose(o->verbose))
		return -1;
	if (o->slice) {
		struct op_err err = { "" };
		uint64_t ns;

		if (odb_slices_parse_length(o->slice, &ns, &err))
			return op_usage_error("--slice: %s", err.msg);
	}
	return 0;
}

static int prepare_target(struct run *r, int nr_args, const char **args)
{
	if (opts.system_wide) {
		r->target.kind = OPD_TARGET_SYSTEM;
		if (geteuid() != 0 && opd_perf_paranoid() > 0) {
			{
				op_error("--system-wide needs root or perf_event_paranoid <= 0");
				op_hint("run as root, or: echo 0 > /proc/sys/kernel/perf_event_paranoid");
				return 1;
			}
		}
	} else if (opts.pid) {
		r->target.kind = OPD_TARGET_PID;
		r->target.pid = opts.pid;
		if (kill(opts.pid, 0) && errno == ESRCH) {
			op_error("no process with pid %d", opts.pid);
			return 1;
		}
	} else {
		int i;

		r->target.kind = OPD_TARGET_COMMAND;
		r->argv = op_xcalloc((size_t)nr_args + 1, sizeof(*r->argv));
		for (i = 0; i < nr_args; i++)
			r->argv[i] = op_xstrdup(args[i]);
	}
	return 0;
}

static void run_release(struct run *r)
{
	size_t i;

	opd_engine_free(r->engine);
	opd_ns_free(r->ns);
	op_strbuf_release(&r->ns_buf);
	opd_stream_close_writer(r->stream);
	opd_stream_close(r->reader);
	opd_perf_close(&r->perf);
	operf_events_release(&r->evs);
	opd_session_release(&r->session);
	opd_front_prior_release(&r->prior);
	op_strbuf_release(&r->layout);
	free(r->stream_path);
	for (i = 0; r->argv && r->argv[i]; i++)
		free(r->argv[i]);
	free(r->argv);
	if (r->sigfd >= 0)
		close(r->sigfd);
}

static void print_help(poptContext ctx)
{
	poptPrintHelp(ctx, stdout, 0);
}

int operf_open_session(struct run *r, bool append)
{
	struct op_err err = { "" };
	int ret;

	ret = opd_session_prepare(&r->session, r->o->session_dir,
				  append ? OPD_SESSION_APPEND : 0, &err);
	if (ret) {
		op_error("%s", err.msg);
		if (ret == -EBUSY)
			op_hint("wait for it to finish, or choose another directory "
				"with --session-dir");
		else if (ret == -EPERM)
			op_hint("use a directory only you can write to (chmod go-w), "
				"or choose another with --session-dir");
		else
			op_hint("choose another directory with --session-dir");
		return 1;
	}
	if (r->session.stale_pid && r->session.stale_pid != getpid())
		op_notice("operf: notice: taking over the lock of '%s' left by process "
			  "%ld, which ended without removing it", r->session.samples,
			  (long)r->session.stale_pid);
	return 0;
}

/* everything after option parsing; returns the exit status */
static int run(struct run *r, int nr_args, const char **args)
{
	struct op_err err = { "" };
	int ret;

	op_debug_phase("start");
	ret = prepare_target(r, nr_args, args);
	if (ret)
		return ret;
	ret = operf_events_choose(&r->evs, r->o->events);
	if (ret)
		return ret;
	op_debug_phase("events chosen");
	if (r->evs.fallback)
		op_notice("operf: notice: %s; sampling with the cpu-clock software "
			  "event every %llu ns instead", r->evs.fallback_reason,
			  (unsigned long long)r->evs.events[0].period);
	if (operf_open_session(r, r->o->append))
		return 1;
	opd_time_string(r->started, sizeof(r->started));
	op_debug_phase("session checked");
	if (setup_signals(r)) {
		op_error_errno(errno, "cannot set up signal handling");
		return 1;
	}
	if (r->target.kind == OPD_TARGET_COMMAND) {
		ret = operf_target_fork(&r->child, r->argv);
		if (ret) {
			op_error_errno(ret, "cannot start '%s'", r->argv[0]);
			return 3;
		}
		r->target.pid = r->child.pid;
	}
	op_debug_phase("target forked");
	ret = opd_perf_open(&r->perf, r->evs.events, r->evs.nr, &r->target,
			    r->o->callgraph, RING_KIB, &err);
	if (ret) {
		operf_target_abort(&r->child);
		if ((ret == -EACCES || ret == -EPERM) && r->target.kind == OPD_TARGET_PID &&
		    opd_perf_task_not_ours(r->target.pid)) {
			op_error("cannot profile process %d: it is another user's, and "
				 "perf_events lets only who may trace it (ptrace) profile it",
				 (int)r->target.pid);
			op_hint("run operf as that process's user, or as root");
			return 1;
		}
		op_error("%s", err.msg);
		if (ret == -EACCES || ret == -EPERM)
			op_hint("see /proc/sys/kernel/perf_event_paranoid, or run as root");
		return 1;
	}
	if (r->perf.kernel_excluded)
		op_notice("operf: notice: kernel samples excluded "
			  "(/proc/sys/kernel/perf_event_paranoid forbids them)");
	/*
	 * The command runs from here on; its samples wait in the ring
	 * buffers while the slower set-up below (reading kallsyms, about
	 * 50 ms) overlaps with it instead of delaying its start.
	 */
	op_debug_phase("events opened");
	if (r->target.kind == OPD_TARGET_COMMAND) {
		ret = run_command_start(r);
		if (ret)
			return ret;
	}
	op_debug_phase("target started");
	if (opd_session_begin(&r->session, &err)) {
		op_error("%s", err.msg);
		if (r->target.kind == OPD_TARGET_COMMAND)
			kill(r->child.pid, SIGKILL);
		return 1;
	}
	opd_session_reserve(&r->session);
	opd_front_load_kernel(&r->session, r->o->vmlinux, &r->layout);
	if (r->o->append)
		opd_front_load_prior(&r->session, &r->prior);
	if (start_engine(r)) {
		if (r->target.kind == OPD_TARGET_COMMAND)
			kill(r->child.pid, SIGKILL);
		return 1;
	}
	synthesize(r);
	if (r->target.kind != OPD_TARGET_COMMAND && opd_perf_enable(&r->perf)) {
		op_error_errno(errno, "cannot enable the events");
		return 1;
	}
	opd_session_cleanup(&r->session);
	op_debug("profiling with %zu event(s) on %zu cpu(s), %zu perf fds",
		 r->evs.nr, r->perf.nr_rings, r->perf.nr_fds);
	op_debug_phase("profiling");
	profile_loop(r);
	op_debug_phase("target done");
	opd_perf_disable(&r->perf);
	read_rings(r);
	ret = operf_finish(r);
	op_debug_phase("finished");
	return ret ? ret : command_status(r);
}

int main(int argc, char **argv)
{
	struct run r = { .o = &opts, .sigfd = -1 };
	const char **args;
	poptContext ctx;
	int nr_args, status;

	if (op_popt_parse(&ctx, argc, argv, options_table,
			  "[--system-wide | --pid PID | command [args]]",
			  POPT_CONTEXT_POSIXMEHARDER, handle_option, &opts)) {
		options_release(&opts);
		return 2;
	}
	if (opts.help) {
		print_help(ctx);
		status = 0;
		goto out;
	}
	if (opts.version) {
		printf("operf (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out;
	}
	args = op_popt_args(ctx, &nr_args);
	if (check_usage(&opts, nr_args)) {
		status = 2;
		goto out;
	}
	status = opts.convert ? operf_convert(&r) : run(&r, nr_args, args);
	run_release(&r);
out:
	poptFreeContext(ctx);
	options_release(&opts);
	return status;
}
