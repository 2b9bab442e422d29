// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inlined hot code, for opannotate's tests (e2e/t0325): inline_outer(), a
 * NOINLINE function, spends its time in a two-level chain of always_inline
 * helpers: inl_round() runs the loop and calls inl_step() for every step.
 * Neither helper is used anywhere else, so every sample on their lines is
 * one of inline_outer's.  inline_other() does a third of that work in
 * burn.h's loop, apart.  About 0.4 s of CPU, interleaved in 100 passes.
 */
#include <stdio.h>

#include "burn.h"

#define PASSES 100

static inline __attribute__((always_inline)) uint64_t inl_step(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

static inline __attribute__((always_inline)) uint64_t inl_round(uint64_t x,
								uint64_t n)
{
	while (n--)
		x = inl_step(x);
	return x;
}

NOINLINE static uint64_t inline_outer(uint64_t x)
{
	x |= 1;
	x = inl_round(x, 3 * BURN_STEPS_PER_UNIT);
	burn_sink = x;
	return x;
}

NOINLINE static uint64_t inline_other(uint64_t x)
{
	return burn(1, x);
}

int main(void)
{
	uint64_t x = 42;
	int pass;

	for (pass = 0; pass < PASSES; pass++) {
		x = inline_outer(x);
		x = inline_other(x);
	}
	printf("inline: %016llx\n", (unsigned long long)x);
	return 0;
}
