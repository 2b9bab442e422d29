// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * operf_target: a released child runs its command; a failed exec is
 * told back (-ENOENT); an aborted child never runs it; releasing a child
 * that was killed meanwhile does not kill the tool (SIGPIPE); a child whose
 * tool dies before releasing it (SIGKILL: no abort can run) never runs
 * it either, rather than running orphaned, as OProfile's ocount's did.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/operf_target.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;
static char mark[sizeof(dir.path) + 16];

/* the directory under $TMPDIR where a command that runs leaves a mark */
static int setup(void **state)
{
	(void)state;
	if (op_testdir_make(&dir))
		return -1;
	return op_testdir_file(&dir, "ran", mark, sizeof(mark)) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(mark);
	return rmdir(dir.path);
}

static bool ran(void)
{
	struct stat st;

	return stat(mark, &st) == 0;
}

static char touch_name[] = "touch";
static char *const touch_argv[] = { touch_name, mark, NULL };

static void test_release_runs(void **state)
{
	struct operf_target t;
	int status;

	(void)state;
	unlink(mark);
	assert_int_equal(operf_target_fork(&t, touch_argv), 0);
	assert_int_equal(operf_target_release(&t), 0);
	assert_int_equal(waitpid(t.pid, &status, 0), t.pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(ran());
}

static void test_exec_fails(void **state)
{
	static char name[] = "/nonexistent/command";
	char *const argv[] = { name, NULL };
	struct operf_target t;
	int status;

	(void)state;
	assert_int_equal(operf_target_fork(&t, argv), 0);
	assert_int_equal(operf_target_release(&t), -ENOENT);
	/* release has reaped it */
	assert_int_equal(waitpid(t.pid, &status, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void test_abort_never_runs(void **state)
{
	struct operf_target t;

	(void)state;
	unlink(mark);
	assert_int_equal(operf_target_fork(&t, touch_argv), 0);
	operf_target_abort(&t);
	assert_false(ran());
}

/* a held child killed by someone else: releasing it does not SIGPIPE us */
static void test_child_gone(void **state)
{
	struct operf_target t;
	int status;

	(void)state;
	unlink(mark);
	assert_int_equal(operf_target_fork(&t, touch_argv), 0);
	assert_int_equal(kill(t.pid, SIGKILL), 0);
	assert_int_equal(waitpid(t.pid, &status, 0), t.pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_int_equal(operf_target_release(&t), 0);
	assert_false(ran());
}

/*
 * The tool is a process of its own that forks the target and is killed
 * with SIGKILL while the target is held; the target is its child, so
 * this test sees it only through the file its command would make.
 */
static void test_tool_killed(void **state)
{
	struct operf_target t;
	int pipefd[2], status, i;
	pid_t tool, target = 0;

	(void)state;
	unlink(mark);
	assert_int_equal(pipe(pipefd), 0);
	tool = fork();
	assert_true(tool >= 0);
	if (tool == 0) {
		close(pipefd[0]);
		if (operf_target_fork(&t, touch_argv))
			_exit(1);
		if (write(pipefd[1], &t.pid, sizeof(t.pid)) != sizeof(t.pid))
			_exit(1);
		pause();
		_exit(0);
	}
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], &target, sizeof(target)), sizeof(target));
	close(pipefd[0]);
	assert_int_equal(kill(tool, SIGKILL), 0);
	assert_int_equal(waitpid(tool, &status, 0), tool);
	/* the held target sees its tool gone: it must end, not run */
	for (i = 0; i < 200 && kill(target, 0) == 0; i++)
		usleep(10000);
	usleep(100000);
	assert_false(ran());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release_runs),
		cmocka_unit_test(test_exec_fails),
		cmocka_unit_test(test_abort_never_runs),
		cmocka_unit_test(test_child_gone),
		cmocka_unit_test(test_tool_killed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
