// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ocount: count events, without sampling, for a command, running
 * processes or threads, some cpus or the whole system, and print the
 * totals (or the counts of each interval) in OProfile 1.4's layouts.
 *
 * A command is forked first and held on a pipe until its counters are
 * open (operf_target.h); they start counting when it execs.  Whatever
 * fails once it is forked, it is killed and reaped before ocount
 * exits: ocount never leaves it behind.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/ocount_counters.h"
#include "daemon/ocount_print.h"
#include "daemon/operf_events.h"
#include "daemon/operf_target.h"
#include "daemon/perf_events.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"

#define TICK_MS 100		/* how often tasks given are checked for */
#define STOP_GRACE_MS 2000	/* for the command to end after a signal */

struct ocount_options {
	char *events;		/* --events, several joined with ',' */
	char *process_list;
	char *thread_list;
	char *cpu_list;
	char *time_interval;
	char *output_file;
	int system_wide;
	int separate_thread;
	int separate_cpu;
	int brief;
	int verbose;
	int version;
	int help;
	/* from the strings above, by check_usage() */
	pid_t *pids;
	size_t nr_pids;
	uint32_t *cpus;
	size_t nr_cpus;
	unsigned interval_ms;	/* 0: no intervals */
	unsigned nr_intervals;	/* 0: until stopped */
};

static struct ocount_options opts;

enum { OPT_EVENTS = 1, OPT_PROCESSES, OPT_THREADS, OPT_CPUS, OPT_INTERVAL,
       OPT_OUTPUT };

static const struct poptOption options_table[] = {
	{ "events", 'e', POPT_ARG_STRING, NULL, OPT_EVENTS,
	  "comma-separated events: NAME[:unitmask[:kernel[:user]]]", "EVENTS" },
	{ "system-wide", 's', POPT_ARG_NONE, &opts.system_wide, 0,
	  "count on every cpu (root or perf_event_paranoid <= 0)", NULL },
	{ "process-list", 'p', POPT_ARG_STRING, NULL, OPT_PROCESSES,
	  "count the running processes PIDS (and their new children)", "PIDS" },
	{ "thread-list", 'r', POPT_ARG_STRING, NULL, OPT_THREADS,
	  "count the running threads TIDS (without children)", "TIDS" },
	{ "cpu-list", 'C', POPT_ARG_STRING, NULL, OPT_CPUS,
	  "count on the cpus CPUS, e.g. 0,2-3 (root or perf_event_paranoid <= 0)",
	  "CPUS" },
	{ "separate-thread", 't', POPT_ARG_NONE, &opts.separate_thread, 0,
	  "one count per thread (with --process-list or --thread-list)", NULL },
	{ "separate-cpu", 'c', POPT_ARG_NONE, &opts.separate_cpu, 0,
	  "one count per cpu (with --system-wide or --cpu-list)", NULL },
	{ "time-interval", 'i', POPT_ARG_STRING, NULL, OPT_INTERVAL,
	  "print the counts of every MS milliseconds, COUNT times at most",
	  "MS[:COUNT]" },
	{ "brief-format", 'b', POPT_ARG_NONE, &opts.brief, 0,
	  "print comma-separated lines instead of a table", NULL },
	{ "output-file", 'f', POPT_ARG_STRING, NULL, OPT_OUTPUT,
	  "write the counts to FILE instead of stdout", "FILE" },
	{ "verbose", 'V', POPT_ARG_NONE, &opts.verbose, 0,
	  "debug output on stderr", NULL },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	{ NULL, 'h', POPT_ARG_NONE, &opts.help, 0, "show this help and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

/* the state of one counting run */
struct run {
	const struct ocount_options *o;
	struct operf_events evs;
	char **labels;			/* each event as given */
	struct ocount_target target;
	struct ocount_counters counters;
	struct operf_target child;
	char **argv;			/* the command, NULL-terminated */
	int sigfd;
	bool child_exited, stop_asked;
	int child_status;
	struct timespec started;
	uint64_t counted_ns;		/* started to the end of counting */
	struct op_strbuf out;		/* the report, for --output-file */
};

/* -e A -e B is -e A,B; other strings given twice keep the last */
static int handle_option(int val, poptContext ctx, void *data)
{
	struct ocount_options *o = data;
	char *arg = poptGetOptArg(ctx), **slot;

	if (!arg)
		return op_usage_error("missing argument to an option");
	switch (val) {
	case OPT_EVENTS:
		o->events = operf_events_join(o->events, arg);
		return 0;
	case OPT_PROCESSES:
		slot = &o->process_list;
		break;
	case OPT_THREADS:
		slot = &o->thread_list;
		break;
	case OPT_CPUS:
		slot = &o->cpu_list;
		break;
	case OPT_INTERVAL:
		slot = &o->time_interval;
		break;
	default:
		slot = &o->output_file;
		break;
	}
	free(*slot);
	*slot = arg;
	return 0;
}

static void options_release(struct ocount_options *o)
{
	free(o->events);
	free(o->process_list);
	free(o->thread_list);
	free(o->cpu_list);
	free(o->time_interval);
	free(o->output_file);
	free(o->pids);
	free(o->cpus);
}

/* "12,345": the ids of --process-list or --thread-list */
static int parse_ids(const char *opt, const char *list, pid_t **ids, size_t *nr)
{
	char *copy = op_xstrdup(list), *item, *save = NULL;
	int ret = 0;

	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save)) {
		int id;

		if (op_parse_int(item, 10, 1, 0x3fffffff, &id)) {
			ret = op_usage_error("--%s: '%s' is not a process or "
					     "thread id", opt, item);
			break;
		}
		*ids = op_xreallocarray(*ids, *nr + 1, sizeof(**ids));
		(*ids)[(*nr)++] = id;
	}
	if (!ret && !*nr)
		ret = op_usage_error("--%s is empty", opt);
	free(copy);
	return ret;
}

