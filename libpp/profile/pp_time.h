/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The time slices a file list's time: selected (opreport(1), time:): the
 * sessions' slice files (libdb/odb_slices.h), kept open in the list so
 * that a report can take the slices one at a time (opreport
 * --format=timeline): pp_time_select() refills every file's samples with
 * those of a narrower range, after which the profile's groups are read
 * again (pp_profile_unload()).
 */
#ifndef PP_TIME_H
#define PP_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb_slices.h"
#include "libpp/profile/pp_session.h"

struct pp_time;

/* the wall clock (ns since the epoch) at the first session's start */
uint64_t pp_time_start(const struct pp_time *t);

/* samples the writers dropped at the slice files' size limits */
uint64_t pp_time_dropped(const struct pp_time *t);

/* did a session have samples before its slice file began (those are in
 * no slice: ODB_SLICES_PARTIAL)? */
bool pp_time_partial(const struct pp_time *t);

/*
 * The slices selected, as distinct points of time: the number of them,
 * and point i's start and length (ns from the session start), in order
 */
size_t pp_time_nr_points(const struct pp_time *t);
void pp_time_point(const struct pp_time *t, size_t i, uint64_t *start_ns,
		   uint64_t *length_ns);

/*
 * The time the slices of the session at dir cover: from the start of the
 * first one with samples to the end of the last (ns from the session
 * start).  0, or the error reading its slice file.
 */
int pp_time_span(const char *dir, uint64_t *first_ns, uint64_t *end_ns);

/*
 * Follow the slice file of the session at dir as it grows (its FILE
 * records name the sample files as the writer makes them):
 * odb_slices_follow() of dir/slices.  0, or the error reading it.
 */
int pp_time_follow(const char *dir, struct odb_slices_cursor *c);

/*
 * Give every file of list the samples of the slices selected that start
 * in [start_ns, end_ns) (a file may then have none).  Dies only when
 * memory runs out.
 */
void pp_time_select(struct pp_file_list *list, uint64_t start_ns, uint64_t end_ns);

#endif
