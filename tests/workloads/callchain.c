// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A call chain for --callgraph: main() calls cg_caller() once, which calls
 * the hot leaf cg_leaf() 100 times (about 0.3 s of CPU in all).  Each call
 * is followed by more work in the caller, so no call becomes a jump and
 * every frame stays on the stack.
 *
 * usage: callchain
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "burn.h"

/*
 * Asking for its frame address makes even a leaf set up a frame pointer
 * (compilers omit it in leaves otherwise, -fno-omit-frame-pointer or
 * not), so the walk from its frame finds cg_caller() and not main().
 */
static void *volatile leaf_frame;

NOINLINE static uint64_t cg_leaf(uint64_t x)
{
	leaf_frame = __builtin_frame_address(0);
	return burn(3, x);
}

NOINLINE static uint64_t cg_caller(uint64_t x)
{
	uint64_t acc = 0;
	int i;

	for (i = 0; i < 100; i++)
		acc += cg_leaf(x + (uint64_t)i);
	return acc;
}

int main(void)
{
	uint64_t r = cg_caller(11);

	printf("callchain: %016llx\n", (unsigned long long)r);
	return 0;
}
