/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpp/report's internal interfaces, shared between its files and
 * included by nothing outside libpp/report/ (its tests excepted).
 */
#ifndef REPORT_INT_H
#define REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libpp/profile/pp_arcs.h"
#include "libpp/profile/pp_notes.h"
#include "libpp/report/pp_annotate.h"
#include "libpp/report/pp_report.h"
#include "libpp/symbols/pp_demangle.h"
#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

/* OProfile's column widths (format_output.cpp) */
#define W_VMA 9
#define W_SAMPLES 9
#define W_CUM_SAMPLES 14
#define W_PERCENT 9
#define W_CUM_PERCENT 11
#define W_DIFF 10
#define W_LINENR 28
#define W_IMAGE 25
#define W_APP 25
#define W_SYMBOL 30

/*
 * A line of columns: each field is written after the padding the previous
 * one left (its width minus its length, at least one space).  Hidden
 * fields only add their width, so a line never ends in blanks.
 */
struct pp_line {
	FILE *out;
	size_t pad;
	size_t len;		/* bytes in buf */
	char buf[1024];		/* the line, written out at pp_line_end() */
};

void pp_line_start(struct pp_line *l, FILE *out, const char *prefix);
void pp_line_field(struct pp_line *l, const char *s, size_t width);
void pp_line_hidden(struct pp_line *l, size_t width);
void pp_line_end(struct pp_line *l);

/* display strings, computed once */
struct pp_names {
	struct pp_profile *p;
	const struct pp_report_opts *o;
	char **app_display;		/* per app */
	char **image_display;		/* per image */
};

void pp_names_init(struct pp_names *nm, struct pp_profile *p,
		   const struct pp_report_opts *o);
void pp_names_release(struct pp_names *nm);
const char *pp_names_app(struct pp_names *nm, size_t app);
const char *pp_names_image(struct pp_names *nm, size_t image);

/* does the symbol pass --include-symbols / --exclude-symbols? */
bool pp_symbol_selected(const struct pp_report_opts *o, const char *raw,
			const char *shown);
/* the same for sym, shown as mode shows it: include, exclude NULL-ended or NULL */
bool pp_sym_passes(const char *const *include, const char *const *exclude,
		   const struct pp_sym *sym, enum pp_demangle_mode mode);

/* "file:line" of key in image i (basename unless long names), or the
 * "(no location information)" text; into sb */
void pp_linenr(struct op_strbuf *sb, struct pp_profile *p, size_t image,
	       uint64_t key, bool long_names);

/* decimal digits of v into buf */
void pp_format_count(char *buf, size_t size, uint64_t v);

/* percent of part in whole (0 when whole is 0) */
static inline double pp_ratio(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

/* does a row pass -t in any class? totals: per class */
bool pp_over_threshold(const struct pp_report_opts *o, const uint64_t *counts,
		       const uint64_t *totals, size_t nr_classes);

/* sort rows by the options' keys (default: samples of class 0) */
void pp_rows_sort(struct pp_row **rows, size_t nr, struct pp_profile *p,
		  struct pp_names *nm, const struct pp_report_opts *o);

/* report missing or changed binaries of the images used, once each */
void pp_check_images(struct pp_profile *p, struct pp_notes *n);

/* --- annotation (opannotate) ------------------------------------------- */

/* a symbol to annotate: its samples over the applications using its image */
struct pp_ann_sym {
	size_t image;
	const struct pp_sym *sym;
	uint64_t *counts;		/* per class */
	size_t *rows;			/* its rows, one per application */
	size_t nr_rows;
	char *name;			/* the shown (demangled) name */
};

struct pp_ann {
	struct pp_profile *p;
	const struct pp_annotate_opts *o;
	struct pp_notes *n;
	const struct pp_session_info *info;
	struct pp_rows rows;
	struct pp_ann_sym *syms;	/* most samples first, or by address */
	size_t nr_syms, alloc_syms;
	uint64_t *totals;		/* per class: every sample in a symbol */
	size_t nr_classes;
};

/*
 * The symbols with samples that pass -i/-e (and -t, for assembly), -x
 * applied; percentages are of totals.
 */
void pp_ann_build(struct pp_ann *a, struct pp_profile *p,
		  const struct pp_annotate_opts *o, struct pp_notes *n);
void pp_ann_release(struct pp_ann *a);

/* the addresses with samples of symbol i, in key order, summed over apps */
void pp_ann_for_each_key(struct pp_ann *a, size_t i,
			 void (*fn)(void *data, uint64_t key, const uint64_t *counts),
			 void *data);

/* "  1000 54.5256" per class (count width 6, opreport's percent) */
void pp_ann_counts(struct op_strbuf *sb, const struct pp_ann *a,
		   const uint64_t *counts);
/* the columns in front of a line: counts, or blanks when none; then " :" */
void pp_ann_columns(struct op_strbuf *sb, const struct pp_ann *a,
		    const uint64_t *counts);
/* " / * NAME total:   1000 54.5256 * /" (without the blanks) for symbol i */
void pp_ann_symbol_total(struct op_strbuf *sb, const struct pp_ann *a, size_t i);
/* the comment block at the top: command line, what is shown, the header */
void pp_ann_info(FILE *out, const struct pp_ann *a,
		 const struct pp_session_info *info);

/* srcfile.c: source files, found (srcfile.c says where) and read once */
struct pp_srcfile {
	char *name;			/* as the debug information names it */
	char *path;			/* where it was found; NULL: not found */
	char *text;			/* its bytes, each line NUL-ended */
	size_t len;
	char **lines;
	size_t nr_lines;
};

struct pp_srcfiles {
	const struct pp_annotate_opts *o;
	struct pp_notes *n;
	struct op_hmap index;		/* name -> file */
	struct pp_srcfile **v;
	size_t nr;
};

void pp_srcfiles_init(struct pp_srcfiles *s, const struct pp_annotate_opts *o,
		      struct pp_notes *n);
void pp_srcfiles_release(struct pp_srcfiles *s);
/* the file of that name, looked for on first use (a miss is warned once) */
struct pp_srcfile *pp_srcfiles_get(struct pp_srcfiles *s, const char *name);
/* the text of line (from 1), or NULL when not found or past the end */
const char *pp_srcfile_line(const struct pp_srcfile *f, unsigned line);

/* the two annotations (annotate_src.c, annotate_asm.c) */
int pp_annotate_src(struct pp_ann *a, FILE *out, struct op_err *err);
int pp_annotate_asm(struct pp_ann *a, FILE *out, struct op_err *err);

#endif