static bool cpu_online(const uint32_t *online, size_t nr_online, uint32_t cpu)
{
	for (size_t i = 0; i < nr_online; i++)
		if (online[i] == cpu)
			return true;
	return false;
}

/* "0,2-3": --cpu-list, each cpu online */
static int parse_cpus(const char *list, uint32_t **cpus, size_t *nr)
{
	char *copy = op_xstrdup(list), *item, *save = NULL, *dash;
	size_t nr_online;
	uint32_t *online = opd_perf_online_cpus(&nr_online), a, b;
	int ret = 0;

	for (item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save)) {
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (op_parse_u32(item, 10, &a) || (dash && op_parse_u32(dash + 1, 10, &b)) ||
		    (dash && b < a) || a > 65535 || (dash && b > 65535)) {
			ret = op_usage_error("--cpu-list: bad cpu or range in '%s'", list);
			break;
		}
		for (b = dash ? b : a; a <= b && !ret; a++) {
			if (!cpu_online(online, nr_online, a)) {
				ret = op_usage_error("--cpu-list: cpu %u is not online", a);
				break;
			}
			*cpus = op_xreallocarray(*cpus, *nr + 1, sizeof(**cpus));
			(*cpus)[(*nr)++] = a;
		}
	}
	if (!ret && !*nr)
		ret = op_usage_error("--cpu-list is empty");
	free(online);
	free(copy);
	return ret;
}

/* "MS[:COUNT]" */
static int parse_interval(const char *arg, unsigned *ms, unsigned *count)
{
	char *copy = op_xstrdup(arg), *colon = strchr(copy, ':');
	int v, n = 0, ret = 0;

	if (colon)
		*colon = '\0';
	if (op_parse_int(copy, 10, 10, 86400000, &v) ||
	    (colon && op_parse_int(colon + 1, 10, 1, 0x7fffffff, &n)))
		ret = op_usage_error("--time-interval: '%s' is not MS[:COUNT] with "
				     "MS at least 10 and COUNT at least 1", arg);
	*ms = (unsigned)v;
	*count = (unsigned)n;
	free(copy);
	return ret;
}

