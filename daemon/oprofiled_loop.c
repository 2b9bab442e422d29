// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oprofiled's main loop (oprofiled.h): the rings read into the engine,
 * signals, the periodic work (syncs, the session's files, cpus coming
 * online) and opcontrol's requests on the control socket.
 */
#include "config.h"

#include <dirent.h>
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
#include <time.h>
#include <unistd.h>

#include "daemon/opd_ctl.h"
#include "daemon/oprofiled.h"
#include "libdb/odb.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_setup.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"

#define POLL_MS 100		/* longest wait between read rounds */
#define CPUS_MS 1000		/* cpus online looked at */
#define SYNC_MS 5000		/* sample files written back */
#define FILES_MS 10000		/* stats, comms, ... rewritten */

void oprofiled_read_rings(struct daemon *d)
{
	uint64_t before = d->nr_read;
	size_t i;

	for (i = 0; i < d->perf.nr_rings; i++) {
		const void *data;
		size_t len;

		opd_perf_read(&d->perf, i, &data, &len);
		if (!len)
			continue;
		d->nr_read += len;
		opd_engine_queue(d->engine, d->perf.rings[i].cpu, data, len);
	}
	if (d->nr_read != before)
		opd_engine_round(d->engine);
}

static void write_info(struct daemon *d)
{
	struct odb_session_info info = {
		.started = op_xstrdup(d->started),
		.target = ODB_TARGET_SYSTEM,
		.separate_thread = d->cfg.separate_thread,
		.separate_cpu = d->cfg.separate_cpu,
		.callgraph = d->cfg.callgraph,
		.slice_ns = d->cfg.slice_ns,
	};
	int ret;

	info.tool = op_xstrdup("oprofiled " PACKAGE_VERSION);
	opd_front_info_events(&d->evs, &d->perf, &info);
	if (d->cfg.vmlinux)
		info.vmlinux = op_xstrdup(d->cfg.vmlinux);
	ret = odb_session_info_write(&d->session.cdir, &info);
	if (ret) {
		oprofiled_log("cannot write '%s/session.info': %s", d->session.current,
			      odb_strerror(ret));
		d->write_errors++;
	}
	odb_session_info_release(&info);
}

/* a sample file that could not be written: logged once, with the reason */
static void log_sample_errors(struct daemon *d)
{
	const char *path;
	int err = opd_engine_first_error(d->engine, &path);
	uint64_t dropped;

	if (err && err != d->last_error)
		oprofiled_log("cannot write sample file '%s': %s (its samples are "
			      "counted as lost; profiling goes on)", path,
			      odb_strerror(err));
	d->last_error = err;
	err = opd_engine_slices_error(d->engine, &dropped);
	if (err && err != d->last_slices_error)
		oprofiled_log("cannot write the time slices: %s (the sample files "
			      "are not affected)", odb_strerror(err));
	d->last_slices_error = err;
	if (dropped > d->slices_dropped)
		oprofiled_log("%llu samples not counted in time slices: the slice file "
			      "is at its size limit", (unsigned long long)dropped);
	d->slices_dropped = dropped;
}

void oprofiled_write_files(struct daemon *d, bool all)
{
	/* the room kept on a full disk is for these */
	opd_session_unreserve(&d->session);
	opd_front_write_files(&d->session, d->engine, &d->evs, &d->prior, &d->written,
			      all);
	if (all)
		write_info(d);
	opd_session_reserve(&d->session);
	log_sample_errors(d);
}

/* the rings read and every record processed: the files are up to date */
static void dump(struct daemon *d)
{
	oprofiled_read_rings(d);
	opd_engine_flush(d->engine);
	/* written back too; after a full disk, new files are tried again */
	opd_engine_sync(d->engine);
	oprofiled_write_files(d, true);
	d->nr_dumps++;
}

/*
 * SIGHUP or --reset: (re)open the log the daemon's stderr goes to; false
 * in the foreground, where stderr is whoever started it (the journal)
 */
