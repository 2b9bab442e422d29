/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The options every report tool (opreport, opannotate) shares: one popt
 * table, included by each tool's own table with POPT_ARG_INCLUDE_TABLE,
 * and their validation.  The values live in the tool's options struct
 * (in its main file); the table points into it.
 */
#ifndef PPT_OPTIONS_H
#define PPT_OPTIONS_H

#include <stdbool.h>

#include <popt.h>

struct ppt_common_options {
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
	/* not an option: set by the tool when its output needs symbol
	 * tables (the kernel's is then read while sample files are listed) */
	bool symbols;
};

/* entries of the common table, POPT_TABLEEND included */
#define PPT_COMMON_TABLE_SIZE 13

/* fill table[0 .. PPT_COMMON_TABLE_SIZE) with the common options, into o */
void ppt_common_table(struct poptOption *table, struct ppt_common_options *o);

/* free what popt stored in o (its strings) and clear it */
void ppt_common_release(struct ppt_common_options *o);

/* check the common options' values (threshold, demangle, merge): 0 or 2 */
int ppt_common_validate(const struct ppt_common_options *o);

/* the message level from -q and --verbose ("all", "debug", ...) */
void ppt_common_verbosity(const struct ppt_common_options *o);

/* split a comma list ("\," escapes) into a NULL-ended array; caller frees
 * with ppt_free_list() */
char **ppt_split_list(const char *list);
void ppt_free_list(char **list);

/* the command line, words joined by blanks (for titles); caller frees */
char *ppt_command_line(int argc, char **argv);

#endif
