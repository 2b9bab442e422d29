// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * odb-dump: print the header and the (key, count) pairs of sample files,
 * for looking inside a session without symbol resolution.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"

struct dump_options {
	int header_only;
	int by_key;
	int limit;
	int version;
};

/* filled by popt, then passed down as const */
static struct dump_options opts;

static const struct poptOption options_table[] = {
	{ "header-only", 'H', POPT_ARG_NONE, &opts.header_only, 0,
	  "print only the header and totals", NULL },
	{ "sort-key", 'k', POPT_ARG_NONE, &opts.by_key, 0,
	  "list pairs by key instead of by count", NULL },
	{ "limit", 'n', POPT_ARG_INT, &opts.limit, 0,
	  "list at most N pairs per file (0: all)", "N" },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

struct pair {
	odb_key_t key;
	uint64_t count;
};

static int by_count(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static int by_key(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* sorted by key, duplicate keys summed; returns the number of pairs */
static size_t collect(const struct odb_file *f, struct pair **out)
{
	const struct odb_node *nodes;
	struct pair *p;
	size_t nr, i, n = 0;

	nodes = odb_file_nodes(f, &nr);
	p = op_xcalloc(nr ? nr : 1, sizeof(*p));
	for (i = 0; i < nr; i++) {
		p[i].key = nodes[i].key;
		p[i].count = nodes[i].value;
	}
	qsort(p, nr, sizeof(*p), by_key);
	for (i = 0; i < nr; i++) {
		if (n && p[n - 1].key == p[i].key)
			p[n - 1].count += p[i].count;
		else
			p[n++] = p[i];
	}
	*out = p;
	return n;
}

static void print_header(const struct opd_header *h)
{
	printf("  cpu_type %" PRIu32 "  event 0x%" PRIx32 "  unit mask %" PRIu32
	       "  count %" PRIu32 "  kernel %" PRIu32 "\n",
	       h->cpu_type, h->ctr_event, h->ctr_um, h->ctr_count, h->is_kernel);
	printf("  cpu_speed %.2f MHz  mtime %" PRIu64 "  anon_start 0x%" PRIx64
	       "  cg_to_kernel %" PRIu32 "  cg_to_anon_start 0x%" PRIx64 "\n",
	       h->cpu_speed, h->mtime, h->anon_start, h->cg_to_is_kernel,
	       h->cg_to_anon_start);
}

static int dump(const char *path, const struct dump_options *o)
{
	struct odb_file *f;
	struct pair *pairs;
	size_t nr, nr_nodes, i;
	int ret;

	ret = odb_file_open(path, ODB_READ, NULL, &f);
	if (ret)
		return op_error("cannot open sample file '%s': %s", path,
				odb_strerror(ret));
	odb_file_nodes(f, &nr_nodes);
	nr = collect(f, &pairs);
	printf("%s\n", path);
	print_header(odb_file_header(f));
	printf("  slots %zu  nodes %zu  keys %zu  samples %" PRIu64 "\n",
	       odb_file_nr_slots(f), nr_nodes, nr, odb_file_total(f));
	if (!o->header_only) {
		if (!o->by_key)
			qsort(pairs, nr, sizeof(*pairs), by_count);
		printf("  %-18s %s\n", "key", "samples");
		for (i = 0; i < nr && (!o->limit || i < (size_t)o->limit); i++)
			printf("  0x%016" PRIx64 " %" PRIu64 "\n", pairs[i].key,
			       pairs[i].count);
	}
	free(pairs);
	odb_file_close(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char **files;
	poptContext ctx;
	int nr, i, status = 0;

	if (op_popt_parse(&ctx, argc, argv, options_table, "FILE...", 0, NULL, NULL))
		return 2;
	if (opts.version) {
		printf("odb-dump (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		poptFreeContext(ctx);
		return 0;
	}
	files = op_popt_args(ctx, &nr);
	if (!nr) {
		poptFreeContext(ctx);
		op_usage_error("no sample file given");
		return 2;
	}
	if (opts.limit < 0) {
		poptFreeContext(ctx);
		op_usage_error("--limit must not be negative");
		return 2;
	}
	for (i = 0; i < nr; i++)
		if (dump(files[i], &opts))
			status = 1;
	poptFreeContext(ctx);
	return status;
}
