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
#include "libutil/op_dir.h"
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
	/* nothing is held before opd_session_prepare() set dir */
	if (!s || !s->dir)
		return;
	opd_session_unlock(s);
	op_dir_close(&s->cdir);
	op_dir_close(&s->sdir);
	op_dir_close(&s->top);
	free(s->dir);
	free(s->samples);
	free(s->current);
	free(s->trash);
	memset(s, 0, sizeof(*s));
	s->lock_fd = -1;
}

/*
 * A directory that others may write to without the sticky bit: they
 * could rename what operf made there and put anything in its place.
 */
static int check_mode(const struct opd_session *s, const struct stat *st,
		      const char *path, struct op_err *err)
{
	/* the daemon's, root's: nobody else writes there, sticky bit or not */
	if (s->private && (st->st_mode & (S_IWGRP | S_IWOTH))) {
		op_err_set(err, "'%s' can be written by other users (mode %04o): the "
			   "daemon's session directory must be its own only", path,
			   (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX)) {
		op_err_set(err, "'%s' can be written by other users (mode %04o) and "
			   "has no sticky bit: refusing to profile into it", path,
			   (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* a directory under the session must be ours or the session owner's */
static int check_owner(const struct opd_session *s, const struct stat *st,
		       const char *path, struct op_err *err)
{
	if (st->st_uid == geteuid() || st->st_uid == s->owner)
		return 0;
	op_err_set(err, "'%s' belongs to another user (uid %lu): refusing to "
		   "profile into it", path, (unsigned long)st->st_uid);
	return -EPERM;
}

/* the message for an op_dir failure on path */
static int dir_error(int ret, const char *what, const char *path, struct op_err *err)
{
	if (ret == -ELOOP)
		op_err_set(err, "'%s' is a symbolic link: links inside a session "
			   "directory are not followed", path);
	else
		op_err_set(err, "cannot %s '%s': %s", what, path, strerror(-ret));
	return ret;
}

/*
 * Hold the session directory.  Named by the user, it may be a symlink
 * of theirs or root's, not one planted by someone else.
 */
static int open_top(struct opd_session *s, struct op_err *err)
{
	struct stat st;
	int fd = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0 && s->private && (errno == ELOOP || errno == ENOTDIR) &&
	    !lstat(s->dir, &st) && S_ISLNK(st.st_mode)) {
		op_err_set(err, "session directory '%s' is a symbolic link: the "
			   "daemon's session directory must be a real directory", s->dir);
		return -EPERM;
	}
	if (fd >= 0) {
		s->top.fd = fd;
		s->top.path = op_xstrdup(s->dir);
	} else if ((errno == ELOOP || errno == ENOTDIR) && !lstat(s->dir, &st) &&
		   S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid() && st.st_uid != 0) {
			op_err_set(err, "session directory '%s' is a symbolic link of "
				   "another user (uid %lu): not followed", s->dir,
				   (unsigned long)st.st_uid);
			return -EPERM;
		}
		ret = op_dir_open_path(&s->top, s->dir);
		if (ret)
			return dir_error(ret, "open session directory", s->dir, err);
	} else {
		return dir_error(-errno, "open session directory", s->dir, err);
	}
	if (fstat(s->top.fd, &st))
		return dir_error(-errno, "read session directory", s->dir, err);
	s->owner = st.st_uid;
	if (s->private && st.st_uid != geteuid()) {
		op_err_set(err, "session directory '%s' belongs to another user (uid "
			   "%lu): the daemon writes only into its own", s->dir,
			   (unsigned long)st.st_uid);
		return -EPERM;
	}
	/* root writing into a user's directory leaves what it makes to that user */
	if (geteuid() == 0 && st.st_uid != 0) {
		s->top.give = true;
		s->top.uid = st.st_uid;
		s->top.gid = st.st_gid;
	}
	return check_mode(s, &st, s->dir, err);
}

/*
 * Root made the session directory: it goes to the owner of where it is.
 * If that fails it stays root's, as do its files.
 */
static void give_new_top(const char *dir)
{
	char *parent = op_xstrdup(dir), *slash = strrchr(parent, '/');
	struct stat st;
	int fd;

	if (slash)
		*(slash == parent ? slash + 1 : slash) = '\0';
	if (geteuid() == 0 && slash && !stat(parent, &st) && st.st_uid != 0) {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			if (fchown(fd, st.st_uid, st.st_gid))
				op_debug("cannot give '%s' to uid %lu", dir,
					 (unsigned long)st.st_uid);
			close(fd);
		}
	}
	free(parent);
}

/* hold rel beneath parent as d (made when create), checked for others' hands */
static int open_sub(struct opd_session *s, struct op_dir *d, struct op_dir *parent,
		    const char *rel, const char *path, bool create, mode_t mode,
		    struct op_err *err)
{
	struct stat st;
	int ret = op_dir_sub(d, parent, rel, create, mode);

	if (ret)
		return dir_error(ret, create ? "create" : "open", path, err);
	if (fstat(d->fd, &st))
		return dir_error(-errno, "read", path, err);
	/* one an earlier root run left root's */
	if (d->give && st.st_uid == 0 && !fchown(d->fd, d->uid, d->gid))
		st.st_uid = d->uid;
	ret = check_owner(s, &st, path, err);
	return ret ? ret : check_mode(s, &st, path, err);
}

/* can we create files in d?  (access() is wrong for root on ro mounts) */
static int probe_writable(const struct op_dir *d)
{
	int fd = op_dir_open_file(d, ".operf-probe", O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return fd;
	close(fd);
	return op_dir_unlink(d, ".operf-probe");
}

int opd_session_prepare(struct opd_session *s, const char *dir, unsigned flags,
			struct op_err *err)
{
	bool append = flags & OPD_SESSION_APPEND;
	struct stat st;
	int ret;

	memset(s, 0, sizeof(*s));
	s->lock_fd = -1;
	s->top.fd = s->sdir.fd = s->cdir.fd = -1;
	s->append = append;
	s->private = flags & OPD_SESSION_PRIVATE;
	s->dir = absolute(dir ? dir : "oprofile_data");
	if (!s->dir) {
		op_err_set(err, "cannot find the current directory: %s", strerror(errno));
		return -errno;
	}
	s->samples = join(s->dir, "samples");
	s->current = join(s->samples, "current");
	if (lstat(s->dir, &st)) {
		ret = op_mkdir_parents(s->dir, 0755);
		if (!ret && mkdir(s->dir, s->private ? 0700 : 0755) && errno != EEXIST)
			ret = -errno;
		if (ret) {
			op_err_set(err, "cannot create session directory '%s': %s",
				   s->dir, strerror(-ret));
			return ret;
		}
		if (!s->private)
			give_new_top(s->dir);
	}
	ret = open_top(s, err);
	if (!ret)
		ret = open_sub(s, &s->sdir, &s->top, "samples", s->samples, true,
			       dir || s->private ? 0700 : 0755, err);
	if (!ret && (ret = probe_writable(&s->sdir)))
		dir_error(ret, "write to", s->samples, err);
	if (!ret)
		ret = opd_session_lock(s, err);
	if (!ret && append && !op_dir_stat(&s->sdir, "current", &st)) {
		ret = open_sub(s, &s->cdir, &s->sdir, "current", s->current, false,
			       0755, err);
		if (!ret && (ret = probe_writable(&s->cdir)))
			dir_error(ret, "write to", s->current, err);
	}
	return ret;
}

int opd_session_begin(struct opd_session *s, struct op_err *err)
{
	struct stat st;
	char trash[64];
	int ret = 0;

	if (s->cdir.fd >= 0)	/* --append to an existing current/ */
		return 0;
	if (!s->append && !op_dir_stat(&s->sdir, "current", &st)) {
		/* set the old previous/ aside now, delete it once profiling runs */
		if (!op_dir_stat(&s->sdir, "previous", &st)) {
			snprintf(trash, sizeof(trash), ".previous-old.%ld", (long)getpid());
			if (op_dir_rename(&s->sdir, "previous", trash))
				ret = op_dir_remove_tree(&s->sdir, "previous");
			else
				s->trash = op_xstrdup(trash);
		}
		if (!ret)
			ret = op_dir_rename(&s->sdir, "current", "previous");
		if (ret) {
			char *previous = join(s->samples, "previous");

			op_err_set(err, "cannot move '%s' to '%s': %s", s->current,
				   previous, strerror(-ret));
			free(previous);
			return ret;
		}
	}
	return open_sub(s, &s->cdir, &s->sdir, "current", s->current, true, 0755, err);
}
int opd_session_renew_current(struct opd_session *s, struct op_err *err)
{
	op_dir_close(&s->cdir);
	return open_sub(s, &s->cdir, &s->sdir, "current", s->current, true, 0755, err);
}

#define RESERVE ".operf-reserve"
#define RESERVE_SIZE ((off_t)1 << 20)

void opd_session_reserve(struct opd_session *s)
{
	int fd = op_dir_open_file(&s->sdir, RESERVE, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return;
	if (posix_fallocate(fd, 0, RESERVE_SIZE))
		op_debug("no room to reserve in '%s'", s->samples);
	close(fd);
}

void opd_session_unreserve(struct opd_session *s)
{
	op_dir_unlink(&s->sdir, RESERVE);
}

int opd_session_write_stats(const struct opd_session *s,
			    const struct opd_stats *stats,
			    const struct opev_event *events, size_t nr_events,
			    const bool *throttled, const struct odb_stats *prior)
{
	size_t nr_prior = prior ? prior->nr_throttled : 0, e, i;
	struct odb_stats st;
	int ret;

	opd_stats_to_odb(stats, &st);
	st.throttled = op_xcalloc(nr_events + nr_prior + 1, sizeof(*st.throttled));
	for (i = 0; i < ODB_NR_STATS && prior; i++)
		st.count[i] += prior->count[i];
	for (i = 0; i < nr_prior; i++)
		st.throttled[st.nr_throttled++] = op_xstrdup(prior->throttled[i]);
	for (e = 0; e < nr_events; e++) {
		bool known = false;

		for (i = 0; i < nr_prior && throttled[e]; i++)
			known |= !strcmp(prior->throttled[i], events[e].name);
		if (throttled[e] && !known)
			st.throttled[st.nr_throttled++] = op_xstrdup(events[e].name);
	}
	ret = odb_stats_write(&s->cdir, &st);
	odb_stats_release(&st);
	return ret;
}

int opd_session_append_log(const struct opd_session *s, const char *started,
			   const struct opd_stats *stats, const char *extra)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char now[64];
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
	fd = op_dir_open_file(&s->sdir, "operf.log", O_WRONLY | O_CREAT | O_APPEND, 0644);
	ret = fd < 0 ? fd : 0;
	if (!ret)
		ret = op_strbuf_failed(&sb) ? -ENOMEM : op_write_all(fd, sb.buf, sb.len);
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	op_strbuf_release(&sb);
	return ret;
}

void opd_session_cleanup(struct opd_session *s)
{
	struct dirent *de;
	DIR *dir;
	int fd;

	if (s->trash) {
		op_dir_remove_tree(&s->sdir, s->trash);
		free(s->trash);
		s->trash = NULL;
	}
	/* leftovers of runs killed between setting aside and removing */
	fd = openat(s->sdir.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir)))
		if (!strncmp(de->d_name, ".previous-old.", 14))
			op_dir_remove_tree(&s->sdir, de->d_name);
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
