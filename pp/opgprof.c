// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opgprof: a gprof gmon.out for one binary from its samples, with the
 * call-graph arcs between its functions when operf recorded them.
 *
 *   opgprof [options] [profile specification]
 *
 * main: options -> the profile (ppt_job.c) -> libpp/report's "gmon"
 * output, built in memory and written to -o FILE through FILE.tmp and a
 * rename, so a failure never leaves a part of a gmon.out behind.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/pp_report.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_popt.h"
#include "pp/ppt_job.h"
#include "pp/ppt_options.h"

struct opgprof_options {
	char *output_filename;
	struct ppt_common_options common;
};

/* filled by popt, then passed down as const */
static struct opgprof_options opts;
static struct poptOption common_table[PPT_COMMON_TABLE_SIZE];

static const struct poptOption options_table[] = {
	{ "output-filename", 'o', POPT_ARG_STRING, &opts.output_filename, 0,
	  "write the gmon.out data to FILE (default: gmon.out)", "FILE" },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, common_table, 0,
	  "Options of every report tool:", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static void options_release(void)
{
	free(opts.output_filename);
	ppt_common_release(&opts.common);
}

static int validate(void)
{
	if (opts.output_filename && !opts.output_filename[0]) {
		op_usage_error("--output-filename needs a file name");
		return 2;
	}
	return ppt_common_validate(&opts.common);
}

/* build the gmon.out data in memory, then write it in one piece */
static int write_gmon(struct ppt_job *job, const struct pp_report_opts *ro,
		      const char *path)
{
	const struct pp_output *output = pp_output_choose(PP_MODE_GMON);
	char *data = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&data, &len);
	int status, err;

	if (!mem) {
		op_error_errno(errno, "cannot make the gmon.out data");
		return 1;
	}
	status = ppt_job_run(job, output, ro, mem);
	if (fclose(mem) && !status) {
		op_error_errno(errno, "cannot make the gmon.out data");
		status = 1;
	}
	if (!status) {
		err = op_write_file_atomic(path, data, len, 0666);
		if (err) {
			op_error_errno(-err, "cannot write '%s'", path);
			status = 1;
		}
	}
	free(data);
	return status;
}

int main(int argc, char **argv)
{
	struct pp_report_opts ro = { 0 };
	struct ppt_job job;
	const char **args;
	poptContext ctx;
	int nr, status;

	ppt_common_table(common_table, &opts.common);
	if (op_popt_parse(&ctx, argc, argv, options_table, "[profile specification]",
			  0, NULL, NULL)) {
		options_release();
		return 2;
	}
	if (opts.common.version) {
		printf("opgprof (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out_ctx;
	}
	ppt_common_verbosity(&opts.common);
	status = validate();
	if (status)
		goto out_ctx;
	args = op_popt_args(ctx, &nr);
	opts.common.symbols = true;
	status = ppt_job_start(&job, &opts.common, false, nr, args);
	if (!status && job.nr_sides == 2) {
		op_usage_error("opgprof takes one profile, not a differential { } { }");
		status = 2;
	}
	if (!status) {
		ppt_job_report_opts(&job, &opts.common, &ro);
		status = write_gmon(&job, &ro,
				    opts.output_filename ? opts.output_filename : "gmon.out");
	}
	ppt_job_release(&job);
out_ctx:
	poptFreeContext(ctx);
	options_release();
	return status;
}
