// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oparchive: copy what a profile needs (its sample files, the session's
 * other files, the binaries samples fell in and their debug files) into
 * a directory that the report tools read with archive:DIR, on this
 * machine or another.
 *
 *   oparchive [options] -o DIR [profile specification]
 *
 * main: options -> the profile (ppt_job.c) -> the plan of files
 * (oparchive_plan.c) -> listed (-l) or copied (oparchive_copy.c).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "pp/oparchive.h"
#include "pp/ppt_job.h"
#include "pp/ppt_options.h"

struct oparchive_options {
	char *output_directory;
	int list_files;
	struct ppt_common_options common;
};

/* filled by popt, then passed down as const */
static struct oparchive_options opts;

static const struct poptOption options_table[] = {
	{ "output-directory", 'o', POPT_ARG_STRING, &opts.output_directory, 0,
	  "write the archive to DIR (made if missing; files of an archive "
	  "already there are replaced)", "DIR" },
	{ "list-files", 'l', POPT_ARG_NONE, &opts.list_files, 0,
	  "only list the files that would be archived", NULL },
	{ "exclude-dependent", 'x', POPT_ARG_NONE, &opts.common.exclude_dependent, 0,
	  "leave out libraries, modules and the kernel used by applications", NULL },
	{ "session-dir", 0, POPT_ARG_STRING, &opts.common.session_dir, 0,
	  "session directory (default ./oprofile_data, else /var/lib/oprofile)", "DIR" },
	{ "image-path", 'p', POPT_ARG_STRING, &opts.common.image_path, 0,
	  "comma-separated directories to look for binaries in", "DIRS" },
	{ "root", 'R', POPT_ARG_STRING, &opts.common.root, 0,
	  "file system root to look for binaries under", "DIR" },
	{ "quiet", 'q', POPT_ARG_NONE, &opts.common.quiet, 0,
	  "no warnings and no progress, only errors", NULL },
	{ "verbose", 'V', POPT_ARG_STRING, &opts.common.verbose, 0,
	  "debug output, LEVELS comma-separated from: all, arcs, bfd, "
	  "convert, debug, level1, misc, record, sfile, stats, xml", "LEVELS" },
	{ "version", 'v', POPT_ARG_NONE, &opts.common.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static void options_release(void)
{
	free(opts.output_directory);
	ppt_common_release(&opts.common);
}

static int validate(void)
{
	if (!opts.list_files && !opts.output_directory) {
		op_usage_error("give the archive directory with --output-directory "
			       "(or -l to list the files only)");
		return 2;
	}
	if (opts.output_directory && !opts.output_directory[0]) {
		op_usage_error("--output-directory is empty: give a directory");
		return 2;
	}
	return ppt_common_validate(&opts.common);
}

/*
 * path made absolute and resolved as far as it exists (the rest of it
 * appended as given), so that it compares with the session directory.
 * Caller frees.
 */
static char *resolve_output(const char *path)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char cwd[PATH_MAX], real[PATH_MAX], *abs, *head, *slash;
	size_t cut;

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		op_strbuf_addf(&sb, "%s/", cwd);
	op_strbuf_addstr(&sb, path);
	abs = op_xstrdup(sb.buf ? sb.buf : "/");
	head = op_xstrdup(abs);
	op_strbuf_reset(&sb);
	for (cut = strlen(abs);; cut = (size_t)(slash - head)) {
		head[cut] = '\0';
		if (realpath(cut ? head : "/", real)) {
			/* abs + cut is "" or starts with '/' */
			op_strbuf_addf(&sb, "%s%s", strcmp(real, "/") ? real : "", abs + cut);
			break;
		}
		slash = strrchr(head, '/');
		if (!slash) {
			op_strbuf_addstr(&sb, abs);
			break;
		}
	}
	free(head);
	free(abs);
	if (!sb.len)
		op_strbuf_addstr(&sb, "/");
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

/* is path dir or below it? */
static bool below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	return !strncmp(path, dir, len) && (!path[len] || path[len] == '/');
}

/* an output directory that would overwrite what it copies: 2, else 0 */
static int check_output(const char *out, const struct ppt_job *job)
{
	char *real = resolve_output(out);
	int status = 0;

	if (!strcmp(real, "/")) {
		op_usage_error("the archive cannot be '/': every binary would be "
			       "copied over itself");
		status = 2;
	} else if (below(real, job->sd.dir)) {
		op_usage_error("the archive '%s' is inside the session directory '%s'",
			       out, job->sd.dir);
		op_hint("give a directory outside '%s'", job->sd.dir);
		status = 2;
	}
	free(real);
	return status;
}

static void list_plan(const struct oa_plan *plan)
{
	size_t i;

	for (i = 0; i < plan->nr; i++)
		printf("%s\n", plan->v[i].src);
}

/* what was written, and how to read it */
static void say_done(const struct oa_plan *plan, const char *out, const char *session_dir)
{
	op_notice("oparchive: %zu files (%.1f MiB) archived in '%s'", plan->nr,
		  (double)plan->total / (1024.0 * 1024.0), out);
	op_notice("read it with: opreport archive:%s --session-dir=%s", out, session_dir);
}

static int archive(struct ppt_job *job)
{
	struct oa_plan plan;
	int status;

	oa_plan_make(&plan, job, opts.common.exclude_dependent);
	if (opts.list_files) {
		list_plan(&plan);
		status = plan.status;
	} else {
		status = oa_copy(&plan, opts.output_directory,
				 isatty(STDERR_FILENO) && !opts.common.quiet);
		if (!status)
			say_done(&plan, opts.output_directory, job->sd.dir);
		status = status ? status : plan.status;
	}
	oa_plan_release(&plan);
	return status;
}

/* from the specification to the archive: the exit status */
static int run(poptContext ctx)
{
	struct ppt_job job;
	int nr, status;
	const char **args = op_popt_args(ctx, &nr);

	status = ppt_job_start(&job, &opts.common, false, nr, args);

	if (status)
		goto out_job;
	if (job.nr_sides == 2) {
		op_usage_error("oparchive takes one profile, not a differential { } { }");
		status = 2;
	} else if (job.spec.first.time.nr) {
		op_usage_error("oparchive copies whole sample files, not time slices: "
			       "archive without time: (the slices go along) and give "
			       "time: to the report tools reading the archive");
		status = 2;
	} else if (job.spec.first.archive) {
		op_usage_error("the profile is already an archive: copy its directory");
		status = 2;
	} else if (!opts.output_directory ||
		   !(status = check_output(opts.output_directory, &job))) {
		status = archive(&job);
	}
out_job:
	ppt_job_release(&job);
	return status;
}

int main(int argc, char **argv)
{
	poptContext ctx;
	int status = 0;

	if (op_popt_parse(&ctx, argc, argv, options_table,
			  "-o DIR [profile specification]", 0, NULL, NULL)) {
		options_release();
		return 2;
	}
	ppt_common_verbosity(&opts.common);
	if (opts.common.version)
		printf("oparchive (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
	else if (!(status = validate()))
		status = run(ctx);
	poptFreeContext(ctx);
	options_release();
	return status;
}
