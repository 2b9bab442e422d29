/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpp/report's internal interfaces, shared between its files and
 * included by nothing outside libpp/report/ (its tests excepted): what
 * the preparation hands an output (struct pp_report), and the helpers
 * every output writes with.
 */
#ifndef REPORT_INT_H
#define REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libpp/profile/pp_arcs.h"
#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_rows.h"
#include "libpp/profile/pp_stacks.h"
#include "libpp/report/pp_metric.h"
#include "libpp/report/pp_report.h"
#include "libpp/symbols/pp_demangle.h"
#include "libutil/op_hmap.h"
#include "libutil/op_sort.h"
#include "libutil/op_stats.h"
#include "libutil/op_strbuf.h"

/* --- what an output is given (prepare.c) ------------------------------- */

/* display names of applications and images, each made on first use */
struct pp_names {
	struct pp_profile *p;
	bool long_names;		/* whole paths, else base names */
	const struct pp_comms *comms;	/* --comm: the session's names, else NULL */
	char **app_display;		/* per app */
	char **image_display;		/* per image */
	bool *app_ambiguous;		/* per app: another file has its base name */
	bool *image_ambiguous;		/* per image: the same */
};

/* --- derived metrics (metric*.c; the rest in pp_metric.h) ------------ */

enum pp_metric_op {
	PP_MOP_NUM, PP_MOP_VAR, PP_MOP_ADD, PP_MOP_SUB, PP_MOP_MUL, PP_MOP_DIV,
	PP_MOP_NEG,
};

/* a node of a metric's expression tree */
struct pp_metric_node {
	enum pp_metric_op op;
	double num;		/* PP_MOP_NUM */
	size_t var;		/* PP_MOP_VAR: index into the metrics' variables */
	size_t a, b;		/* operands (node indexes) */
};

/*
 * Read def (NAME=EXPR or a preset's name) into m, its event names added
 * to ms's variables (metric_parse.c): 0, or PP_REPORT_ERR_METRIC with err
 * saying what and at which column; m is then for pp_metrics_release()
 */
int pp_metric_parse_def(struct pp_metrics *ms, struct pp_metric *m, const char *def,
			struct op_err *err);

/* the metrics of a row with counts as fields of a line */
struct pp_line;
void pp_metric_fields(struct pp_line *l, const struct pp_metrics *ms, const uint64_t *counts);
/*
 * The same, remembered by counts in *memo (made on first use, freed by
 * pp_metric_memo_free()), for the many lines of one thread
 */
struct pp_metric_memo;
void pp_metric_fields_memo(struct pp_line *l, const struct pp_metrics *ms,
			   const uint64_t *counts, struct pp_metric_memo **memo);
void pp_metric_memo_free(struct pp_metric_memo *memo);

/* one prepared profile; a differential has two */
struct pp_side {
	struct pp_profile *p;
	/*
	 * Rows: per (image, app, symbol) when the output needs symbols, else
	 * per (image, app) with sym NULL and the image's samples.  With -x,
	 * only the applications' own images.
	 */
	struct pp_rows rows;
	struct pp_arcs arcs;		/* PP_NEEDS_ARCS: arcs between rows */
	bool with_arcs;			/* arcs were built */
	/* PP_NEEDS_STACKS: the stack files' stacks when stacks_ret is 0,
	 * else pp_stacks_load()'s error; an output may release them early */
	struct pp_stacks stacks;
	int stacks_ret;
	uint64_t *totals;		/* per class: the samples of all rows, the
					 * whole of every share (-l: the samples
					 * in symbols) */
	/*
	 * The rows shown: over -t (unless the output selects its own units),
	 * passing -i/-e, and with -x an application's own image (arcs bring
	 * in rows of other images as callers and callees); in the order of
	 * --sort, or of the output's own.
	 */
	struct pp_row **sel;
	size_t nr_sel;
	bool *is_shown;			/* per row index: in sel */
	struct pp_names names;		/* -f: long names */
	bool show_image;		/* a row is of a library, not its app */
	bool show_app;			/* a class has several applications */
	bool vma64;			/* a row has an address above 32 bits */
	/* the shown symbol names: sel's, then (with arcs) the other rows' */
	struct pp_name_stream *sym_names;
	size_t *name_pos;		/* per row index: its place in sym_names */
	struct pp_leaf_memo *leaf_memo;	/* pp_leaf_shown()'s, made on first use */
	struct pp_metrics metrics;	/* --metric's, over p's classes */
};

