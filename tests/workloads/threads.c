// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two threads doing different known amounts of work at the same time:
 * thread_three() about 0.27 s of CPU, thread_one() about 0.09 s (3:1).
 * The main thread only starts and joins them.  The threads name
 * themselves "three" and "one" (what reports label their columns with).
 *
 * usage: threads
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

#include "burn.h"

static pthread_barrier_t start;

NOINLINE static void *thread_three(void *arg)
{
	uint64_t x = (uint64_t)(uintptr_t)arg;

	pthread_setname_np(pthread_self(), "three");
	pthread_barrier_wait(&start);
	x = burn(270, x);
	return (void *)(uintptr_t)x;
}

NOINLINE static void *thread_one(void *arg)
{
	uint64_t x = (uint64_t)(uintptr_t)arg;

	pthread_setname_np(pthread_self(), "one");
	pthread_barrier_wait(&start);
	x = burn(90, x);
	return (void *)(uintptr_t)x;
}

int main(void)
{
	pthread_t a, b;
	void *ra, *rb;

	pthread_barrier_init(&start, NULL, 2);
	if (pthread_create(&a, NULL, thread_three, (void *)3) ||
	    pthread_create(&b, NULL, thread_one, (void *)1)) {
		fprintf(stderr, "threads: cannot create threads\n");
		return 1;
	}
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	printf("threads: %p %p\n", ra, rb);
	return 0;
}
