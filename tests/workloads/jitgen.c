// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JIT code as node --perf-prof or a JVM or .NET agent leaves it: two
 * functions generated into anonymous executable memory, jit_hot and
 * jit_cold, described in a jitdump file DIR/jit-PID.dump (a header and
 * one code load record each, with their code bytes), which is then
 * mapped executable, as those runtimes map it, so that a recorder sees
 * its path.  The functions run 3:1 in 100 interleaved passes (about 0.4 s
 * of CPU).  The dump is left behind.  x86-64 only: elsewhere it says so
 * and exits 77.
 *
 * usage: jitgen [DIR [MODE]]   (DIR: the current directory by default)
 * MODE badmagic: the dump's magic is wrong; foreign: the dump is given
 * to user and group 65534 (root only), as a file planted by another user;
 * reload: then new code, jit_new, is loaded where jit_cold was and the
 * passes run again, jit_new in jit_cold's place: jit_hot then has 6 units
 * to jit_new's 2 (its own and jit_cold's), both measured over the same
 * stretch of time, so a machine that slows down midway shifts neither.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jit.h"

#if defined(__x86_64__)
/* uint64_t f(uint64_t n): add 1 to a register n times, return it */
static const unsigned char loop_code[] = {
	0x48, 0x89, 0xf9,	/* mov %rdi,%rcx */
	0x31, 0xc0,		/* xor %eax,%eax */
	0x83, 0xc0, 0x01,	/* 1: add $0x1,%eax */
	0x48, 0xff, 0xc9,	/* dec %rcx */
	0x75, 0xf8,		/* jne 1b */
	0xc3,			/* ret */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int put(int fd, const void *p, size_t len)
{
	return write(fd, p, len) == (ssize_t)len ? 0 : -1;
}

/* the jitdump header: magic, version, size, machine, pad, pid, time, flags */
static int put_header(int fd, uint32_t magic)
{
	uint32_t h[6] = { magic, 1, 40, 62 /* EM_X86_64 */, 0, (uint32_t)getpid() };
	uint64_t t[2] = { now_ns(), 0 };

	return put(fd, h, sizeof(h)) || put(fd, t, sizeof(t));
}

/* a code load record: header, pid, tid, vma, address, size, index, name, code */
static int put_load(int fd, const char *name, const void *code, size_t size,
		    uint64_t index)
{
	uint32_t id_size[2] = { 0, (uint32_t)(16 + 40 + strlen(name) + 1 + size) };
	uint32_t ids[2] = { (uint32_t)getpid(), (uint32_t)syscall(SYS_gettid) };
	uint64_t addr = (uint64_t)(uintptr_t)code;
	uint64_t f[5] = { now_ns(), addr, addr, size, index };

	return put(fd, id_size, sizeof(id_size)) || put(fd, &f[0], 8) ||
	       put(fd, ids, sizeof(ids)) || put(fd, &f[1], 32) ||
	       put(fd, name, strlen(name) + 1) || put(fd, code, size);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	const char *mode = argc > 2 ? argv[2] : "";
	unsigned char *code = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE | PROT_EXEC,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[4096];
	void *marker;
	int fd;

	if (code == MAP_FAILED) {
		perror("jitgen: mmap");
		return 1;
	}
	memcpy(code, loop_code, sizeof(loop_code));
	memcpy(code + COLD_AT, loop_code, sizeof(loop_code));
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || put_header(fd, strcmp(mode, "badmagic") ? 0x4A695444 : 0x12345678) ||
	    put_load(fd, "jit_hot", code, sizeof(loop_code), 1) ||
	    put_load(fd, "jit_cold", code + COLD_AT, sizeof(loop_code), 2)) {
		perror(path);
		return 1;
	}
	if (!strcmp(mode, "foreign") && fchown(fd, 65534, 65534)) {
		perror("jitgen: chown of the jitdump");
		return 77;
	}
	/* what tells a recorder where the dump is */
	marker = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (marker == MAP_FAILED) {
		perror("jitgen: mmap of the jitdump");
		return 1;
	}
	jit_run(code);
	if (!strcmp(mode, "reload")) {
		/* new code where jit_cold was, run as jit_cold ran */
		memcpy(code + COLD_AT, loop_code, sizeof(loop_code));
		if (put_load(fd, "jit_new", code + COLD_AT, sizeof(loop_code), 3)) {
			perror(path);
			return 1;
		}
		jit_run(code);
	}
	munmap(marker, 4096);
	close(fd);
	printf("jitgen: pid %d, dump %s\n", (int)getpid(), path);
	return 0;
}
#else
int main(void)
{
	fputs("jitgen: generated code for x86-64 only\n", stderr);
	return 77;
}
#endif
