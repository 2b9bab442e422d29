// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run of known shape in time: steady_work() for SECONDS seconds of
 * wall-clock time, except during the second starting at SPIKE, spent in
 * spike_work() instead.  Time slices of a profile of it must find
 * spike_work() in that second and nowhere else.  Work goes in 1-unit
 * pieces (about 1 ms) between looks at the clock.
 *
 * usage: spike [SECONDS [SPIKE]]	(default 5 and 2)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "burn.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

NOINLINE static uint64_t steady_work(uint64_t x)
{
	return burn(1, x);
}

NOINLINE static uint64_t spike_work(uint64_t x)
{
	return burn(1, x);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 5, at = argc > 2 ? atof(argv[2]) : 2;
	double start = now(), t;
	uint64_t x = 42;

	if (argc > 3 || seconds <= 0 || at < 0) {
		fprintf(stderr, "usage: spike [SECONDS [SPIKE]]\n");
		return 2;
	}
	while ((t = now() - start) < seconds)
		x = t >= at && t < at + 1 ? spike_work(x) : steady_work(x);
	printf("spike: %016llx\n", (unsigned long long)x);
	return 0;
}
