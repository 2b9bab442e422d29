// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opimport --perf-data (opimport_perf.h): the recording is read whole
 * and checked (opd_perfdata) before the session is touched, its events
 * are named as operf names them, and its records go through operf's
 * engine and session-writing path, as operf --convert replays its own
 * recordings.  So a bad input leaves the session as it was.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_front.h"
#include "daemon/opd_perfdata.h"
#include "daemon/opd_session.h"
#include "daemon/opimport_perf.h"
#include "daemon/operf_events.h"
#include "daemon/perf_events.h"
#include "events/opev.h"
#include "libdb/odb.h"
#include "libdb/odb_session_info.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

#define INPUT_MAX ((size_t)1 << 36)	/* 64 GiB: read whole into memory */

/* all of fd (a pipe) into *buf, which the caller frees */
static int read_stream(int fd, unsigned char **buf, size_t *len)
{
	size_t alloc = 1 << 20;
	ssize_t n;

	*buf = op_xmalloc(alloc);
	*len = 0;
	for (;;) {
		if (*len == alloc) {
			if (alloc >= INPUT_MAX)
				return -EFBIG;
			alloc *= 2;
			*buf = op_xrealloc(*buf, alloc);
		}
		n = read(fd, *buf + *len, alloc - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		*len += (size_t)n;
	}
}

static int read_input(const char *path, unsigned char **buf, size_t *len)
{
	char *data = NULL;
	int ret;

	if (!strcmp(path, "-") && isatty(STDIN_FILENO)) {
		op_error("the standard input is a terminal, not a perf record pipe");
		op_hint("perf record -o - ... | opimport --perf-data=-");
		return -ENOTTY;
	}
	if (!strcmp(path, "-")) {
		ret = read_stream(STDIN_FILENO, buf, len);
		if (ret)
			op_error_errno(ret, "cannot read the standard input");
		return ret;
	}
	ret = op_read_file(path, INPUT_MAX, &data, len);
	*buf = (unsigned char *)data;
	if (ret) {
		op_error_errno(ret, "cannot read '%s'", path);
		if (ret == -EINVAL)
			op_hint("a pipe is read from the standard input: "
				"perf record -o - ... | opimport --perf-data=-");
	}
	return ret;
}

/* perf's names of its generic events, by config */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};

/* the event attr a counts, as operf would have encoded it */
static int name_event(const struct perf_event_attr *a, struct opev_ctx **ctx,
		      struct opev_event *ev, size_t idx)
{
	struct opev_spec spec = { .kernel = !a->exclude_kernel, .user = !a->exclude_user };
	struct op_err err = { "" };
	const char *name = NULL;
	uint64_t period;
	int ret;

	if (a->type == PERF_TYPE_SOFTWARE && a->config <= PERF_COUNT_SW_TASK_CLOCK)
		name = a->config == PERF_COUNT_SW_CPU_CLOCK ? "cpu-clock" : "task-clock";
	else if (a->type == PERF_TYPE_HARDWARE &&
		 a->config < sizeof(hw_names) / sizeof(hw_names[0]))
		name = hw_names[a->config];
	if (!name)
		return op_error("event %zu of the recording (type %u, config %#llx) "
				"cannot be described in OProfile sample files", idx,
				a->type, (unsigned long long)a->config);
	snprintf(spec.name, sizeof(spec.name), "%s", name);
	if (!spec.kernel && !spec.user)
		spec.kernel = spec.user = true;
	if (a->type == PERF_TYPE_HARDWARE && !*ctx) {
		*ctx = opev_ctx_new(&ret);
		if (!*ctx)
			return op_error("cannot describe event '%s' of the recording: %s",
					name, opev_strerror(ret));
	}
	ret = opev_encode(*ctx, &spec, ev, &err);
	if (ret)
		return op_error("cannot describe event '%s' of the recording: %s", name,
				err.msg[0] ? err.msg : opev_strerror(ret));
	/* the period recorded: a clock's rate in Hz is a period in ns */
	period = a->sample_period;
	if (a->freq && a->type == PERF_TYPE_SOFTWARE && period)
		period = 1000000000ull / period;
	else if (a->freq)
		period = 0;	/* varies: the event's default stands in */
	if (period && period <= OPEV_MAX_PERIOD)
		ev->period = period;
	return 0;
}

