/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The steps every report tool takes between parsing its options and
 * exiting: from the profile specification to built profiles (parse the
 * spec, find the session, list and classify the files, read what operf
 * recorded, warn about lost samples), then one output of libpp/report
 * over them, with every message printed here, once.
 */
#ifndef PPT_JOB_H
#define PPT_JOB_H

#include <stdbool.h>
#include <stdio.h>

#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/pp_spec.h"
#include "libpp/report/pp_report.h"
#include "libpp/symbols/pp_demangle.h"
#include "pp/ppt_options.h"

struct ppt_job {
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
	struct pp_notes notes;		/* printed as warnings, each once */
	int nr_sides;
	struct pp_symtab_ahead *kernel_ahead;	/* until the profile is built */
	char *time_note;		/* time: the header's "Time:" line, or NULL */
};

/*
 * From the non-option arguments to built profiles (xml_classes: classes
 * as opreport -X makes them).  Prints the messages; returns 0, 1 (runtime
 * failure: nothing found, unreadable) or 2 (usage error).  Release the
 * job in every case.
 */
int ppt_job_start(struct ppt_job *job, const struct ppt_common_options *o,
		  bool xml_classes, int argc, const char *const *argv);

/*
 * The first half of ppt_job_start(): the spec parsed, the session
 * directory found, what operf recorded read and the symbol options set,
 * no file listed (optop lists them again and again).  The same returns.
 */
int ppt_job_begin(struct ppt_job *job, const struct ppt_common_options *o,
		  bool xml_classes, int argc, const char *const *argv);
void ppt_job_release(struct ppt_job *job);

/* the fields of ro that come from the common options and the job */
void ppt_job_report_opts(const struct ppt_job *job, const struct ppt_common_options *o,
			 struct pp_report_opts *ro);

/*
 * Write output for the job's profiles to out; prints what went wrong.
 * Returns the exit status: 0, 1 (runtime failure) or 2 (usage error:
 * disassembler options no machine knows).
 */
int ppt_job_run(struct ppt_job *job, const struct pp_output *output,
		const struct pp_report_opts *ro, FILE *out);

#endif