struct pp_report {
	const struct pp_output *output;
	const struct pp_report_opts *o;
	const struct pp_session_info *info;	/* may be NULL */
	struct pp_notes *notes;
	struct pp_side sides[2];
	size_t nr_sides;
	struct pp_file_list *files;	/* the first side's files (timeline) */
};

/* prepare the sides of r (loaded profiles) for r->output */
void pp_prepare(struct pp_report *r);
void pp_prepare_release(struct pp_report *r);

/*
 * Does a stack whose leaf frame is st's go in an output of stacks, as
 * -t, -i, -e and -x choose rows?  The leaf's row is shown; a leaf without
 * a row (no samples in the sample files) passes -i, -e and -x but not a
 * threshold.  *rowp (when rowp is not NULL): the leaf's row, or NULL.
 * The answer is remembered per leaf symbol and application (many stacks
 * share a leaf).
 */
bool pp_leaf_shown(const struct pp_report *r, struct pp_side *s,
		   const struct pp_stack *st, struct pp_row **rowp);

/* the shown (demangled) name of a row of side s */
const char *pp_side_sym_name(const struct pp_side *s, const struct pp_row *row);

/* the header lines (CPU, event, classes) of p, unless -n */
void pp_report_header(FILE *out, const struct pp_profile *p,
		      const struct pp_session_info *info,
		      const struct pp_report_opts *o);

/* an image and a count of its samples, to order images by (outside.c) */
struct pp_image_count {
	size_t image;
	uint64_t count;
};
/* for qsort(): the biggest count first, ties by image */
int pp_image_count_cmp(const void *a, const void *b);

/*
 * Header notes on the samples outside every named symbol (gap rows) and
 * what would name them, once per image (outside.c); nothing with -n or
 * when every sample is in a named symbol
 */
void pp_outside_header(FILE *out, const struct pp_report *r, struct pp_side *s);
/*
 * What pp_outside_header() will say of the images it names, made now
 * (each table's reason for having no lines, from its DWARF and dpkg's
 * file lists: some milliseconds), so that the header is then quick.
 * Reads the rows and the tables' line information only: it may run in a
 * thread of its own beside work on names and stacks.
 */
void pp_outside_explain(const struct pp_report *r, struct pp_side *s);

