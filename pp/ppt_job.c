// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The steps every report tool takes (see ppt_job.h): from a profile
 * specification to built profiles, with the messages of each step, and
 * from there through one output of libpp/report to the exit status.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_abi.h"
#include "libdb/odb_stats.h"
#include "libpp/profile/pp_time.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_file.h"
#include "libutil/op_popt.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"
#include "pp/ppt_job.h"

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
static void warn_about_stats(const struct ppt_job *job)
{
	const struct odb_stats *st = &job->info.stats;
	uint64_t arcs = odb_stats_lost_arcs(st);
	struct op_strbuf sb = OP_STRBUF_INIT, log = OP_STRBUF_INIT;
	size_t i;

	/* operf said the same at the end of the run (libdb's words) */
	if (odb_stats_describe_lost(st, &sb))
		op_die(1, "out of memory");
	op_strbuf_addf(&log, "%s/samples/operf.log", job->sd.dir);
	if (sb.len && op_is_file(log.buf))
		op_warning("%s; see %s", sb.buf, log.buf);
	else if (sb.len)
		op_warning("%s", sb.buf);
	op_strbuf_release(&sb);
	op_strbuf_release(&log);
	if (arcs)
		op_warning("%" PRIu64 " call-graph arc%s not recorded: %s caller "
			   "was in no known mapping (%s samples were recorded)", arcs,
			   arcs == 1 ? " was" : "s were", arcs == 1 ? "its" : "their",
			   arcs == 1 ? "its" : "their");
	for (i = 0; i < st->nr_throttled; i++) {
		char q[256];

		/* a name from a file anyone may have written */
		op_warning("the kernel throttled event '%s': fewer samples than its "
			   "rate asks for", op_quote(q, sizeof(q), st->throttled[i]));
	}
}

/*
 * --image-path directories that do not exist: OProfile 1.4 says nothing
 * and finds nothing there; a typo should not cost a user their symbols
 * silently
 */
static void warn_image_paths(char *const *dirs, const char *root)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i;

	for (i = 0; dirs && dirs[i]; i++) {
		op_strbuf_reset(&sb);
		op_strbuf_addf(&sb, "%s%s", root ? root : "", dirs[i]);
		if (!op_strbuf_failed(&sb) && !op_is_dir(sb.buf))
			op_warning("--image-path: '%s' is not a directory: no binary is "
				   "looked for there", sb.buf);
	}
	op_strbuf_release(&sb);
}

/* what a directory entry that should be a regular file is instead */
static const char *odd_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) || S_ISREG(st.st_mode))
		return NULL;
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		return "a device";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	/* a session's files are never followed elsewhere */
	if (S_ISLNK(st.st_mode))
		return "a symbolic link";
	return S_ISDIR(st.st_mode) ? "a directory" : "not a regular file";
}

/*
 * The session's own files (session.info, the kernel copies, the names,
 * build-ids and long names, the files of stats/) that are not regular
 * files: never read (a FIFO would block), and named here, so that
 * nothing is left out silently
 */
static void warn_odd_files(const struct pp_session_dir *sd, const char *session)
{
	static const char *const names[] = {
		"session.info", "kernel/kallsyms", "kernel/modules", "kernel/vdso.so",
		"comms", "buildids", "longnames",
	};
	char *dir = pp_session_path(sd, session), q[512];
	struct op_strbuf path = OP_STRBUF_INIT;
	struct dirent *e;
	const char *kind;
	size_t i;
	DIR *d;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		op_strbuf_reset(&path);
		op_strbuf_addf(&path, "%s/%s", dir, names[i]);
		if (!op_strbuf_failed(&path) && (kind = odd_kind(path.buf)))
			op_warning("skipping '%s': %s, not a regular file",
				   op_quote(q, sizeof(q), path.buf), kind);
	}
	op_strbuf_reset(&path);
	op_strbuf_addf(&path, "%s/stats", dir);
	d = op_strbuf_failed(&path) ? NULL : opendir(path.buf);
	while (d && (e = readdir(d))) {
		struct op_strbuf f = OP_STRBUF_INIT;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "throttled"))
			continue;
		op_strbuf_addf(&f, "%s/%s", path.buf, e->d_name);
		if (!op_strbuf_failed(&f) && (kind = odd_kind(f.buf)))
			op_warning("skipping '%s': %s, not a regular file",
				   op_quote(q, sizeof(q), f.buf), kind);
		op_strbuf_release(&f);
	}
	if (d)
		closedir(d);
	/* SESSION/abi, which opimport reads */
	op_strbuf_reset(&path);
	op_strbuf_addf(&path, "%s/abi", sd->dir);
	if (!op_strbuf_failed(&path) && (kind = odd_kind(path.buf)))
		op_warning("skipping '%s': %s, not a regular file",
			   op_quote(q, sizeof(q), path.buf), kind);
	op_strbuf_release(&path);
	free(dir);
}

