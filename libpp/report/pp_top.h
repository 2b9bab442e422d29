/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live view's snapshots (optop(1)): the samples of a session read
 * again and again while operf or oprofiled writes it, each time summed
 * per symbol, image or process, with what each gained since the snapshot
 * before.  Each sample file is read as one consistent snapshot (the
 * reader copies it, libdb/odb.h), never half-written.  While the set of
 * sample files stays the same, a snapshot re-reads their samples only:
 * the profile and its symbol tables are kept; a new file (a new image,
 * process or event) builds the profile again.
 *
 * Nothing here prints; the rows are for the caller to show.
 */
#ifndef PP_TOP_H
#define PP_TOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/profile/pp_session.h"
#include "libpp/profile/pp_spec.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_error.h"

enum pp_top_view {
	PP_TOP_SYMBOLS,		/* per symbol and image */
	PP_TOP_IMAGES,		/* per image (program, library, kernel) */
	PP_TOP_PROCESSES,	/* per application (the process's program) */
};

struct pp_top_row {
	const char *name;	/* symbol, image or application */
	const char *where;	/* a symbol's image, else NULL */
	uint64_t total;		/* samples so far */
	uint64_t delta;		/* since the snapshot before */
};

struct pp_top {
	/* the last snapshot's rows: most gained first, then most in all */
	struct pp_top_row *rows;
	size_t nr_rows;
	uint64_t total, delta;	/* over every row */
	bool first;		/* no snapshot before: deltas are totals */
	double interval;	/* seconds since the snapshot before */
	const char *event;	/* "cpu-clock:100000": the class shown */
	size_t nr_files;	/* sample files read */
	bool rebuilt;		/* the set of files changed: profile made anew */
	char note[256];		/* the last warning of the profile, or "" */
	struct pp_top_state *st;	/* the rest, private */
};

/*
 * A live view of the sessions of spec (borrowed, like sd and sym_opts:
 * they must outlive t).  Reads nothing yet.
 */
void pp_top_init(struct pp_top *t, const struct pp_session_dir *sd,
		 const struct pp_spec *spec, const struct pp_sym_opts *sym_opts);

/*
 * Take a snapshot for view: 0, or an error with err saying it
 * (-ENOENT: the session does not exist yet, PP_PROFILE_ERR_EMPTY: it has
 * no sample file the spec selects yet); the rows are then empty and the
 * next snapshot starts over.  Dies only when memory runs out.
 */
int pp_top_snapshot(struct pp_top *t, enum pp_top_view view, struct op_err *err);

void pp_top_release(struct pp_top *t);

#endif
