// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options and steps shared by the report tools (see common.h): the popt
 * table of the common options, and the way from a profile specification
 * to built profiles, with the messages of each step.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_stats.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "pp/common.h"

struct pp_common_options pp_common;

const struct poptOption pp_common_table[] = {
	{ "session-dir", 0, POPT_ARG_STRING, &pp_common.session_dir, 0,
	  "session directory (default ./oprofile_data, else /var/lib/oprofile)", "DIR" },
	{ "image-path", 'p', POPT_ARG_STRING, &pp_common.image_path, 0,
	  "comma-separated directories to look for binaries in", "DIRS" },
	{ "root", 'R', POPT_ARG_STRING, &pp_common.root, 0,
	  "file system root to look for binaries under", "DIR" },
	{ "merge", 'm', POPT_ARG_STRING, &pp_common.merge, 0,
	  "merge profiles separated by: lib, cpu, tid, tgid, unitmask, all", "LIST" },
	{ "exclude-dependent", 'x', POPT_ARG_NONE, &pp_common.exclude_dependent, 0,
	  "leave out libraries, modules and the kernel used by applications", NULL },
	{ "include-symbols", 'i', POPT_ARG_STRING, &pp_common.include_symbols, 0,
	  "only these symbols (comma-separated, globs)", "SYMBOLS" },
	{ "exclude-symbols", 'e', POPT_ARG_STRING, &pp_common.exclude_symbols, 0,
	  "leave out these symbols (comma-separated, globs)", "SYMBOLS" },
	{ "demangle", 'D', POPT_ARG_STRING, &pp_common.demangle, 0,
	  "C++ names: none, normal (default) or smart", "MODE" },
	{ "threshold", 't', POPT_ARG_DOUBLE, &pp_common.threshold, 0,
	  "only entries with at least this percentage of samples", "PERCENT" },
	{ "quiet", 'q', POPT_ARG_NONE, &pp_common.quiet, 0,
	  "no warnings, only errors", NULL },
	{ "verbose", 'V', POPT_ARG_STRING, &pp_common.verbose, 0,
	  "debug output: debug, all, or other OProfile levels", "LEVELS" },
	{ "version", 'v', POPT_ARG_NONE, &pp_common.version, 0,
	  "print the version and exit", NULL },
	POPT_TABLEEND
};

void pp_common_release(struct pp_common_options *o)
{
	free(o->session_dir);
	free(o->image_path);
	free(o->root);
	free(o->verbose);
	free(o->merge);
	free(o->demangle);
	free(o->include_symbols);
	free(o->exclude_symbols);
	memset(o, 0, sizeof(*o));
}

char **pp_split_list(const char *list)
{
	char **v = op_xcalloc(strlen(list) + 2, sizeof(*v));
	size_t n = 0, len = 0;
	char *cur = op_xmalloc(strlen(list) + 1);
	const char *p;

	for (p = list;; p++) {
		if (*p == '\\' && p[1] == ',') {
			cur[len++] = ',';
			p++;
			continue;
		}
		if (*p == ',' || !*p) {
			cur[len] = '\0';
			if (len)
				v[n++] = op_xstrdup(cur);
			len = 0;
			if (!*p)
				break;
			continue;
		}
		cur[len++] = *p;
	}
	free(cur);
	return v;
}

char *pp_command_line(int argc, char **argv)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	int i;

	for (i = 0; i < argc; i++)
		op_strbuf_addf(&sb, "%s%s", i ? " " : "", argv[i]);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

