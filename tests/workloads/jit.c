// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JIT code as node --perf-basic-prof or a JVM agent leaves it: two
 * functions generated into anonymous executable memory, jit_hot and
 * jit_cold, named in /tmp/perf-PID.map ("START SIZE NAME" lines), run
 * 3:1 in 100 interleaved passes (about 0.4 s of CPU).  The map file is
 * left behind, as those runtimes leave it.  x86-64 only: elsewhere it
 * says so and exits 77.
 *
 * usage: jit
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jit.h"

#if defined(__x86_64__)
/* uint64_t f(uint64_t n): loop n times, return 0 */
static const unsigned char loop_code[] = {
	0x48, 0x89, 0xf8,	/* mov %rdi,%rax */
	0x48, 0xff, 0xc8,	/* 1: dec %rax */
	0x75, 0xfb,		/* jne 1b */
	0xc3,			/* ret */
};

int main(void)
{
	size_t size = 0x1000;
	unsigned char *code = mmap(NULL, size, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *map;

	if (code == MAP_FAILED) {
		perror("jit: mmap");
		return 1;
	}
	memcpy(code, loop_code, sizeof(loop_code));
	memcpy(code + COLD_AT, loop_code, sizeof(loop_code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map) {
		perror("jit: /tmp/perf-PID.map");
		return 1;
	}
	fprintf(map, "%lx %zx jit_hot\n", (unsigned long)(uintptr_t)code, sizeof(loop_code));
	fprintf(map, "%lx %zx jit_cold\n", (unsigned long)(uintptr_t)(code + COLD_AT),
		sizeof(loop_code));
	if (fclose(map)) {
		perror("jit: /tmp/perf-PID.map");
		return 1;
	}
	jit_run(code);
	printf("jit: pid %d, map %s\n", (int)getpid(), path);
	return 0;
}
#else
int main(void)
{
	fputs("jit: generated code for x86-64 only\n", stderr);
	return 77;
}
#endif