static bool reopen_log(struct daemon *d, bool rotate)
{
	int fd;

	if (d->o->no_daemon)
		return false;
	if (rotate)
		op_dir_rename(&d->session.sdir, OPROFILED_LOG, OPROFILED_LOG ".1");
	fd = op_dir_open_file(&d->session.sdir, OPROFILED_LOG,
			      O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd < 0) {
		oprofiled_log("cannot reopen '%s/" OPROFILED_LOG "': %s",
			      d->session.samples, strerror(-fd));
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	return true;
}

/* after the files were closed: a fresh current/ gets the kernel copies */
static void refill_current(struct daemon *d)
{
	opd_front_prior_release(&d->prior);
	memset(&d->written, 0, sizeof(d->written));
	opd_front_store_kernel(&d->session);
	oprofiled_write_files(d, true);
}

static void cmd_reset(struct daemon *d, struct op_strbuf *out)
{
	int ret;

	oprofiled_read_rings(d);
	opd_engine_flush(d->engine);
	opd_engine_close_files(d->engine, true);
	ret = op_dir_remove_contents(&d->session.cdir);
	reopen_log(d, true);
	refill_current(d);
	if (ret) {
		op_strbuf_addf(out, "error: cannot empty '%s': %s\n", d->session.current,
			       strerror(-ret));
		return;
	}
	oprofiled_log("samples reset");
	op_strbuf_addstr(out, "ok\n");
}

static void cmd_save(struct daemon *d, const char *name, struct op_strbuf *out)
{
	struct op_err err = { "" };
	const char *bad = opd_ctl_bad_session_name(name);
	struct stat st;
	int ret;

	if (bad) {
		op_strbuf_addf(out, "error: %s\n", bad);
		return;
	}
	if (!op_dir_stat(&d->session.sdir, name, &st)) {
		op_strbuf_addf(out, "error: session '%s' exists already in '%s'\n"
			       "hint: choose another name, or remove '%s/%s'\n", name,
			       d->session.samples, d->session.samples, name);
		return;
	}
	dump(d);
	opd_engine_close_files(d->engine, true);
	ret = op_dir_rename(&d->session.sdir, "current", name);
	if (ret) {
		op_strbuf_addf(out, "error: cannot move '%s' to '%s/%s': %s\n",
			       d->session.current, d->session.samples, name,
			       strerror(-ret));
		/* the samples stay in current/ and go on there */
		return;
	}
	ret = opd_session_renew_current(&d->session, &err);
	if (ret) {
		oprofiled_log("%s: samples are lost until it can be made", err.msg);
		op_strbuf_addf(out, "error: saved as '%s', but %s\n", name, err.msg);
		return;
	}
	refill_current(d);
	oprofiled_log("current samples saved as '%s'", name);
	op_strbuf_addf(out, "notice: saved in '%s/%s': report with opreport "
		       "session:%s --session-dir=%s%s\nok\n", d->session.samples, name,
		       name, d->session.dir,
		       d->cfg.separate_thread ? " --merge=tgid,tid (or tgid:/tid:)" : "");
}

static void cmd_start(struct daemon *d, struct op_strbuf *out)
{
	if (d->profiling) {
		op_strbuf_addstr(out, "notice: profiling is running already\nok\n");
		return;
	}
	if (d->resynth) {
		/* processes that started while stopped were not followed */
		oprofiled_synthesize(d);
		d->resynth = false;
	}
	if (opd_perf_enable(&d->perf)) {
		op_strbuf_addf(out, "error: cannot enable the events: %s\n", strerror(errno));
		return;
	}
	d->profiling = true;
	oprofiled_log("profiling started");
	op_strbuf_addstr(out, "ok\n");
}

static void cmd_stop(struct daemon *d, struct op_strbuf *out)
{
	if (!d->profiling) {
		op_strbuf_addstr(out, "notice: profiling is stopped already\nok\n");
		return;
	}
	opd_perf_disable(&d->perf);
	d->profiling = false;
	d->resynth = true;
	dump(d);
	oprofiled_log("profiling stopped");
	op_strbuf_addstr(out, "ok\n");
}

/* bytes of the files beneath dir (an fd we own), not following links */
static uint64_t disk_used(int dirfd, int depth)
{
	DIR *dir;
	struct dirent *de;
	uint64_t sum = 0;
	int fd = dup(dirfd);

	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* the copy shares dirfd's position, where an earlier listing ended */
	rewinddir(dir);
	while ((de = readdir(dir))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		sum += (uint64_t)st.st_blocks * 512;
		if (S_ISDIR(st.st_mode) && depth < 64) {
			int sub = openat(dirfd, de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (sub >= 0) {
				sum += disk_used(sub, depth + 1);
				close(sub);
			}
		}
	}
	closedir(dir);
	return sum;
}

static void cmd_status(struct daemon *d, struct op_strbuf *out)
{
	const struct opd_stats *st = opd_engine_stats(d->engine);
	struct op_strbuf lost = OP_STRBUF_INIT;
	struct odb_stats ost;
	time_t up = time(NULL) - d->start_time;
	size_t i;

	oprofiled_read_rings(d);
	opd_stats_to_odb(st, &ost);
	op_strbuf_addf(out, "Daemon running: pid %ld, up %ld:%02ld:%02ld (since %s)\n",
		       (long)getpid(), (long)(up / 3600), (long)(up / 60 % 60),
		       (long)(up % 60), d->started);
	op_strbuf_addf(out, "Profiling: %s\n", d->profiling ? "running" : "stopped");
	op_strbuf_addf(out, "Session directory: %s\n", d->session.dir);
	op_strbuf_addstr(out, "Events:");
	for (i = 0; i < d->evs.nr; i++)
		op_strbuf_addf(out, " %s:%llu", d->evs.events[i].name,
			       (unsigned long long)d->evs.events[i].period);
	if (d->evs.fallback)
		op_strbuf_addstr(out, " (no hardware PMU: the cpu-clock software event)");
	op_strbuf_addstr(out, "\nSeparate: ");
	odb_setup_separate_text(d->setup.separate, out);
	op_strbuf_addf(out, "\nCall graph depth: %u\n", d->setup.callgraph);
	odb_setup_slice_text(odb_setup_slice_ns(&d->setup), out);
	op_strbuf_addf(out, "Kernel: %s\n", d->perf.kernel_excluded ?
		       "excluded (perf_event_paranoid)" : d->cfg.vmlinux ? d->cfg.vmlinux :
		       "no vmlinux (symbols from /proc/kallsyms)");
	op_strbuf_addstr(out, "Images:");
	for (i = 0; i < d->setup.nr_images; i++)
		op_strbuf_addf(out, " %s", d->setup.images[i]);
	op_strbuf_addf(out, "%s\n", d->setup.nr_images ? "" : " all");
	/* as mapped: a power of two of pages, less under a locked-memory limit */
	op_strbuf_addf(out, "CPUs: %zu, ring buffer %zu KiB each\n", d->perf.nr_rings,
		       d->perf.nr_rings ? d->perf.rings[0].data_size / 1024 : 0);
	op_strbuf_addf(out, "Samples received: %llu\n",
		       (unsigned long long)st->count[OPD_STAT_SAMPLES]);
	op_strbuf_addf(out, "Samples written: %llu\n",
		       (unsigned long long)st->count[OPD_STAT_STORED]);
	if (st->count[OPD_STAT_NOT_SELECTED])
		op_strbuf_addf(out, "Samples left out (not of --image): %llu\n",
			       (unsigned long long)st->count[OPD_STAT_NOT_SELECTED]);
	if (odb_stats_describe_lost(&ost, &lost))
		op_die(1, "out of memory");
	op_strbuf_addf(out, "Samples lost: %llu%s%s\n",
		       (unsigned long long)odb_stats_lost_samples(&ost),
		       odb_stats_lost_samples(&ost) ? ": " : "",
		       odb_stats_lost_samples(&ost) ? lost.buf : "");
	op_strbuf_release(&lost);
	if (opd_ns_stats(d->ns)->foreign)
		op_strbuf_addf(out, "Mappings of other mount namespaces: %llu, %llu named "
			       "by their path here, %llu not found here\n",
			       (unsigned long long)opd_ns_stats(d->ns)->foreign,
			       (unsigned long long)opd_ns_stats(d->ns)->renamed,
			       (unsigned long long)opd_ns_stats(d->ns)->unresolved);
	op_strbuf_addf(out, "Sample files: %zu made, %u open\n",
		       opd_engine_nr_files(d->engine), opd_engine_nr_open(d->engine));
	op_strbuf_addf(out, "Disk used: %llu KiB in %s\n",
		       (unsigned long long)(disk_used(d->session.cdir.fd, 0) / 1024),
		       d->session.current);
	op_strbuf_addf(out, "Dumps: %llu\nok\n", (unsigned long long)d->nr_dumps);
}

void oprofiled_command(struct daemon *d, const char *req, struct op_strbuf *out)
{
	if (!strcmp(req, "dump")) {
		dump(d);
		op_strbuf_addstr(out, "ok\n");
	} else if (!strcmp(req, "status")) {
		cmd_status(d, out);
	} else if (!strcmp(req, "start")) {
		cmd_start(d, out);
	} else if (!strcmp(req, "stop")) {
		cmd_stop(d, out);
	} else if (!strcmp(req, "reset")) {
		cmd_reset(d, out);
	} else if (!strncmp(req, "save ", 5)) {
		cmd_save(d, req + 5, out);
	} else if (!strcmp(req, "shutdown")) {
		if (d->profiling)
			opd_perf_disable(&d->perf);
		d->profiling = false;
		dump(d);
		d->quit = true;
		op_strbuf_addf(out, "pid %ld\nok\n", (long)getpid());
	} else {
		op_strbuf_addf(out, "error: unknown request '%.64s'\n", req);
	}
}

/* one waiting caller: checked, answered, closed */
static void serve(struct daemon *d)
{
	struct op_strbuf out = OP_STRBUF_INIT;
	char req[OPD_CTL_MAX_REQUEST];
	uid_t uid;
	int fd, ret;

	ret = opd_ctl_accept(d->listen_fd, &fd, &uid, req, sizeof(req));
	if (ret)
		return;
	if (!opd_ctl_allowed(uid, geteuid())) {
		oprofiled_log("refused '%.64s' from uid %lu", req, (unsigned long)uid);
		op_strbuf_addf(&out, "error: only root or uid %lu may control this daemon\n"
			       "hint: run opcontrol as root\n", (unsigned long)geteuid());
	} else {
		op_debug("request '%s' from uid %lu", req, (unsigned long)uid);
		oprofiled_command(d, req, &out);
	}
	if (op_strbuf_failed(&out))
		op_die(1, "out of memory");
	opd_ctl_reply(fd, out.buf, out.len);
	close(fd);
	op_strbuf_release(&out);
}

static void handle_signals(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			if (reopen_log(d, false))
				oprofiled_log("log reopened (SIGHUP)");
			else
				oprofiled_log("SIGHUP: no log file to reopen (logging "
					      "to stderr)");
		} else if (si.ssi_signo != SIGCHLD) {
			oprofiled_log("signal %u: writing the samples and exiting",
				      si.ssi_signo);
			d->quit = true;
		}
	}
}

