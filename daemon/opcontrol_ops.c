// SPDX-License-Identifier: GPL-2.0-or-later
/* opcontrol's actions: the daemon found, started and asked (opcontrol.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/opcontrol.h"
#include "daemon/opd_ctl.h"
#include "daemon/opd_session.h"
#include "daemon/operf_events.h"
#include "daemon/oprofiled.h"
#include "daemon/perf_events.h"
#include "events/opev.h"
#include "libdb/odb_setup.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

#define REQUEST_TIMEOUT_MS 600000	/* a dump of a big backlog may take long */
#define SHUTDOWN_WAIT_MS 30000

/* the '--session-dir=DIR ' to repeat in hints, empty for the default */
static const char *dir_option(const struct opcontrol *c, char *buf, size_t size)
{
	if (!strcmp(c->dir, OPROFILED_DEFAULT_DIR))
		return "";
	snprintf(buf, size, "--session-dir=%s ", c->dir);
	return buf;
}

int opcontrol_open_dir(struct opcontrol *c, bool create)
{
	struct stat st;
	int fd, ret;

	if (lstat(c->dir, &st)) {
		if (errno == ENOENT && create) {
			/* the parents as usual, the session its user's only */
			ret = op_mkdir_parents(c->dir, 0755);
			if (!ret && mkdir(c->dir, 0700) && errno != EEXIST)
				ret = -errno;
			if (ret) {
				op_error("cannot create session directory '%s': %s", c->dir,
					 strerror(-ret));
				if (ret == -EACCES)
					op_hint("run opcontrol as root");
				return 1;
			}
			if (lstat(c->dir, &st)) {
				op_error_errno(-errno, "cannot read '%s'", c->dir);
				return 1;
			}
		} else if (errno == ENOENT) {
			op_error("no session directory '%s': the daemon has not run there",
				 c->dir);
			op_hint("start it with 'opcontrol --start'");
			return 1;
		} else {
			op_error_errno(-errno, "cannot read session directory '%s'", c->dir);
			if (errno == EACCES)
				op_hint("run opcontrol as root");
			return 1;
		}
	}
	if (S_ISLNK(st.st_mode)) {
		op_error("session directory '%s' is a symbolic link: the daemon's must be "
			 "a real directory", c->dir);
		op_hint("give the directory the link points to with --session-dir");
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		op_error("'%s' is not a directory", c->dir);
		return 1;
	}
	/*
	 * What opcontrol writes (the setup, a new directory) goes only into a
	 * directory of this user's; a request to a daemon elsewhere is checked
	 * by the daemon itself
	 */
	if (create && geteuid() != 0 && st.st_uid != geteuid()) {
		op_error("session directory '%s' belongs to another user (uid %lu)",
			 c->dir, (unsigned long)st.st_uid);
		op_hint("run opcontrol as root, or give a directory of yours with "
			"--session-dir");
		return 1;
	}
	fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		op_error_errno(-errno, "cannot open session directory '%s'", c->dir);
		if (errno == EACCES)
			op_hint("run opcontrol as root");
		return 1;
	}
	c->top.fd = fd;
	c->top.path = op_xstrdup(c->dir);
	return 0;
}

/* root, or a user perf_event_paranoid lets profile every cpu */
static int check_permission(void)
{
	if (geteuid() == 0 || opd_perf_paranoid() <= 0)
		return 0;
	op_error("system-wide profiling needs root, or perf_event_paranoid <= 0 "
		 "for other users (it is %d)", opd_perf_paranoid());
	op_hint("run opcontrol as root, or: echo 0 > /proc/sys/kernel/perf_event_paranoid");
	return 1;
}

int opcontrol_init(struct opcontrol *c)
{
	(void)c;
	return check_permission();
}