static int check_usage(struct ocount_options *o, int nr_args)
{
	int modes = (o->system_wide != 0) + (o->process_list != NULL) +
		    (o->thread_list != NULL) + (o->cpu_list != NULL) + (nr_args > 0);

	if (modes == 0)
		return op_usage_error("nothing to count: give a command, --process-list, "
				      "--thread-list, --cpu-list or --system-wide");
	if (modes > 1)
		return op_usage_error("a command, --process-list, --thread-list, "
				      "--cpu-list and --system-wide cannot be combined");
	if (o->separate_thread && !o->process_list && !o->thread_list)
		return op_usage_error("--separate-thread needs --process-list or --thread-list");
	if (o->separate_cpu && !o->system_wide && !o->cpu_list)
		return op_usage_error("--separate-cpu needs --system-wide or --cpu-list");
	if (o->output_file && !*o->output_file)
		return op_usage_error("--output-file is empty: give a file name");
	if (o->process_list && parse_ids("process-list", o->process_list, &o->pids, &o->nr_pids))
		return -1;
	if (o->thread_list && parse_ids("thread-list", o->thread_list, &o->pids, &o->nr_pids))
		return -1;
	if (o->cpu_list && parse_cpus(o->cpu_list, &o->cpus, &o->nr_cpus))
		return -1;
	if (o->time_interval &&
	    parse_interval(o->time_interval, &o->interval_ms, &o->nr_intervals))
		return -1;
	return 0;
}

/* the --events items as written, for the report's labels */
static char **split_labels(const char *list, size_t nr)
{
	char **labels = op_xcalloc(nr, sizeof(*labels));
	size_t i;

	for (i = 0; i < nr; i++) {
		size_t len = strcspn(list, ",");

		labels[i] = op_xstrndup(list, len);
		list += len + (list[len] == ',');
	}
	return labels;
}

static int setup_signals(struct run *r)
{
	r->sigfd = operf_target_signalfd();
	return r->sigfd < 0 ? r->sigfd : 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t elapsed_ns(const struct run *r)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)(ts.tv_sec - r->started.tv_sec) * 1000000000u +
	       (uint64_t)ts.tv_nsec - (uint64_t)r->started.tv_nsec;
}

static void reap_child(struct run *r, int options)
{
	if (r->child.pid > 0 && !r->child_exited &&
	    waitpid(r->child.pid, &r->child_status, options) == r->child.pid)
		r->child_exited = true;
}

/* SIGKILL the command, if still there, and reap it */
static void kill_child(struct run *r)
{
	if (r->child.pid <= 0 || r->child_exited)
		return;
	kill(r->child.pid, SIGKILL);
	reap_child(r, 0);
}