/* perf's side-band event (perf record -a, --switch-events): never samples */
static bool is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/*
 * The events of the recording into evs, and event_of[i] the event of
 * attr i (a dummy attr's records count as the first event's; it has no
 * samples).  Events the recording has twice become one.
 */
static int name_events(const struct opd_perfdata_info *info,
		       struct operf_events *evs, uint32_t *event_of)
{
	struct opev_ctx *ctx = NULL;
	size_t i, j;
	int ret = 0;

	evs->events = op_xcalloc(info->nr_attrs, sizeof(*evs->events));
	for (i = 0; i < info->nr_attrs && !ret; i++) {
		event_of[i] = 0;
		if (is_dummy(&info->attrs[i]))
			continue;
		ret = name_event(&info->attrs[i], &ctx, &evs->events[evs->nr], i);
		for (j = 0; j < evs->nr; j++)
			if (!strcmp(evs->events[j].name, evs->events[evs->nr].name))
				break;
		event_of[i] = (uint32_t)j;
		if (j == evs->nr)
			evs->nr++;
	}
	opev_ctx_free(ctx);
	if (!ret && !evs->nr)
		ret = op_error("the recording has no sampling event: nothing to import");
	return ret ? -1 : 0;
}

/* _text of the running kernel, 0 when hidden or not found */
static uint64_t kernel_text_here(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	unsigned long long addr;
	char type, name[128];
	uint64_t text = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%llx %c %127s%*[^\n]", &addr, &type, name) == 3)
		if (!strcmp(name, "_text")) {
			text = addr;
			break;
		}
	fclose(f);
	return text;
}

/*
 * Recorded on this machine, running the same kernel, since the same boot
 * (where perf saw the kernel's text, which KASLR moves at each boot)?
 */
static bool same_kernel(const struct opd_perfdata_info *info)
{
	struct utsname u;

	if (uname(&u) || strcmp(u.nodename, info->hostname) ||
	    strcmp(u.release, info->osrelease))
		return false;
	return !info->kernel_text || info->kernel_text == kernel_text_here();
}

static void sink_queue(void *arg, uint32_t queue, const void *recs, size_t len)
{
	opd_engine_queue(arg, queue, recs, len);
}

static void sink_round(void *arg)
{
	opd_engine_round(arg);
}

static void write_info(const struct opd_session *s, const struct operf_events *evs,
		       const struct opd_perfdata_info *pinfo)
{
	struct odb_session_info info = {
		.target = ODB_TARGET_COMMAND,
		.callgraph = pinfo->sample_type & PERF_SAMPLE_CALLCHAIN,
	};
	struct opd_perf perf = { 0 };
	char started[64];
	int ret;

	opd_time_string(started, sizeof(started));
	info.started = op_xstrdup(started);
	info.tool = op_xstrdup("opimport " PACKAGE_VERSION " --perf-data");
	info.command = op_xstrdup(pinfo->cmdline[0] ? pinfo->cmdline : "perf record");
	opd_front_info_events(evs, &perf, &info);
	ret = odb_session_info_write(&s->cdir, &info);
	if (ret)
		op_warning("cannot write '%s/session.info': %s", s->current,
			   odb_strerror(ret));
	odb_session_info_release(&info);
}

