// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opannotate: source files and disassembly annotated with the samples of
 * a profile.
 *
 *   opannotate --source|--assembly [options] [profile specification]
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_spec.h"
#include "libpp/report/pp_report.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "pp/ppt_job.h"
#include "pp/ppt_options.h"

struct opannotate_options {
	int source;
	int assembly;
	char *output_dir;
	char *search_dirs;
	char *base_dirs;
	char *include_file;
	char *exclude_file;
	char *objdump_params;
	char *disasm_options;
	char *sort;
	struct ppt_common_options common;
};

/* filled by popt, then passed down as const */
static struct opannotate_options opts;
static struct poptOption common_table[PPT_COMMON_TABLE_SIZE];

static const struct poptOption options_table[] = {
	{ "source", 's', POPT_ARG_NONE, &opts.source, 0,
	  "annotate source files (needs debug information)", NULL },
	{ "assembly", 'a', POPT_ARG_NONE, &opts.assembly, 0,
	  "annotate the disassembly (with --source: interleaved with source lines)", NULL },
	{ "output-dir", 'o', POPT_ARG_STRING, &opts.output_dir, 0,
	  "write an annotated copy of each source file under DIR", "DIR" },
	{ "search-dirs", 'd', POPT_ARG_STRING, &opts.search_dirs, 0,
	  "comma-separated directories to look for source files in", "DIRS" },
	{ "base-dirs", 'b', POPT_ARG_STRING, &opts.base_dirs, 0,
	  "comma-separated prefixes to strip from source paths before --search-dirs",
	  "DIRS" },
	{ "include-file", '\0', POPT_ARG_STRING, &opts.include_file, 0,
	  "only these source files (comma-separated globs)", "FILES" },
	{ "exclude-file", '\0', POPT_ARG_STRING, &opts.exclude_file, 0,
	  "leave out these source files (comma-separated globs)", "FILES" },
	{ "disassembler-options", '\0', POPT_ARG_STRING, &opts.disasm_options, 0,
	  "as objdump -M: intel, att, suffix, ... (comma-separated)", "OPTIONS" },
	{ "objdump-params", '\0', POPT_ARG_STRING, &opts.objdump_params, 0,
	  "OProfile's spelling: objdump's -M OPTIONS or --disassembler-options=OPTIONS",
	  "PARAMS" },
	{ "sort", '\0', POPT_ARG_STRING, &opts.sort, 0,
	  "order of symbols in --assembly: sample (most first, default) or vma", "KEY" },
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, common_table, 0,
	  "Options of every report tool:", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static void options_release(void)
{
	free(opts.output_dir);
	free(opts.search_dirs);
	free(opts.base_dirs);
	free(opts.include_file);
	free(opts.exclude_file);
	free(opts.objdump_params);
	free(opts.disasm_options);
	free(opts.sort);
	ppt_common_release(&opts.common);
}

/*
 * --objdump-params: the disassembler options in objdump's spellings
 * ("-M intel", "-Mintel", "--disassembler-options=intel"), appended to
 * *options; "--no-show-raw-insn" is what we do anyway.  Anything else is
 * an objdump option we have no use for: a usage error.
 */
static int objdump_params(const char *params, struct op_strbuf *options)
{
	char **words = NULL;
	size_t nr = 0, i;
	const char *p = params;
	int ret = 0;

	while (*p) {
		size_t len;

		while (isspace((unsigned char)*p))
			p++;
		len = strcspn(p, " \t\n");
		if (!len)
			break;
		words = op_xreallocarray(words, nr + 1, sizeof(*words));
		words[nr++] = op_xstrndup(p, len);
		p += len;
	}
	for (i = 0; i < nr && !ret; i++) {
		const char *w = words[i], *val = NULL;

		if (!strcmp(w, "--no-show-raw-insn"))
			continue;
		if (!strcmp(w, "-M") && i + 1 < nr)
			val = words[++i];
		else if (!strncmp(w, "-M", 2) && w[2])
			val = w + 2;
		else if (!strncmp(w, "--disassembler-options=", 23))
			val = w + 23;
		if (!val) {
			op_usage_error("--objdump-params: '%s' is not supported (only -M, "
				       "--disassembler-options and --no-show-raw-insn)", w);
			ret = 2;
			break;
		}
		op_strbuf_addf(options, "%s%s", options->len ? "," : "", val);
	}
	for (i = 0; i < nr; i++)
		free(words[i]);
	free(words);
	return ret;
}

/* OProfile's rules on what goes together; 0 or 2 */
static int validate(struct op_strbuf *disasm)
{
	if (!opts.source && !opts.assembly) {
		op_usage_error("give --source, --assembly or both");
		return 2;
	}
	if (opts.output_dir && opts.assembly) {
		op_usage_error("--output-dir writes source files: it cannot be used with --assembly");
		return 2;
	}
	if (opts.base_dirs && !opts.search_dirs) {
		op_usage_error("--base-dirs needs --search-dirs, where the stripped paths are looked for");
		return 2;
	}
	if ((opts.objdump_params || opts.disasm_options || opts.sort) && !opts.assembly) {
		op_usage_error("%s only applies to --assembly", opts.sort ? "--sort" :
			       opts.objdump_params ? "--objdump-params" : "--disassembler-options");
		return 2;
	}
	if (opts.sort && strcmp(opts.sort, "sample") && strcmp(opts.sort, "vma")) {
		op_usage_error("unknown --sort key '%s' (valid: sample, vma)", opts.sort);
		return 2;
	}
	if (opts.disasm_options)
		op_strbuf_addstr(disasm, opts.disasm_options);
	if (opts.objdump_params && objdump_params(opts.objdump_params, disasm))
		return 2;
	if (op_strbuf_failed(disasm))
		op_die(1, "out of memory");
	return ppt_common_validate(&opts.common);
}

struct lists {
	char **search, **base, **include, **exclude;
};

static void lists_release(struct lists *l)
{
	ppt_free_list(l->search);
	ppt_free_list(l->base);
	ppt_free_list(l->include);
	ppt_free_list(l->exclude);
}

/* the options' lists, split at commas, into ao */
static void split_lists(struct lists *l, struct pp_annotate_opts *ao)
{
	memset(l, 0, sizeof(*l));
	if (opts.search_dirs)
		l->search = ppt_split_list(opts.search_dirs);
	if (opts.base_dirs)
		l->base = ppt_split_list(opts.base_dirs);
	if (opts.include_file)
		l->include = ppt_split_list(opts.include_file);
	if (opts.exclude_file)
		l->exclude = ppt_split_list(opts.exclude_file);
	ao->search_dirs = (const char *const *)l->search;
	ao->base_dirs = (const char *const *)l->base;
	ao->include_files = (const char *const *)l->include;
	ao->exclude_files = (const char *const *)l->exclude;
}

/* -s, -a or both: the output of libpp/report's table that annotates */
static unsigned modes(void)
{
	return (opts.source ? PP_MODE_SOURCE : 0) |
	       (opts.assembly ? PP_MODE_ASSEMBLY : 0);
}

static int annotate(struct ppt_job *job, const char *cmd, const char *disasm)
{
	struct pp_report_opts ro = { 0 };
	struct lists l;
	int status;

	ppt_job_report_opts(job, &opts.common, &ro);
	ro.command_line = cmd;
	ro.annotate.by_address = opts.sort && !strcmp(opts.sort, "vma");
	ro.annotate.output_dir = opts.output_dir;
	ro.annotate.disasm_options = disasm && *disasm ? disasm : NULL;
	split_lists(&l, &ro.annotate);
	status = ppt_job_run(job, pp_output_choose(modes()), &ro, stdout);
	lists_release(&l);
	return status;
}

/*
 * A differential profile { } { } is refused before any sample file is
 * read (so also when a side matches nothing); a spec that does not parse
 * is left for ppt_job_start() to report.
 */
static bool differential(int nr, const char **args)
{
	struct pp_spec_set set;
	struct op_err err = { "" };
	bool diff;

	if (pp_spec_parse(nr, (const char *const *)args, &set, &err))
		return false;
	diff = set.differential;
	pp_spec_set_release(&set);
	return diff;
}

int main(int argc, char **argv)
{
	struct op_strbuf disasm = OP_STRBUF_INIT;
	struct ppt_job job;
	const char **args;
	poptContext ctx;
	int nr, status;
	char *cmd = NULL;

	ppt_common_table(common_table, &opts.common);
	if (op_popt_parse(&ctx, argc, argv, options_table,
			  "--source|--assembly [profile specification]", 0, NULL, NULL)) {
		options_release();
		return 2;
	}
	if (opts.common.version) {
		printf("opannotate (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out_ctx;
	}
	ppt_common_verbosity(&opts.common);
	status = validate(&disasm);
	if (status)
		goto out_ctx;
	args = op_popt_args(ctx, &nr);
	if (differential(nr, args)) {
		op_usage_error("opannotate takes no differential profile { } { }");
		status = 2;
		goto out_ctx;
	}
	opts.common.symbols = true;
	status = ppt_job_start(&job, &opts.common, false, nr, args);
	if (!status) {
		cmd = ppt_command_line(argc, argv);
		status = annotate(&job, cmd, disasm.buf);
	}
	if (!status && (fflush(stdout) || ferror(stdout))) {
		op_error_errno(errno, "cannot write the annotation to standard output");
		status = 1;
	}
	ppt_job_release(&job);
out_ctx:
	free(cmd);
	op_strbuf_release(&disasm);
	poptFreeContext(ctx);
	options_release();
	return status;
}