/* does task pid still run (exists, and is no zombie)? */
static bool task_alive(pid_t pid)
{
	char path[64], *text, *paren;
	size_t len;
	bool alive;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (op_read_file(path, 4096, &text, &len))
		return false;
	/* "pid (comm) S ...": the state follows the last ')' */
	paren = strrchr(text, ')');
	alive = !paren || (paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X');
	free(text);
	return alive;
}

/* have all the processes or threads given ended? */
static bool targets_gone(const struct run *r)
{
	size_t i;

	if (r->target.mode != OCOUNT_PROCESSES && r->target.mode != OCOUNT_THREADS)
		return false;
	for (i = 0; i < r->target.nr_pids; i++)
		if (task_alive(r->target.pids[i]))
			return false;
	return true;
}

/* handle pending signals; true when counting should stop */
static bool handle_signals(struct run *r, int64_t *stop_by)
{
	struct signalfd_siginfo si;

	while (read(r->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			reap_child(r, WNOHANG);
			continue;
		}
		r->stop_asked = true;
		if (r->child.pid > 0 && !r->child_exited) {
			/* let the command end first; it may have children */
			kill(r->child.pid, (int)si.ssi_signo);
			if (!*stop_by)
				*stop_by = now_ms() + STOP_GRACE_MS;
		} else {
			return true;
		}
	}
	if (r->child.pid > 0)
		return r->child_exited || (*stop_by && now_ms() >= *stop_by);
	return false;
}

/* the rows of one dump: per event, or per event and task or cpu */
static int collect(struct run *r, bool since_last, struct ocount_row *rows,
		   size_t *nr_rows, bool separate)
{
	struct ocount_counters *cs = &r->counters;
	size_t i, n = 0, e;
	int ret;

	for (e = 0; e < cs->nr_events; e++) {
		struct ocount_row *sum = NULL;

		for (i = 0; i < cs->nr; i++) {
			struct opd_count c;

			if (cs->c[i].event_idx != e)
				continue;
			ret = ocount_counters_read(cs, i, since_last, &c);
			if (ret)
				return ret;
			if (!sum || separate) {
				sum = &rows[n++];
				memset(sum, 0, sizeof(*sum));
				sum->label = r->labels[e];
				sum->element = cs->c[i].cpu >= 0 ? cs->c[i].cpu
								 : cs->c[i].tid;
			}
			sum->count += ocount_scaled(&c);
			sum->raw.value += c.value;
			sum->raw.enabled += c.enabled;
			sum->raw.running += c.running;
			sum->scaled |= c.running < c.enabled;
		}
	}
	*nr_rows = n;
	return 0;
}

static const char *subject(const struct run *r, char *buf, size_t size)
{
	switch (r->target.mode) {
	case OCOUNT_COMMAND:
		snprintf(buf, size, "for %s:", r->argv[0]);
		return buf;
	case OCOUNT_PROCESSES:
		return "for the specified process(es):";
	case OCOUNT_THREADS:
		return "for the specified thread(s):";
	case OCOUNT_SYSTEM:
		return "for the whole system:";
	default:
		return "for the specified CPU(s):";
	}
}

/* print one dump to stdout, or keep it for --output-file */
static int dump(struct run *r, bool interval)
{
	const struct ocount_options *o = r->o;
	struct ocount_row *rows = op_xcalloc(r->counters.nr ? r->counters.nr : 1,
					     sizeof(*rows));
	struct ocount_report rep = { 0 };
	struct op_strbuf sb = OP_STRBUF_INIT;
	char buf[4096];
	int ret;

	rep.sep = o->separate_cpu ? OCOUNT_SEP_CPU :
		  o->separate_thread ? OCOUNT_SEP_THREAD : OCOUNT_SEP_NONE;
	ret = collect(r, interval, rows, &rep.nr_rows, rep.sep != OCOUNT_SEP_NONE);
	if (ret) {
		free(rows);
		return op_error_errno(ret, "cannot read the counters");
	}
	rep.rows = rows;
	rep.brief = o->brief;
	rep.interval = interval;
	rep.elapsed_ns = r->counted_ns ? r->counted_ns : elapsed_ns(r);
	rep.subject = subject(r, buf, sizeof(buf));
	if (interval)
		ocount_print_time(&sb, o->brief, o->interval_ms % 1000 != 0);
	ocount_print(&sb, &rep);
	free(rows);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	if (o->output_file) {
		op_strbuf_add(&r->out, sb.buf, sb.len);
	} else {
		fwrite(sb.buf, 1, sb.len, stdout);
		fflush(stdout);
	}
	op_strbuf_release(&sb);
	return 0;
}

/* count until the command ends, a signal, or the last interval */
static int count_loop(struct run *r)
{
	const struct ocount_options *o = r->o;
	int64_t stop_by = 0, next = o->interval_ms ? now_ms() + o->interval_ms : 0;
	unsigned nr_dumps = 0;
	struct pollfd pfd = { .fd = r->sigfd, .events = POLLIN };

	for (;;) {
		int timeout = TICK_MS;

		if (next) {
			int64_t left = next - now_ms();

			timeout = left < 0 ? 0 : left < TICK_MS ? (int)left : TICK_MS;
		}
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			return op_error_errno(errno, "poll failed");
		if (handle_signals(r, &stop_by) || targets_gone(r))
			break;
		if (next && now_ms() >= next) {
			if (dump(r, true))
				return -1;
			next += o->interval_ms;
			if (o->nr_intervals && ++nr_dumps == o->nr_intervals) {
				r->stop_asked = true;
				return 1;
			}
		}
	}
	return 0;
}

static int start_command(struct run *r)
{
	int ret = operf_target_start(&r->child, r->argv[0]);

	if (ret)
		r->child_exited = true;	/* reaped by operf_target_release() */
	return ret;
}

/*
 * Was a task given another user's, so that the kernel's ptrace check
 * refused it?  Then say so (true), not blame perf_event_paranoid.
 */
static bool other_users_task(const struct run *r)
{
	size_t i;

	if (r->target.mode != OCOUNT_PROCESSES && r->target.mode != OCOUNT_THREADS)
		return false;
	for (i = 0; i < r->target.nr_pids; i++) {
		if (opd_perf_task_not_ours(r->target.pids[i])) {
			op_error("cannot count task %d: it is another user's, and "
				 "perf_events lets only who may trace it (ptrace) count it",
				 (int)r->target.pids[i]);
			op_hint("run ocount as that user, or as root");
			return true;
		}
	}
	return false;
}

static int open_counters(struct run *r)
{
	struct op_err err = { "" };
	int ret;

	ret = ocount_counters_open(&r->counters, r->evs.events, r->evs.nr,
				   &r->target, &err);
	if (ret) {
		if ((ret == -EACCES || ret == -EPERM) && other_users_task(r))
			return 1;
		op_error("%s", err.msg);
		if (ret == -EACCES || ret == -EPERM) {
			if (r->target.mode == OCOUNT_SYSTEM || r->target.mode == OCOUNT_CPUS)
				op_hint("counting whole cpus needs root or "
					"/proc/sys/kernel/perf_event_paranoid <= 0");
			else
				op_hint("see /proc/sys/kernel/perf_event_paranoid, or "
					"run as root (or as the user of the tasks)");
		}
		return 1;
	}
	op_debug("counting %zu event(s) with %zu counter(s)", r->evs.nr,
		 r->counters.nr);
	if (r->counters.kernel_excluded)
		op_notice("ocount: notice: counting in user mode only "
			  "(/proc/sys/kernel/perf_event_paranoid forbids kernel mode)");
	return 0;
}

static int set_target(struct run *r, int nr_args, const char **args)
{
	const struct ocount_options *o = r->o;
	int i;

	if (nr_args > 0) {
		r->argv = op_xcalloc((size_t)nr_args + 1, sizeof(*r->argv));
		for (i = 0; i < nr_args; i++)
			r->argv[i] = op_xstrdup(args[i]);
		r->target.mode = OCOUNT_COMMAND;
		return 0;
	}
	r->target.pids = o->pids;
	r->target.nr_pids = o->nr_pids;
	if (o->process_list)
		r->target.mode = OCOUNT_PROCESSES;
	else if (o->thread_list)
		r->target.mode = OCOUNT_THREADS;
	else if (o->cpu_list)
		r->target.mode = OCOUNT_CPUS;
	else
		r->target.mode = OCOUNT_SYSTEM;
	if (r->target.mode == OCOUNT_CPUS) {
		r->target.cpus = o->cpus;
		r->target.nr_cpus = o->nr_cpus;
	} else if (r->target.mode == OCOUNT_SYSTEM) {
		r->target.cpus = opd_perf_online_cpus(&r->target.nr_cpus);
	}
	return 0;
}

/*
 * ocount's exit status after counting: the command's, as operf and
 * perf stat give it (128 + the signal that killed it), unless ocount
 * stopped it (a signal to ocount, or the last interval)
 */
static int command_status(const struct run *r)
{
	if (r->target.mode != OCOUNT_COMMAND || !r->child_exited || r->stop_asked)
		return 0;
	return operf_target_exit_status(r->child_status);
}

/* from the counters being open to the last dump; the exit status */
static int count(struct run *r)
{
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &r->started);
	if (r->target.mode == OCOUNT_COMMAND) {
		ret = start_command(r);
		if (ret)
			return ret;
	} else {
		op_notice("ocount: press Ctrl-C or run 'kill -INT %d' to stop counting",
			  (int)getpid());
	}
	ret = count_loop(r);
	r->counted_ns = elapsed_ns(r);
	/* the last interval, or an error: the command goes too */
	kill_child(r);
	if (ret < 0)
		return 1;
	if (!r->o->interval_ms && dump(r, false))
		return 1;
	if (r->o->interval_ms && ret == 0 && dump(r, true))
		return 1;
	if (r->o->output_file) {
		if (op_strbuf_failed(&r->out))
			op_die(1, "out of memory");
		ret = op_write_file_atomic(r->o->output_file, r->out.buf, r->out.len,
					   0644);
		if (ret) {
			op_error_errno(ret, "cannot write '%s'", r->o->output_file);
			return 1;
		}
	}
	return command_status(r);
}

