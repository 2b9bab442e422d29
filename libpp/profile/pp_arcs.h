/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call-graph arcs between symbol rows, from the {cg} sample files: the
 * caller symbol owns a key's high 32 bits, the callee its low 32 bits
 * (oprofile-ng-formats(5), "CALL-GRAPH FILES").  Every arc is kept: an
 * end between symbols lands on its gap row (pp_symtab_hold()), and a
 * kernel end gets the high bits of the kernel's addresses back.
 *
 * Memory: dies with "out of memory" (libutil's op_x* forms), as all of
 * libpp/profile does.
 */
#ifndef PP_ARCS_H
#define PP_ARCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_rows.h"
#include "libutil/op_hmap.h"

/*
 * Call-graph arcs between rows (arcs.c), for --callgraph and its XML.
 * Rows are addressed by index; an arc end without samples gets a row with
 * zero counts.
 */
struct pp_arc {
	size_t caller, callee;	/* row indexes */
	uint64_t *counts;	/* per class */
};

struct pp_arc_record;

struct pp_arcs {
	struct pp_arc *v;
	size_t nr, alloc;
	struct op_hmap index;	/* (caller, callee) -> index into v + 1 */
	uint64_t *counts;	/* the arcs' counts, nr_classes per arc */
	size_t nr_classes;
	/* with keep_records: the records summed, in the order met */
	struct pp_arc_record *records;
	size_t nr_records, alloc_records;
	/* row r's arcs by callee (in) and by caller (out):
	 * list[first[r] .. first[r + 1]) */
	size_t *in_first, *in_list;
	size_t *out_first, *out_list;
};

/*
 * Load p's {cg} groups (an unreadable file is noted through n) and sum
 * them into arcs between rows of r, adding the rows arc ends need.  With
 * exclude_dependent (-x), arcs with an end outside the application's own
 * image are left out, as OProfile 1.4 leaves them out.  keep_records:
 * a->records keeps each record as pp_arcs_for_each_record() gives it, for
 * an output that needs them one by one.  After this, r gets no more
 * rows.  Dies only on allocation failure.
 */
void pp_arcs_build(struct pp_arcs *a, struct pp_profile *p, struct pp_rows *r,
		   bool exclude_dependent, bool keep_records, struct pp_notes *n);
void pp_arcs_release(struct pp_arcs *a);

/* one record of a {cg} file, its ends resolved to rows */
struct pp_arc_record {
	size_t caller, callee;	/* row indexes */
	size_t caller_image;	/* the caller row's image */
	uint64_t from, to;	/* the keys of both ends: from is where the
				 * call returns to, to the callee's frame */
	size_t cls;
	uint64_t count;
};

/*
 * Call fn for each record of p's {cg} groups, with the rules of
 * pp_arcs_build() (which sums them): -x, --merge=lib, rows made for ends
 * without samples.  Groups not loaded yet are loaded (unreadable files
 * noted through n).  After pp_arcs_build() on the same rows, no row is
 * added.  Dies only on allocation failure.
 */
void pp_arcs_for_each_record(struct pp_profile *p, struct pp_rows *r,
			     bool exclude_dependent, struct pp_notes *n,
			     void (*fn)(void *data, const struct pp_arc_record *rec),
			     void *data);

/*
 * The key in table t of an arc end whose low 32 bits a {cg} key holds
 * (the high bits of t's addresses back, for a table above 4 GiB)
 */
uint64_t pp_arc_key(const struct pp_symtab *t, uint64_t low32);

/* one entry of a caller or callee list */
struct pp_arc_entry {
	const struct pp_row *row;
	const uint64_t *counts;	/* the arc's, or the row's own for self */
	bool self;		/* the row itself, in its callee list */
};

/*
 * The callers of row (callees false), or its callees preceded by the row
 * itself as the self entry, most calls (class 0) first, ties in row
 * order; reverse turns that whole order around (fewest first, ties in
 * reverse row order).  buf has room for a->nr + 1 entries.
 * Returns the number of entries.
 */
size_t pp_arcs_list(const struct pp_arcs *a, const struct pp_rows *r,
		    const struct pp_row *row, bool callees, bool reverse,
		    struct pp_arc_entry *buf);

#endif
