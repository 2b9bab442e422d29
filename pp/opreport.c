// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport: image summaries, symbol lists, call graphs, differential
 * profiles and XML from OProfile sample sets.
 *
 *   opreport [options] [profile specification]
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/pp_report.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "pp/common.h"

struct opreport_options {
	int accumulated;
	int debug_info;
	int callgraph;
	int details;
	int global_percent;
	int long_filenames;
	int no_header;
	int reverse;
	int show_address;
	int symbols;
	int xml;
	char *output_file;
	char *sort;
};

/* filled by popt, then passed down as const */
static struct opreport_options opts;

static const struct poptOption options_table[] = {
	{ "accumulated", 'a', POPT_ARG_NONE, &opts.accumulated, 0,
	  "add running totals of samples and percentages", NULL },
	{ "debug-info", 'g', POPT_ARG_NONE, &opts.debug_info, 0,
	  "show the source file and line of each symbol", NULL },
	{ "callgraph", 'c', POPT_ARG_NONE, &opts.callgraph, 0,
	  "show callers and callees of each symbol (operf --callgraph)", NULL },
	{ "details", 'd', POPT_ARG_NONE, &opts.details, 0,
	  "show the samples of each address inside each symbol", NULL },
	{ "global-percent", '%', POPT_ARG_NONE, &opts.global_percent, 0,
	  "make every percentage relative to the whole profile", NULL },
	{ "long-filenames", 'f', POPT_ARG_NONE, &opts.long_filenames, 0,
	  "show full paths instead of base names", NULL },
	{ "no-header", 'n', POPT_ARG_NONE, &opts.no_header, 0,
	  "leave out the header lines", NULL },
	{ "output-file", 'o', POPT_ARG_STRING, &opts.output_file, 0,
	  "write the report to FILE instead of standard output", "FILE" },
	{ "reverse-sort", 'r', POPT_ARG_NONE, &opts.reverse, 0,
	  "reverse the sort order", NULL },
	{ "show-address", 'w', POPT_ARG_NONE, &opts.show_address, 0,
	  "show each symbol's address", NULL },
	{ "sort", 's', POPT_ARG_STRING, &opts.sort, 0,
	  "sort symbols by: sample, vma, symbol, debug, image, app-name", "KEYS" },
	{ "symbols", 'l', POPT_ARG_NONE, &opts.symbols, 0,
	  "list symbols instead of an image summary", NULL },
	{ "xml", 'X', POPT_ARG_NONE, &opts.xml, 0,
	  "write the report as XML", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, (void *)pp_common_table, 0,
	  "Options of every report tool:", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static void options_release(void)
{
	free(opts.output_file);
	free(opts.sort);
	pp_common_release(&pp_common);
}

static int validate(struct pp_report_opts *ro)
{
	struct op_err err;

	if (opts.sort && pp_sort_parse(opts.sort, ro, &err)) {
		op_usage_error("%s", err.msg);
		return 2;
	}
	if (opts.callgraph && opts.details)
		op_warning("--details has no effect with --callgraph");
	if (opts.xml && (opts.accumulated || opts.global_percent)) {
		op_usage_error("--xml cannot be combined with %s",
			       opts.accumulated ? "--accumulated" : "--global-percent");
		return 2;
	}
	return pp_common_validate();
}

/* what a differential profile { first } { second } cannot show */
static int validate_differential(void)
{
	const char *what = opts.xml ? "--xml" : opts.callgraph ? "--callgraph" :
			   opts.details ? "--details" : NULL;

	if (!what)
		return 0;
	op_usage_error("a differential profile cannot be shown with %s", what);
	return 2;
}

/* the class names of p, "a, b, c", for a message */
static void class_list(struct op_strbuf *sb, const struct pp_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_classes; i++)
		op_strbuf_addf(sb, "%s%s", i ? ", " : "",
			       p->classes[i].name && *p->classes[i].name ?
			       p->classes[i].name : "all samples");
}

/*
 * The two sides of a differential profile are compared column by column:
 * they need as many columns, along the same axis.
 */
static int same_columns(const struct pp_job *job)
{
	const struct pp_profile *a = &job->profile[0], *b = &job->profile[1];
	struct op_strbuf sb = OP_STRBUF_INIT;

	if (a->nr_classes == b->nr_classes && (a->nr_classes == 1 || a->axis == b->axis))
		return 0;
	op_strbuf_addstr(&sb, "the two profiles of the differential have different "
			 "columns: ");
	class_list(&sb, a);
	op_strbuf_addstr(&sb, " against ");
	class_list(&sb, b);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	op_error("%s", sb.buf);
	op_hint("select the same events, cpus or threads on both sides, or --merge them");
	op_strbuf_release(&sb);
	return 1;
}

/*
 * Read the samples of each side before anything is printed (the reports
 * would read them at once anyway; the symbol reports with the symbol
 * tables beside them).  Unreadable files were skipped with a warning; a
 * side none of whose files could be read is an error, not an empty report.
 */
static int load_samples(struct pp_job *job, const struct pp_report_opts *ro)
{
	bool symbols = ro->symbols || ro->callgraph || ro->xml || job->nr_sides == 2;
	int side;

	for (side = 0; side < job->nr_sides; side++) {
		struct pp_profile *p = &job->profile[side];
		size_t nr_files = 0, nr_read = 0, i;

		if (symbols)
			pp_profile_load(p, &job->notes);
		for (i = 0; i < p->nr_groups; i++) {
			struct op_err err;

			if (pp_group_load(p, &p->groups[i], &err))
				pp_note(&job->notes, "%s", err.msg);
			nr_files += p->groups[i].nr_files;
			nr_read += p->groups[i].nr_read;
		}
		if (nr_files && !nr_read) {
			op_error("no sample file could be read (%zu skipped)",
				 nr_files);
			return 1;
		}
	}
	return 0;
}

static int report(struct pp_job *job, FILE *out, const struct pp_report_opts *ro)
{
	struct pp_profile *p = &job->profile[0];

	if (job->nr_sides == 2) {
		/* the columns are the second profile's */
		pp_report_header(out, &job->profile[1], &job->info, ro);
		return pp_report_diff(out, p, &job->profile[1], ro, &job->notes);
	}
	if (ro->xml)
		return pp_report_xml(out, p, &job->info, ro, &job->notes);
	pp_report_header(out, p, &job->info, ro);
	if (ro->callgraph)
		return pp_report_callgraph(out, p, ro, &job->notes);
	if (ro->symbols)
		return pp_report_symbols(out, p, ro, &job->notes);
	return pp_report_summary(out, p, ro, &job->notes);
}

int main(int argc, char **argv)
{
	struct pp_report_opts ro = { .demangle = PP_DEMANGLE_NORMAL };
	struct pp_job job;
	const char **args;
	poptContext ctx;
	FILE *out = stdout;
	int nr, status;
	char *cmd = NULL;

	if (op_popt_parse(&ctx, argc, argv, options_table, "[profile specification]",
			  0, NULL, NULL)) {
		options_release();
		return 2;
	}
	if (pp_common.version) {
		printf("opreport (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out_ctx;
	}
	pp_common_verbosity();
	op_debug_phase("options parsed");
	status = validate(&ro);
	if (status)
		goto out_ctx;
	args = op_popt_args(ctx, &nr);
	pp_common.xml = opts.xml;
	status = pp_job_start(&job, nr, args);
	if (!status && job.nr_sides == 2)
		status = validate_differential();
	if (!status && job.nr_sides == 2)
		status = same_columns(&job);
	if (status)
		goto out_job;
	cmd = pp_command_line(argc, argv);
	ro.symbols = opts.symbols || opts.details || opts.debug_info || opts.accumulated ||
		     opts.show_address;
	ro.details = opts.details && !opts.callgraph;
	ro.callgraph = opts.callgraph;
	ro.debug_info = opts.debug_info;
	ro.accumulated = opts.accumulated;
	ro.global_percent = opts.global_percent;
	ro.show_address = opts.show_address;
	ro.long_filenames = opts.long_filenames;
	ro.no_header = opts.no_header;
	ro.exclude_dependent = pp_common.exclude_dependent;
	ro.reverse = opts.reverse;
	ro.xml = opts.xml;
	ro.threshold = pp_common.threshold;
	ro.demangle = job.demangle;
	ro.include_symbols = (const char *const *)job.include;
	ro.exclude_symbols = (const char *const *)job.exclude;
	ro.command_line = cmd;
	ro.spec = args;
	ro.merge_list = pp_common.merge;
	ro.image_path = pp_common.image_path;
	status = load_samples(&job, &ro);
	if (status)
		goto out_job;
	if (opts.output_file) {
		out = fopen(opts.output_file, "we");
		if (!out) {
			op_error_errno(errno, "cannot write '%s'", opts.output_file);
			status = 1;
			goto out_job;
		}
	}
	report(&job, out, &ro);
	op_debug_phase("report written");
	if (fflush(out) || ferror(out)) {
		op_error_errno(errno, "cannot write the report to '%s'",
			       opts.output_file ? opts.output_file : "standard output");
		status = 1;
	}
	if (out != stdout && fclose(out) && !status) {
		op_error_errno(errno, "cannot write '%s'", opts.output_file);
		status = 1;
	}
out_job:
	pp_job_release(&job);
out_ctx:
	free(cmd);
	poptFreeContext(ctx);
	options_release();
	return status;
}