/* is cpu among the nr online ones */
static bool is_online(const uint32_t *cpus, size_t nr, uint32_t cpu)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (cpus[i] == cpu)
			return true;
	return false;
}

/*
 * Follow cpus going offline and online: the events of a cpu that went
 * offline are gone for good in the kernel, so its ring is read and
 * closed; a cpu that comes online (again, or for the first time) gets
 * new events, whose ids the engine learns.  True when the rings changed.
 */
static bool check_cpus(struct daemon *d)
{
	size_t nr, i, nr_ids;
	uint32_t *cpus = opd_perf_online_cpus(&nr);
	bool changed = false;

	if (!nr) {
		free(cpus);
		return false;	/* unreadable: keep what we have */
	}
	for (i = d->perf.nr_rings; i-- > 0;) {
		uint32_t cpu = d->perf.rings[i].cpu;

		if (is_online(cpus, nr, cpu))
			continue;
		oprofiled_read_rings(d);
		opd_perf_drop_cpu(&d->perf, i);
		oprofiled_log("cpu %u went offline", cpu);
		changed = true;
	}
	for (i = 0; i < nr; i++) {
		struct op_err err = { "" };
		size_t k;

		if (opd_perf_has_cpu(&d->perf, cpus[i]))
			continue;
		nr_ids = d->perf.nr_ids;
		if (opd_perf_add_cpu(&d->perf, d->evs.events, d->evs.nr, cpus[i],
				     d->ring_kib, d->profiling, &err)) {
			oprofiled_log("cpu %u is online, but %s", cpus[i], err.msg);
			continue;
		}
		for (k = nr_ids; k < d->perf.nr_ids; k++)
			opd_engine_add_id(d->engine, d->perf.ids[k].id, d->perf.ids[k].event);
		oprofiled_log("cpu %u came online: profiling it", cpus[i]);
		changed = true;
	}
	free(cpus);
	return changed;
}

