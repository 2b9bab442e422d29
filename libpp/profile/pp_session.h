/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding sessions and their sample files (oprofile-ng-session(5), SESSION DIRECTORY).
 *
 * The session directory is --session-dir if given, else ./oprofile_data
 * if it exists, else /var/lib/oprofile.  A session name that starts with
 * neither '.' nor '/' means DIR/samples/NAME; "current" is the default.
 * With archive:PATH, the session directory and every binary are looked up
 * under PATH (opreport(1), PROFILE SPECIFICATIONS).
 */
#ifndef PP_SESSION_H
#define PP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb_name.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_stats.h"
#include "libpp/profile/pp_spec.h"
#include "libutil/op_error.h"

struct pp_session_dir {
	char *dir;		/* the session directory, resolved (under archive) */
	char *archive;		/* archive root, or NULL */
	bool given;		/* from --session-dir */
};

/*
 * Pick the session directory (see above); archive may be NULL.  Returns 0
 * or a negative errno with the paths tried in err.
 */
int pp_session_dir_find(struct pp_session_dir *sd, const char *option,
			const char *archive, struct op_err *err);
void pp_session_dir_release(struct pp_session_dir *sd);

/* the samples directory of session name (caller frees) */
char *pp_session_path(const struct pp_session_dir *sd, const char *name);

/* one sample file found in a session */
struct pp_kc;
struct pp_sample_file {
	char *path;		/* absolute, below the resolved session path */
	char *session;		/* the session name it was found in */
	struct odb_name name;	/* parsed from its path */
	/* with time:, the samples are those of the slices selected, not
	 * the file's (pp_time.h): sorted distinct keys */
	bool sliced;
	struct pp_kc *kc;
	size_t nr_kc;
};

/* a file under a session that looked like a sample file but is not */
struct pp_bad_file {
	char *path;
	char *why;
};

struct pp_file_list {
	struct pp_sample_file *files;
	size_t nr;
	struct pp_bad_file *bad;	/* malformed names and files that are not
					 * regular, reported by callers */
	size_t nr_bad;
	size_t nr_other;		/* files that are not sample files (stats/...) */
	struct pp_time *time;		/* time: given: the slices (pp_time.h) */
	size_t nr_unsliced;		/* time: dropped these call-graph files */
};

/*
 * List every sample file of the sessions spec selects (minus
 * session-exclude), keeping those the rest of spec matches.  A session
 * that does not exist is -ENOENT with its path in err.  Files under
 * current/ that are not below {root} or {kern} (stats/, session.info,
 * kernel/) are skipped, as are "*.tmp" files of a writer and JIT ELF files
 * ({anon:NAME}/PID.jo), all counted in nr_other; malformed names go to
 * bad.  Files come session by session, each walked in sorted order (the
 * same on every run); a session named twice is listed once.  Symbolic
 * links inside a session are not followed.  With time: in spec, each
 * session's slice file is read (none is PP_PROFILE_ERR_NO_SLICES, a
 * damaged one its libdb error, err naming it); the files then hold the
 * samples of the slices selected, those without any and the call-graph
 * files (not sliced, counted in nr_unsliced) left out.  The caller frees
 * with pp_file_list_release().
 */
int pp_session_list(const struct pp_session_dir *sd, const struct pp_spec *spec,
		    struct pp_file_list *list, struct op_err *err);

/* like pp_session_list() but without filtering: for explanations */
int pp_session_list_all(const struct pp_session_dir *sd,
			const struct pp_spec *spec, struct pp_file_list *list,
			struct op_err *err);

void pp_file_list_release(struct pp_file_list *list);

/*
 * When a specification matches nothing: a few lines saying which session
 * directory was searched, which sessions exist there, what the session
 * holds (events, applications, images, separation fields) and which tag
 * excluded everything.  Every line ends in '\n'; lists are sorted and
 * cut after a few items, so the text is the same on every run.  Lines
 * starting "hint: " suggest a fix.  Caller frees.
 */
char *pp_session_explain(const struct pp_session_dir *sd,
			 const struct pp_spec *spec);

/*
 * The names of a run's processes and threads (the session's comms file,
 * oprofile-ng-session(5), PROCESS NAMES), read by comms.c.
 */
struct pp_comm {
	uint32_t tgid;
	uint32_t tid;
	char *comm;
	char *app;		/* the executable's path, or NULL */
};

struct pp_comms {
	struct pp_comm *v;	/* in the file's order */
	size_t nr;
};

/* read the comms of dir (none: empty); dies only when memory runs out */
void pp_comms_read(const char *dir, struct pp_comms *c);
void pp_comms_release(struct pp_comms *c);

/* the last name of thread tid, or of process tgid's main thread; NULL if
 * unknown (c may be NULL) */
const char *pp_comms_thread(const struct pp_comms *c, uint32_t tid);
/* the name most processes running the executable path had, NULL if none */
const char *pp_comms_app(const struct pp_comms *c, const char *path);

/*
 * The build-ids operf recorded for the binaries of a run (the session's
 * buildids file, oprofile-ng-session(5), BUILD-IDS), read by buildids.c.
 */
struct pp_buildid {
	char *path;
	char id[41];		/* lower-case hex */
};

struct pp_buildids {
	struct pp_buildid *v;	/* sorted by path */
	size_t nr;
};

/* read the buildids of dir (none: empty); dies only when memory runs out */
void pp_buildids_read(const char *dir, struct pp_buildids *b);
void pp_buildids_release(struct pp_buildids *b);
/* the build-id recorded for path, or NULL (b may be NULL) */
const char *pp_buildids_find(const struct pp_buildids *b, const char *path);

/*
 * What operf recorded about a run, read through libdb, which owns the
 * files: samples/NAME/session.info, stats/ and the kernel copies.
 */
struct pp_session_info {
	struct odb_session_info run;	/* session.info; empty when absent */
	struct odb_stats stats;		/* stats/; zero when absent */
	char *kallsyms;		/* path of kernel/kallsyms when present */
	char *modules;		/* path of kernel/modules when present */
	char *vdso;		/* path of kernel/vdso.so when present */
	char *jit_dir;		/* path of jit/ (perf map files) when present */
	struct pp_comms comms;	/* process and thread names; empty if none */
	struct pp_buildids buildids;	/* of the run's binaries; empty if none */
};

/*
 * Read what exists of session name; missing or unreadable files give
 * empty fields, never an error (dies when out of memory).  The caller
 * releases info with pp_session_info_release().
 */
void pp_session_info_read(const struct pp_session_dir *sd, const char *name,
			  struct pp_session_info *info);
/* free what info owns and clear it; NULL is fine, so is twice */
void pp_session_info_release(struct pp_session_info *info);

#endif
