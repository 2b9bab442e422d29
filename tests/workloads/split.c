// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Work split 3:1 between split_three() and split_one(), interleaved in
 * 100 passes so that a change in machine load falls on both alike: about
 * 0.4 s of CPU, 75 % of it in split_three.
 *
 * usage: split [--kill-self]
 *   --kill-self   end by SIGKILL to itself after the work (a target that
 *                 dies by a signal)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "burn.h"

#define PASSES 100

NOINLINE static uint64_t split_three(uint64_t x)
{
	return burn(3, x);
}

NOINLINE static uint64_t split_one(uint64_t x)
{
	return burn(1, x);
}

int main(int argc, char **argv)
{
	uint64_t x = 42;
	int pass;

	for (pass = 0; pass < PASSES; pass++) {
		x = split_three(x);
		x = split_one(x);
	}
	if (argc > 1 && !strcmp(argv[1], "--kill-self"))
		kill(getpid(), SIGKILL);
	printf("split: %016llx\n", (unsigned long long)x);
	return 0;
}
