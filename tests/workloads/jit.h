/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the JIT workloads (jit.c, jitgen.c) share: where their two
 * generated functions lie in the region, and how they are run.
 */
#ifndef WORKLOADS_JIT_H
#define WORKLOADS_JIT_H

#include <stdint.h>

#define PASSES 100
#define UNIT 1000000ull		/* loop turns: about 1 ms */
#define COLD_AT 0x400		/* jit_cold's offset in the region */

/* uint64_t f(uint64_t n): loop n times */
typedef uint64_t (*jit_fn)(uint64_t);

/* jit_hot at code and jit_cold at code + COLD_AT, 3:1, interleaved */
static inline void jit_run(const unsigned char *code)
{
	jit_fn hot = (jit_fn)(uintptr_t)code;
	jit_fn cold = (jit_fn)(uintptr_t)(code + COLD_AT);
	int i;

	for (i = 0; i < PASSES; i++) {
		hot(3 * UNIT);
		cold(UNIT);
	}
}

#endif
