// SPDX-License-Identifier: GPL-2.0-or-later
/* The end of an operf run: the session's files and the summary (operf_run.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/opd_jit.h"
#include "daemon/operf_run.h"
#include "libdb/odb.h"
#include "libdb/odb_session.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_slices.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"

/* the command and its arguments, space-separated (caller frees) */
static char *command_line(char *const *argv)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i;

	for (i = 0; argv[i]; i++)
		op_strbuf_addf(&sb, "%s%s", i ? " " : "", argv[i]);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

/* session.info: what this run was, for the report tools */
void operf_write_info(struct run *r)
{
	struct odb_session_info info = {
		.started = op_xstrdup(r->started),
		.separate_thread = r->o->separate_thread,
		.separate_cpu = r->o->separate_cpu,
		.callgraph = r->o->callgraph,
		.slice_ns = r->cfg.slice_ns,
	};
	struct op_strbuf tool = OP_STRBUF_INIT;
	int ret;

	op_strbuf_addf(&tool, "operf %s", PACKAGE_VERSION);
	info.tool = op_strbuf_detach(&tool);
	if (!info.tool)
		op_die(1, "out of memory");
	if (r->target.kind == OPD_TARGET_SYSTEM) {
		info.target = ODB_TARGET_SYSTEM;
	} else if (r->target.kind == OPD_TARGET_PID) {
		info.target = ODB_TARGET_PID;
		info.pid = (uint32_t)r->target.pid;
	} else {
		info.target = ODB_TARGET_COMMAND;
		info.command = command_line(r->argv);
	}
	opd_front_info_events(&r->evs, &r->perf, &info);
	if (r->o->vmlinux)
		info.vmlinux = op_xstrdup(r->o->vmlinux);
	ret = odb_session_info_write(&r->session.cdir, &info);
	if (ret)
		op_warning("cannot write '%s/session.info': %s", r->session.current,
			   odb_strerror(ret));
	odb_session_info_release(&info);
}

int operf_replay(struct run *r)
{
	struct op_err err = { "" };
	int fd, ret;

	fd = op_dir_open_file(&r->session.sdir, OPERF_DATA, O_RDONLY, 0);
	ret = fd < 0 ? fd : opd_stream_open_fd(fd, &r->reader, &err);
	if (ret) {
		op_error("cannot read '%s': %s", r->stream_path,
			 fd < 0 ? op_strerror(fd) : err.msg);
		return 1;
	}
	if (r->converting) {
		const struct opd_stream_info *info = opd_stream_reader_info(r->reader);

		r->cfg.events = info->events;
		r->cfg.nr_events = info->nr_events;
		r->cfg.sample_type = info->sample_type;
		r->cfg.nr_cpus = info->nr_cpus;
		r->cfg.kernel_layout = info->layout;
	}
	r->engine = opd_engine_new(&r->cfg);
	/*
	 * The engine borrows the records from the reader's mapping until
	 * opd_engine_finish(): operf_finish() closes the reader after that.
	 */
	ret = opd_stream_replay(r->reader, r->engine, &err);
	if (ret == OPD_STREAM_TRUNCATED) {
		op_notice("operf: notice: '%s' ends where its recording was cut "
			  "short; converted what it holds", r->stream_path);
		ret = 0;
	}
	if (ret < 0) {
		op_error("cannot convert '%s': %s", r->stream_path, err.msg);
		return 1;
	}
	return 0;
}

/* a lazy run's end: the recording closed, then replayed */
static int convert_stream(struct run *r)
{
	int ret = opd_stream_close_writer(r->stream);

	r->stream = NULL;
	if (ret) {
		op_error_errno(ret, "cannot write '%s'", r->stream_path);
		return 1;
	}
	return operf_replay(r);
}

/* time slices that could not all be written: the profile itself is whole */
static void slices_summary(struct run *r)
{
	uint64_t dropped;
	int err = opd_engine_slices_error(r->engine, &dropped);

	if (err)
		op_warning("cannot write the time slices (%s/%s): %s; time: in reports "
			   "sees only what was written", r->session.current,
			   ODB_SLICES_NAME, odb_strerror(err));
	if (dropped)
		op_warning("%llu sample%s not counted in time slices: the slice file "
			   "reached its size limit of %llu MiB; use a longer --slice",
			   (unsigned long long)dropped, dropped == 1 ? " was" : "s were",
			   (unsigned long long)(ODB_SLICES_DEFAULT_LIMIT >> 20));
}

uint64_t operf_slice_ns(const struct operf_options *o)
{
	struct op_err err;
	uint64_t ns = ODB_SLICES_DEFAULT_NS;

	if (o->slice && odb_slices_parse_length(o->slice, &ns, &err))
		OP_BUG("--slice was checked");
	return ns;
}

/*
 * The run's figures, which add up: the samples taken are those written
 * and those lost, by cause (libdb's description, which the reports
 * repeat).  A sample file that could not be written makes the run a
 * failure: 1, else 0.
 */
