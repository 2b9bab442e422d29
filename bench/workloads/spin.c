// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark workload: a fixed amount of CPU work (not a fixed time, so a
 * profiler's overhead shows as longer wall time), in one or more threads.
 * usage: spin ITERATIONS [THREADS]  (built by the bench scripts with cc)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static unsigned long iterations;

__attribute__((noinline)) static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	return x;
}

static void *work(void *arg)
{
	uint64_t acc = (uintptr_t)arg;
	unsigned long i;

	for (i = 0; i < iterations; i++)
		acc = mix(acc + i);
	return (void *)(uintptr_t)acc;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1, t;
	pthread_t tid[64];
	uint64_t sum = 0;

	if (argc < 2 || threads < 1 || threads > 64) {
		fprintf(stderr, "usage: workload ITERATIONS [THREADS]\n");
		return 2;
	}
	iterations = strtoul(argv[1], NULL, 10);
	for (t = 1; t < threads; t++)
		pthread_create(&tid[t], NULL, work, (void *)(uintptr_t)t);
	sum = (uintptr_t)work(NULL);
	for (t = 1; t < threads; t++) {
		void *r;

		pthread_join(tid[t], &r);
		sum += (uintptr_t)r;
	}
	printf("%llx\n", (unsigned long long)sum);
	{
		/* our own CPU time, for telling the profiler's cost apart */
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "cpu %.4f\n",
			(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
			(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6);
	}
	return 0;
}
