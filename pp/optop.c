// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * optop: a live view of a session while operf or oprofiled writes it,
 * the hottest symbols (or images, or processes) by their samples over
 * the last interval, with their totals.
 *
 *   optop [options] [profile specification]
 *
 * On a terminal the view is redrawn every --delay seconds and keys switch
 * it (s, i, p) or quit (q); otherwise (or with --batch) each snapshot is
 * printed after the one before, --iterations times.  The snapshots are
 * libpp/report's (pp_top.h); this file shows them.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/report/pp_top.h"
#include "libutil/op_error.h"
#include "libutil/op_popt.h"
#include "libutil/op_strbuf.h"
#include "pp/optop_term.h"
#include "pp/ppt_job.h"
#include "pp/ppt_options.h"

#define HEADER_LINES 4		/* above the rows on a terminal */

struct optop_options {
	double delay;
	int iterations;
	int batch;
	int lines;
	char *view;
	char *session_dir;
	char *image_path;
	char *root;
	char *verbose;
	int version;
};

static struct optop_options opts = { .delay = 2.0 };

static const struct poptOption options_table[] = {
	{ "delay", 'd', POPT_ARG_DOUBLE, &opts.delay, 0,
	  "seconds between snapshots (default 2; 0: as fast as they come)", "SECONDS" },
	{ "iterations", 'n', POPT_ARG_INT, &opts.iterations, 0,
	  "stop after this many snapshots (default: until q or Ctrl-C)", "N" },
	{ "batch", 'b', POPT_ARG_NONE, &opts.batch, 0,
	  "print each snapshot after the last, no keys (the way without a "
	  "terminal)", NULL },
	{ "lines", 'l', POPT_ARG_INT, &opts.lines, 0,
	  "rows shown (default: what the terminal holds, 20 in batch mode)", "N" },
	{ "view", '\0', POPT_ARG_STRING, &opts.view, 0,
	  "what a row is: symbols (the default), images or processes", "VIEW" },
	{ "session-dir", '\0', POPT_ARG_STRING, &opts.session_dir, 0,
	  "session directory (default ./oprofile_data, else /var/lib/oprofile)", "DIR" },
	{ "image-path", 'p', POPT_ARG_STRING, &opts.image_path, 0,
	  "comma-separated directories to search for binaries", "PATHS" },
	{ "root", 'R', POPT_ARG_STRING, &opts.root, 0,
	  "look for binaries under this root directory", "DIR" },
	{ "verbose", 'V', POPT_ARG_STRING, &opts.verbose, 0,
	  "debug output: all", "LEVELS" },
	{ "version", 'v', POPT_ARG_NONE, &opts.version, 0,
	  "print the version and exit", NULL },
	POPT_AUTOHELP
	POPT_TABLEEND
};

static const char *const view_names[] = {
	[PP_TOP_SYMBOLS] = "symbols",
	[PP_TOP_IMAGES] = "images",
	[PP_TOP_PROCESSES] = "processes",
};

static void options_release(void)
{
	free(opts.view);
	free(opts.session_dir);
	free(opts.image_path);
	free(opts.root);
	free(opts.verbose);
}

static int parse_view(const char *name, enum pp_top_view *v)
{
	size_t i;

	for (i = 0; i < sizeof(view_names) / sizeof(view_names[0]); i++)
		if (!strcmp(name, view_names[i])) {
			*v = (enum pp_top_view)i;
			return 0;
		}
	op_usage_error("--view='%s': the views are symbols, images and processes", name);
	return 2;
}

static int validate(enum pp_top_view *view)
{
	if (!(opts.delay >= 0) || opts.delay > 86400) {
		op_usage_error("--delay must be from 0 to 86400 seconds");
		return 2;
	}
	if (opts.iterations < 0 || opts.lines < 0) {
		op_usage_error("--%s must not be negative",
			       opts.iterations < 0 ? "iterations" : "lines");
		return 2;
	}
	return opts.view ? parse_view(opts.view, view) : 0;
}

/* "12.3" of part in whole, or "-" without a whole */
static void pct(char *buf, size_t size, uint64_t part, uint64_t whole)
{
	if (whole)
		snprintf(buf, size, "%.1f", 100.0 * (double)part / (double)whole);
	else
		snprintf(buf, size, "-");
}

static void rows_text(struct op_strbuf *sb, const struct pp_top *t, enum pp_top_view view,
		      size_t max)
{
	size_t i;

	bool two = view == PP_TOP_SYMBOLS;

	op_strbuf_addf(sb, "%7s %9s %7s %10s  %-*s%s\n", "now %", "a second", "all %",
		       "samples", two ? 36 : 0, two ? "symbol" :
		       view == PP_TOP_IMAGES ? "image" : "process", two ? " image" : "");
	for (i = 0; i < t->nr_rows && i < max; i++) {
		const struct pp_top_row *r = &t->rows[i];
		char now[16], all[16], rate[24];

		if (t->first) {
			snprintf(now, sizeof(now), "-");
			snprintf(rate, sizeof(rate), "-");
		} else {
			pct(now, sizeof(now), r->delta, t->delta);
			snprintf(rate, sizeof(rate), "%.0f", t->interval > 0 ?
				 (double)r->delta / t->interval : 0.0);
		}
		pct(all, sizeof(all), r->total, t->total);
		op_strbuf_addf(sb, "%7s %9s %7s %10llu  %-*s%s%s\n", now, rate, all,
			       (unsigned long long)r->total, r->where ? 36 : 0, r->name,
			       r->where ? " " : "", r->where ? r->where : "");
	}
}

