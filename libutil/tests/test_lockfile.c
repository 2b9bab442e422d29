// SPDX-License-Identifier: GPL-2.0-or-later
/* op_lockfile: exclusive, reports the holder, freed when the holder dies. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "libutil/op_lockfile.h"
#include "tests/lib/op_testdir.h"

static void test_lock(void **state)
{
	struct op_testdir dir;
	struct op_lockfile a = OP_LOCKFILE_INIT;
	char p[PATH_MAX];
	int pipefd[2];
	pid_t child, holder;
	char c;

	(void)state;
	assert_int_equal(op_testdir_make(&dir), 0);
	op_testdir_file(&dir, "lock", p, sizeof(p));
	assert_int_equal(op_lockfile_holder(p, &holder), 0);
	assert_int_equal(holder, 0);

	/* a child takes the lock and waits; we must see it busy */
	assert_int_equal(pipe(pipefd), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct op_lockfile b = OP_LOCKFILE_INIT;

		if (op_lockfile_acquire(&b, p, NULL))
			_exit(1);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	assert_int_equal(read(pipefd[0], &c, 1), 1);
	assert_int_equal(op_lockfile_acquire(&a, p, &holder), -EBUSY);
	assert_int_equal(holder, child);
	assert_int_equal(op_lockfile_holder(p, &holder), 0);
	assert_int_equal(holder, child);

	/* killed holder: the lock is free again, file or no file */
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_int_equal(op_lockfile_acquire(&a, p, &holder), 0);
	assert_int_equal(op_lockfile_holder(p, &holder), 0);
	assert_int_equal(holder, getpid());
	op_lockfile_release(&a);
	op_lockfile_release(&a);
	assert_int_equal(op_lockfile_holder(p, &holder), 0);
	assert_int_equal(holder, 0);
	close(pipefd[0]);
	close(pipefd[1]);
	op_testdir_remove(&dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
