// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bundled demo program: CPU work split 3:1 between two functions, with
 * a little in a third, so a profile of it has a known shape:
 * checksum_blocks ~ 75 %, sort_words ~ 25 %, a trace in main and libc.
 * How long each takes depends on the machine and the compiler, so the
 * program first measures both and gives sort_words the rounds that take
 * a third of checksum_blocks' time.
 *
 * usage: demo [SECONDS]   (default 1.0; work runs until that much CPU time)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Kept apart and called every time: GCC's noipa also stops it from
 * finding the functions pure and merging repeated calls, which would
 * make their measured cost a fraction of the real one.
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 8
#define NOINLINE __attribute__((noipa))
#else
#define NOINLINE __attribute__((noinline))
#endif

static unsigned char block[1 << 16];
static uint32_t words[4096];

/* a simple rolling checksum: three units of work */
NOINLINE static uint64_t checksum_blocks(unsigned rounds)
{
	uint64_t a = 1, b = 0;
	unsigned r, i;

	for (r = 0; r < rounds * 3; r++)
		for (i = 0; i < sizeof(block); i++) {
			a = (a + block[i]) % 65521;
			b = (b + a) % 65521;
		}
	return (b << 16) | a;
}

/* insertion sort of a small array: one unit of work */
NOINLINE static uint64_t sort_words(unsigned rounds)
{
	uint64_t sum = 0;
	unsigned r;

	for (r = 0; r < rounds; r++) {
		size_t i, j, n = 360;

		for (i = 0; i < n; i++)
			words[i] = (uint32_t)(i * 2654435761u + r);
		for (i = 1; i < n; i++) {
			uint32_t v = words[i];

			for (j = i; j > 0 && words[j - 1] > v; j--)
				words[j] = words[j - 1];
			words[j] = v;
		}
		sum += words[n / 2];
	}
	return sum;
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the rounds of sort_words that take a third of checksum_blocks(1)'s time */
static unsigned calibrate(uint64_t *sink)
{
	double t0, check, sort;
	unsigned k, rounds;

	/* once each first: the timed calls find caches and pages warm */
	*sink += checksum_blocks(1) + sort_words(10);
	t0 = cpu_seconds();
	for (k = 0; k < 8; k++)
		*sink += checksum_blocks(1);
	check = cpu_seconds() - t0;
	t0 = cpu_seconds();
	for (k = 0; k < 8; k++)
		*sink += sort_words(10);
	sort = cpu_seconds() - t0;
	if (sort <= 0.0)
		return 10;
	rounds = (unsigned)(10.0 * check / (3.0 * sort) + 0.5);
	return rounds ? rounds : 1;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? strtod(argv[1], NULL) : 1.0;
	double start = cpu_seconds();
	uint64_t result = 0;
	unsigned passes = 0, rounds;

	for (size_t i = 0; i < sizeof(block); i++)
		block[i] = (unsigned char)(i * 131 + 7);
	rounds = calibrate(&result);
	while (cpu_seconds() - start < seconds) {
		result = result * 31 + checksum_blocks(1);
		result = result * 31 + sort_words(rounds);
		passes++;
	}
	printf("demo: %u passes, result %016llx\n", passes,
	       (unsigned long long)result);
	return 0;
}
