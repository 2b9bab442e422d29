// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport: image summaries, symbol lists, call graphs, differential
 * profiles and XML from OProfile sample sets.
 *
 *   opreport [options] [profile specification]
 *
 * main: options -> the profile (ppt_job.c) -> the output the options
 * choose from libpp/report's table -> exit status.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/pp_report.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_stats.h"
#include "libutil/op_strbuf.h"
#include "pp/ppt_job.h"
#include "pp/ppt_options.h"
#include "pp/ppt_output.h"

struct opreport_options {
	int accumulated;
	int comm;
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
	int callgrind;
	int folded;		/* --format=folded */
	int html;		/* --format=html */
	int pprof;		/* --format=pprof */
	int timeline;		/* --format=timeline */
	char *format;
	char *output_file;
	char *sort;
	int confidence_given;	/* --confidence, with or without LEVEL */
	double confidence;	/* its level, a fraction */
	int threshold_lower;
	int significant_only;
	char **metrics;		/* --metric, NULL-ended */
	size_t nr_metrics;
	struct ppt_common_options common;
};

enum { OPT_CONFIDENCE = 1, OPT_METRIC };

/* filled by popt, then passed down as const */
static struct opreport_options opts;
static struct poptOption common_table[PPT_COMMON_TABLE_SIZE];

