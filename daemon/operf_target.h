/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Starting the command operf profiles.  The child is forked first and
 * waits on a pipe; operf opens its counters on the child (enabled at
 * exec), then lets it go.  A failing exec is reported back through a
 * close-on-exec pipe, so operf can tell "could not start" from "ran".
 */
#ifndef OPERF_TARGET_H
#define OPERF_TARGET_H

#include <sys/types.h>

struct operf_target {
	pid_t pid;		/* the child, -1 before start */
	int go_fd;		/* write end: the child execs when a byte
				   comes, and exits if it closes without one
				   (the tool died holding it) */
	int err_fd;		/* read end: exec's errno, or EOF on success */
};

/*
 * Fork the child for argv (argv[0] searched in PATH).  It waits until
 * operf_target_release().  Returns 0 or a negative errno (fork failed).
 */
int operf_target_fork(struct operf_target *t, char *const argv[]);

/*
 * Let the child exec.  Returns 0 once exec succeeded, or the negative
 * errno of the failed exec (the child has then exited with 127).
 */
int operf_target_release(struct operf_target *t);

/*
 * operf_target_release() for a tool: when exec failed, print why
 * ("cannot execute 'NAME': ...", a PATH hint for a bare name not found)
 * and return 3, the tools' status for a command that could not start;
 * else 0.
 */
int operf_target_start(struct operf_target *t, const char *name);

/* kill and reap a child that was never released */
void operf_target_abort(struct operf_target *t);

/*
 * Block SIGINT, SIGTERM, SIGHUP and SIGCHLD and return a non-blocking,
 * close-on-exec signalfd that reads them (the child unblocks them
 * before exec), or a negative errno.
 */
int operf_target_signalfd(void);

/*
 * The exit status a tool gives for a command that ended with
 * wait_status: its exit code, or 128 + the signal that killed it (as
 * perf gives it).
 */
int operf_target_exit_status(int wait_status);

#endif