/*
 * Can --output-file be written at the end (its directory writable, it
 * no directory)?  Checked before anything starts, so a command is not
 * run for counts that would be lost.
 */
static int check_output(const char *path)
{
	char *dir = op_xstrdup(path), *slash = strrchr(dir, '/');
	const char *d = ".";
	int ret = 0;

	if (slash) {
		slash[slash == dir] = '\0';
		d = dir;
	}
	if (op_is_dir(path)) {
		op_error("cannot write '%s': it is a directory", path);
		ret = 1;
	} else if (access(d, W_OK | X_OK)) {
		op_error_errno(errno, "cannot write '%s' in '%s'", path, d);
		ret = 1;
	}
	free(dir);
	return ret;
}

static int run(struct run *r, int nr_args, const char **args)
{
	int ret;

	if (r->o->output_file && check_output(r->o->output_file))
		return 1;
	set_target(r, nr_args, args);
	ret = operf_events_choose_counting(&r->evs, r->o->events);
	if (ret)
		return ret;
	if (r->evs.fallback)
		op_notice("ocount: notice: %s; counting the cpu-clock software "
			  "event instead", r->evs.fallback_reason);
	r->labels = r->o->events ? split_labels(r->o->events, r->evs.nr)
				 : split_labels(r->evs.events[0].name, 1);
	if (setup_signals(r)) {
		op_error_errno(errno, "cannot set up signal handling");
		return 1;
	}
	if (r->target.mode == OCOUNT_COMMAND) {
		ret = operf_target_fork(&r->child, r->argv);
		if (ret) {
			op_error_errno(ret, "cannot start '%s'", r->argv[0]);
			return 3;
		}
		r->target.pids = &r->child.pid;
		r->target.nr_pids = 1;
	}
	/* from here on, every way out kills and reaps the command */
	ret = open_counters(r);
	if (ret) {
		operf_target_abort(&r->child);
		return ret;
	}
	ret = count(r);
	kill_child(r);
	return ret;
}

