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

#include "libpp/report/pp_annotate.h"
#include "libpp/profile/pp_spec.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "pp/common.h"

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
};

static struct opannotate_options opts;

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
	{ NULL, 0, POPT_ARG_INCLUDE_TABLE, (void *)pp_common_table, 0,
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
	pp_common_release(&pp_common);
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
	return pp_common_validate();
}

struct lists {
	char **search, **base, **include, **exclude;
};

static void lists_release(struct lists *l)
{
	pp_free_list(l->search);
	pp_free_list(l->base);
	pp_free_list(l->include);
	pp_free_list(l->exclude);
}

/*
 * How many sample files there were when none of them could be read (each
 * was named when skipped), else 0: nothing was annotated for that reason,
 * not because of the filters.
 */
static size_t unreadable(const struct pp_profile *p)
{
	size_t nr_files = 0, nr_read = 0, i;

	for (i = 0; i < p->nr_groups; i++) {
		nr_files += p->groups[i].nr_files;
		nr_read += p->groups[i].nr_read;
	}
	return nr_read ? 0 : nr_files;
}

static int annotate(struct pp_job *job, const char *cmd, const char *disasm)
{
	struct pp_annotate_opts ao = {
		.source = opts.source,
		.assembly = opts.assembly,
		.by_address = opts.sort && !strcmp(opts.sort, "vma"),
		.exclude_dependent = pp_common.exclude_dependent,
		.threshold = pp_common.threshold,
		.demangle = job->demangle,
		.include_symbols = (const char *const *)job->include,
		.exclude_symbols = (const char *const *)job->exclude,
		.output_dir = opts.output_dir,
		.disasm_options = disasm && *disasm ? disasm : NULL,
		.command_line = cmd,
	};
	struct lists l = { NULL, NULL, NULL, NULL };
	struct op_err err = { "" };
	int ret;

	if (opts.search_dirs)
		l.search = pp_split_list(opts.search_dirs);
	if (opts.base_dirs)
		l.base = pp_split_list(opts.base_dirs);
	if (opts.include_file)
		l.include = pp_split_list(opts.include_file);
	if (opts.exclude_file)
		l.exclude = pp_split_list(opts.exclude_file);
	ao.search_dirs = (const char *const *)l.search;
	ao.base_dirs = (const char *const *)l.base;
	ao.include_files = (const char *const *)l.include;
	ao.exclude_files = (const char *const *)l.exclude;
	ret = pp_annotate(stdout, &job->profile[0], &job->info, &ao, &job->notes, &err);
	if (ret == 2)
		op_usage_error("%s", err.msg);
	else if (ret && unreadable(&job->profile[0]))
		op_error("no sample file could be read (%zu skipped)",
			 unreadable(&job->profile[0]));
	else if (ret)
		op_error("%s", err.msg[0] ? err.msg : "nothing to annotate");
	lists_release(&l);
	return ret == 2 ? 2 : ret ? 1 : 0;
}

/*
 * A differential profile { } { } is refused before any sample file is
 * read (so also when a side matches nothing); a spec that does not parse
 * is left for pp_job_start() to report.
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
	struct pp_job job;
	const char **args;
	poptContext ctx;
	int nr, status;
	char *cmd = NULL;

	if (op_popt_parse(&ctx, argc, argv, options_table,
			  "--source|--assembly [profile specification]", 0, NULL, NULL)) {
		options_release();
		return 2;
	}
	if (pp_common.version) {
		printf("opannotate (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out_ctx;
	}
	pp_common_verbosity();
	status = validate(&disasm);
	if (status)
		goto out_ctx;
	args = op_popt_args(ctx, &nr);
	if (differential(nr, args)) {
		op_usage_error("opannotate takes no differential profile { } { }");
		status = 2;
		goto out_ctx;
	}
	status = pp_job_start(&job, nr, args);
	if (!status) {
		cmd = pp_command_line(argc, argv);
		status = annotate(&job, cmd, disasm.buf);
	}
	if (!status && (fflush(stdout) || ferror(stdout))) {
		op_error_errno(errno, "cannot write the annotation to standard output");
		status = 1;
	}
	pp_job_release(&job);
out_ctx:
	free(cmd);
	op_strbuf_release(&disasm);
	poptFreeContext(ctx);
	options_release();
	return status;
}
