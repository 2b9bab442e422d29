// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Time the inline chains of every key of a sample file, the way
 * opannotate asks for them:
 *
 *	tests/inline_bench BINARY SAMPLE_FILE [ROUNDS]
 *
 * e.g. libc.so.6 and its sample file from the bench session
 * (tests/tools/mksamples.py tests/tools/fixtures/bench.json --out DIR).
 * Prints the time to load the table and to open its DWARF, the first
 * pass over the keys (which builds the inline table of every CU it
 * meets), the best of the later passes, the same for source lines, and
 * how many keys are in inlined code.  Not a test.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "libdb/odb.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_parse.h"

#define MAX_DEPTH 64

struct counts {
	size_t inlined;		/* keys in inlined code */
	size_t deepest;		/* the longest chain */
	size_t levels;		/* all chains' levels */
	size_t lines;		/* keys with a source line */
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* the distinct keys of the sample file at path */
static int read_keys(const char *path, uint64_t **keys, size_t *nr)
{
	struct odb_file *f;
	struct odb_iter it;
	odb_key_t key;
	odb_value_t value;
	size_t n = 0;
	int ret = odb_file_open(path, ODB_READ, NULL, &f);

	if (ret)
		return ret;
	it = odb_iter_init(f);
	*keys = op_xcalloc(it.nr ? it.nr : 1, sizeof(**keys));
	while (odb_iter_next(&it, &key, &value))
		(*keys)[n++] = key;
	*nr = n;
	odb_file_close(f);
	return 0;
}

static double pass_inlines(struct pp_symtab *t, const uint64_t *keys, size_t nr,
			   struct counts *c)
{
	struct pp_inline v[MAX_DEPTH];
	double t0 = now_ms();
	const char *why;
	size_t i;

	c->inlined = c->deepest = c->levels = 0;
	for (i = 0; i < nr; i++) {
		int n = pp_symtab_inlines(t, keys[i], v, MAX_DEPTH, &why);

		if (n > 0) {
			c->inlined++;
			c->levels += (size_t)n;
			if ((size_t)n > c->deepest)
				c->deepest = (size_t)n;
		}
	}
	return now_ms() - t0;
}

static double pass_lines(struct pp_symtab *t, const uint64_t *keys, size_t nr,
			 struct counts *c)
{
	double t0 = now_ms();
	const char *file, *why;
	unsigned line;
	size_t i;

	c->lines = 0;
	for (i = 0; i < nr; i++)
		c->lines += !pp_symtab_line(t, keys[i], &file, &line, &why);
	return now_ms() - t0;
}

int main(int argc, char **argv)
{
	struct odb_image_id id = { .kind = ODB_IMAGE_FILE };
	double load, open, first, best = 1e9, lines_first, lines_best = 1e9, ms;
	const char *why;
	struct pp_symtab *t;
	struct counts c;
	uint32_t rounds = 5, r;
	uint64_t *keys;
	size_t nr;
	int ret;

	if (argc < 3 || (argc > 3 && op_parse_u32(argv[3], 10, &rounds)) || !rounds) {
		fprintf(stderr, "usage: %s BINARY SAMPLE_FILE [ROUNDS]\n", argv[0]);
		return 2;
	}
	ret = read_keys(argv[2], &keys, &nr);
	if (ret) {
		fprintf(stderr, "%s: cannot read '%s': %s\n", argv[0], argv[2],
			odb_strerror(ret));
		return 1;
	}
	id.name = argv[1];
	load = now_ms();
	if (pp_symtab_load(&id, false, 0, NULL, &t)) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	load = now_ms() - load;
	open = now_ms();
	why = pp_symtab_no_lines(t);
	open = now_ms() - open;
	if (why)
		printf("%s: %s\n", argv[1], why);
	first = pass_inlines(t, keys, nr, &c);
	for (r = 1; r < rounds; r++)
		if ((ms = pass_inlines(t, keys, nr, &c)) < best)
			best = ms;
	lines_first = pass_lines(t, keys, nr, &c);
	for (r = 1; r < rounds; r++)
		if ((ms = pass_lines(t, keys, nr, &c)) < lines_best)
			lines_best = ms;
	if (rounds == 1)
		best = first, lines_best = lines_first;
	printf("%s: %zu keys, load %.1f ms, DWARF open %.1f ms\n"
	       "inlines: first pass %.1f ms, later passes %.1f ms (best); "
	       "%zu keys inlined, %zu levels, deepest %zu\n"
	       "lines: first pass %.1f ms, later passes %.1f ms (best); %zu keys with a line\n",
	       argv[1], nr, load, open, first, best, c.inlined, c.levels, c.deepest,
	       lines_first, lines_best, c.lines);
	pp_symtab_free(t);
	free(keys);
	return 0;
}
