/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpp/report: every output of the report tools, written to a stream.
 *
 * An output is one row of a table (struct pp_output): its name, the
 * option (mode) that asks for it, what it needs prepared, and the one
 * function that writes it.  A tool picks the row with pp_output_choose()
 * from the modes its options ask for, and pp_report_run() takes the
 * profile from there to the written output:
 *
 *	pp_report_run()
 *	  load      the samples of every group, and the symbol tables of
 *	            the images with samples when the output needs symbols
 *	  prepare   rows (per symbol, or per image), call-graph arcs,
 *	            missing-binary notes, totals, the rows shown (-t, -x,
 *	            -i, -e), their order (--sort), display names
 *	  write     the output's function
 *
 * Adding an output is one file with its write function and one row in
 * outputs.c.  Formats follow OProfile 1.4's opreport and opannotate
 * (column widths, percent format, the call-graph layout, the XML of
 * oprofile-ng-formats(5)); see doc/opreport.1 and doc/opannotate.1.
 *
 * Errors: functions return 0 or a negative code: -errno,
 * PP_REPORT_ERR_* below, or a code of the layers beneath
 * (PP_PROFILE_ERR_*, PP_SYMBOLS_ERR_*); pp_report_strerror() gives the
 * text of any of them.  When a struct op_err is given, it holds the one
 * line to print.  Warnings go through the caller's struct pp_notes.
 * Memory: dies with "out of memory" (libutil's op_x* forms), as all of
 * libpp/report does.  Nothing here prints except to the stream given.
 */
#ifndef PP_REPORT_H
#define PP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_session.h"
#include "libpp/symbols/pp_demangle.h"
#include "libutil/op_error.h"

enum pp_sort_key {
	PP_SORT_SAMPLE,		/* default: most samples first */
	PP_SORT_VMA,
	PP_SORT_SYMBOL,
	PP_SORT_DEBUG,		/* source file, then line */
	PP_SORT_IMAGE,
	PP_SORT_APP,
};

#define PP_MAX_SORT_KEYS 6

/* what opannotate adds to the options */
struct pp_annotate_opts {
	bool by_address;		/* --sort=vma: symbols in address order */
	const char *const *include_files;	/* --include-file globs, or NULL */
	const char *const *exclude_files;	/* --exclude-file globs */
	const char *const *search_dirs;		/* -d: where to look for sources */
	const char *const *base_dirs;		/* -b: prefixes to strip first */
	const char *output_dir;		/* -o: one annotated file per source */
	const char *disasm_options;	/* objdump -M style, or NULL */
};

/* the options every output reads; borrowed for the whole report */
struct pp_report_opts {
	bool details;			/* -d: each address under its symbol */
	bool debug_info;		/* -g: source file and line */
	bool accumulated;		/* -a: running totals */
	bool global_percent;		/* -%: shares of the whole profile */
	bool show_address;		/* -w: the vma column */
	bool long_filenames;		/* -f */
	bool show_comm;			/* --comm: apps with their process names */
	bool no_header;			/* -n */
	bool exclude_dependent;		/* -x: only the applications' own images */
	bool reverse;			/* -r */
	double threshold;		/* -t, percent (rows with at least it); 0 = none */
	/*
	 * --confidence: every share with its interval (Wilson's) at this
	 * level, a fraction (0.95); 0 = none.  z is the level's two-sided
	 * normal quantile (op_z_two_sided()), set with it; differentials
	 * test their changes at 1 - confidence (0.95 when not given).
	 */
	double confidence;
	double z;
	bool threshold_lower;		/* -t compares each interval's low end */
	bool significant_only;		/* a differential shows only the rows
					 * whose change is significant */
	const char *const *metrics;	/* --metric definitions ("NAME=EXPR" or
					 * a preset's name), NULL-ended, or NULL */
	enum pp_sort_key sort[PP_MAX_SORT_KEYS];
	size_t nr_sort;			/* 0 = by samples */
	const char *const *include_symbols;	/* -i, NULL-ended, or NULL */
	const char *const *exclude_symbols;	/* -e */
	const char *command_line;	/* for titles (XML, annotation) */
	/* what the XML <options> element repeats, as given, or NULL */
	const char *const *spec;	/* profile specification, NULL-ended */
	const char *time_note;		/* time: what the header says of the
					 * slices taken ("Time: ..."), or NULL */
	const char *merge_list;		/* --merge */
	const char *image_path;		/* --image-path */
	struct pp_annotate_opts annotate;
};

/* parse a --sort list ("vma,sample") into o; 0 or -EINVAL (err) */
int pp_sort_parse(const char *list, struct pp_report_opts *o, struct op_err *err);

/*
 * The modes a tool's options ask for.  When several are asked for, the
 * output first in the table wins (a differential over XML over a call
 * graph over symbols); none asks for the image summary.  Some rows need
 * two modes at once: XML with call graphs, assembly with source lines.
 */
enum pp_mode {
	PP_MODE_DIFF = 1 << 0,		/* opreport { first } { second } */
	PP_MODE_XML = 1 << 1,		/* opreport -X */
	PP_MODE_CALLGRAPH = 1 << 2,	/* opreport -c */
	PP_MODE_SYMBOLS = 1 << 3,	/* opreport -l (also -d, -g, -a, -w) */
	PP_MODE_ASSEMBLY = 1 << 4,	/* opannotate -a (with -s: interleaved) */
	PP_MODE_SOURCE = 1 << 5,	/* opannotate -s */
	PP_MODE_GMON = 1 << 6,		/* opgprof: a gprof gmon.out */
	PP_MODE_CALLGRIND = 1 << 7,	/* opreport --format=callgrind */
	PP_MODE_FOLDED = 1 << 8,	/* opreport --format=folded */
	PP_MODE_HTML = 1 << 9,		/* opreport --format=html */
	PP_MODE_PPROF = 1 << 10,	/* opreport --format=pprof */
	PP_MODE_TIMELINE = 1 << 11,	/* opreport --format=timeline */
};

/* what an output needs prepared */
enum pp_output_needs {
	PP_NEEDS_SYMBOLS = 1 << 0,	/* rows per symbol, so symbol tables */
	PP_NEEDS_ARCS = 1 << 1,		/* call-graph arcs between the rows */
	PP_NEEDS_TWO = 1 << 2,		/* two profiles: a differential */
	PP_SELECTS_OWN = 1 << 3,	/* -t applies to the output's own units
					 * (applications, source files, symbols
					 * summed over applications), not rows */
	PP_SORTS_OWN = 1 << 4,		/* the output orders what it shows */
	PP_NAMES_AHEAD = 1 << 5,	/* shown names made ahead, in the
					 * prepared order (pp_side_sym_name()) */
	PP_NEEDS_STACKS = 1 << 6,	/* whole call stacks (the stack file);
					 * with PP_NEEDS_ARCS, the arcs are
					 * built only when there are none */
	PP_LINES_AHEAD = 1 << 7,	/* source lines of every image with
					 * samples: their DWARF opened by a
					 * thread from the start, most samples
					 * first (lines_ahead.c) */
	PP_CALL_SITES = 1 << 8,		/* with PP_NEEDS_ARCS: the arcs' records
					 * kept one by one (pp_arcs.h) */
	PP_STACKS_AS_TREE = 1 << 9,	/* with PP_NEEDS_STACKS: the stacks as
					 * a prefix tree (pp_stacks.h,
					 * PP_STACKS_TREE), not frame arrays */
};

struct pp_report;			/* what an output is given (report_int.h) */

struct pp_output {
	const char *name;		/* "summary", "symbols", ... */
	unsigned mode;			/* the PP_MODE_* bits asking for it (all of
					 * them must be asked); 0: the default */
	unsigned needs;			/* PP_NEEDS_*, PP_SELECTS_OWN, PP_SORTS_OWN,
					 * PP_NAMES_AHEAD */
	const enum pp_sort_key *sort;	/* a fixed order of rows, or NULL: --sort */
	size_t nr_sort;
	/* write the output; 0 or a negative code with err set */
	int (*write)(struct pp_report *r, FILE *out, struct op_err *err);
};

/*
 * The output for modes (PP_MODE_* bits): the first row of the table all
 * of whose modes are among them, else the image summary.  Never NULL.
 */
const struct pp_output *pp_output_choose(unsigned modes);

/* the output of that name, or NULL */
const struct pp_output *pp_output_find(const char *name);

/* what a report is made from; everything borrowed */
struct pp_report_input {
	struct pp_profile *profiles[2];	/* [1]: the second side of a differential */
	size_t nr_profiles;		/* 2 exactly when the output needs two */
	const struct pp_session_info *info;	/* what operf recorded, or NULL */
	struct pp_file_list *files[2];	/* the profiles' files (time: slices
					 * are taken from them, pp_time.h) */
	const struct pp_report_opts *o;
	struct pp_notes *notes;		/* where warnings go */
};

/*
 * Load, prepare and write output for in to out (see the top of this
 * file).  Returns 0, or: PP_PROFILE_ERR_UNREADABLE when no sample file of
 * a profile could be read (each was noted), PP_REPORT_ERR_COLUMNS when
 * the sides of a differential have different columns, an output's own
 * error (PP_REPORT_ERR_NOTHING, PP_SYMBOLS_ERR_BAD_OPTIONS for
 * disassembler options no machine knows, -errno writing an output
 * directory); err says what in one line.  Write errors on out are the
 * caller's to check (ferror()).
 */
int pp_report_run(const struct pp_output *output, const struct pp_report_input *in,
		  FILE *out, struct op_err *err);

/*
 * OProfile's percent format: 7 wide with 4 decimals ("54.5256"), 3 for
 * 100 ("100.000"), a right-aligned "0" for zero, and scientific notation
 * below 0.001 ("9.9e-04").  buf holds at least 32 bytes.  Returns the
 * length written.
 */
size_t pp_format_percent(char *buf, size_t size, double value, bool showpos);

#define PP_REPORT_ERRORS						\
	PP_REPORT_ERROR(COLUMNS, "the two profiles have different columns") \
	PP_REPORT_ERROR(NOTHING, "nothing to show")			\
	PP_REPORT_ERROR(NOT_ONE, "more than one binary selected")	\
	PP_REPORT_ERROR(OUTPUT_DIR, "output directory refused")		\
	PP_REPORT_ERROR(METRIC, "bad derived metric")

enum pp_report_error {
	PP_REPORT_ERR_BASE = -7300,
#define PP_REPORT_ERROR(name, text) PP_REPORT_ERR_##name,
	PP_REPORT_ERRORS
#undef PP_REPORT_ERROR
	PP_REPORT_ERR_END
};

/*
 * Derived metrics (metric.c).  Check a --metric definition's syntax
 * ("NAME=EXPR", or a preset's name) before any profile is read: 0, or
 * PP_REPORT_ERR_METRIC with err saying what and where.  Whether its
 * events are in the profile is found when the report is made.
 */
int pp_metric_check(const char *def, struct op_err *err);
/* the expression of the preset called name (case ignored), or NULL */
const char *pp_metric_preset(const char *name);
/* the presets' names, "CPI, IPC, ...", added to sb */
struct op_strbuf;
void pp_metric_presets(struct op_strbuf *sb);

/* text for any code pp_report_run() may return */
const char *pp_report_strerror(int err);

#endif