bool opcontrol_daemon_running(struct opcontrol *c)
{
	int fd = opd_ctl_connect(&c->top);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* oprofiled beside this opcontrol, else the one in PATH */
static void oprofiled_path(char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	snprintf(buf, size, "oprofiled");
	if (n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	if ((size_t)snprintf(buf, size, "%s/oprofiled", self) >= size ||
	    access(buf, X_OK))
		snprintf(buf, size, "oprofiled");
}

/* run oprofiled (it detaches and returns once ready); 0 or 1 */
static int spawn_daemon(struct opcontrol *c, bool profile)
{
	char path[PATH_MAX], verbose[256];
	const char *argv[8];
	int n = 0, status;
	pid_t pid;

	oprofiled_path(path, sizeof(path));
	argv[n++] = path;
	argv[n++] = "--session-dir";
	argv[n++] = c->dir;
	if (profile)
		argv[n++] = "--start";
	if (c->o->verbose_given) {
		snprintf(verbose, sizeof(verbose), "--verbose=%s",
			 c->o->verbose ? c->o->verbose : "all");
		argv[n++] = verbose;
	}
	argv[n] = NULL;
	op_debug("starting %s", path);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		op_error_errno(-errno, "cannot fork");
		return 1;
	}
	if (!pid) {
		execvp(path, (char *const *)argv);
		fprintf(stderr, "opcontrol: error: cannot run '%s': %s\n", path,
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			op_error_errno(-errno, "cannot wait for the daemon");
			return 1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		op_hint("is oprofile-ng installed?  oprofiled must be beside opcontrol "
			"or in PATH");
	op_error("the daemon did not start (see above)");
	return 1;
}

int opcontrol_start_daemon(struct opcontrol *c, bool profile)
{
	if (opcontrol_daemon_running(c)) {
		if (profile)
			return opcontrol_request(c, "start", true) ? 1 :
			       (printf("Profiler running.\n"), 0);
		op_notice("opcontrol: the daemon is running already");
		return 0;
	}
	if (check_permission())
		return 1;
	if (spawn_daemon(c, profile))
		return 1;
	printf("Daemon started.\n");
	if (profile)
		printf("Profiler running.\n");
	return 0;
}

/* the daemon's reply: messages to stderr, other lines to stdout; 0 or 1 */
static int print_reply(const char *reply, long *pid)
{
	const char *p = reply;
	int ret = 1;

	while (*p) {
		size_t len = strcspn(p, "\n");

		if (len == 2 && !strncmp(p, "ok", 2))
			ret = 0;
		else if (!strncmp(p, "error: ", 7))
			op_error("%.*s", (int)len - 7, p + 7);
		else if (!strncmp(p, "hint: ", 6))
			op_hint("%.*s", (int)len - 6, p + 6);
		else if (!strncmp(p, "notice: ", 8))
			op_notice("opcontrol: %.*s", (int)len - 8, p + 8);
		else if (pid && !strncmp(p, "pid ", 4))
			*pid = strtol(p + 4, NULL, 10);
		else
			printf("%.*s\n", (int)len, p);
		p += len + (p[len] == '\n');
	}
	return ret;
}

/* one request and its reply; -ENOENT when no daemon answers */
static int ask(struct opcontrol *c, const char *request, long *pid, int *status)
{
	struct op_strbuf reply = OP_STRBUF_INIT;
	int fd = opd_ctl_connect(&c->top), ret;

	if (fd == -ENOENT || fd == -ECONNREFUSED)
		return -ENOENT;
	if (fd < 0) {
		op_error_errno(fd, "cannot reach the daemon at '%s/" OPD_CTL_SOCKET "'",
			       c->dir);
		if (fd == -EACCES)
			op_hint("run opcontrol as root");
		*status = 1;
		return 0;
	}
	op_debug("request '%s'", request);
	ret = opd_ctl_call(fd, request, &reply, REQUEST_TIMEOUT_MS);
	close(fd);
	if (ret) {
		op_error_errno(ret, "no answer from the daemon to '%s'", request);
		*status = 1;
	} else {
		*status = print_reply(reply.buf ? reply.buf : "", pid);
	}
	op_strbuf_release(&reply);
	return 0;
}

static int no_daemon(struct opcontrol *c)
{
	char buf[PATH_MAX + 32];

	op_error("no daemon is running in '%s'", c->dir);
	op_hint("start it with 'opcontrol %s--start'", dir_option(c, buf, sizeof(buf)));
	return 1;
}

int opcontrol_request(struct opcontrol *c, const char *request, bool need)
{
	int status = 0;

	if (ask(c, request, NULL, &status) == -ENOENT)
		return need ? no_daemon(c) : 0;
	return status;
}

/* the session locked for a change while no daemon runs; 0 or 1 */
static int lock_session(struct opcontrol *c, struct opd_session *s)
{
	struct op_err err = { "" };
	int ret = opd_session_prepare(s, c->dir, OPD_SESSION_APPEND | OPD_SESSION_PRIVATE,
				      &err);

	if (ret) {
		op_error("%s", err.msg);
		return 1;
	}
	return 0;
}

int opcontrol_save(struct opcontrol *c, const char *name)
{
	struct opd_session s;
	struct op_strbuf req = OP_STRBUF_INIT;
	struct stat st;
	int status = 0, ret;

	op_strbuf_addf(&req, "save %s", name);
	ret = ask(c, req.buf, NULL, &status);
	op_strbuf_release(&req);
	if (ret != -ENOENT)
		return status;
	/* no daemon: move what the last one left */
	if (lock_session(c, &s))
		return 1;
	status = 1;
	if (op_dir_stat(&s.sdir, "current", &st))
		op_error("no samples to save in '%s'", s.current);
	else if (!op_dir_stat(&s.sdir, name, &st))
		op_error("session '%s' exists already in '%s'", name, s.samples);
	else if ((ret = op_dir_rename(&s.sdir, "current", name)))
		op_error("cannot move '%s' to '%s/%s': %s", s.current, s.samples, name,
			 strerror(-ret));
	else
		status = 0;
	opd_session_release(&s);
	return status;
}

int opcontrol_reset(struct opcontrol *c)
{
	struct opd_session s;
	int status = 0, ret;

	if (ask(c, "reset", NULL, &status) != -ENOENT)
		return status;
	if (lock_session(c, &s))
		return 1;
	ret = op_dir_remove_tree(&s.sdir, "current");
	if (ret)
		op_error("cannot remove '%s': %s", s.current, strerror(-ret));
	opd_session_release(&s);
	return ret ? 1 : 0;
}

/* no daemon: say so, and what the next start would use */
static int status_offline(struct opcontrol *c)
{
	struct odb_setup setup;
	struct op_err err = { "" };
	struct op_strbuf sb = OP_STRBUF_INIT;
	int ret = odb_setup_read(c->dir, &setup, &err);
	size_t i;

	printf("Daemon not running\nSession directory: %s\n", c->dir);
	if (ret && ret != -ENOENT) {
		op_warning("cannot read '%s/" ODB_SETUP_FILE "': %s", c->dir, err.msg);
		return 0;
	}
	odb_setup_separate_text(setup.separate, &sb);
	printf("Events: %s\nSeparate: %s\nCall graph depth: %u\n",
	       setup.events ? setup.events : "default", sb.buf ? sb.buf : "none",
	       setup.callgraph);
	op_strbuf_reset(&sb);
	odb_setup_slice_text(odb_setup_slice_ns(&setup), &sb);
	fputs(sb.buf, stdout);
	printf("Kernel: %s\n", setup.no_vmlinux ? "no vmlinux" :
	       setup.vmlinux ? setup.vmlinux : "no vmlinux (symbols from /proc/kallsyms)");
	printf("Images:");
	for (i = 0; i < setup.nr_images; i++)
		printf(" %s", setup.images[i]);
	printf("%s\n", setup.nr_images ? "" : " all");
	op_strbuf_release(&sb);
	odb_setup_release(&setup);
	return 0;
}

int opcontrol_status(struct opcontrol *c)
{
	int status = 0;

	if (ask(c, "status", NULL, &status) == -ENOENT)
		return status_offline(c);
	return status;
}

int opcontrol_shutdown(struct opcontrol *c)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	long pid = 0;
	int status = 0, waited;

	if (ask(c, "shutdown", &pid, &status) == -ENOENT) {
		op_notice("opcontrol: no daemon is running in '%s'", c->dir);
		return 0;
	}
	if (status)
		return status;
	/* its lock is free once it is gone: a --start right after works */
	for (waited = 0; pid > 0 && waited < SHUTDOWN_WAIT_MS; waited += 20) {
		if (kill((pid_t)pid, 0) && errno == ESRCH)
			break;
		nanosleep(&pause, NULL);
	}
	if (pid > 0 && waited >= SHUTDOWN_WAIT_MS) {
		op_error("the daemon (pid %ld) has not exited after %d s", pid,
			 SHUTDOWN_WAIT_MS / 1000);
		return 1;
	}
	printf("Daemon stopped.\n");
	return 0;
}

int opcontrol_list_events(FILE *out)
{
	return operf_events_list(out);
}
