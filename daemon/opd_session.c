// SPDX-License-Identifier: GPL-2.0-or-later
/* Session directory preparation and the files beside the samples. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/opd_session.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

static char *join(const char *a, const char *b)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s/%s", a, b);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

static char *absolute(const char *dir)
{
	char cwd[4096];

	if (dir[0] == '/')
		return op_xstrdup(dir);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	return join(cwd, dir);
}

void opd_session_release(struct opd_session *s)
{
	if (!s)
		return;
	free(s->dir);
	free(s->samples);
	free(s->current);
	free(s->trash);
	memset(s, 0, sizeof(*s));
}

/* can we create files in dir?  (access() is wrong for root on ro mounts) */
static int probe_writable(const char *dir)
{
	char *probe = join(dir, ".operf-probe");
	int fd, ret = 0;

	fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		ret = -errno;
	else if (close(fd))
		ret = -errno;
	unlink(probe);
	free(probe);
	return ret;
}

int opd_session_prepare(struct opd_session *s, const char *dir, bool append,
			struct op_err *err)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->append = append;
	s->dir = absolute(dir ? dir : "oprofile_data");
	if (!s->dir) {
		op_err_set(err, "cannot find the current directory: %s", strerror(errno));
		return -errno;
	}
	s->samples = join(s->dir, "samples");
	s->current = join(s->samples, "current");
	/* 0775 for the default directory (oprofile-ng-session(5), SESSION DIRECTORY) */
	ret = op_mkdir_p(s->dir, dir ? 0755 : 0775);
	if (ret) {
		op_err_set(err, "cannot create session directory '%s': %s", s->dir,
			   strerror(-ret));
		return ret;
	}
	ret = op_mkdir_p(s->samples, dir ? 0700 : 0775);
	if (ret) {
		op_err_set(err, "cannot create '%s': %s", s->samples, strerror(-ret));
		return ret;
	}
	ret = probe_writable(s->samples);
	if (!ret && append && op_is_dir(s->current))
		ret = probe_writable(s->current);
	if (ret)
		op_err_set(err, "cannot write to '%s': %s",
			   append && op_is_dir(s->current) ? s->current : s->samples,
			   strerror(-ret));
	return ret;
}

int opd_session_begin(struct opd_session *s, struct op_err *err)
{
	char *previous = join(s->samples, "previous");
	int ret = 0;

	if (!s->append && op_is_dir(s->current)) {
		/* set the old previous/ aside now, delete it once profiling runs */
		if (op_is_dir(previous)) {
			struct op_strbuf sb = OP_STRBUF_INIT;

			op_strbuf_addf(&sb, "%s/.previous-old.%ld", s->samples,
				       (long)getpid());
			s->trash = op_strbuf_detach(&sb);
			if (!s->trash)
				op_die(1, "out of memory");
			if (rename(previous, s->trash))
				ret = op_remove_tree(previous);
		}
		if (!ret && rename(s->current, previous))
			ret = -errno;
		if (ret) {
			op_err_set(err, "cannot move '%s' to '%s': %s", s->current,
				   previous, strerror(-ret));
			goto out;
		}
	}
	ret = op_mkdir_p(s->current, 0755);
	if (ret)
		op_err_set(err, "cannot create '%s': %s", s->current, strerror(-ret));
out:
	free(previous);
	return ret;
}

int opd_session_write_stats(const struct opd_session *s,
			    const struct opd_stats *stats,
			    const struct opev_event *events, size_t nr_events,
			    const bool *throttled)
{
	struct odb_stats st;
	size_t e;
	int ret;

	opd_stats_to_odb(stats, &st);
	st.throttled = op_xcalloc(nr_events ? nr_events : 1, sizeof(*st.throttled));
	for (e = 0; e < nr_events; e++)
		if (throttled[e])
			st.throttled[st.nr_throttled++] = op_xstrdup(events[e].name);
	ret = odb_stats_write(s->current, &st);
	odb_stats_release(&st);
	return ret;
}

int opd_session_append_log(const struct opd_session *s, const char *started,
			   const struct opd_stats *stats, const char *extra)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *path = join(s->samples, "operf.log"), now[64];
	int fd, ret, i;

	opd_time_string(now, sizeof(now));
	op_strbuf_addf(&sb, "\nProfiling started at %s\nProfiling stopped at %s\n",
		       started, now);
	op_strbuf_addstr(&sb, "\n-- oprofile-ng operf statistics --\n");
	for (i = 0; i < OPD_NR_STATS; i++)
		op_strbuf_addf(&sb, "%s: %" PRIu64 "\n", opd_stat_desc(i),
			       stats->count[i]);
	op_strbuf_addf(&sb, "throttle records: %" PRIu64 "\n", stats->throttle_records);
	if (extra)
		op_strbuf_addstr(&sb, extra);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	ret = fd < 0 ? -errno : 0;
	if (!ret)
		ret = op_strbuf_failed(&sb) ? -ENOMEM : op_write_all(fd, sb.buf, sb.len);
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	op_strbuf_release(&sb);
	free(path);
	return ret;
}

void opd_session_cleanup(struct opd_session *s)
{
	DIR *dir;
	struct dirent *de;

	if (s->trash) {
		op_remove_tree(s->trash);
		free(s->trash);
		s->trash = NULL;
	}
	/* leftovers of runs killed between setting aside and removing */
	dir = opendir(s->samples);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, ".previous-old.", 14)) {
			char *path = join(s->samples, de->d_name);

			op_remove_tree(path);
			free(path);
		}
	}
	closedir(dir);
}

double opd_cpu_speed(void)
{
	char *text;
	size_t len;
	double mhz = 0;

	if (!op_read_file("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
			  64, &text, &len)) {
		mhz = strtod(text, NULL) / 1000.0;
		free(text);
		if (mhz > 0)
			return mhz;
	}
	if (!op_read_file("/proc/cpuinfo", (size_t)4 << 20, &text, &len)) {
		const char *p = strstr(text, "cpu MHz");

		if (p && (p = strchr(p, ':')))
			mhz = strtod(p + 1, NULL);
		free(text);
	}
	return mhz > 0 ? mhz : 0;
}

void opd_time_string(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "%lld", (long long)t);
}
