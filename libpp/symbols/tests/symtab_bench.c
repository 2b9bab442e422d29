// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Time loading one binary's symbol table and what it adds to RSS:
 *
 *	tests/symtab_bench /usr/bin/node [ROUNDS]
 *
 * Prints the best load time of ROUNDS (default 5; the first round, in a
 * fresh process, pays the page faults), the symbols, the RSS the table
 * adds while loaded (anonymous and file-backed, measured on the first
 * round), and the cost of a million random lookups.  Not a test: the
 * time that matters is that of the whole opreport -l (bench/opreport).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_parse.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* a "Name:   N kB" line of /proc/self/status, in KiB */
static long status_kib(const char *name)
{
	char line[256];
	long kib = -1;
	size_t len = strlen(name);
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':')
			kib = strtol(line + len + 1, NULL, 10);
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };
	double best = 1e9, t0, lookups;
	uint32_t rounds = 5, r;
	uint64_t x = 88172645463325252ull, hits = 0;
	long anon0, file0, anon1 = 0, file1 = 0;
	struct pp_symtab *t;
	int i;

	if (argc < 2 || (argc > 2 && op_parse_u32(argv[2], 10, &rounds)) || !rounds) {
		fprintf(stderr, "usage: %s BINARY [ROUNDS]\n", argv[0]);
		return 2;
	}
	id.name = argv[1];
	anon0 = status_kib("RssAnon");
	file0 = status_kib("RssFile");
	for (r = 0; r < rounds; r++) {
		t0 = now_ms();
		if (pp_symtab_load(&id, false, 0, NULL, &t)) {
			fprintf(stderr, "%s: out of memory\n", argv[0]);
			return 1;
		}
		if (now_ms() - t0 < best)
			best = now_ms() - t0;
		if (!r) {
			anon1 = status_kib("RssAnon");
			file1 = status_kib("RssFile");
		}
		if (r + 1 < rounds)
			pp_symtab_free(t);
	}
	t0 = now_ms();
	for (i = 0; i < 1000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		hits += pp_symtab_lookup(t, x % (t->file_size ? t->file_size : 1)) != NULL;
	}
	lookups = now_ms() - t0;
	printf("%s: %zu symbols (source %d%s%s), load %.2f ms (best of %" PRIu32
	       "), RSS +%ld KiB anonymous +%ld KiB file, 1M lookups %.1f ms (%"
	       PRIu64 " hits)\n", argv[1], t->nr, (int)t->source,
	       t->missing ? ", " : "", t->missing ? t->missing : "", best, rounds,
	       anon1 - anon0, file1 - file0, lookups, hits);
	pp_symtab_free(t);
	return 0;
}