void pp_free_list(char **list)
{
	size_t i;

	for (i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

void pp_common_verbosity(void)
{
	if (pp_common.quiet)
		op_msg_set_level(OP_MSG_QUIET);
	if (!pp_common.verbose)
		return;
	op_msg_set_level(strstr(pp_common.verbose, "all") ||
			 strstr(pp_common.verbose, "debug") ? OP_MSG_DEBUG
							    : OP_MSG_VERBOSE);
}

int pp_common_validate(void)
{
	struct op_err err;
	enum pp_demangle_mode mode;
	unsigned merge;

	if (pp_common.threshold < 0 || pp_common.threshold > 100) {
		op_usage_error("--threshold must be a percentage from 0 to 100");
		return 2;
	}
	if (pp_common.demangle && pp_demangle_mode_parse(pp_common.demangle, &mode)) {
		op_usage_error("unknown --demangle mode '%s' (none, normal or smart)",
			       pp_common.demangle);
		return 2;
	}
	if (pp_common.merge && pp_merge_parse(pp_common.merge, &merge, &err)) {
		op_usage_error("%s", err.msg);
		return 2;
	}
	return 0;
}

/* the notes of the libraries, printed as warnings */
static void print_note(void *data, const char *msg)
{
	(void)data;
	op_warning("%s", msg);
}

static void report_bad_files(const struct pp_file_list *list)
{
	size_t i;

	for (i = 0; i < list->nr_bad; i++)
		op_warning("skipping '%s': %s", list->bad[i].path, list->bad[i].why);
}

/*
 * Lost samples (a share of the samples taken), lost call-graph arcs and
 * throttled events, as libdb defines them (libdb/odb_stats.h)
 */
static void warn_about_stats(const struct pp_job *job)
{
	const struct odb_stats *st = &job->info.stats;
	uint64_t lost = odb_stats_lost_samples(st), taken;
	uint64_t arcs = odb_stats_lost_arcs(st);
	size_t i;

	if (lost && odb_stats_taken(st, &taken)) {
		op_warning("%" PRIu64 " of %" PRIu64 " samples (%.2f%%) were lost while "
			   "profiling; see %s/samples/operf.log", lost, taken,
			   100.0 * (double)lost / (double)taken, job->sd.dir);
	} else if (lost) {
		op_warning("%" PRIu64 " samples were lost while profiling; see "
			   "%s/samples/operf.log", lost, job->sd.dir);
	}
	if (arcs)
		op_warning("%" PRIu64 " call-graph arcs were not recorded: their caller "
			   "was in no known mapping (their samples were recorded)", arcs);
	for (i = 0; i < st->nr_throttled; i++)
		op_warning("the kernel throttled event '%s': fewer samples than its "
			   "rate asks for", st->throttled[i]);
}

static const char *const side_name[] = {
	"first profile: ", "second profile: ",
};

/* what the session directory holds, and what excluded everything */
static void explain(struct pp_job *job, const struct pp_spec *spec)
{
	char *why = pp_session_explain(&job->sd, spec);

	if (why)
		fprintf(stderr, "%s", why);
	free(why);
}

static int list_side(struct pp_job *job, int side, const struct pp_spec *spec)
{
	struct op_err err = { "" };
	int ret;

	ret = pp_session_list(&job->sd, spec, &job->files[side], &err);
	if (ret) {
		op_error("%s%s", job->nr_sides == 2 ? side_name[side] : "",
			 err.msg[0] ? err.msg : pp_spec_strerror(ret));
		if (ret == -ENOENT)
			explain(job, spec);
		return 1;
	}
	report_bad_files(&job->files[side]);
	if (!job->files[side].nr) {
		op_error("%sno sample files match the profile specification",
			 job->nr_sides == 2 ? side_name[side] : "");
		explain(job, spec);
		return 1;
	}
	return 0;
}

static int build_side(struct pp_job *job, int side)
{
	struct op_err err = { "" };
	int ret;

	ret = pp_profile_build(&job->profile[side], &job->files[side], job->merge,
			       &job->sym_opts, &err);
	if (ret) {
		op_error("%s", err.msg[0] ? err.msg : pp_profile_strerror(ret));
		return 1;
	}
	return 0;
}

/*
 * A report allocates and frees arrays of megabytes (symbol candidates,
 * sort scratch) phase after phase.  glibc would map each one afresh and
 * unmap it on free, so every phase paid the page faults again (a fifth of
 * opreport -l's time on a VM).  Keep big blocks on the heap, keep freed
 * memory for the next phase.
 */
static void keep_freed_memory(void)
{
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

int pp_job_start(struct pp_job *job, int argc, const char *const *argv)
{
	struct op_err err = { "" };
	const struct pp_spec *first;
	int ret, side;

	memset(job, 0, sizeof(*job));
	keep_freed_memory();
	pp_notes_init(&job->notes, print_note, NULL);
	job->demangle = PP_DEMANGLE_NORMAL;
	if (pp_common.demangle)
		pp_demangle_mode_parse(pp_common.demangle, &job->demangle);
	if (pp_common.merge)
		pp_merge_parse(pp_common.merge, &job->merge, &err);
	if (pp_common.xml)
		job->merge |= PP_CLASSES_XML;
	ret = pp_spec_parse(argc, argv, &job->spec, &err);
	if (ret) {
		op_usage_error("%s", err.msg[0] ? err.msg : pp_spec_strerror(ret));
		return 2;
	}
	first = &job->spec.first;
	ret = pp_session_dir_find(&job->sd, pp_common.session_dir, first->archive, &err);
	if (ret) {
		op_error("%s", err.msg);
		op_hint("profile with 'operf COMMAND' first, or give --session-dir");
		return 1;
	}
	job->nr_sides = job->spec.differential ? 2 : 1;
	for (side = 0; side < job->nr_sides; side++) {
		ret = list_side(job, side, side ? &job->spec.second : first);
		if (ret)
			return ret;
	}
	op_debug_phase("sample files listed");
	pp_session_info_read(&job->sd, pp_spec_sessions(first)->items[0], &job->info);
	warn_about_stats(job);
	if (pp_common.image_path)
		job->image_paths = pp_split_list(pp_common.image_path);
	if (pp_common.include_symbols)
		job->include = pp_split_list(pp_common.include_symbols);
	if (pp_common.exclude_symbols)
		job->exclude = pp_split_list(pp_common.exclude_symbols);
	job->sym_opts.root = pp_common.root;
	job->sym_opts.image_path = (const char *const *)job->image_paths;
	job->sym_opts.archive = job->sd.archive;
	job->sym_opts.kallsyms = job->info.kallsyms;
	job->sym_opts.modules = job->info.modules;
	job->sym_opts.vmlinux = job->info.run.vmlinux;
	for (side = 0; side < job->nr_sides; side++) {
		ret = build_side(job, side);
		if (ret)
			return ret;
	}
	op_debug_phase("profile built");
	return 0;
}

void pp_job_release(struct pp_job *job)
{
	int side;

	for (side = 0; side < 2; side++) {
		pp_profile_release(&job->profile[side]);
		pp_file_list_release(&job->files[side]);
	}
	pp_session_info_release(&job->info);
	pp_session_dir_release(&job->sd);
	pp_spec_set_release(&job->spec);
	pp_free_list(job->image_paths);
	pp_free_list(job->include);
	pp_free_list(job->exclude);
	pp_notes_release(&job->notes);
}
