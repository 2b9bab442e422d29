/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by libpp's report modules; nothing else includes this. */
#ifndef PP_REPORT_INT_H
#define PP_REPORT_INT_H

#include <stdio.h>

#include "libpp/pp_report.h"
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

/*
 * The name shown for a symbol: demangled per the options.  Returns a
 * string the caller frees.
 */
char *pp_symbol_display(const struct pp_sym *sym, enum pp_demangle_mode mode);

/* does the symbol pass --include-symbols / --exclude-symbols? */
bool pp_symbol_selected(const struct pp_report_opts *o, const char *raw,
			const char *shown);

/* "file:line" of key in image i (basename unless long names), or the
 * "(no location information)" text; into sb */
void pp_linenr(struct op_strbuf *sb, struct pp_profile *p, size_t image,
	       uint64_t key, bool long_names);

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

/* pass a warning to the tool (which prints each distinct one once) */
void pp_note(const struct pp_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* report missing or changed binaries of the images used, once each */
void pp_check_images(struct pp_profile *p, const struct pp_notes *n);

/*
 * Call-graph arcs between rows (pp_arcs.c), for --callgraph and its XML.
 * Rows are addressed by index; an arc end without samples gets a row with
 * zero counts.
 */
struct pp_arc {
	size_t caller, callee;	/* row indexes */
	uint64_t *counts;	/* per class */
};

struct pp_arcs {
	struct pp_arc *v;
	size_t nr, alloc;
	struct op_hmap index;	/* (caller, callee) -> index into v */
	uint64_t dropped;	/* arc counts outside every symbol */
	/* row r's arcs by callee (in) and by caller (out):
	 * list[first[r] .. first[r + 1]) */
	size_t *in_first, *in_list;
	size_t *out_first, *out_list;
};

/*
 * Load p's {cg} groups (an unreadable file is noted through n) and sum
 * them into arcs between rows of r, adding the rows arc ends need.  After
 * this, r gets no more rows.  Dies only on allocation failure.
 */
void pp_arcs_build(struct pp_arcs *a, struct pp_profile *p, struct pp_rows *r,
		   const struct pp_notes *n);
void pp_arcs_release(struct pp_arcs *a);

/* one entry of a caller or callee list */
struct pp_arc_entry {
	const struct pp_row *row;
	const uint64_t *counts;	/* the arc's, or the row's own for self */
	bool self;		/* the row itself, in its callee list */
};

/*
 * The callers of row (callees false), or its callees preceded by the row
 * itself as the self entry, most calls (class 0) first, fewest first with
 * reverse; ties in row order.  buf has room for a->nr + 1 entries.
 * Returns the number of entries.
 */
size_t pp_arcs_list(const struct pp_arcs *a, const struct pp_rows *r,
		    const struct pp_row *row, bool callees, bool reverse,
		    struct pp_arc_entry *buf);

#endif
