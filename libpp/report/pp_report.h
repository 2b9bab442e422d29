/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opreport's reports, written to a stream: the image summary, symbol
 * lists (with --details, --debug-info, --accumulated, --show-address),
 * call graphs, differential profiles and XML.  Formats follow OProfile
 * 1.4's opreport (column widths, percent format, the call-graph layout,
 * formats.md §8 for XML); see doc/opreport.1.
 */
#ifndef PP_REPORT_H
#define PP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libpp/symbols/pp_demangle.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_rows.h"
#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_session.h"

enum pp_sort_key {
	PP_SORT_SAMPLE,		/* default: most samples first */
	PP_SORT_VMA,
	PP_SORT_SYMBOL,
	PP_SORT_DEBUG,		/* source file, then line */
	PP_SORT_IMAGE,
	PP_SORT_APP,
};

#define PP_MAX_SORT_KEYS 6

struct pp_report_opts {
	bool symbols;			/* -l */
	bool details;			/* -d */
	bool callgraph;			/* -c */
	bool debug_info;		/* -g */
	bool accumulated;		/* -a */
	bool global_percent;		/* -% */
	bool show_address;		/* -w */
	bool long_filenames;		/* -f */
	bool no_header;			/* -n */
	bool exclude_dependent;		/* -x */
	bool reverse;			/* -r */
	bool xml;			/* -X */
	double threshold;		/* -t, percent; 0 = none */
	enum pp_sort_key sort[PP_MAX_SORT_KEYS];
	size_t nr_sort;			/* 0 = by samples */
	enum pp_demangle_mode demangle;
	const char *const *include_symbols;	/* -i, NULL-ended, or NULL */
	const char *const *exclude_symbols;	/* -e */
	const char *command_line;	/* for the XML title */
	/* what the XML <options> element repeats, as given, or NULL */
	const char *const *spec;	/* profile specification, NULL-ended */
	const char *merge_list;		/* --merge */
	const char *image_path;		/* --image-path */
};

/* parse a --sort list ("vma,sample"); 0 or -EINVAL (err) */
int pp_sort_parse(const char *list, struct pp_report_opts *o, struct op_err *err);

/*
 * The header lines (CPU, event, classes), unless no_header, from the
 * profile's class headers and what operf recorded (info may be NULL).
 */
void pp_report_header(FILE *out, const struct pp_profile *p,
		      const struct pp_session_info *info,
		      const struct pp_report_opts *o);

/* image summary: apps with their dependent images (opreport default) */
int pp_report_summary(FILE *out, struct pp_profile *p,
		      const struct pp_report_opts *o, struct pp_notes *n);

/* symbol list (-l), with details (-d) */
int pp_report_symbols(FILE *out, struct pp_profile *p,
		      const struct pp_report_opts *o, struct pp_notes *n);

/* call graph (-c) */
int pp_report_callgraph(FILE *out, struct pp_profile *p,
			const struct pp_report_opts *o, struct pp_notes *n);

/* differential symbol list: { first } { second } */
int pp_report_diff(FILE *out, struct pp_profile *first,
		   struct pp_profile *second, const struct pp_report_opts *o,
		   struct pp_notes *n);

/* XML (-X), formats.md §8 */
int pp_report_xml(FILE *out, struct pp_profile *p,
		  const struct pp_session_info *info,
		  const struct pp_report_opts *o, struct pp_notes *n);

/*
 * OProfile's percent format: 7 wide with 4 decimals ("54.5256"), 3 for
 * 100 ("100.000"), a right-aligned "0" for zero, and scientific notation
 * below 0.001 ("9.9e-04").  buf holds at least 32 bytes.
 */
void pp_format_percent(char *buf, size_t size, double value, bool showpos);

#endif