/* poll on the rings, the signals and the control socket */
static struct pollfd *make_pollfds(const struct daemon *d, size_t *n)
{
	struct pollfd *fds;
	size_t i;

	*n = d->perf.nr_rings + 2;
	fds = op_xcalloc(*n, sizeof(*fds));
	for (i = 0; i < d->perf.nr_rings; i++)
		fds[i] = (struct pollfd){ .fd = d->perf.rings[i].fd, .events = POLLIN };
	fds[i++] = (struct pollfd){ .fd = d->sigfd, .events = POLLIN };
	fds[i] = (struct pollfd){ .fd = d->listen_fd, .events = POLLIN };
	return fds;
}

static void periodic(struct daemon *d, struct pollfd **fds, size_t *n)
{
	uint64_t now = oprofiled_now_ms();

	if (now >= d->next_cpus_ms) {
		d->next_cpus_ms = now + CPUS_MS;
		if (check_cpus(d)) {
			free(*fds);
			*fds = make_pollfds(d, n);
		}
	}
	if (now >= d->next_sync_ms) {
		d->next_sync_ms = now + SYNC_MS;
		opd_engine_sync(d->engine);
		log_sample_errors(d);
	}
	if (now >= d->next_files_ms) {
		d->next_files_ms = now + FILES_MS;
		oprofiled_write_files(d, false);
	}
}

