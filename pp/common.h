/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the report tools (opreport, opannotate, ...) share: the common
 * options (one popt table, included with POPT_ARG_INCLUDE_TABLE), and the
 * steps from a profile specification to a built profile, with their
 * messages.
 */
#ifndef PP_COMMON_H
#define PP_COMMON_H

#include <popt.h>
#include <stdbool.h>

#include "libpp/symbols/pp_demangle.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/report/pp_report.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/pp_spec.h"

struct pp_common_options {
	char *session_dir;
	char *image_path;	/* comma-separated directories */
	char *root;
	char *verbose;
	char *merge;
	char *demangle;
	char *include_symbols;	/* comma-separated */
	char *exclude_symbols;
	double threshold;
	int exclude_dependent;
	int quiet;
	int version;
	int xml;		/* not an option here: opreport -X sets it */
};

/* the table, filling the options struct the tool's main file owns */
extern struct pp_common_options pp_common;
extern const struct poptOption pp_common_table[];

void pp_common_release(struct pp_common_options *o);

/* everything between parsing options and reporting */
struct pp_job {
	struct pp_spec_set spec;
	struct pp_session_dir sd;
	struct pp_file_list files[2];	/* the two sides of a differential */
	struct pp_profile profile[2];
	struct pp_session_info info;
	struct pp_sym_opts sym_opts;
	char **image_paths;		/* NULL-ended */
	char **include, **exclude;	/* NULL-ended symbol lists */
	unsigned merge;
	enum pp_demangle_mode demangle;
	struct pp_notes notes;
	int nr_sides;
};

/*
 * From the non-option arguments to built profiles: parse the spec, find
 * the session, list and classify the files, read what operf recorded, and
 * warn about lost or throttled samples.  Prints the messages; returns 0,
 * 1 (runtime failure: nothing found, unreadable) or 2 (usage error).
 */
int pp_job_start(struct pp_job *job, int argc, const char *const *argv);
void pp_job_release(struct pp_job *job);

/* validate the common options (threshold, demangle, merge): 0 or 2 */
int pp_common_validate(void);

/* set the message level from --verbose ("all", "debug", ...) */
void pp_common_verbosity(void);

/* the command line, words joined by blanks (for titles); caller frees */
char *pp_command_line(int argc, char **argv);

/* split a comma list ("\," escapes) into a NULL-ended array; caller frees */
char **pp_split_list(const char *list);
void pp_free_list(char **list);

#endif
