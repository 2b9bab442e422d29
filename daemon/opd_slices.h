/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's side of the time-slice file (libdb/odb_slices.h): each
 * sample stored in a sample file is also counted in the slice of time it
 * fell in, (file, key) -> count, and each slice is appended to
 * SESSION/samples/current/slices once the records have moved past it.
 * Slices count from the run's first sample; a run added to an existing
 * session starts where the wall clock says it started (when its first
 * sample was counted), rounded to the nearest whole slice.  Only flat
 * samples are sliced: call-graph arcs and stacks cover the whole run.
 */
#ifndef OPD_SLICES_H
#define OPD_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb_slices.h"
#include "libutil/op_dir.h"

struct opd_slice_slot {
	uint32_t file;			/* file number + 1; 0: an empty slot */
	uint64_t key;
	uint64_t count;
};

struct opd_slices {
	uint64_t length_ns;		/* 0: no slices */
	struct odb_slices_writer *w;	/* NULL until the first sample */
	uint32_t gen;			/* of the file open now: a sample file's
					 * number is valid when its gen is this */
	bool started;			/* t0 and offset known */
	uint64_t t0;			/* record time of the run's first sample */
	uint64_t offset_ns;		/* the run's slice 0, from the session start */
	uint64_t cur;			/* the slice being counted */
	struct opd_slice_slot *tab;	/* open addressing, mask + 1 slots */
	size_t mask, nr;
	uint64_t dropped;		/* at the limit, in files closed */
	bool failed;			/* an error other than the size limit */
	int first_error;		/* 0, or why slices were lost */
};

void opd_slices_init(struct opd_slices *s, uint64_t length_ns);

/*
 * Open the slice file beneath samples if it is not open (nothing when
 * slices are off or failed): before the first sample file of a run is
 * made, so that a new slice file knows whether the session had samples
 * before it (ODB_SLICES_PARTIAL).
 */
void opd_slices_open(struct opd_slices *s, const struct op_dir *samples);

/*
 * The number of a sample file in the open slice file (*id), opening the
 * file beneath samples first when none is: name is the sample file's path
 * relative to samples.  0 or an error (slices are then not counted).
 */
int opd_slices_file(struct opd_slices *s, const struct op_dir *samples,
		    const char *name, uint32_t *id);

/* count samples at key of file id at record time now */
void opd_slices_add(struct opd_slices *s, uint32_t id, uint64_t key,
		    uint64_t count, uint64_t now);

/* store what the current slice has so far (it goes on counting) */
void opd_slices_flush(struct opd_slices *s);

/* flush and close the file; the next sample opens it again (maybe a new
 * one, its numbers new: gen changes) and starts a new run */
int opd_slices_close(struct opd_slices *s);

/* samples dropped at the files' size limit so far */
uint64_t opd_slices_dropped(const struct opd_slices *s);

void opd_slices_release(struct opd_slices *s);

#endif