int oprofiled_loop(struct daemon *d)
{
	size_t n;
	struct pollfd *fds = make_pollfds(d, &n);
	uint64_t now = oprofiled_now_ms();
	int ret;

	d->next_cpus_ms = now;
	d->next_sync_ms = now + SYNC_MS;
	d->next_files_ms = now + FILES_MS;
	while (!d->quit) {
		if (poll(fds, n, POLL_MS) < 0 && errno != EINTR)
			break;
		oprofiled_read_rings(d);
		if (fds[n - 2].revents)
			handle_signals(d);
		if (!d->quit && (fds[n - 1].revents & POLLIN))
			serve(d);
		periodic(d, &fds, &n);
	}
	free(fds);
	opd_perf_disable(&d->perf);
	oprofiled_read_rings(d);
	opd_engine_flush(d->engine);
	ret = opd_engine_finish(d->engine);
	oprofiled_write_files(d, true);
	opd_session_unreserve(&d->session);
	{
		const struct opd_stats *st = opd_engine_stats(d->engine);

		struct rusage ru;
		double cpu = 0;

		if (!getrusage(RUSAGE_SELF, &ru))
			cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			      (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		oprofiled_log("oprofiled exiting: %llu samples received, %llu written "
			      "to %zu sample files; %.3f s of CPU used", (unsigned long long)
			      st->count[OPD_STAT_SAMPLES], (unsigned long long)
			      st->count[OPD_STAT_STORED], opd_engine_nr_files(d->engine), cpu);
	}
	return ret ? 1 : 0;
}