/*
 * A session written on a machine of another layout (its abi file,
 * oprofile-ng-session(5)) has sample files this one cannot read: say why
 * before they are refused one by one.  Keys the file lacks, and a file
 * that is missing or unreadable, say nothing.
 */
static void warn_foreign_abi(const struct pp_session_dir *sd)
{
	struct odb_abi abi, native;
	char q[256];
	size_t idx;

	if (odb_abi_read(sd->dir, &abi))
		return;
	odb_abi_native(&native);
	if (!odb_abi_differs(&abi, &native, &idx))
		return;
	op_warning("session '%s' was written on a machine with another sample-file "
		   "layout: its abi file has %s %llu, this machine %llu",
		   op_quote(q, sizeof(q), sd->dir), odb_abi_key_name(idx),
		   (unsigned long long)abi.value[idx],
		   (unsigned long long)native.value[idx]);
	op_hint("report it on a machine of that layout, or convert its sample files "
		"to this one's first");
}

/* the build-id operf recorded for a binary (pp_sym_opts) */
static const char *profiled_build_id(const void *data, const char *path)
{
	return pp_buildids_find(data, path);
}

static const char *const side_name[] = {
	"first profile: ", "second profile: ",
};

/* what the session directory holds, and what excluded everything */
static void explain(struct ppt_job *job, const struct pp_spec *spec)
{
	char *why = pp_session_explain(&job->sd, spec);

	if (why)
		fprintf(stderr, "%s", why);
	free(why);
}

