// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Spend about 0.05 s of CPU in execer_work(), then exec another program
 * (a workload), so that one process runs two binaries one after the other.
 *
 * usage: execer PROGRAM [ARGS...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "burn.h"

NOINLINE static uint64_t execer_work(uint64_t x)
{
	return burn(50, x);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: execer PROGRAM [ARGS...]\n");
		return 2;
	}
	execer_work(5);
	fflush(stdout);
	execv(argv[1], argv + 1);
	perror("execer: execv");
	return 127;
}
