/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbol rows: the samples of a profile summed per (image, app, symbol)
 * and class, for opreport --symbols, --details, --callgraph, -X and the
 * differential report.  Each group's sorted keys are walked against its
 * image's symbol table with galloping searches (a step for neighbouring
 * keys, a binary search over a gap), so the work follows distinct
 * addresses, not the size of the table.
 */
#ifndef PP_ROWS_H
#define PP_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_profile.h"
#include "libutil/op_hmap.h"

struct pp_row {
	size_t image;		/* index into the profile's images */
	size_t app;		/* index into its apps */
	const struct pp_sym *sym;	/* in the image's symbol table; NULL in
					 * rows per image */
	uint64_t *counts;	/* [nr_classes] */
	size_t index;		/* position in the rows array */
};

struct pp_rows {
	struct pp_row *rows;
	size_t nr;
	size_t nr_classes;
	uint64_t *totals;	/* per class: every sample of the profile */
	uint64_t *outside;	/* per class: samples outside every named
				 * symbol (in gap rows, pp_symtab_hold()) */
	bool multiple_apps;	/* some class has samples of more than one app
				 * (with --merge=lib, the images are the apps) */
	struct op_hmap index;	/* (image, app, sym) -> row index + 1, for
				 * rows [0, nr_indexed): the others join it
				 * when it is next searched */
	size_t nr_indexed;
	size_t alloc;		/* rows allocated */
	uint64_t **chunks;	/* counts of rows [k * PP_ROWS_CHUNK, ...) */
};

/* rows whose counts are allocated at once */
#define PP_ROWS_CHUNK 1024

struct pp_rows_opts {
	bool exclude_dependent;	/* only apps' own images */
	bool per_image;		/* one row per (image, app), sym NULL: no
				 * symbol table is read */
};

/*
 * Sum the groups of p, read by pp_profile_load(), into rows (opts NULL:
 * every image, per symbol): every sample has a row, those between
 * symbols a gap or PLT row (pp_symtab_hold()).  Symbol tables are loaded on demand (from
 * pp_profile_load()'s when it read them).  Dies only on allocation
 * failure.
 */
void pp_rows_build(struct pp_rows *r, struct pp_profile *p,
		   const struct pp_rows_opts *opts);
void pp_rows_release(struct pp_rows *r);

/* the row of (image, app, sym), or NULL */
struct pp_row *pp_rows_find(struct pp_rows *r, size_t image, size_t app,
			    const struct pp_sym *sym);

/*
 * The row of (image, app, sym), made with zero counts if there is none.
 * May move the rows: row pointers taken earlier are then stale (use the
 * rows' index fields).
 */
struct pp_row *pp_rows_get(struct pp_rows *r, size_t image, size_t app,
			   const struct pp_sym *sym);

/*
 * The keys of one row: calls fn for each distinct key in [sym->start,
 * sym->end) that has samples in any class of the row's (image, app), in
 * key order, with the per-class counts (a scratch array of nr_classes).
 */
void pp_rows_for_each_key(struct pp_profile *p, const struct pp_rows *r,
			  const struct pp_row *row,
			  void (*fn)(void *data, uint64_t key, const uint64_t *counts),
			  void *data);

#endif
