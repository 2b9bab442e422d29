// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A parent that forks two children: each child spends about 0.13 s of CPU
 * in child_work(), which only children run; the parent spends about
 * 0.06 s in parent_work() and then waits for both.
 *
 * usage: forker
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burn.h"

#define NR_CHILDREN 2

NOINLINE static uint64_t child_work(uint64_t x)
{
	return burn(130, x);
}

NOINLINE static uint64_t parent_work(uint64_t x)
{
	return burn(60, x);
}

int main(void)
{
	pid_t pids[NR_CHILDREN];
	int i, status, failed = 0;

	for (i = 0; i < NR_CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("forker: fork");
			return 1;
		}
		if (pids[i] == 0) {
			child_work((uint64_t)i + 1);
			_exit(0);
		}
	}
	parent_work(7);
	for (i = 0; i < NR_CHILDREN; i++)
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	printf("forker: %d children\n", NR_CHILDREN);
	return failed;
}
