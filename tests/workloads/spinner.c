// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A long-running target for operf --pid: the main thread spins in
 * spin_main(), a second thread in spin_thread(), until killed or until
 * SECONDS of wall time have passed (a limit, so that a forgotten spinner
 * ends by itself).  Once both threads run it writes its pid to PIDFILE
 * (written aside and renamed, so the file is complete when it appears).
 *
 * usage: spinner SECONDS [PIDFILE]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"

static pthread_barrier_t started;
static double deadline;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

NOINLINE static uint64_t spin_main(uint64_t x)
{
	while (now() < deadline)
		x = burn(1, x);
	return x;
}

NOINLINE static uint64_t spin_thread(uint64_t x)
{
	while (now() < deadline)
		x = burn(1, x);
	return x;
}

static void *thread_main(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&started);
	spin_thread(3);
	return NULL;
}

static int write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%ld\n", (long)getpid());
	if (fclose(f))
		return -1;
	return rename(tmp, path);
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 2) {
		fprintf(stderr, "usage: spinner SECONDS [PIDFILE]\n");
		return 2;
	}
	deadline = now() + strtod(argv[1], NULL);
	pthread_barrier_init(&started, NULL, 2);
	if (pthread_create(&t, NULL, thread_main, NULL)) {
		fprintf(stderr, "spinner: cannot create a thread\n");
		return 1;
	}
	pthread_barrier_wait(&started);
	if (argc > 2 && write_pidfile(argv[2])) {
		perror("spinner: cannot write the pid file");
		return 1;
	}
	spin_main(1);
	pthread_join(t, NULL);
	return 0;
}