static int summarize(struct run *r, bool log_written)
{
	const struct opd_stats *st = opd_engine_stats(r->engine);
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct odb_stats ost;
	uint64_t lost, arcs, taken, written = st->count[OPD_STAT_STORED];
	const char *path;
	int err = opd_engine_first_error(r->engine, &path);
	size_t i, nr_files = opd_engine_nr_files(r->engine);

	opd_stats_to_odb(st, &ost);
	lost = odb_stats_lost_samples(&ost);
	arcs = odb_stats_lost_arcs(&ost);
	odb_stats_taken(&ost, &taken);
	if (err)
		op_error("cannot write sample file '%s': %s", path, odb_strerror(err));
	for (i = 0; i < r->evs.nr; i++)
		if (opd_engine_throttled(r->engine, (uint32_t)i))
			op_warning("the kernel throttled event '%s': fewer samples than "
				   "its rate asks for", r->evs.events[i].name);
	if (odb_stats_describe_lost(&ost, &sb))
		op_die(1, "out of memory");
	if (lost && log_written)
		op_warning("%s; see %s/operf.log", sb.buf, r->session.samples);
	else if (lost)
		op_warning("%s", sb.buf);
	op_strbuf_release(&sb);
	slices_summary(r);
	if (arcs)
		op_notice("operf: %llu call-graph arc%s not recorded: %s caller "
			  "is in no known mapping", (unsigned long long)arcs,
			  arcs == 1 ? " was" : "s were", arcs == 1 ? "its" : "their");
	if (r->ns && opd_ns_stats(r->ns)->unresolved) {
		uint64_t n = opd_ns_stats(r->ns)->unresolved;

		op_notice("operf: %llu file mapping%s of processes in other mount "
			  "namespaces keep%s the path%s those processes saw: no "
			  "path here was found to be the same file",
			  (unsigned long long)n, n == 1 ? "" : "s", n == 1 ? "s" : "",
			  n == 1 ? "" : "s");
	}
	if (r->target.kind == OPD_TARGET_COMMAND && WIFSIGNALED(r->child_status))
		op_notice("operf: '%s' was killed by signal %d", r->argv[0],
			  WTERMSIG(r->child_status));
	else if (r->target.kind == OPD_TARGET_COMMAND && WIFEXITED(r->child_status) &&
		 WEXITSTATUS(r->child_status))
		op_notice("operf: '%s' exited with status %d", r->argv[0],
			  WEXITSTATUS(r->child_status));
	if (lost)
		op_notice("operf: %llu samples taken: %llu written to %zu sample file%s, "
			  "%llu lost; profile in %s", (unsigned long long)taken,
			  (unsigned long long)written, nr_files, nr_files == 1 ? "" : "s",
			  (unsigned long long)lost, r->session.dir);
	else
		op_notice("operf: %llu samples (%llu kernel, %llu user) written to %zu "
			  "sample file%s; profile in %s", (unsigned long long)written,
			  (unsigned long long)st->count[OPD_STAT_KERNEL_SAMPLES],
			  (unsigned long long)st->count[OPD_STAT_USER_SAMPLES],
			  nr_files, nr_files == 1 ? "" : "s", r->session.dir);
	return err ? 1 : 0;
}

/*
 * The lines of operf.log after the engine's counters: what was read, and
 * what became of the mappings of processes in other mount namespaces
 */
static void log_extra(const struct run *r, char *buf, size_t size)
{
	const struct opd_ns_stats *ns = r->ns ? opd_ns_stats(r->ns) : NULL;
	int n;

	n = snprintf(buf, size, "bytes read from ring buffers: %llu\n",
		     (unsigned long long)r->nr_read);
	if (!ns || n < 0 || (size_t)n >= size)
		return;
	snprintf(buf + n, size - (size_t)n,
		 "file mappings named by another mount namespace: %llu\n"
		 "  given their path here: %llu\n"
		 "  left with their own path (none found here): %llu\n"
		 "mountinfo tables read: %llu\n",
		 (unsigned long long)ns->foreign, (unsigned long long)ns->renamed,
		 (unsigned long long)ns->unresolved,
		 (unsigned long long)ns->tables_read);
}

int operf_finish(struct run *r)
{
	const struct opd_stats *st;
	char extra[512];
	bool log_written;

	if (r->stream && convert_stream(r))
		return 1;
	/* its error is the first sample-file error, which summarize() reports */
	opd_engine_finish(r->engine);
	opd_stream_close(r->reader);
	r->reader = NULL;
	/* the room kept for what follows, on a disk the samples filled */
	opd_session_unreserve(&r->session);
	st = opd_engine_stats(r->engine);
	opd_front_write_files(&r->session, r->engine, &r->evs, &r->prior, NULL, true);
	if (!r->converting)
		operf_write_info(r);
	log_extra(r, extra, sizeof(extra));
	log_written = !opd_session_append_log(&r->session, r->started, st, extra);
	if (!log_written)
		op_warning("cannot append to '%s/operf.log'", r->session.samples);
	/* converted and written: the recording has served */
	if (r->stream_path && !getenv("OPERF_KEEP_DATA"))
		op_dir_unlink(&r->session.sdir, OPERF_DATA);
	return summarize(r, log_written);
}
