// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A writer and readers at once, and writers killed with SIGKILL.
 *
 * The writer inserts keys 1, 2, 3, ... in order (count k % 7 + 1), growing
 * the table through several sizes, then adds 1 to every key.  Whatever
 * moment a reader opens the file, it must open cleanly and see a snapshot:
 * exactly keys 1..m for some m, each with its first count or that plus 1,
 * never more keys later than earlier within one open.  Readers that copy
 * the file (struct odb_reader) take the same snapshots.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libutil/op_alloc.h"
#include "tests/lib/op_testdir.h"

#define NR_KEYS 200000

static struct op_testdir dir;

static int setup(void **state)
{
	(void)state;
	return op_testdir_make(&dir);
}

static int teardown(void **state)
{
	(void)state;
	op_testdir_remove(&dir);
	return 0;
}

/* the writer: never returns; 0 exit on success */
static void writer(const char *path, int ready_fd, int slow)
{
	struct odb_file *f;
	odb_key_t k;

	if (odb_file_open(path, ODB_WRITE, NULL, &f))
		_exit(1);
	if (ready_fd >= 0) {
		if (write(ready_fd, "x", 1) != 1)
			_exit(1);
		close(ready_fd);
	}
	for (k = 1; k <= NR_KEYS; k++) {
		if (odb_file_add(f, k, k % 7 + 1))
			_exit(2);
		if (slow && k % 64 == 0)
			usleep(1);
	}
	for (k = 1; k <= NR_KEYS; k++)
		if (odb_file_add(f, k, 1))
			_exit(3);
	_exit(odb_file_close(f) ? 4 : 0);
}

/* the nodes of one snapshot are keys 1..nr; returns nr, -1 if wrong */
static long check_nodes(const struct odb_node *nodes, size_t nr, char *why,
			size_t why_len)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		odb_key_t want = i + 1;
		odb_value_t v = __atomic_load_n(&nodes[i].value, __ATOMIC_RELAXED);

		if (nodes[i].key != want ||
		    (v != want % 7 + 1 && v != want % 7 + 2)) {
			snprintf(why, why_len, "node %zu: key %llu value %u", i + 1,
				 (unsigned long long)nodes[i].key, v);
			return -1;
		}
	}
	return (long)nr;
}

/*
 * Check one snapshot, taken through a mapping or, with r, by copy;
 * returns the number of keys seen, -1 if wrong.
 */
static long check_snapshot(const char *path, struct odb_reader *r, char *why,
			   size_t why_len)
{
	struct odb_snapshot snap;
	struct odb_file *f;
	const struct odb_node *nodes;
	size_t nr;
	long seen;
	int ret;

	if (r) {
		ret = odb_reader_read(r, AT_FDCWD, path, &snap);
		if (ret) {
			snprintf(why, why_len, "read: %s", odb_strerror(ret));
			return -1;
		}
		return check_nodes(snap.nodes, snap.nr, why, why_len);
	}
	ret = odb_file_open(path, ODB_READ, NULL, &f);
	if (ret) {
		snprintf(why, why_len, "open: %s", odb_strerror(ret));
		return -1;
	}
	nodes = odb_file_nodes(f, &nr);
	seen = check_nodes(nodes, nr, why, why_len);
	odb_file_close(f);
	return seen;
}

static void test_reader_during_growth(void **state)
{
	struct odb_reader r = ODB_READER_INIT;
	char path[PATH_MAX], why[256] = "";
	int pipefd[2], status;
	long seen, last = 0, opens = 0, distinct = 0;
	pid_t child;
	char c;

	(void)state;
	op_testdir_file(&dir, "live", path, sizeof(path));
	assert_int_equal(pipe(pipefd), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		close(pipefd[0]);
		writer(path, pipefd[1], 1);
	}
	close(pipefd[1]);
	assert_int_equal(read(pipefd[0], &c, 1), 1);
	close(pipefd[0]);
	for (;;) {
		pid_t done = waitpid(child, &status, WNOHANG);

		/* by mapping and by copy, in turn */
		seen = check_snapshot(path, opens % 2 ? &r : NULL, why, sizeof(why));
		if (seen < 0) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			fail_msg("snapshot %ld: %s", opens, why);
		}
		opens++;
		if (seen != last)
			distinct++;
		last = seen;
		if (done == child)
			break;
	}
	odb_reader_release(&r);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(last, NR_KEYS);
	/* the reader must really have overlapped the writer's growth */
	print_message("%ld opens, %ld distinct snapshots\n", opens, distinct);
	assert_true(distinct >= 3);
}

static void test_kill_writer(void **state)
{
	char path[PATH_MAX], why[256] = "";
	unsigned int seed = (unsigned int)time(NULL);
	int round;

	(void)state;
	print_message("seed %u\n", seed);
	srand(seed);
	op_testdir_file(&dir, "killed", path, sizeof(path));
	for (round = 0; round < 60; round++) {
		pid_t child;
		long seen;

		unlink(path);
		child = fork();
		assert_true(child >= 0);
		if (child == 0)
			writer(path, -1, 0);
		/* kill at a random moment of its life: 0..30 ms */
		usleep((useconds_t)(rand() % 30000));
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		if (access(path, F_OK))
			continue;	/* killed before the file existed */
		seen = check_snapshot(path, NULL, why, sizeof(why));
		if (seen < 0)
			fail_msg("round %d: %s", round, why);
		/* and a writer can carry on where it stopped */
		{
			struct odb_file *f;

			assert_int_equal(odb_file_open(path, ODB_WRITE, NULL, &f), 0);
			assert_int_equal(odb_file_add(f, (odb_key_t)seen + 1,
						      (seen + 1) % 7 + 1), 0);
			assert_int_equal(odb_file_close(f), 0);
			assert_int_equal(check_snapshot(path, NULL, why, sizeof(why)), seen + 1);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_during_growth),
		cmocka_unit_test(test_kill_writer),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
