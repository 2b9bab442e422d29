// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test and benchmark helper: replay a recorded stream through the engine
 * into a samples directory, then print the statistics, the conversion
 * rate, and (with --dump) every sample file's keys and counts, sorted, as
 * "RELATIVE_PATH KEY COUNT" lines.
 *
 * usage: opd_replay [-t] [-c] [-g] [--dump] STREAM SAMPLES_DIR
 */
#include "config.h"

#define _XOPEN_SOURCE_EXTENDED 1
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_stream.h"
#include "libdb/odb.h"
#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

static struct op_strbuf lines = OP_STRBUF_INIT;
static size_t root_len;

static int dump_one(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	struct odb_file *f;
	struct odb_iter it;
	odb_key_t k;
	odb_value_t v;

	(void)st;
	(void)ftw;
	if (flag != FTW_F || !strstr(path, "{dep}"))
		return 0;
	if (odb_file_open(path, ODB_READ, NULL, &f)) {
		op_strbuf_addf(&lines, "%s UNREADABLE\n", path + root_len);
		return 0;
	}
	it = odb_iter_init(f);
	while (odb_iter_next(&it, &k, &v))
		op_strbuf_addf(&lines, "%s %#" PRIx64 " %u\n", path + root_len, k, v);
	odb_file_close(f);
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dump(const char *dir)
{
	char **v = NULL;
	size_t n = 0, alloc = 0, i;
	char *p, *save = NULL;

	root_len = strlen(dir) + 1;
	nftw(dir, dump_one, 32, FTW_PHYS);
	for (p = strtok_r(lines.buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		if (n == alloc)
			v = op_xreallocarray(v, alloc = alloc ? alloc * 2 : 256, sizeof(*v));
		v[n++] = p;
	}
	qsort(v, n, sizeof(*v), cmp_line);
	for (i = 0; i < n; i++)
		printf("%s\n", v[i]);
	free(v);
	op_strbuf_release(&lines);
}

int main(int argc, char **argv)
{
	struct opd_engine_config cfg = { 0 };
	struct op_dir samples = OP_DIR_INIT;
	const struct opd_stream_info *info;
	struct opd_stream_reader *r;
	struct opd_engine *e;
	struct op_err err = { "" };
	struct timespec t0, t1;
	const struct opd_stats *st;
	struct odb_stats ost;
	int i, do_dump = 0, ret;
	double secs;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-t"))
			cfg.separate_thread = true;
		else if (!strcmp(argv[i], "-c"))
			cfg.separate_cpu = true;
		else if (!strcmp(argv[i], "-g"))
			cfg.callgraph = true;
		else if (!strcmp(argv[i], "--dump"))
			do_dump = 1;
		else
			break;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: opd_replay [-t] [-c] [-g] [--dump] STREAM SAMPLES_DIR\n");
		return 2;
	}
	ret = opd_stream_open(argv[i], &r, &err);
	if (ret)
		op_die(1, "cannot open '%s': %s", argv[i], err.msg);
	info = opd_stream_reader_info(r);
	if (op_mkdir_p(argv[i + 1], 0755) || op_dir_open_path(&samples, argv[i + 1]))
		op_die(1, "cannot open '%s'", argv[i + 1]);
	cfg.samples = &samples;
	cfg.events = info->events;
	cfg.nr_events = info->nr_events;
	cfg.sample_type = info->sample_type;
	cfg.nr_cpus = info->nr_cpus;
	cfg.kernel_layout = info->layout;
	cfg.max_open_files = 1000;
	e = opd_engine_new(&cfg);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = opd_stream_replay(r, e, &err);
	if (opd_engine_finish(e))
		op_warning("closing sample files failed");

	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret)
		op_warning("%s", err.msg);
	st = opd_engine_stats(e);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	opd_stats_to_odb(st, &ost);
	fprintf(stderr, "opd_replay: %" PRIu64 " samples, %" PRIu64 " lost, %zu files, "
		"%.3f s, %.2f M samples/s\n", st->count[OPD_STAT_SAMPLES],
		odb_stats_lost_samples(&ost), opd_engine_nr_files(e), secs,
		(double)st->count[OPD_STAT_SAMPLES] / secs / 1e6);
	fprintf(stderr, "opd_replay: %" PRIu64 " stored, %" PRIu64 " lost by the kernel, "
		"%" PRIu64 " arcs, %" PRIu64 " arcs lost\n", st->count[OPD_STAT_STORED],
		st->count[OPD_STAT_LOST_BY_KERNEL], st->count[OPD_STAT_ARCS],
		odb_stats_lost_arcs(&ost));
	{
		const char *path;
		int first = opd_engine_first_error(e, &path);

		if (first)
			op_warning("sample file '%s': %s", path, odb_strerror(first));
	}
	if (do_dump)
		dump(argv[i + 1]);
	opd_engine_free(e);
	op_dir_close(&samples);
	opd_stream_close(r);
	return ret < 0 ? 1 : 0;
}
