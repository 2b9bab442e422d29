// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process churn for bench/churn: start COUNT short-lived processes (each
 * execs PROGRAM, default /bin/true), at most 8 at a time, as fast as the
 * machine allows.
 *
 * usage: spawn COUNT [PROGRAM]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define IN_FLIGHT 8

int main(int argc, char **argv)
{
	const char *prog = argc > 2 ? argv[2] : "/bin/true";
	long count, started = 0, running = 0;

	if (argc < 2 || (count = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: spawn COUNT [PROGRAM]\n");
		return 2;
	}
	while (started < count || running) {
		if (started < count && running < IN_FLIGHT) {
			pid_t pid = fork();

			if (pid == 0) {
				execl(prog, prog, (char *)NULL);
				_exit(127);
			}
			if (pid < 0) {
				perror("spawn: fork");
				return 1;
			}
			started++;
			running++;
			continue;
		}
		if (wait(NULL) > 0)
			running--;
	}
	return 0;
}
