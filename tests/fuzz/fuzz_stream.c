// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a recorded operf stream from untrusted bytes, replayed
 * through the engine into a scratch samples directory.  Nothing may crash,
 * hang or leak, and whatever file names the records carry, every file
 * written must stay inside the samples directory.
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_stream.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "tests/fuzz/fuzz.h"

static char root[512], input[600], samples[600];
static struct op_dir samples_dir = OP_DIR_INIT;	/* held for every run */

static void make_dirs(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/fuzz_stream.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(input, sizeof(input), "%s/in.stream", root);
	snprintf(samples, sizeof(samples), "%s/samples", root);
	if (op_mkdir_p(samples, 0755) || op_dir_open_path(&samples_dir, samples))
		abort();
}

/* root must hold only the input and the samples directory */
static void check_contained(void)
{
	DIR *d = opendir(root);
	struct dirent *de;

	if (!d)
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "in.stream") && strcmp(de->d_name, "samples"))
			abort();
	closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct opd_stream_info *info;
	struct opd_engine_config cfg = { 0 };
	struct opd_stream_reader *r;
	struct opd_engine *e;
	struct op_err err;

	if (!root[0])
		make_dirs();
	if (op_write_file_atomic(input, data, size, 0644))
		abort();
	if (opd_stream_open(input, &r, &err))
		return 0;
	info = opd_stream_reader_info(r);
	cfg.samples = &samples_dir;
	cfg.events = info->events;
	cfg.nr_events = info->nr_events;
	cfg.sample_type = info->sample_type;
	cfg.nr_cpus = info->nr_cpus;
	cfg.kernel_layout = info->layout;
	cfg.callgraph = true;
	cfg.separate_thread = size & 1;
	cfg.max_open_files = 4;
	e = opd_engine_new(&cfg);
	opd_stream_replay(r, e, &err);
	opd_engine_finish(e);
	opd_engine_free(e);
	opd_stream_close(r);
	check_contained();
	op_remove_tree(samples);
	return 0;
}