/* the engine over the recording, then the session's files */
static int convert(struct opd_session *s, struct opd_perfdata *pd,
		   const struct operf_events *evs, const uint32_t *event_of)
{
	const struct opd_perfdata_info *info = opd_perfdata_info(pd);
	struct op_strbuf layout = OP_STRBUF_INIT;
	struct opd_engine_config cfg = {
		.samples = &s->cdir,
		.events = evs->events,
		.nr_events = evs->nr,
		.sample_type = info->sample_type,
		.callgraph = info->sample_type & PERF_SAMPLE_CALLCHAIN,
		.nr_cpus = OPD_PERFDATA_QUEUES,
		.cpu_speed = opd_cpu_speed(),
		.max_open_files = opd_front_max_open_files(0),
	};
	struct opd_perfdata_sink sink = { sink_queue, sink_round, NULL };
	const struct opd_stats *st;
	const char *path;
	struct opd_engine *e;
	size_t i;
	int ret;

	if (same_kernel(info)) {
		opd_front_load_kernel(s, NULL, &layout);
		cfg.kernel_layout = layout.buf;
	} else {
		op_notice("opimport: notice: recorded on '%s' running %s, not this "
			  "boot of this machine: kernel samples go to no-vmlinux "
			  "without this kernel's symbols",
			  info->hostname[0] ? info->hostname : "an unnamed host",
			  info->osrelease[0] ? info->osrelease : "an unknown kernel");
	}
	e = opd_engine_new(&cfg);
	for (i = 0; i < info->nr_attrs; i++)
		opd_engine_add_id(e, i, event_of[i]);
	sink.arg = e;
	opd_perfdata_replay(pd, &sink);
	opd_engine_finish(e);
	ret = opd_engine_first_error(e, &path);
	if (ret)
		op_error("cannot write sample file '%s': %s", path, odb_strerror(ret));
	opd_front_write_files(s, e, evs, NULL, NULL, true);
	write_info(s, evs, info);
	if (info->nr_dropped)
		op_warning("%llu samples carry an id of no event of the recording: "
			   "left out", (unsigned long long)info->nr_dropped);
	st = opd_engine_stats(e);
	op_notice("opimport: %llu samples of %llu (%llu kernel, %llu user) written "
		  "to %zu sample file%s; profile in %s",
		  (unsigned long long)st->count[OPD_STAT_STORED],
		  (unsigned long long)info->nr_samples,
		  (unsigned long long)st->count[OPD_STAT_KERNEL_SAMPLES],
		  (unsigned long long)st->count[OPD_STAT_USER_SAMPLES],
		  opd_engine_nr_files(e), opd_engine_nr_files(e) == 1 ? "" : "s",
		  s->dir);
	opd_engine_free(e);
	op_strbuf_release(&layout);
	return ret ? 1 : 0;
}

static int open_session(struct opd_session *s, const char *dir, bool force)
{
	struct op_err err = { "" };
	int ret = opd_session_prepare(s, dir, 0, &err);
	struct stat st;

	if (ret) {
		op_error("%s", err.msg);
		op_hint("choose another directory with --session-dir");
		return 1;
	}
	if (!op_dir_stat(&s->sdir, "current", &st) && !force) {
		op_error("'%s' already holds a profile", s->current);
		op_hint("use --force to replace it (it becomes previous/), or choose "
			"another directory with --session-dir");
		return 1;
	}
	ret = opd_session_begin(s, &err);
	if (ret) {
		op_error("%s", err.msg);
		return 1;
	}
	return 0;
}

int opimport_perf_data(const char *path, const char *session_dir, bool force)
{
	const char *name = strcmp(path, "-") ? path : "the standard input";
	struct opd_session session = { .lock_fd = -1 };
	struct operf_events evs = { 0 };
	struct op_err err = { "" };
	struct opd_perfdata *pd = NULL;
	unsigned char *buf = NULL;
	uint32_t *event_of = NULL;
	size_t len = 0;
	int ret;

	ret = read_input(path, &buf, &len) ? 1 : 0;
	if (!ret && !len) {
		op_error("'%s' is empty: no perf.data to import", name);
		ret = 1;
	}
	if (!ret && opd_perfdata_open(buf, len, &pd, &err)) {
		op_error("cannot import '%s': %s", name, err.msg);
		ret = 1;
	}
	if (!ret && !opd_perfdata_info(pd)->nr_samples) {
		op_error("'%s' holds no samples: nothing to import", name);
		if (!opd_perfdata_info(pd)->pipe)
			op_hint("a perf record killed before it ended leaves the "
				"size of its data at 0 in the file header");
		ret = 1;
	}
	if (!ret) {
		event_of = op_xcalloc(opd_perfdata_info(pd)->nr_attrs, sizeof(*event_of));
		ret = name_events(opd_perfdata_info(pd), &evs, event_of) ? 1 : 0;
	}
	if (!ret)
		ret = open_session(&session, session_dir, force);
	if (!ret) {
		ret = convert(&session, pd, &evs, event_of);
		opd_session_cleanup(&session);
	}
	opd_session_release(&session);
	operf_events_release(&evs);
	free(event_of);
	opd_perfdata_free(pd);
	free(buf);
	return ret;
}
