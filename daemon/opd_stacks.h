/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's side of the stack file (libdb/odb_stacks.h): with
 * --callgraph, the frames of each sample's callchain, resolved to (image,
 * offset) as its arcs are, are collected leaf first and the whole stack
 * is counted once in SESSION/samples/current/stacks.  Images go in by
 * their sample-file path component, so the reports name them as they
 * name the sample files' images.  The file is opened at the first stack
 * and closed with the sample files.
 */
#ifndef OPD_STACKS_H
#define OPD_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/opd_image.h"
#include "events/opev.h"
#include "libdb/odb_stacks.h"
#include "libutil/op_dir.h"

struct opd_stacks {
	struct odb_stacks_writer *w;	/* NULL until the first stack */
	uint32_t *ids;			/* cookie -> file image number + 1 */
	size_t nr_ids;
	struct odb_stack_frame frames[ODB_STACKS_MAX_FRAMES];
	size_t nr;			/* frames of the stack being built */
	bool failed;			/* the file could not be opened */
	int first_error;		/* 0, or why stacks were lost */
};

void opd_stacks_init(struct opd_stacks *s);

/* start the next sample's stack */
static inline void opd_stacks_begin(struct opd_stacks *s)
{
	s->nr = 0;
}

/* one more frame, the caller of the one before (images by cookie) */
static inline void opd_stacks_frame(struct opd_stacks *s, uint32_t cookie,
				    uint64_t offset)
{
	if (s->nr < ODB_STACKS_MAX_FRAMES) {
		s->frames[s->nr].image = cookie;
		s->frames[s->nr].reserved = 0;
		s->frames[s->nr++].offset = offset;
	}
}

/*
 * Count the frames collected as one sample of event for app (a cookie),
 * opening the file beneath samples for the events at the first stack.
 * Returns 0, or the error for which the sample's stack was not stored.
 */
int opd_stacks_commit(struct opd_stacks *s, const struct op_dir *samples,
		      const struct opev_event *events, size_t nr_events,
		      struct opd_images *images, uint32_t app, uint32_t event);

/* close the file; the next stack opens it again (maybe a new one) */
int opd_stacks_close(struct opd_stacks *s);

void opd_stacks_release(struct opd_stacks *s);

#endif
