// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libdb update throughput: N count updates over K keys with a Zipf-like
 * skew (a few hot addresses, a long tail, as in a real profile), into a
 * new sample file.  The key stream is generated before timing.  Prints
 * the median of R runs in updates per second.
 *
 * usage: odb_bench [UPDATES [KEYS [RUNS]]]   (default 10000000 50000 5)
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "libdb/odb.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* keys[i] for i < nr_updates, drawn with P(rank r) ~ 1 / r^1.1 */
static odb_key_t *make_stream(size_t nr_updates, size_t nr_keys)
{
	double *cdf = op_xcalloc(nr_keys, sizeof(*cdf)), sum = 0;
	odb_key_t *addr = op_xcalloc(nr_keys, sizeof(*addr));
	odb_key_t *keys = op_xcalloc(nr_updates, sizeof(*keys));
	size_t i;

	for (i = 0; i < nr_keys; i++) {
		sum += 1.0 / pow((double)(i + 1), 1.1);
		cdf[i] = sum;
		/* addresses spread over a 16 MiB text, as file offsets */
		addr[i] = 0x1000 + (rng() & 0xffffff);
	}
	for (i = 0; i < nr_updates; i++) {
		double u = (double)(rng() >> 11) / 9007199254740992.0 * sum;
		size_t lo = 0, hi = nr_keys - 1;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		keys[i] = addr[lo];
	}
	free(cdf);
	free(addr);
	return keys;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	uint64_t nr_updates = 10000000, nr_keys = 50000, runs = 5;
	char dir[PATH_MAX], path[PATH_MAX];
	double *rates;
	odb_key_t *keys;
	size_t nodes = 0, slots = 0;
	uint64_t r;

	if ((argc > 1 && op_parse_u64(argv[1], 10, 1000000000, &nr_updates)) ||
	    (argc > 2 && op_parse_u64(argv[2], 10, 100000000, &nr_keys)) ||
	    (argc > 3 && op_parse_u64(argv[3], 10, 1000, &runs)) ||
	    !nr_keys || !runs) {
		fprintf(stderr, "usage: odb_bench [UPDATES [KEYS [RUNS]]]\n");
		return 2;
	}
	if (snprintf(dir, sizeof(dir), "%s/odb_bench.XXXXXX",
		     getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >= (int)sizeof(dir) ||
	    !mkdtemp(dir))
		op_die_errno(1, errno, "cannot make a directory in '%s'", dir);
	if (snprintf(path, sizeof(path), "%s/cpu_clk_unhalted.100000.0.all.all.all",
		     dir) >= (int)sizeof(path))
		op_die(1, "path too long: '%s'", dir);
	keys = make_stream(nr_updates, nr_keys);
	rates = op_xcalloc(runs, sizeof(*rates));
	for (r = 0; r < runs; r++) {
		struct odb_file *f;
		double t0, t1;
		uint64_t i;
		int ret;

		unlink(path);
		ret = odb_file_open(path, ODB_WRITE, NULL, &f);
		if (ret)
			op_die(1, "cannot create '%s': %s", path, odb_strerror(ret));
		t0 = now();
		for (i = 0; i < nr_updates; i++)
			if (odb_file_add(f, keys[i], 1))
				op_die(1, "update failed");
		t1 = now();
		odb_file_nodes(f, &nodes);
		slots = odb_file_nr_slots(f);
		odb_file_close(f);
		rates[r] = (double)nr_updates / (t1 - t0);
	}
	qsort(rates, runs, sizeof(*rates), cmp_double);
	printf("libdb: %" PRIu64 " updates over %" PRIu64 " skewed keys (%zu distinct hit), %zu slots\n",
	       nr_updates, nr_keys, nodes, slots);
	printf("libdb: updates/s median %.1f M (min %.1f M, max %.1f M, %" PRIu64 " runs)\n",
	       rates[runs / 2] / 1e6, rates[0] / 1e6, rates[runs - 1] / 1e6, runs);
	printf("libdb: target 50 M updates/s: ratio %.2f\n", rates[runs / 2] / 50e6);
	op_remove_tree(dir);
	free(keys);
	free(rates);
	return 0;
}