static void run_release(struct run *r)
{
	size_t i;

	ocount_counters_close(&r->counters);
	for (i = 0; r->labels && i < r->evs.nr; i++)
		free(r->labels[i]);
	free(r->labels);
	operf_events_release(&r->evs);
	for (i = 0; r->argv && r->argv[i]; i++)
		free(r->argv[i]);
	free(r->argv);
	if (r->target.mode == OCOUNT_SYSTEM)
		free((void *)r->target.cpus);
	if (r->sigfd >= 0)
		close(r->sigfd);
	op_strbuf_release(&r->out);
}

int main(int argc, char **argv)
{
	struct run r = { .o = &opts, .sigfd = -1, .child = { .pid = -1 },
			 .out = OP_STRBUF_INIT };
	const char **args;
	poptContext ctx;
	int nr_args, status;

	if (op_popt_parse(&ctx, argc, argv, options_table,
			  "[--system-wide | --process-list PIDS | --thread-list TIDS | "
			  "--cpu-list CPUS | command [args]]",
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
		printf("ocount (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out;
	}
	if (opts.verbose)
		op_msg_set_level(OP_MSG_VERBOSE);
	args = op_popt_args(ctx, &nr_args);
	if (check_usage(&opts, nr_args)) {
		status = 2;
		goto out;
	}
	status = run(&r, nr_args, args);
	run_release(&r);
out:
	poptFreeContext(ctx);
	options_release(&opts);
	return status;
}