static int list_side(struct ppt_job *job, int side, const struct pp_spec *spec)
{
	struct op_err err = { "" };
	int ret;

	ret = pp_session_list(&job->sd, spec, &job->files[side], &err);
	if (ret) {
		op_error("%s%s", job->nr_sides == 2 ? side_name[side] : "",
			 err.msg[0] ? err.msg : pp_profile_strerror(ret));
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

/* what time: took on one side, appended to sb */
static void time_side(struct op_strbuf *sb, const struct pp_spec *spec,
		      const struct pp_file_list *list)
{
	size_t n = pp_time_nr_points(list->time), i;
	uint64_t first, last, len, len0;
	bool same = true;

	pp_time_point(list->time, 0, &first, &len0);
	for (i = 0; i < n; i++) {
		pp_time_point(list->time, i, &last, &len);
		same = same && len == len0;
	}
	op_strbuf_addf(sb, "%.3f s to %.3f s of the session, %zu slice%s",
		       first / 1e9, (last + len) / 1e9, n, n == 1 ? "" : "s");
	if (same)
		op_strbuf_addf(sb, " of %g s", len0 / 1e9);
	op_strbuf_addstr(sb, " (");
	for (i = 0; i < spec->time.nr; i++)
		op_strbuf_addf(sb, "%s%s", i ? "," : "time:", spec->time.items[i]);
	op_strbuf_addch(sb, ')');
}

/*
 * time: the header's line saying which slices were taken; warnings for
 * call-graph files left out (arcs are not sliced) and slices dropped
 */
static void time_notes(struct ppt_job *job)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t unsliced = 0;
	uint64_t dropped = 0;
	bool partial = false;
	int side;

	for (side = 0; side < job->nr_sides; side++) {
		const struct pp_file_list *list = &job->files[side];

		if (!list->time || !pp_time_nr_points(list->time))
			continue;
		op_strbuf_addstr(&sb, sb.len ? "; then " : "Time: ");
		time_side(&sb, side ? &job->spec.second : &job->spec.first, list);
		unsliced += list->nr_unsliced;
		dropped += pp_time_dropped(list->time);
		partial = partial || pp_time_partial(list->time);
	}
	if (sb.len && !(job->time_note = op_strbuf_detach(&sb)))
		op_die(1, "out of memory");
	op_strbuf_release(&sb);
	if (unsliced)
		op_warning("time: %zu call-graph file%s left out: call-graph arcs "
			   "are recorded for the whole run, not per slice", unsliced,
			   unsliced == 1 ? " was" : "s were");
	if (partial)
		op_warning("time: the session had samples before its time slices began "
			   "(operf --append onto a session recorded without them): those "
			   "samples are in no slice");
	if (dropped)
		op_warning("time: %llu sample%s missing from the slices: the slice "
			   "file reached its size limit while recording",
			   (unsigned long long)dropped, dropped == 1 ? " is" : "s are");
}

static int build_side(struct ppt_job *job, int side)
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

/* the kernel image of a session recorded without a vmlinux */
static const struct odb_image_id kernel_id = {
	.kind = ODB_IMAGE_KERNEL,
	.name = (char *)"no-vmlinux",
};

static void symbol_options(struct ppt_job *job, const struct ppt_common_options *o);

/*
 * The kernel's symbols, from the session's kallsyms copy, read by a
 * thread while the sample files are listed: parsing 120 000 lines is
 * most of a report's table loading.  Only for a session with a copy and
 * without a vmlinux (the kernel image is then no-vmlinux); the table is
 * dropped when the profile has no kernel samples.
 */
static void kernel_ahead(struct ppt_job *job)
{
	/* on one CPU the thread would only take it from the listing */
	if (!job->info.kallsyms || job->info.run.vmlinux || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	job->kernel_ahead = pp_symtab_ahead_start(&kernel_id, true, &job->sym_opts);
}

int ppt_job_begin(struct ppt_job *job, const struct ppt_common_options *o,
		  bool xml_classes, int argc, const char *const *argv)
{
	struct op_err err = { "" };
	const struct pp_spec *first;
	int ret;

	memset(job, 0, sizeof(*job));
	keep_freed_memory();
	pp_notes_init(&job->notes, print_note, NULL);
	job->demangle = PP_DEMANGLE_NORMAL;
	if (o->demangle)
		pp_demangle_mode_parse(o->demangle, &job->demangle);
	if (o->merge)
		pp_merge_parse(o->merge, &job->merge, &err);
	if (xml_classes)
		job->merge |= PP_CLASSES_XML;
	ret = pp_spec_parse(argc, argv, &job->spec, &err);
	if (ret) {
		op_usage_error("%s", err.msg[0] ? err.msg : pp_profile_strerror(ret));
		return 2;
	}
	first = &job->spec.first;
	ret = pp_session_dir_find(&job->sd, o->session_dir, first->archive, &err);
	if (ret) {
		op_error("%s", err.msg);
		op_hint("profile with 'operf COMMAND' first, or give --session-dir");
		return 1;
	}
	/* where a session was looked for when none was given, as OProfile
	 * 1.4 says it */
	if (!job->sd.given && !o->quiet)
		fprintf(stderr, "Using %s/samples/ for samples directory.\n", job->sd.dir);
	job->nr_sides = job->spec.differential ? 2 : 1;
	pp_session_info_read(&job->sd, pp_spec_sessions(first)->items[0], &job->info);
	if (o->image_path)
		job->image_paths = ppt_split_list(o->image_path);
	symbol_options(job, o);
	return 0;
}

int ppt_job_start(struct ppt_job *job, const struct ppt_common_options *o,
		  bool xml_classes, int argc, const char *const *argv)
{
	const struct pp_spec *first;
	int ret, side;

	ret = ppt_job_begin(job, o, xml_classes, argc, argv);
	if (ret)
		return ret;
	first = &job->spec.first;
	if (o->symbols)
		kernel_ahead(job);
	for (side = 0; side < job->nr_sides; side++) {
		ret = list_side(job, side, side ? &job->spec.second : first);
		if (ret)
			return ret;
	}
	time_notes(job);
	op_debug_phase("sample files listed");
	warn_odd_files(&job->sd, pp_spec_sessions(first)->items[0]);
	warn_foreign_abi(&job->sd);
	warn_about_stats(job);
	warn_image_paths(job->image_paths, o->root);
	if (o->include_symbols)
		job->include = ppt_split_list(o->include_symbols);
	if (o->exclude_symbols)
		job->exclude = ppt_split_list(o->exclude_symbols);
	for (side = 0; side < job->nr_sides; side++) {
		ret = build_side(job, side);
		if (ret)
			return ret;
	}
	/* the kernel's table, read ahead: the profile's when it has the kernel */
	if (job->kernel_ahead &&
	    pp_profile_symtab_ahead(&job->profile[0], &kernel_id, true, job->kernel_ahead))
		job->kernel_ahead = NULL;
	op_debug_phase("profile built");
	return 0;
}

/* what the symbol tables are read with */
static void symbol_options(struct ppt_job *job, const struct ppt_common_options *o)
{
	job->sym_opts.root = o->root;
	job->sym_opts.image_path = (const char *const *)job->image_paths;
	job->sym_opts.archive = job->sd.archive;
	job->sym_opts.kallsyms = job->info.kallsyms;
	job->sym_opts.vdso = job->info.vdso;
	job->sym_opts.jit_dir = job->info.jit_dir;
	job->sym_opts.profiled_build_id = profiled_build_id;
	job->sym_opts.build_id_data = &job->info.buildids;
	job->sym_opts.modules = job->info.modules;
	job->sym_opts.vmlinux = job->info.run.vmlinux;
	job->sym_opts.demangle = job->demangle;
}

void ppt_job_release(struct ppt_job *job)
{
	int side;

	pp_symtab_free(pp_symtab_ahead_take(job->kernel_ahead));
	for (side = 0; side < 2; side++) {
		pp_profile_release(&job->profile[side]);
		pp_file_list_release(&job->files[side]);
	}
	pp_session_info_release(&job->info);
	pp_session_dir_release(&job->sd);
	pp_spec_set_release(&job->spec);
	ppt_free_list(job->image_paths);
	ppt_free_list(job->include);
	ppt_free_list(job->exclude);
	pp_notes_release(&job->notes);
	free(job->time_note);
}

void ppt_job_report_opts(const struct ppt_job *job, const struct ppt_common_options *o,
			 struct pp_report_opts *ro)
{
	ro->exclude_dependent = o->exclude_dependent;
	ro->threshold = o->threshold;
	ro->include_symbols = (const char *const *)job->include;
	ro->exclude_symbols = (const char *const *)job->exclude;
	ro->merge_list = o->merge;
	ro->image_path = o->image_path;
	ro->time_note = job->time_note;
}

int ppt_job_run(struct ppt_job *job, const struct pp_output *output,
		const struct pp_report_opts *ro, FILE *out)
{
	struct pp_report_input in = {
		.profiles = { &job->profile[0], &job->profile[1] },
		.nr_profiles = (size_t)job->nr_sides,
		.info = &job->info,
		.files = { &job->files[0], &job->files[1] },
		.o = ro,
		.notes = &job->notes,
	};
	struct op_err err = { "" };
	int ret = pp_report_run(output, &in, out, &err);

	op_debug_phase("report written");
	switch (ret) {
	case 0:
		return 0;
	case PP_SYMBOLS_ERR_BAD_OPTIONS:
		op_usage_error("%s", err.msg[0] ? err.msg : pp_report_strerror(ret));
		return 2;
	case PP_REPORT_ERR_COLUMNS:
		op_error("%s", err.msg[0] ? err.msg : pp_report_strerror(ret));
		op_hint("select the same events, cpus or threads on both sides, "
			"or --merge them");
		return 1;
	case PP_REPORT_ERR_NOT_ONE:
		/* the specification is the user's to narrow: a usage error */
		op_error("%s", err.msg[0] ? err.msg : pp_report_strerror(ret));
		op_hint("name one binary with lib-image:PATH (image:PATH also "
			"selects the libraries and kernel it used)");
		return 2;
	default:
		op_error("%s", err.msg[0] ? err.msg : pp_report_strerror(ret));
		return 1;
	}
}