/* one snapshot as text (ret: the snapshot's error, err its message) */
static void snapshot_text(struct op_strbuf *sb, const struct pp_top *t,
			  enum pp_top_view view, int ret, const struct op_err *err,
			  const char *where, size_t max, bool keys)
{
	char clock[16];
	time_t now = time(NULL);
	struct tm tm;

	strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
	op_strbuf_addf(sb, "optop %s  %s  %s  view: %s%s\n", clock, where,
		       t->event ? t->event : "", view_names[view],
		       keys ? "   keys: s symbols, i images, p processes, q quit" : "");
	if (ret) {
		op_strbuf_addf(sb, "waiting for samples: %s\n", err->msg[0] ? err->msg :
			       "the session cannot be read yet");
		return;
	}
	if (t->first)
		op_strbuf_addf(sb, "%llu samples in %zu sample files; the rates come "
			       "with the next snapshot\n", (unsigned long long)t->total,
			       t->nr_files);
	else
		op_strbuf_addf(sb, "%llu samples in %zu sample files, %llu in the last "
			       "%.1f s (%.0f a second)\n", (unsigned long long)t->total,
			       t->nr_files, (unsigned long long)t->delta, t->interval,
			       t->interval > 0 ? (double)t->delta / t->interval : 0.0);
	rows_text(sb, t, view, max);
	if (t->note[0])
		op_strbuf_addf(sb, "note: %s\n", t->note);
}

/* the number of a key's view, or -1 */
static int key_view(int key)
{
	return key == 's' ? PP_TOP_SYMBOLS : key == 'i' ? PP_TOP_IMAGES :
	       key == 'p' ? PP_TOP_PROCESSES : -1;
}

static int run(struct ppt_job *job, enum pp_top_view view, int n)
{
	bool live = !opts.batch && isatty(STDOUT_FILENO), keys = live && optop_term_raw();
	struct pp_top t;
	int ret = 0, key;

	pp_top_init(&t, &job->sd, &job->spec.first, &job->sym_opts);
	optop_term_signals();
	for (;;) {
		struct op_strbuf sb = OP_STRBUF_INIT;
		struct op_err err = { "" };
		size_t max = opts.lines ? (size_t)opts.lines : live ?
			     (size_t)(optop_term_rows() > HEADER_LINES + 1 ?
				      optop_term_rows() - HEADER_LINES : 1) : 20;

		ret = pp_top_snapshot(&t, view, &err);
		if (live)
			op_strbuf_addstr(&sb, "\033[H\033[2J");
		else if (n)
			op_strbuf_addch(&sb, '\n');
		snapshot_text(&sb, &t, view, ret, &err, job->sd.dir, max, keys);
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		fputs(sb.buf, stdout);
		op_strbuf_release(&sb);
		if (fflush(stdout) || ferror(stdout)) {
			ret = -EIO;
			break;
		}
		if (++n == opts.iterations)
			break;
		key = optop_term_wait((int)lround(opts.delay * 1000), keys);
		if (key < 0 || key == 'q')
			break;
		if (key_view(key) >= 0)
			view = (enum pp_top_view)key_view(key);
	}
	optop_term_restore();
	pp_top_release(&t);
	if (ret == -EIO) {
		op_error("cannot write to standard output");
		return 1;
	}
	return ret ? 1 : 0;
}

/*
 * A --session-dir that operf has not made yet is waited for, each look a
 * snapshot (--iterations counts it): 0 once it is there, 1 when the view
 * ended first.  *n: the snapshots shown.
 */
static int wait_for_dir(const char *dir, int *n)
{
	struct stat st;
	int key = 0;

	optop_term_signals();
	while (stat(dir, &st)) {
		char clock[16];
		time_t now = time(NULL);
		struct tm tm;

		strftime(clock, sizeof(clock), "%H:%M:%S", localtime_r(&now, &tm));
		printf("%soptop %s  %s\nwaiting for the session directory: %s\n",
		       *n ? "\n" : "", clock, dir, strerror(errno));
		fflush(stdout);
		if (++*n == opts.iterations || key < 0)
			return 1;
		key = optop_term_wait((int)lround(opts.delay * 1000), false);
		if (key < 0)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ppt_common_options common = { 0 };
	enum pp_top_view view = PP_TOP_SYMBOLS;
	struct ppt_job job;
	const char **args;
	poptContext ctx;
	int nr, status, shown = 0;

	if (op_popt_parse(&ctx, argc, argv, options_table, "[profile specification]",
			  0, NULL, NULL)) {
		options_release();
		return 2;
	}
	if (opts.version) {
		printf("optop (" PACKAGE_NAME ") " PACKAGE_VERSION "\n");
		status = 0;
		goto out_ctx;
	}
	status = validate(&view);
	if (status)
		goto out_ctx;
	common.session_dir = opts.session_dir;
	common.image_path = opts.image_path;
	common.root = opts.root;
	common.verbose = opts.verbose;
	common.quiet = 1;
	ppt_common_verbosity(&common);
	args = op_popt_args(ctx, &nr);
	if (opts.session_dir && wait_for_dir(opts.session_dir, &shown)) {
		status = 1;
		goto out_ctx;
	}
	status = ppt_job_begin(&job, &common, false, nr, args);
	if (!status && (job.nr_sides == 2 || job.spec.first.time.nr)) {
		op_usage_error("optop shows one live profile: no differential { } { } "
			       "and no time:");
		status = 2;
	}
	if (!status)
		status = run(&job, view, shown);
	ppt_job_release(&job);
out_ctx:
	poptFreeContext(ctx);
	options_release();
	return status;
}
