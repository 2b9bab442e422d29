// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fork storm: NR short-lived children (default 2000), each spending
 * about 1 ms of CPU in storm_child_work() and exiting; at most 16 run at
 * once.  The parent does no work of its own: it forks and waits for all.
 *
 * usage: forkstorm [NR]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burn.h"

#define IN_FLIGHT 16

NOINLINE static uint64_t storm_child_work(uint64_t x)
{
	return burn(1, x);
}

/* reap one child; false if it failed */
static int reap_one(void)
{
	int status;

	if (wait(&status) < 0)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv)
{
	long nr = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	long i, running = 0, failed = 0;

	if (nr < 1 || nr > 100000) {
		fprintf(stderr, "usage: forkstorm [NR]\n");
		return 2;
	}
	for (i = 0; i < nr; i++) {
		pid_t pid;

		if (running == IN_FLIGHT) {
			failed += !reap_one();
			running--;
		}
		pid = fork();
		if (pid < 0) {
			perror("forkstorm: fork");
			failed++;
			break;
		}
		if (pid == 0) {
			storm_child_work((uint64_t)i);
			_exit(0);
		}
		running++;
	}
	while (running--)
		failed += !reap_one();
	printf("forkstorm: %ld children, %ld failed\n", i, failed);
	return failed != 0;
}
