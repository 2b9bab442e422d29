// SPDX-License-Identifier: GPL-2.0-or-later
/* Fork, hold, exec: the command under operf (see operf_target.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/operf_target.h"
#include "libutil/op_error.h"

int operf_target_fork(struct operf_target *t, char *const argv[])
{
	int go[2], err[2];

	t->pid = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		return ret;
	}
	t->pid = fork();
	if (t->pid < 0) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return ret;
	}
	if (t->pid == 0) {
		sigset_t none;
		ssize_t n;
		char c;
		int e;

		close(go[1]);
		close(err[0]);
		/*
		 * wait for the tool: a byte means go; EOF means it ended
		 * (killed) without letting go, and the command must not run
		 */
		do
			n = read(go[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);
		close(go[0]);
		/* operf blocks the signals it reads through a signalfd */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) != sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	t->go_fd = go[1];
	t->err_fd = err[0];
	return 0;
}

/*
 * The byte that lets the child exec.  A child already gone makes the
 * write fail with EPIPE: its SIGPIPE is blocked and taken back here, so
 * that it does not kill the tool; release then finds the child's end.
 */
static void let_go(int fd)
{
	static const struct timespec now = { 0, 0 };
	sigset_t pipe_only, old;
	ssize_t n;

	sigemptyset(&pipe_only);
	sigaddset(&pipe_only, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_only, &old);
	do
		n = write(fd, "g", 1);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EPIPE && !sigismember(&old, SIGPIPE))
		sigtimedwait(&pipe_only, NULL, &now);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int operf_target_release(struct operf_target *t)
{
	ssize_t n;
	int e = 0;

	let_go(t->go_fd);
	close(t->go_fd);
	t->go_fd = -1;
	do
		n = read(t->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(t->err_fd);
	t->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		waitpid(t->pid, NULL, 0);
		return -e;
	}
	return 0;
}

int operf_target_start(struct operf_target *t, const char *name)
{
	int ret = operf_target_release(t);

	if (!ret)
		return 0;
	op_error("cannot execute '%s': %s", name, strerror(-ret));
	/* a name with a '/' is not looked up in PATH (execvp) */
	if (ret == -ENOENT && !strchr(name, '/'))
		op_hint("is '%s' in your PATH?", name);
	return 3;
}

void operf_target_abort(struct operf_target *t)
{
	if (t->pid <= 0)
		return;
	kill(t->pid, SIGKILL);
	if (t->go_fd >= 0)
		close(t->go_fd);
	if (t->err_fd >= 0)
		close(t->err_fd);
	waitpid(t->pid, NULL, 0);
	t->pid = -1;
}

int operf_target_signalfd(void)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? -errno : fd;
}

int operf_target_exit_status(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return 0;
}