static const struct poptOption options_table[] = {
	{ "accumulated", 'a', POPT_ARG_NONE, &opts.accumulated, 0,
	  "add running totals of samples and percentages", NULL },
	{ "comm", 0, POPT_ARG_NONE, &opts.comm, 0,
	  "show each application with the name its processes ran as", NULL },
	{ "confidence", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_CONFIDENCE,
	  "show each share's confidence interval (Wilson's) at LEVEL percent "
	  "(given as --confidence=LEVEL), 95 unless given; a differential tests "
	  "its changes at 100 - LEVEL",
	  "LEVEL" },
	{ "debug-info", 'g', POPT_ARG_NONE, &opts.debug_info, 0,
	  "show the source file and line of each symbol", NULL },
	{ "callgraph", 'c', POPT_ARG_NONE, &opts.callgraph, 0,
	  "show callers and callees of each symbol (operf --callgraph)", NULL },
	{ "details", 'd', POPT_ARG_NONE, &opts.details, 0,
	  "show the samples of each address inside each symbol", NULL },
	{ "format", 0, POPT_ARG_STRING, &opts.format, 0,
	  "write the report in format NAME: text (the default), xml, callgrind, "
	  "folded (collapsed stacks), html (one page with a flame graph), "
	  "pprof (gzip-compressed profile.proto), timeline (samples per time "
	  "slice of the hottest symbols)",
	  "NAME" },
	{ "global-percent", '%', POPT_ARG_NONE, &opts.global_percent, 0,
	  "make every percentage relative to the whole profile", NULL },
	{ "long-filenames", 'f', POPT_ARG_NONE, &opts.long_filenames, 0,
	  "show full paths instead of base names", NULL },
	{ "metric", 0, POPT_ARG_STRING, NULL, OPT_METRIC,
	  "add a column computed per row from the event columns: NAME=EXPR "
	  "with + - * /, parentheses, numbers and event names (their samples "
	  "times their period), or a preset: CPI, IPC, LLC_MPKI, LLC_MISS_PCT, "
	  "BRANCH_MPKI, BRANCH_MISS_PCT (repeatable)", "DEF" },
	{ "no-header", 'n', POPT_ARG_NONE, &opts.no_header, 0,
	  "leave out the header lines", NULL },
	{ "output-file", 'o', POPT_ARG_STRING, &opts.output_file, 0,
	  "write the report to FILE instead of standard output", "FILE" },
	{ "reverse-sort", 'r', POPT_ARG_NONE, &opts.reverse, 0,
	  "reverse the sort order", NULL },
	{ "significant-only", 0, POPT_ARG_NONE, &opts.significant_only, 0,
	  "in a differential profile, show only the rows whose change is "
	  "significant", NULL },
	{ "threshold-lower", 0, POPT_ARG_NONE, &opts.threshold_lower, 0,
	  "apply --threshold to the low end of each share's confidence interval "
	  "(implies --confidence)", NULL },
	{ "show-address", 'w', POPT_ARG_NONE, &opts.show_address, 0,
	  "show each symbol's address", NULL },
	{ "sort", 's', POPT_ARG_STRING, &opts.sort, 0,
	  "sort symbols by: sample, vma, symbol, debug, image, app-name", "KEYS" },
	{ "symbols", 'l', POPT_ARG_NONE, &opts.symbols, 0,
	  "list symbols instead of an image summary", NULL },
	{ "xml", 'X', POPT_ARG_NONE, &opts.xml, 0,
	  "write the report as XML", NULL },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, common_table, 0,
	  "Options of every report tool:", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

/*
 * --confidence[=LEVEL]: a percentage strictly between 50 and 100, with or
 * without a '%' ("99.9", "95%")
 */
static int handle_option(int val, poptContext ctx, void *data)
{
	struct opreport_options *o = data;
	char *arg = poptGetOptArg(ctx), *end = NULL;
	double level = 95.0;

	if (val == OPT_METRIC) {
		struct op_err err;

		if (!arg || pp_metric_check(arg, &err)) {
			op_usage_error("%s", arg ? err.msg : "--metric needs a definition");
			free(arg);
			return -1;
		}
		o->metrics = op_xreallocarray(o->metrics, o->nr_metrics + 2,
					      sizeof(*o->metrics));
		o->metrics[o->nr_metrics++] = arg;
		o->metrics[o->nr_metrics] = NULL;
		return 0;
	}
	if (val != OPT_CONFIDENCE) {
		free(arg);
		return 0;
	}
	if (arg) {
		level = strtod(arg, &end);
		if (end != arg && *end == '%')
			end++;
		if (end == arg || *end || !(level > 50.0 && level < 100.0)) {
			op_usage_error("--confidence takes a level in percent, above 50 "
				       "and below 100 (e.g. 95 or 99.9), not '%s'", arg);
			free(arg);
			return -1;
		}
	}
	free(arg);
	o->confidence_given = 1;
	o->confidence = level / 100.0;
	return 0;
}

/* which options ask for which output; pp_output_choose() decides */
static const struct {
	size_t offset;		/* of an int flag in struct opreport_options */
	unsigned mode;
} mode_options[] = {
	{ offsetof(struct opreport_options, xml), PP_MODE_XML },
	{ offsetof(struct opreport_options, callgrind), PP_MODE_CALLGRIND },
	{ offsetof(struct opreport_options, folded), PP_MODE_FOLDED },
	{ offsetof(struct opreport_options, html), PP_MODE_HTML },
	{ offsetof(struct opreport_options, pprof), PP_MODE_PPROF },
	{ offsetof(struct opreport_options, timeline), PP_MODE_TIMELINE },
	{ offsetof(struct opreport_options, callgraph), PP_MODE_CALLGRAPH },
	{ offsetof(struct opreport_options, symbols), PP_MODE_SYMBOLS },
	{ offsetof(struct opreport_options, details), PP_MODE_SYMBOLS },
	{ offsetof(struct opreport_options, debug_info), PP_MODE_SYMBOLS },
	{ offsetof(struct opreport_options, accumulated), PP_MODE_SYMBOLS },
	{ offsetof(struct opreport_options, show_address), PP_MODE_SYMBOLS },
};

static unsigned modes_of(const struct opreport_options *o, bool differential)
{
	unsigned modes = differential ? PP_MODE_DIFF : 0;
	size_t i;

	for (i = 0; i < sizeof(mode_options) / sizeof(mode_options[0]); i++)
		if (*(const int *)((const char *)o + mode_options[i].offset))
			modes |= mode_options[i].mode;
	return modes;
}

static void options_release(void)
{
	size_t i;

	for (i = 0; i < opts.nr_metrics; i++)
		free(opts.metrics[i]);
	free(opts.metrics);
	free(opts.output_file);
	free(opts.sort);
	free(opts.format);
	ppt_common_release(&opts.common);
}

/* does the report show symbols (any option but those of the summary)? */
static bool shows_symbols(void)
{
	return opts.symbols || opts.details || opts.debug_info || opts.accumulated ||
	       opts.show_address || opts.callgraph || opts.xml || opts.callgrind ||
	       opts.folded || opts.html || opts.pprof || opts.timeline;
}

/* the flag of each --format name (text: none, the default) */
static const struct {
	const char *name;
	int *flag;
} formats[] = {
	{ "text", NULL },
	{ "xml", &opts.xml },
	{ "callgrind", &opts.callgrind },
	{ "folded", &opts.folded },
	{ "html", &opts.html },
	{ "pprof", &opts.pprof },
	{ "timeline", &opts.timeline },
};

/* --format=NAME: sets its flag; 2 for a name no format has */
static int parse_format(void)
{
	struct op_strbuf names = OP_STRBUF_INIT;
	size_t i, nr = sizeof(formats) / sizeof(formats[0]);

	if (!opts.format)
		return 0;
	for (i = 0; i < nr; i++)
		if (!strcmp(opts.format, formats[i].name)) {
			if (formats[i].flag)
				*formats[i].flag = 1;
			return 0;
		}
	for (i = 0; i < nr; i++)
		op_strbuf_addf(&names, "%s%s", i ? ", " : "", formats[i].name);
	op_usage_error("unknown --format '%s': the formats are %s", opts.format,
		       names.buf ? names.buf : "");
	op_strbuf_release(&names);
	return 2;
}

/* what OProfile 1.4 refuses as meaningless, refused with its reason */
static int validate_meaningful(const struct pp_report_opts *ro)
{
	size_t i;

	if (opts.global_percent && shows_symbols() && !opts.details && !opts.callgraph &&
	    !opts.xml) {
		op_usage_error("--global-percent has no effect with --symbols: its shares "
			       "are of the whole profile already (it changes --details "
			       "and --callgraph)");
		return 2;
	}
	if (shows_symbols())
		return 0;
	if (opts.common.include_symbols || opts.common.exclude_symbols) {
		op_usage_error("--include-symbols and --exclude-symbols need --symbols: "
			       "the image summary has no symbols");
		return 2;
	}
	for (i = 0; i < ro->nr_sort; i++)
		if (ro->sort[i] == PP_SORT_VMA) {
			op_usage_error("--sort=vma needs --symbols: the image summary "
				       "has no addresses");
			return 2;
		}
	return 0;
}

static int validate(struct pp_report_opts *ro)
{
	struct op_err err;

	if (parse_format())
		return 2;
	if ((opts.callgrind || opts.pprof) &&
	    (opts.xml || opts.accumulated || opts.global_percent)) {
		op_usage_error("--format=%s cannot be combined with %s", opts.format,
			       opts.xml ? "--xml" : opts.accumulated ? "--accumulated" :
			       "--global-percent");
		return 2;
	}
	if (opts.sort && pp_sort_parse(opts.sort, ro, &err)) {
		op_usage_error("%s", err.msg);
		return 2;
	}
	if (validate_meaningful(ro))
		return 2;
	if (opts.callgraph && opts.details)
		op_warning("--details has no effect with --callgraph");
	if ((opts.confidence_given || opts.threshold_lower) &&
	    (opts.callgrind || opts.folded || opts.pprof)) {
		op_usage_error("--format=%s has no shares to give intervals of: "
			       "--confidence applies to text, XML and HTML reports",
			       opts.format);
		return 2;
	}
	if (opts.nr_metrics && (opts.folded || opts.pprof)) {
		op_usage_error("--format=%s has no columns for --metric: it applies to "
			       "text, XML, HTML and callgrind reports", opts.format);
		return 2;
	}
	if (opts.timeline && (opts.xml || opts.callgraph || opts.details ||
			      opts.accumulated || opts.confidence_given ||
			      opts.threshold_lower || opts.nr_metrics)) {
		op_usage_error("--format=timeline cannot be combined with %s",
			       opts.xml ? "--xml" : opts.callgraph ? "--callgraph" :
			       opts.details ? "--details" :
			       opts.accumulated ? "--accumulated" :
			       opts.nr_metrics ? "--metric" : "--confidence");
		return 2;
	}
	if (opts.threshold_lower && !(opts.common.threshold > 0))
		op_warning("--threshold-lower has no effect without --threshold");
	if (opts.xml && (opts.accumulated || opts.global_percent)) {
		op_usage_error("--xml cannot be combined with %s",
			       opts.accumulated ? "--accumulated" : "--global-percent");
		return 2;
	}
	return ppt_common_validate(&opts.common);
}

/* what a differential profile { first } { second } cannot show */
static int validate_differential(void)
{
	if (opts.threshold_lower) {
		op_usage_error("--threshold-lower does not apply to a differential "
			       "profile: use --significant-only");
		return 2;
	}
	const char *what = opts.xml ? "--xml" : opts.callgrind ? "--format=callgrind" :
			   opts.callgraph ? "--callgraph" :
			   opts.details ? "--details" :
			   opts.folded ? "--format=folded" :
			   opts.html ? "--format=html" :
			   opts.pprof ? "--format=pprof" :
			   opts.timeline ? "--format=timeline" : NULL;

	if (!what)
		return 0;
	op_usage_error("a differential profile cannot be shown with %s", what);
	return 2;
}

/* the report options from the parsed ones (sort keys are already in ro) */
static void report_opts(struct pp_report_opts *ro, const struct ppt_job *job,
			const char *cmd, const char **args)
{
	ppt_job_report_opts(job, &opts.common, ro);
	ro->details = opts.details && !opts.callgraph;
	ro->debug_info = opts.debug_info;
	ro->accumulated = opts.accumulated;
	ro->global_percent = opts.global_percent;
	ro->show_address = opts.show_address;
	ro->long_filenames = opts.long_filenames;
	ro->show_comm = opts.comm;
	ro->no_header = opts.no_header;
	ro->reverse = opts.reverse;
	if (opts.threshold_lower && !opts.confidence_given)
		opts.confidence = 0.95;
	ro->confidence = opts.confidence_given || opts.threshold_lower ? opts.confidence : 0;
	ro->z = op_z_two_sided(opts.confidence > 0 ? opts.confidence : 0.95);
	ro->threshold_lower = opts.threshold_lower;
	ro->significant_only = opts.significant_only;
	ro->metrics = (const char *const *)opts.metrics;
	ro->command_line = cmd;
	ro->spec = args;
}

/* write the report where -o says; the exit status */
static int report(struct ppt_job *job, const struct pp_report_opts *ro)
{
	const struct pp_output *output = pp_output_choose(modes_of(&opts, job->nr_sides == 2));
	struct ppt_output file;
	FILE *out = stdout;
	int status, err;

	if (opts.output_file) {
		err = ppt_output_open(&file, opts.output_file);
		if (err) {
			op_error_errno(err, "cannot write '%s'", opts.output_file);
			return 1;
		}
		out = file.stream;
	}
	status = ppt_job_run(job, output, ro, out);
	if (out == stdout) {
		if (fflush(out) || ferror(out)) {
			op_error_errno(errno, "cannot write the report to standard output");
			status = status ? status : 1;
		}
		return status;
	}
	err = ppt_output_close(&file, status == 0);
	if (err && !status) {
		op_error_errno(err, "cannot write '%s'", opts.output_file);
		status = 1;
	}
	return status;
}

/*
 * --format=timeline over the whole session when the specification takes
 * no time: (a copy of args with "time:0-" added, for the caller to free;
 * else NULL)
 */
static const char **whole_time(const char **args, int *nr)
{
	const char **v;
	int i;

	if (!opts.timeline)
		return NULL;
	for (i = 0; i < *nr; i++)
		if (!strncmp(args[i], "time:", 5))
			return NULL;
	v = op_xcalloc((size_t)*nr + 2, sizeof(*v));
	if (*nr)
		memcpy(v, args, (size_t)*nr * sizeof(*v));
	v[(*nr)++] = "time:0-";
	return v;
}

/*
 * argv with each bare --confidence (before any "--") as
 * --confidence=95: an optional value is taken only when attached with
 * '=', as getopt takes one, so that "--confidence image:ls" keeps its
 * profile specification (popt would read it as the level).  The array
 * is the caller's to free; its strings are argv's.
 */
static const char **confidence_attached(int argc, char **argv)
{
	static const char dflt[] = "--confidence=95";
	const char **av = op_xcalloc((size_t)argc + 1, sizeof(*av));
	bool options = true;
	int i;

	for (i = 0; i < argc; i++) {
		av[i] = argv[i];
		if (options && i > 0 && !strcmp(argv[i], "--"))
			options = false;
		else if (options && i > 0 && !strcmp(argv[i], "--confidence"))
			av[i] = dflt;
	}
	return av;
}

int main(int argc, char **argv)
{
	struct pp_report_opts ro = { 0 };
	struct ppt_job job;
	const char **args, **timed = NULL;
	poptContext ctx;
	int nr, status;
	char *cmd = NULL;
	const char **av = confidence_attached(argc, argv);

	ppt_common_table(common_table, &opts.common);
	if (op_popt_parse(&ctx, argc, (char **)av, options_table, "[profile specification]",
			  0, handle_option, &opts)) {
		options_release();
		free(av);
		return 2;
	}
	if (opts.common.version) {
		printf("opreport (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out_ctx;
	}
	ppt_common_verbosity(&opts.common);
	status = validate(&ro);
	if (status)
		goto out_ctx;
	op_debug_phase("options parsed");
	args = op_popt_args(ctx, &nr);
	timed = whole_time(args, &nr);
	if (timed)
		args = timed;
	opts.common.symbols = pp_output_choose(modes_of(&opts, false))->needs & PP_NEEDS_SYMBOLS;
	status = ppt_job_start(&job, &opts.common, opts.xml, nr, args);
	if (!status && job.nr_sides == 2)
		status = validate_differential();
	else if (!status && opts.significant_only) {
		op_usage_error("--significant-only needs a differential profile "
			       "({ first } { second })");
		status = 2;
	}
	if (!status) {
		cmd = ppt_command_line(argc, argv);
		report_opts(&ro, &job, cmd, args);
		status = report(&job, &ro);
	}
	ppt_job_release(&job);
out_ctx:
	free(cmd);
	free(timed);
	poptFreeContext(ctx);
	free(av);
	options_release();
	return status;
}
