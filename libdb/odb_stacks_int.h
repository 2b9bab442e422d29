/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stack file's insides shared by its reader and writer (odb_stacks.h). */
#ifndef ODB_STACKS_INT_H
#define ODB_STACKS_INT_H

#include "libdb/odb_stacks.h"

/* the records of a file: offsets of the EVENT and IMAGE strings and of
 * the STACK records, in file order */
struct odb_stacks_scan {
	uint64_t *ev, *img, *stk;
	size_t nr_ev, nr_img, nr_stk;
};

/* check the header against the file's size (magic, version, events) */
int odb_stacks_check_header(const struct odb_stacks_header *h, uint64_t file_size);

/*
 * Check and index the records of map[sizeof header .. end): 0, -ENOMEM
 * or ODB_ERR_STACKS_BAD_RECORD (sc is then empty).
 */
int odb_stacks_scan(const unsigned char *map, uint64_t end, uint32_t nr_events,
		    struct odb_stacks_scan *sc);
void odb_stacks_scan_release(struct odb_stacks_scan *sc);

/* bytes of a STACK record */
static inline uint64_t odb_stacks_rec_size(uint32_t nr_events, uint32_t nr_frames)
{
	return sizeof(struct odb_stacks_rec) + sizeof(struct odb_stack_head) +
	       8ull * nr_events + (uint64_t)nr_frames * sizeof(struct odb_stack_frame);
}

/* the stack of the STACK record at rec */
static inline void odb_stacks_decode(const unsigned char *rec, uint32_t nr_events,
				     struct odb_stack *st)
{
	const struct odb_stack_head *h =
		(const struct odb_stack_head *)(rec + sizeof(struct odb_stacks_rec));

	st->app = h->app;
	st->nr_frames = h->nr_frames;
	st->counts = (const uint64_t *)(h + 1);
	st->frames = (const struct odb_stack_frame *)(st->counts + nr_events);
}

#endif
