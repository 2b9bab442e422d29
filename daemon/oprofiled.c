// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oprofiled: the system-wide profiling daemon that opcontrol starts and
 * drives.  Every process on every cpu, with the engine and sample files
 * of operf, for as long as it runs; reports can be taken at any moment
 * (opcontrol --dump).
 *
 *   oprofiled [--session-dir DIR] [--start] [--no-daemon] [--verbose LEVELS]
 *
 * The setup comes from SESSION/daemonrc (opcontrol writes it).  Without
 * --no-daemon it detaches, and returns once the daemon is ready (status
 * 0) or has failed (its message printed, status 1).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/opd_ctl.h"
#include "daemon/opd_synth.h"
#include "daemon/oprofiled.h"
#include "libdb/odb_session_info.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"

#define RING_KIB 1024		/* per-cpu ring buffer by default */
#define CG_RING_KIB 4096	/* the same with call graphs (bigger samples) */
#define MIN_RING_KIB 8
#define MAX_RING_KIB (64 * 1024)
#define SAMPLE_BYTES 64		/* a sample record and its share of others */

static struct oprofiled_options opts;

enum { OPT_SESSION_DIR = 1, OPT_VERBOSE };

static const struct poptOption options_table[] = {
	{ "session-dir", '\0', POPT_ARG_STRING, NULL, OPT_SESSION_DIR,
	  "session directory (default " OPROFILED_DEFAULT_DIR ")", "DIR" },
	{ "start", 's', POPT_ARG_NONE, &opts.start, 0,
	  "start profiling at once (else at opcontrol --start)", NULL },
	{ "no-daemon", 'n', POPT_ARG_NONE, &opts.no_daemon, 0,
	  "stay in the foreground, logging to stderr (for systemd)", NULL },
	{ "verbose", 'V', POPT_ARG_STRING, NULL, OPT_VERBOSE,
	  "debug output in the log: debug, perf_events, misc, sfile, arcs or all",
	  "LEVELS" },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	{ NULL, 'h', POPT_ARG_NONE, &opts.help, 0, "show this help and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

/* string options: a later one replaces an earlier one (which is freed) */
static int handle_option(int val, poptContext ctx, void *data)
{
	struct oprofiled_options *o = data;
	char *arg = poptGetOptArg(ctx), **slot;

	if (!arg)
		return op_usage_error("missing argument to an option");
	slot = val == OPT_SESSION_DIR ? &o->session_dir : &o->verbose;
	free(*slot);
	*slot = arg;
	return 0;
}

static void options_release(struct oprofiled_options *o)
{
	free(o->session_dir);
	free(o->verbose);
}

static int check_usage(const struct oprofiled_options *o, int nr_args)
{
	if (nr_args)
		return op_usage_error("oprofiled takes no arguments (its setup is in "
				      "SESSION/daemonrc: see opcontrol)");
	if (o->session_dir && !*o->session_dir)
		return op_usage_error("--session-dir is empty: give a directory");
	if (o->session_dir && o->session_dir[0] != '/')
		return op_usage_error("--session-dir must be an absolute path (the "
				      "daemon runs in its session directory)");
	if (o->verbose && opd_front_parse_verbose(o->verbose))
		return -1;
	return 0;
}

void oprofiled_log(const char *fmt, ...)
{
	char now[64];
	va_list ap;

	opd_time_string(now, sizeof(now));
	fprintf(stderr, "[%s] ", now);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

uint64_t oprofiled_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* every fd but 0, 1, 2 and keep: a daemon holds only what it opens */
static void close_inherited(int keep)
{
	int fd;

	if (keep < 0) {
		if (!syscall(SYS_close_range, 3u, ~0u, 0u))
			return;
	}
	for (fd = 3; fd < 1024; fd++)
		if (fd != keep)
			close(fd);
}

/*
 * Detach: the caller's process waits on a pipe until the daemon says it
 * is ready (or dies), and exits with the daemon's verdict; the daemon
 * runs in a new session, a grandchild that no terminal can reach.
 * Returns the pipe's write end in the daemon; never returns in the
 * caller.
 */
static int daemonize(void)
{
	int pfd[2];
	pid_t pid;
	ssize_t n;
	char c = 0;

	if (pipe2(pfd, O_CLOEXEC))
		op_die(1, "cannot create a pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		op_die(1, "cannot fork: %s", strerror(errno));
	if (pid > 0) {
		close(pfd[1]);
		waitpid(pid, NULL, 0);
		/* one byte: ready; end of file: the daemon failed (it said why) */
		do
			n = read(pfd[0], &c, 1);
		while (n < 0 && errno == EINTR);
		_exit(n == 1 && c == 'R' ? 0 : 1);
	}
	close(pfd[0]);
	if (setsid() < 0)
		op_die(1, "cannot start a new session: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		op_die(1, "cannot fork: %s", strerror(errno));
	if (pid > 0)
		_exit(0);
	return pfd[1];
}

/*
 * Ready: from now on stdout and stderr go to the log, stdin is
 * /dev/null, and the waiting caller is told (ready_fd, -1 in the
 * foreground)
 */
static int become_ready(struct daemon *d, int ready_fd)
{
	int log, null;

	if (ready_fd < 0)
		return 0;
	log = op_dir_open_file(&d->session.sdir, OPROFILED_LOG,
			       O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (log < 0)
		return op_error_errno(log, "cannot open '%s/" OPROFILED_LOG "'",
				      d->session.samples);
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0)
		return op_error_errno(-errno, "cannot redirect to the log");
	close(null);
	close(log);
	if (write(ready_fd, "R", 1) != 1)
		return -1;
	close(ready_fd);
	return 0;
}

/* ring KiB per cpu from --cpu-buffer-size or --buffer-size (samples) */
static unsigned ring_kib(const struct odb_setup *setup, uint32_t nr_cpus)
{
	uint64_t bytes;

	if (setup->cpu_buffer_size)
		bytes = setup->cpu_buffer_size * SAMPLE_BYTES;
	else if (setup->buffer_size)
		bytes = setup->buffer_size * SAMPLE_BYTES / (nr_cpus ? nr_cpus : 1);
	else
		return setup->callgraph ? CG_RING_KIB : RING_KIB;
	bytes /= 1024;
	if (bytes < MIN_RING_KIB)
		return MIN_RING_KIB;
	return bytes > MAX_RING_KIB ? MAX_RING_KIB : (unsigned)bytes;
}

static int open_session(struct daemon *d, const char *dir)
{
	struct op_err err = { "" };
	struct stat st;
	int ret;

	/* a daemon always adds to current/: a restart continues its profile */
	ret = opd_session_prepare(&d->session, dir,
				  OPD_SESSION_APPEND | OPD_SESSION_PRIVATE, &err);
	if (ret) {
		op_error("%s", err.msg);
		if (ret == -EBUSY)
			op_hint("is a daemon or operf running there?  'opcontrol --status "
				"--session-dir=%s' says", dir);
		else if (ret == -EPERM)
			op_hint("use a directory of your own, not a symlink, that only "
				"you can write to");
		return 1;
	}
	/* the setup is its own user's (or root's), never a planted one */
	if (!op_dir_stat(&d->session.top, ODB_SETUP_FILE, &st) && st.st_uid != geteuid() &&
	    st.st_uid != 0) {
		op_error("'%s/" ODB_SETUP_FILE "' belongs to another user (uid %lu): "
			 "not read", dir, (unsigned long)st.st_uid);
		op_hint("remove it, and set up again with opcontrol");
		return 1;
	}
	ret = odb_setup_read(dir, &d->setup, &err);
	if (ret && ret != -ENOENT) {
		op_error("cannot read '%s/" ODB_SETUP_FILE "': %s", dir, err.msg);
		op_hint("set it up again with opcontrol --setup");
		return 1;
	}
	return 0;
}

static int open_events(struct daemon *d)
{
	struct opd_target system = { .kind = OPD_TARGET_SYSTEM };
	struct op_err err = { "" };
	int ret;

	ret = operf_events_choose(&d->evs, d->setup.events);
	if (ret)
		return 1;
	if (d->setup.callgraph) {
		unsigned max = opd_perf_max_stack();

		d->perf.max_stack = d->setup.callgraph < max ? d->setup.callgraph : max;
	}
	d->ring_kib = ring_kib(&d->setup, opd_perf_nr_cpus());
	ret = opd_perf_open(&d->perf, d->evs.events, d->evs.nr, &system,
			    d->setup.callgraph > 0, d->ring_kib, &err);
	if (ret) {
		op_error("%s", err.msg);
		if (ret == -EACCES || ret == -EPERM)
			op_hint("see /proc/sys/kernel/perf_event_paranoid, or run as root");
		return 1;
	}
	return 0;
}

/* in the log, not on the terminal of who started it */
static void log_start(const struct daemon *d)
{
	oprofiled_log("oprofiled %s started, pid %ld: %zu event(s) on %zu cpu(s), "
		      "session %s, profiling %s", PACKAGE_VERSION, (long)getpid(),
		      d->evs.nr, d->perf.nr_rings, d->session.dir,
		      d->profiling ? "started" : "not started (opcontrol --start)");
	if (d->session.stale_pid)
		oprofiled_log("taking over the lock of '%s' left by process %ld, which "
			      "ended without removing it; continuing its samples",
			      d->session.samples, (long)d->session.stale_pid);
	if (d->evs.fallback)
		oprofiled_log("%s; sampling with the cpu-clock software event every "
			      "%llu ns instead", d->evs.fallback_reason,
			      (unsigned long long)d->evs.events[0].period);
	if (d->perf.kernel_excluded)
		oprofiled_log("kernel samples excluded "
			      "(/proc/sys/kernel/perf_event_paranoid forbids them)");
}

void oprofiled_synthesize(struct daemon *d)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	opd_synth_all(&sb, d->perf.sample_type);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	if (sb.len)
		opd_engine_queue(d->engine, 0, sb.buf, sb.len);
	opd_engine_round(d->engine);
	op_strbuf_release(&sb);
}

static int start_engine(struct daemon *d)
{
	struct op_err err = { "" };
	const char *vmlinux = d->setup.no_vmlinux ? NULL : d->setup.vmlinux;

	if (opd_session_begin(&d->session, &err)) {
		op_error("%s", err.msg);
		return 1;
	}
	opd_front_load_prior(&d->session, &d->prior);
	opd_session_reserve(&d->session);
	opd_front_load_kernel(&d->session, vmlinux, &d->layout);
	opd_front_config(&d->cfg, &d->session, &d->evs, &d->perf, &d->layout, vmlinux);
	d->cfg.separate_thread = d->setup.separate & ODB_SEPARATE_THREAD;
	d->cfg.separate_cpu = d->setup.separate & ODB_SEPARATE_CPU;
	d->cfg.callgraph = d->setup.callgraph > 0;
	d->cfg.slice_ns = odb_setup_slice_ns(&d->setup);
	d->cfg.images = (const char *const *)d->setup.images;
	d->cfg.nr_images = d->setup.nr_images;
	/* containers: their binaries named as this (the host's) namespace sees them */
	d->ns = opd_ns_new(NULL);
	d->cfg.ns = d->ns;
	d->engine = opd_front_engine(&d->cfg, &d->perf);
	oprofiled_synthesize(d);
	opd_session_cleanup(&d->session);
	return 0;
}

static int setup_signals(struct daemon *d)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	d->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return d->sigfd < 0 ? -errno : 0;
}

/* root, or a user perf_event_paranoid lets profile every cpu */
static int check_permission(void)
{
	if (geteuid() == 0 || opd_perf_paranoid() <= 0)
		return 0;
	op_error("the daemon profiles every process: it needs root, or "
		 "perf_event_paranoid <= 0 for another user");
	op_hint("run it as root (sudo opcontrol --start), or: "
		"echo 0 > /proc/sys/kernel/perf_event_paranoid");
	return 1;
}

static int start(struct daemon *d)
{
	const char *dir = d->o->session_dir ? d->o->session_dir : OPROFILED_DEFAULT_DIR;
	int ready_fd = -1, ret;

	if (check_permission())
		return 1;
	umask(077);
	/* nothing of whoever started it but stdin, stdout and stderr */
	close_inherited(-1);
	if (!d->o->no_daemon)
		ready_fd = daemonize();
	if (open_session(d, dir) || open_events(d))
		return 1;
	if (setup_signals(d)) {
		op_error_errno(-errno, "cannot set up signal handling");
		return 1;
	}
	if (chdir(d->session.dir))
		op_warning("cannot change into '%s': %s", d->session.dir, strerror(errno));
	opd_time_string(d->started, sizeof(d->started));
	d->start_time = time(NULL);
	if (start_engine(d))
		return 1;
	d->listen_fd = opd_ctl_listen(&d->session.top);
	if (d->listen_fd < 0) {
		op_error_errno(d->listen_fd, "cannot listen on '%s/" OPD_CTL_SOCKET "'",
			       d->session.dir);
		return 1;
	}
	if (d->o->start) {
		if (opd_perf_enable(&d->perf)) {
			op_error_errno(-errno, "cannot enable the events");
			return 1;
		}
		d->profiling = true;
	}
	oprofiled_write_files(d, true);
	ret = become_ready(d, ready_fd);
	if (ret)
		return 1;
	log_start(d);
	return oprofiled_loop(d);
}

static void daemon_release(struct daemon *d)
{
	if (d->listen_fd >= 0) {
		close(d->listen_fd);
		if (d->session.top.fd >= 0)
			opd_ctl_unlink(&d->session.top);
	}
	opd_engine_free(d->engine);
	opd_ns_free(d->ns);
	opd_perf_close(&d->perf);
	operf_events_release(&d->evs);
	opd_front_prior_release(&d->prior);
	opd_session_release(&d->session);
	op_strbuf_release(&d->layout);
	odb_setup_release(&d->setup);
	if (d->sigfd >= 0)
		close(d->sigfd);
}

int main(int argc, char **argv)
{
	struct daemon d = { .o = &opts, .sigfd = -1, .listen_fd = -1 };
	poptContext ctx;
	int nr_args, status;

	if (op_popt_parse(&ctx, argc, argv, options_table, "",
			  POPT_CONTEXT_POSIXMEHARDER, handle_option, &opts)) {
		options_release(&opts);
		return 2;
	}
	if (opts.help) {
		poptPrintHelp(ctx, stdout, 0);
		status = 0;
		goto out;
	}
	if (opts.version) {
		printf("oprofiled (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out;
	}
	op_popt_args(ctx, &nr_args);
	if (check_usage(&opts, nr_args)) {
		status = 2;
		goto out;
	}
	status = start(&d);
	daemon_release(&d);
out:
	poptFreeContext(ctx);
	options_release(&opts);
	return status;
}
