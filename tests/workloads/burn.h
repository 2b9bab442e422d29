/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CPU work of the e2e workloads: a fixed number of xorshift steps, a
 * serial dependency chain no compiler folds or vectorises, so the time a
 * function takes is proportional to the units it is asked for at any -O
 * level (about 2 ns a step: one unit is about 1 ms of CPU).
 *
 * burn() is always inlined, so each hot function has its own copy of the
 * loop and its samples fall inside that function, not in a shared helper.
 * Hot functions are NOINLINE, with known names the tests look for.
 */
#ifndef WORKLOADS_BURN_H
#define WORKLOADS_BURN_H

#include <stdint.h>

/*
 * GCC's noipa also keeps identical functions apart (-fipa-icf at -O2
 * would make spinner's spin_main and spin_thread one symbol); clang has
 * neither noipa nor identical-code folding.
 */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#elif defined(__GNUC__) && __GNUC__ >= 8
#define NOINLINE __attribute__((noipa))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

#define BURN_STEPS_PER_UNIT 500000u

/* results go here so that no work is optimised away */
static volatile uint64_t burn_sink;

static inline __attribute__((always_inline)) uint64_t burn(uint64_t units,
							   uint64_t x)
{
	uint64_t n = units * BURN_STEPS_PER_UNIT;

	x |= 1;
	while (n--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	burn_sink = x;
	return x;
}

#endif
