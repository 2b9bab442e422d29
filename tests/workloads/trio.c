// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Work split 3:2:1 between trio_a(), trio_b() and trio_c(), interleaved
 * in 40 passes so that a change in machine load falls on all alike:
 * about 1.2 s of CPU.  --slower makes trio_b 20 % slower (12 units a
 * pass instead of 10), the change a differential profile must find.
 *
 * usage: trio [--slower]
 */
#include <stdio.h>
#include <string.h>

#include "burn.h"

#define PASSES 40

NOINLINE static uint64_t trio_a(uint64_t x)
{
	return burn(15, x);
}

NOINLINE static uint64_t trio_b(uint64_t x, uint64_t units)
{
	return burn(units, x);
}

NOINLINE static uint64_t trio_c(uint64_t x)
{
	return burn(5, x);
}

int main(int argc, char **argv)
{
	uint64_t x = 42, b_units = 10;
	int pass;

	if (argc > 1 && !strcmp(argv[1], "--slower"))
		b_units = 12;
	else if (argc > 1) {
		fprintf(stderr, "usage: trio [--slower]\n");
		return 2;
	}
	for (pass = 0; pass < PASSES; pass++) {
		x = trio_a(x);
		x = trio_b(x, b_units);
		x = trio_c(x);
	}
	printf("trio: %016llx\n", (unsigned long long)x);
	return 0;
}