/* the outputs (one file each) */
int pp_write_summary(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_symbols(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_callgraph(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_diff(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_xml(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_annotated_source(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_annotated_assembly(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_gmon(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_callgrind(struct pp_report *r, FILE *out, struct op_err *err);
/*
 * -c's section of self and total samples per symbol from the stacks st
 * of side s, or from its call-graph arcs when st is NULL (inclusive.c)
 */
struct pp_stacks;
void pp_write_inclusive(FILE *out, const struct pp_stacks *st, struct pp_side *s);
/* collapsed stacks from the stack file (folded.c) */
int pp_write_folded(struct pp_report *r, FILE *out, struct op_err *err);
int pp_write_timeline(struct pp_report *r, FILE *out, struct op_err *err);
/* pprof's profile.proto, gzip-compressed (pprof.c) */
int pp_write_pprof(struct pp_report *r, FILE *out, struct op_err *err);

/*
 * The classes of p as identifiers, for the formats that name their
 * columns: each class's event (or, when the classes are not events, its
 * name), [A-Za-z0-9_] with '_' for the rest, "samples" when empty; "_N"
 * (the class's number from 1) added to a name taken already.  The caller
 * frees each and the array (names.c).
 */
char **pp_class_ids(const struct pp_profile *p);

/* --- a pprof profile as plain arrays (pprof.c fills, pprof_encode.c writes) */

/*
 * Strings are indexes into strings[] (0 is ""); mapping, function and
 * location references are ids, their index + 1 (0: none), as in the
 * format.
 */
struct pp_pprof_mapping {
	uint64_t start, limit;		/* the addresses used, [start, limit) */
	uint64_t offset;		/* the file offset at start */
	size_t file, build_id;		/* strings */
	bool has_lines;			/* some location has a source line */
};

struct pp_pprof_function {
	size_t name, system_name, file;	/* strings */
	int64_t start_line;		/* 0: unknown */
};

struct pp_pprof_location {
	uint64_t mapping;		/* id, 0: none */
	uint64_t address;
	uint64_t function;		/* id */
	int64_t line;			/* 0: unknown */
};

struct pp_pprof {
	char **strings;			/* owned */
	size_t nr_strings, alloc_strings;
	struct op_hmap string_index;	/* hash -> index + 1 */
	size_t nr_types;		/* values per sample (the classes) */
	size_t *types, *units;		/* [nr_types]: strings */
	size_t default_type;		/* string: the type readers show first */
	size_t period_type, period_unit;	/* strings, 0 when no period */
	int64_t period;
	size_t *comments;		/* strings */
	size_t nr_comments;
	int64_t time_nanos;		/* when the run started (Unix time), 0:
					 * unknown */
	size_t label_key;		/* the samples' one label, or 0 */
	struct pp_pprof_mapping *mappings;
	size_t nr_mappings, alloc_mappings;
	struct pp_pprof_function *functions;
	size_t nr_functions, alloc_functions;
	struct pp_pprof_location *locations;
	size_t nr_locations, alloc_locations;
	/* sample i: location ids frames[first[i] .. first[i + 1]), leaf
	 * first; values[i * nr_types ...]; label value labels[i] */
	uint64_t *frames;
	size_t nr_frames, alloc_frames;
	size_t *first;			/* [nr_samples + 1] */
	int64_t *values;
	size_t *labels;			/* strings, 0: no label */
	size_t nr_samples, alloc_samples;
};

/*
 * Write m to out in the profile.proto encoding, gzip-compressed (m is
 * only read).  Returns 0, or -EIO when out cannot be written, -ENOMEM,
 * with err set.
 */
int pp_pprof_encode(struct pp_pprof *m, FILE *out, struct op_err *err);
/*
 * The same in two steps, so that the samples are packed (by a thread of
 * the encoder's) while the rest is still being made: start once the
 * sample types and the samples (their location ids, values and labels)
 * are final, and leave those alone until finish; finish once the rest is
 * made.  start: 0 or -ENOMEM (then no finish); finish: as
 * pp_pprof_encode(), and frees the encoder.
 */
struct pp_pprof_encoder;
int pp_pprof_encode_start(const struct pp_pprof *m, FILE *out, struct pp_pprof_encoder **ep,
			  struct op_err *err);
int pp_pprof_encode_finish(struct pp_pprof_encoder *e, struct op_err *err);

/* what a pprof location is of: (image, key), or (SIZE_MAX, name string) */
struct pp_pprof_key {
	size_t image;
	uint64_t at;			/* key, symbol start, or name string index */
};

/* what a location's code is (pprof_facts.c) */
struct pp_pprof_fact {
	bool has_fn;			/* the function's fields are set: false in
					 * a run of locations of one symbol but
					 * for the first */
	const char *fn_name;		/* the symbol's shown name */
	const char *fn_file;		/* file of its first address, or NULL */
	uint64_t name_hash, file_hash;	/* op_hash_str() of the two */
	unsigned fn_line;
	unsigned line;			/* the location's line in fn_file, 0: none */
};

/*
 * The facts of nr locations (keys[i] and their symbols what[i]; those of
 * image SIZE_MAX have none), looked up in chunks (each of one image) by a
 * thread started here, from the last, and by the caller of get(), who
 * asks in increasing order of i; never by both in one image's table at
 * once (tabs: per image of nr_images, its symbol table), whose line
 * look-ups are for one thread at a time.  The arrays are borrowed until
 * pp_pprof_facts_end(): they must not change.
 */
struct pp_pprof_facts;
struct pp_pprof_facts *pp_pprof_facts_start(struct pp_symtab *const *tabs, size_t nr_images,
					    const struct pp_pprof_key *keys,
					    const void *const *what, size_t nr);
const struct pp_pprof_fact *pp_pprof_facts_get(struct pp_pprof_facts *f, size_t i);
void pp_pprof_facts_end(struct pp_pprof_facts *f);

/*
 * Items put in (bucket, key) order (pprof_frames.c): the pprof export's
 * frames, so that each distinct (image, address) is one location, made
 * in address order.  Add them (buckets below nr_buckets), each with a
 * value of the caller's, sort once, then walk them in order.
 */
struct pp_keyorder {
	size_t *value;			/* per item, as added */
	uint64_t *key;
	size_t *bucket;
	size_t nr, alloc, nr_buckets;
	uint64_t *lo, *hi;		/* per bucket: its smallest and largest key */
	uint64_t *base;			/* per bucket: its first packed key */
	size_t *used, nr_used, at_used;	/* the buckets with items, in order */
	struct op_kv *kv, *tmp;
	/* (packed key, value) when packed, else (bucket, item) */
	const struct op_kv *sorted;
	bool packed;			/* sorted's keys are (bucket, key) packed */
	size_t next;			/* the walk's next place in sorted */
};

/* an item of the walk: its value; bucket and key are set at the first
 * item of each (bucket, key) and kept for the others */
struct pp_keyorder_item {
	size_t value, bucket;
	uint64_t key;
	bool first;			/* the first of its (bucket, key) */
};

/* nr_items: how many will be added (more may be) */
void pp_keyorder_init(struct pp_keyorder *o, size_t nr_buckets, size_t nr_items);
void pp_keyorder_add(struct pp_keyorder *o, size_t bucket, uint64_t key, size_t value);
void pp_keyorder_sort(struct pp_keyorder *o);
/* the next item in order into *it (the same one each call); false after the last */
bool pp_keyorder_next(struct pp_keyorder *o, struct pp_keyorder_item *it);
void pp_keyorder_release(struct pp_keyorder *o);

/*
 * Readying source lines ahead (lines_ahead.c): a thread that calls
 * pp_symtab_lines_ahead() on the tables of p's images[0..nr) in order,
 * with the keys of their samples (the tables are made first, by the
 * caller), or NULL when there is nothing to ready or no thread (each
 * table then opens on its first use).  The keys given are the samples'
 * and the starts of their symbols; with calls, also those of p's loaded
 * {cg} groups' ends (each caller key less one, in the call), for an
 * output that gives call sites and callees their lines.  pp_lines_ahead_end()
 * stops it after the table it is on and waits for it; NULL is let be.
 */
struct pp_lines_ahead;
struct pp_lines_ahead *pp_lines_ahead_start(struct pp_profile *p, const size_t *images,
					    size_t nr, bool calls);
/*
 * The same, the thread first running first(arg) (then NULL only when no
 * thread could start: the caller runs first() itself).  One helper
 * thread for both rather than two: on two CPUs a third thread slows the
 * report's.  pp_lines_ahead_first_done() waits until first() has run and
 * returns true, or returns false at once for NULL.
 */
struct pp_lines_ahead *pp_lines_ahead_start_after(struct pp_profile *p, const size_t *images,
						  size_t nr, bool calls,
						  void (*first)(void *arg), void *arg);
bool pp_lines_ahead_first_done(struct pp_lines_ahead *la);
void pp_lines_ahead_end(struct pp_lines_ahead *la);

/* the one-page HTML report (html.c) */
int pp_write_html(struct pp_report *r, FILE *out, struct op_err *err);

/* --- the HTML report's parts (html_*.c) ---------------------------------- */

/* s as HTML text or a quoted attribute value: & < > " ' escaped */
void pp_html_put(FILE *out, const char *s);
/* len bytes of s as the text of a <pre>: & < > escaped, NUL as a blank */
void pp_html_put_len(FILE *out, const char *s, size_t len);
/* s as a JSON string with its quotes, safe inside a <script> element:
 * '<', '>', '&' and control characters as \u escapes */
void pp_json_put(FILE *out, const char *s);
/*
 * The flame graph's JSON of side s of r (html_flame.c): from the stack
 * file, else from the arcs (s has them: PP_NEEDS_STACKS and
 * PP_NEEDS_ARCS).  Returns 0 when it was made from stacks, else
 * pp_stacks_load()'s error (-ENOENT: no stack file), the reason it was
 * made from arcs.
 */
int pp_html_flame(FILE *out, struct pp_side *s);
/* the symbol table and the image summary of side s (html_tables.c) */
void pp_html_symbols(FILE *out, struct pp_report *r, struct pp_side *s);
void pp_html_images(FILE *out, struct pp_report *r, struct pp_side *s);
/* the files of html/, built in (html_assets.c, made from them) */
extern const char pp_html_css[];
extern const char pp_html_guard_js[];
extern const char pp_html_js[];

/* --- a buffered stream (out.c) ------------------------------------------ */

struct pp_out {
	FILE *f;
	size_t len;			/* bytes in buf */
	char buf[64 * 1024];
};

void pp_out_init(struct pp_out *o, FILE *f);
/* write what is buffered to the stream (its errors show in ferror()) */
void pp_out_flush(struct pp_out *o);
void pp_out_add(struct pp_out *o, const char *s, size_t len);
void pp_out_str(struct pp_out *o, const char *s);
void pp_out_ch(struct pp_out *o, char c);
/* value in decimal, without printf */
void pp_out_u64(struct pp_out *o, uint64_t value);
void pp_out_fmt(struct pp_out *o, const char *fmt, ...) OP_PRINTF(2, 3);

/* --- writing columns (format.c, columns.c) ------------------------------ */

/* OProfile's column widths */
#define W_VMA 9
#define W_SAMPLES 9
#define W_CUM_SAMPLES 14
#define W_PERCENT 9
#define W_CUM_PERCENT 11
#define W_DIFF 10
#define W_PVALUE 9
#define W_SIG 4
#define W_METRIC 10
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

/*
 * m (at least 0, below 2^32) rounded to the nearest whole number in *r,
 * for the printf-free formatters; false when m is within a hair of a
 * rounding tie, where printf must decide.  Inline: every percentage and
 * metric of a report line goes through it.
 */
static inline bool pp_round_clear(double m, uint32_t *r)
{
	double frac;

	*r = (uint32_t)m;
	frac = m - (double)*r;
	if (frac > 0.4999 && frac < 0.5001)
		return false;
	if (frac >= 0.5)
		(*r)++;
	return true;
}

/* "00" to "99": the printf-free formatters write two digits at a time */
extern const char pp_digit_pairs[201];

/*
 * The common case without printf (which costs more than the rest of a
 * report line): 0.001 <= value < 100 with four decimals, width 7.  Values
 * whose fifth decimal is within a hair of a rounding tie go to printf, so
 * the text is always printf's.  Inline, for the columns of every line.
 */
static inline size_t pp_fast_percent(char *buf, size_t size, double value)
{
	const char *pairs = pp_digit_pairs;
	uint32_t r, ip, fp;

	if (!(value > 0.001) || !(value < 100.0) || size < 8 ||
	    !pp_round_clear(value * 10000.0, &r))
		return 0;
	if (r >= 1000000)	/* rounds to 100: printf's form, then trimmed */
		return 0;
	/* "dd.dddd" or " d.dddd": two digits at a time */
	ip = r / 10000;
	fp = r % 10000;
	buf[0] = ip >= 10 ? pairs[2 * ip] : ' ';
	buf[1] = pairs[2 * ip + 1];
	buf[2] = '.';
	memcpy(buf + 3, pairs + 2 * (fp / 100), 2);
	memcpy(buf + 5, pairs + 2 * (fp % 100), 2);
	buf[7] = '\0';
	return 7;
}

void pp_line_start(struct pp_line *l, FILE *out, const char *prefix);
void pp_line_field(struct pp_line *l, const char *s, size_t width);
/* the same with s's length known */
void pp_line_field_len(struct pp_line *l, const char *s, size_t len, size_t width);
void pp_line_hidden(struct pp_line *l, size_t width);
void pp_line_end(struct pp_line *l);

/*
 * n blanks at o, where at least 16 bytes may be written: the usual few
 * as one 16-byte store, whose excess what follows overwrites
 */
static inline void pp_blanks(char *o, size_t n)
{
	if (n <= 16)
		memcpy(o, "                ", 16);
	else
		memset(o, ' ', n);
}

/* what pp_line_room() can give at most */
#define PP_LINE_ROOM 64

/*
 * Where the next field's text of at most max bytes can be written in
 * place, after the padding the last field left, which is written; NULL
 * when the line lacks room (pp_line_field_len() then).  pp_line_done()
 * ends the field at len bytes.  Formatting into the line
 * saves a copy per field, much of the cost of a -d line's added columns.
 */
static inline char *pp_line_room(struct pp_line *l, size_t max)
{
	char *o = l->buf + l->len;

	if (l->len + l->pad + max + 16 > sizeof(l->buf))
		return NULL;
	pp_blanks(o, l->pad);
	return o + l->pad;
}

static inline void pp_line_done(struct pp_line *l, size_t len, size_t width)
{
	l->len += l->pad + len;
	l->pad = len < width ? width - len : 1;
}

/* decimal digits of v into buf */
void pp_format_count(char *buf, size_t size, uint64_t v);

/* percent of part in whole (0 when whole is 0) */
static inline double pp_ratio(uint64_t part, uint64_t whole)
{
	/* (part / whole) * 100, in that order, as OProfile 1.4 computes it:
	 * part * 100 / whole rounds differently at the fourth decimal */
	return whole ? (double)part / (double)whole * 100.0 : 0.0;
}

/* "%08x" or "%016x" of vma into buf */
void pp_format_vma(char *buf, size_t size, uint64_t vma, bool vma64);

/* "file:line" of key in image i (basename unless long names), or the
 * "(no location information)" text; into sb */
void pp_linenr(struct op_strbuf *sb, struct pp_profile *p, size_t image,
	       uint64_t key, bool long_names);

/*
 * The columns of a symbol line, as -l, -d and -c write them: [vma]
 * samples [cum. samples] % [cum. %] per class, [linenr info] [image name]
 * [app name], symbol name.
 */
struct pp_cols {
	bool vma, vma64, cum, linenr, image, app;
	bool long_names;		/* of source files (-f) */
	double z;			/* --confidence: each share's interval
					 * at this z; 0: none */
	const struct pp_metrics *metrics;	/* --metric's columns, or NULL */
};

/* the columns side s shows with r's options */
void pp_cols_of(struct pp_cols *c, const struct pp_report *r,
		const struct pp_side *s);
/* the line of column titles */
void pp_cols_header(FILE *out, const struct pp_cols *c, size_t nr_classes);

/* a running sum per class, for the cumulative columns */
struct pp_cum {
	uint64_t *sum;
	size_t nr;
	struct op_wilson_n *wil;	/* per class: --confidence's interval
					 * constants of the last whole */
	struct pp_metric_memo *memo;	/* --metric's columns by counts */
};

void pp_cum_init(struct pp_cum *cum, size_t nr_classes);
void pp_cum_reset(struct pp_cum *cum);
void pp_cum_release(struct pp_cum *cum);

/* what one line shows */
struct pp_cols_row {
	const char *prefix;		/* before the first column, or NULL */
	const struct pp_row *row;	/* for the image, app and source line */
	uint64_t vma;			/* the vma column */
	uint64_t key;			/* whose source line -g shows */
	const uint64_t *counts;		/* per class */
	const uint64_t *whole;		/* per class: what the shares are of */
	const char *name;		/* the symbol; NULL: a -d detail line,
					 * which ends after its source line */
	const char *suffix;		/* after the name (" [self]"), or NULL */
};

/* one line; counts are added to cum, whose sums the cum. columns show */
void pp_cols_line(FILE *out, const struct pp_cols *c, struct pp_side *s,
		  const struct pp_cols_row *w, struct pp_cum *cum);

/*
 * May several threads write lines of s with c at once?  Makes what
 * pp_cols_line() would make on first use (the image and app names) and
 * says no when a column reads what is only read lazily and by one thread
 * at a time (source lines, from DWARF).
 */
bool pp_cols_parallel(const struct pp_cols *c, struct pp_side *s);

/* --- intervals and significance (confidence.c) ------------------------ */

/* the low and high ends of count/whole's interval at z, as percentages in
 * pp_format_percent()'s form */
void pp_interval_strs(char *lo, char *hi, size_t size, uint64_t count,
		      uint64_t whole, double z);
/* the same as the two fields "low %" and "high %" of a line; w, when not
 * NULL, keeps the constants of whole across calls */
struct op_wilson_n;
void pp_interval_fields(struct pp_line *l, uint64_t count, uint64_t whole, double z,
			struct op_wilson_n *w);
/* --confidence's header lines for side s (nothing without it, or with -n) */
void pp_confidence_header(FILE *out, const struct pp_report *r, const struct pp_side *s);
/*
 * A differential's header lines on its tests: nr_tests rows tested at
 * alpha, per class of p n1 samples then n2, the smallest change found
 */
void pp_diff_header(FILE *out, const struct pp_report *r, const uint64_t *n1,
		    const uint64_t *n2, const struct pp_profile *p, size_t nr_tests,
		    double alpha);

/* --- writing items in order on every CPU (ordered.c) ------------------- */

/*
 * The items of a report (rows, call-graph blocks), each written by item()
 * to the stream it is given: local_new() makes what one thread keeps
 * while writing (freed by local_free()), chunk() sets it to go on from
 * the running totals of the items before a chunk (nr_classes counts:
 * the sums of counts() of those items; counts may be NULL, before is
 * then all zero).  Several threads call item() at once: it may only
 * read what ctx points to.
 */
struct pp_ordered {
	void *ctx;
	size_t nr_classes;
	const uint64_t *(*counts)(void *ctx, size_t i);
	void *(*local_new)(void *ctx);
	void (*local_free)(void *local);
	void (*chunk)(void *ctx, void *local, const uint64_t *before);
	void (*item)(void *ctx, void *local, size_t i, FILE *out);
};

/*
 * Write items 0..nr-1 to out in order.  With parallel (and enough items
 * and CPUs), helper threads format chunks of them ahead of the caller,
 * which writes each in turn; the output is the same byte for byte.
 */
void pp_write_ordered(FILE *out, size_t nr, const struct pp_ordered *w, bool parallel);

/*
 * Text kept in memory to be written out later (textbuf.c): a stream
 * that appends to it, the text written to out, and its memory freed
 */
struct pp_text_block;
struct pp_textbuf {
	struct pp_text_block *head, *tail;
};

FILE *pp_textbuf_open(struct pp_textbuf *t);
void pp_textbuf_write(struct pp_textbuf *t, FILE *out);
void pp_textbuf_release(struct pp_textbuf *t);

/* --- names, selection, order (names.c, select.c, sort.c) ------------------ */

/* comms: show applications with their processes' names (--comm), or NULL */
void pp_names_init(struct pp_names *nm, struct pp_profile *p, bool long_names,
		   const struct pp_comms *comms);
void pp_names_release(struct pp_names *nm);
const char *pp_names_app(struct pp_names *nm, size_t app);
/* every name made now: then any thread may ask for them */
void pp_names_fill(struct pp_names *nm);
const char *pp_names_image(struct pp_names *nm, size_t image);

/*
 * The name shown for sym, a symbol of image: its table's shown name
 * (pp_symtab_shown_name(): demangled as -D says, made once).  Borrowed
 * until the profile is released.
 */
const char *pp_shown_name(struct pp_profile *p, size_t image, const struct pp_sym *sym);

/*
 * The shown names of syms[0..nr) (of images[0..nr)), in that order, made
 * ahead of the caller by helper threads when there are many (demangling
 * is most of a big symbol report's time).  pp_name_stream_get(s, i)
 * returns name i, waiting for it or making it; asking in increasing i
 * lets the helpers stay ahead.  The names are the tables': borrowed until
 * the profile is released.
 */
struct pp_name_stream;
struct pp_name_stream *pp_name_stream_start(struct pp_profile *p,
					    const size_t *images,
					    const struct pp_sym *const *syms, size_t nr);
const char *pp_name_stream_get(struct pp_name_stream *s, size_t i);
void pp_name_stream_end(struct pp_name_stream *s);

/* every name at once into names[0..nr) (borrowed as above) */
void pp_shown_names(struct pp_profile *p, const size_t *images,
		    const struct pp_sym *const *syms, size_t nr, const char **names);

/* does a symbol of that raw and shown name pass -i/-e?  (lists NULL-ended
 * or NULL) */
bool pp_sym_passes(const char *const *include, const char *const *exclude,
		   const char *raw, const char *shown);

/*
 * Does counts reach -t (at least o->threshold percent of totals) in a
 * class?  With --threshold-lower, the low end of the share's interval
 * must reach it.
 */
bool pp_over_threshold(const struct pp_report_opts *o, const uint64_t *counts,
		       const uint64_t *totals, size_t nr_classes);

/*
 * Of a call-graph block's callers or callees (list[0..nr), as
 * pp_arcs_list() gives them), keep in order those with at least -t of
 * the list's total, as OProfile 1.4 does; sum (nr_classes) gets that
 * total, of all of them.  Returns how many are kept.
 */
size_t pp_arcs_over_threshold(const struct pp_report_opts *o, struct pp_arc_entry *list,
			      size_t nr, uint64_t *sum, size_t nr_classes);

/*
 * Sort rows by keys[0..nr_keys) (nr_keys 0: samples of class 0, most
 * first), then by the keys the list leaves out, as OProfile 1.4 does
 * (samples, image, application, symbol name, source line when
 * with_lines, address); rows equal in all keep their order.  reverse
 * turns every comparison around; app and image keys order by the names
 * of nm.
 */
void pp_rows_sort(struct pp_row **rows, size_t nr, struct pp_profile *p,
		  struct pp_names *nm, const enum pp_sort_key *keys,
		  size_t nr_keys, bool reverse, bool with_lines);

/* --- annotation (annotate.c) -------------------------------------------- */

/* a symbol to annotate: its samples over the applications using its image */
struct pp_ann_sym {
	size_t image;
	const struct pp_sym *sym;
	uint64_t *counts;		/* per class */
	const struct pp_row **rows;	/* its rows, one per application */
	size_t nr_rows;
	const char *name;		/* the shown (demangled) name, borrowed */
};

struct pp_ann {
	struct pp_report *r;
	struct pp_side *s;		/* the prepared profile */
	struct pp_profile *p;		/* s->p */
	const struct pp_report_opts *o;
	bool source, assembly;		/* which annotation, or both mixed */
	struct pp_ann_sym *syms;	/* most samples first, or by address */
	size_t nr_syms, alloc_syms;
	uint64_t *totals;		/* per class: every sample in a symbol */
	size_t nr_classes;
};

/*
 * The symbols of r's shown rows (-i/-e, -x applied), summed over
 * applications, over -t for assembly (for source, -t selects files);
 * percentages are of the side's totals.
 */
void pp_ann_build(struct pp_ann *a, struct pp_report *r);
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
void pp_ann_info(FILE *out, const struct pp_ann *a);

/* the two annotations, written from the model (0 or a negative code) */
int pp_annotate_src(struct pp_ann *a, FILE *out, struct op_err *err);
int pp_annotate_asm(struct pp_ann *a, FILE *out, struct op_err *err);

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
/* the file of that name, looked for on first use (a miss is noted once) */
struct pp_srcfile *pp_srcfiles_get(struct pp_srcfiles *s, const char *name);
/* the text of line (from 1), or NULL when not found or past the end */
const char *pp_srcfile_line(const struct pp_srcfile *f, unsigned line);

/* --- XML (xml.c, xml_write.c, xml_body.c, xml_tables.c) ------------------ */

/* a symbol of the symbol table: one per (image, symbol), whatever the app */
struct pp_xsym {
	size_t image;
	const struct pp_sym *sym;
	const struct pp_row *row;	/* the row that mentioned it first */
	struct op_strbuf details;	/* its <detaildata> elements (-d) */
	size_t nr_details;		/* detaildata ids given so far */
};

struct pp_xml {
	struct pp_out *out;		/* the report's stream, buffered */
	struct pp_report *r;
	struct pp_side *s;
	struct pp_profile *p;		/* s->p */
	const struct pp_report_opts *o;
	bool callgraph;			/* <callers> and <callees> */
	struct pp_names nm;		/* long names of apps and images */
	struct pp_arc_entry *buf;	/* room for a caller or callee list */
	uint64_t *sum;			/* per class: such a list's total */
	struct pp_row **sel;		/* the rows shown, grouped by app, image */
	size_t nr_sel;
	char **class_names;		/* per class, NULL without <classes> */
	bool vma64;			/* 16 hex digits for addresses */
	struct pp_xsym *syms;		/* by id */
	size_t nr_syms, alloc_syms;
	struct op_hmap sym_index;	/* (image, sym) -> id */
	struct op_strbuf *metric_tags;	/* per metric, <metric name=..> then
					 * its imprecise form; made on first use */
};

/* xml_write.c: bytes as OProfile writes them */
void pp_xml_add_escaped(struct op_strbuf *sb, const char *s);
/* frees what <metric> elements kept (pp_xml's metric_tags) */
void pp_xml_release_metric_tags(struct pp_xml *x);
void pp_xml_put_escaped(struct pp_out *out, const char *s);
void pp_xml_attr_start(struct pp_out *out, const char *name);	/* ' name="' */
void pp_xml_attr_str(struct pp_out *out, const char *name, const char *value);
void pp_xml_attr_u64(struct pp_out *out, const char *name, uint64_t value);
void pp_xml_vma_text(const struct pp_xml *x, char *buf, size_t size, uint64_t vma);
/* with --confidence, ' low="L" high="H"': the interval of count's share
 * of class c's samples, in percent; else "" */
void pp_xml_interval_attrs(char *buf, size_t size, const struct pp_xml *x,
			   uint64_t count, size_t c);
/* the <count> elements of classes lo..hi with samples */
void pp_xml_put_counts(struct pp_xml *x, const uint64_t *counts, size_t lo, size_t hi);

/* xml_body.c */
size_t pp_xml_sym_id(struct pp_xml *x, const struct pp_row *row);
bool pp_xml_any_count(const uint64_t *counts, size_t lo, size_t hi);
bool pp_xml_row_in_range(const struct pp_xml *x, const struct pp_row *row,
			 size_t lo, size_t hi);
void pp_xml_put_symbol(struct pp_xml *x, const struct pp_row *row, size_t lo,
		       size_t hi, bool in_module);
void pp_xml_put_binaries(struct pp_xml *x);
void pp_xml_put_processes(struct pp_xml *x);

/* xml_tables.c */
void pp_xml_put_symboltable(struct pp_xml *x);
void pp_xml_put_detailtable(struct pp_xml *x);
void pp_xml_put_bytestable(struct pp_xml *x);

#endif
