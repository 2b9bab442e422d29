/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole call stacks of a profile, from the stack files of its sessions
 * (libdb/odb_stacks.h, SESSION/samples/NAME/stacks): each distinct stack
 * of the profile's applications, its frames resolved to the symbols of
 * the images' tables (pp_symtab_hold(), gap rows included, as the {cg}
 * arcs are resolved), with its count per class.
 *
 * A stack belongs to the profile when its application is one of the
 * profile's and its leaf image is one of the profile's images; the
 * stack files do not separate threads or CPUs, so a profile whose
 * classes are of one tgid, tid or CPU gets none.  Frames are leaf first.
 *
 * Memory: dies with "out of memory" (libutil's op_x* forms), as all of
 * libpp/profile does.
 */
#ifndef PP_STACKS_H
#define PP_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/profile/pp_notes.h"
#include "libpp/profile/pp_profile.h"

struct pp_stack_frame {
	size_t image;		/* into the profile's images; SIZE_MAX: an
				 * image without samples of the profile */
	union {			/* which one: by image (a frame is small:
				 * stacks have hundreds of thousands) */
		const struct pp_sym *sym;	/* image not SIZE_MAX: its symbol */
		const char *other;	/* image SIZE_MAX: how reports name it */
	};
	uint64_t offset;	/* the frame's key in its image (the sampled
				 * address, else a return address) */
};

struct pp_stack {
	size_t app;		/* into the profile's apps */
	size_t nr_frames;
	struct pp_stack_frame *frames;	/* leaf first */
	uint64_t *counts;	/* per class */
};

struct pp_stacks {
	struct pp_stack *v;
	size_t nr, alloc;
	size_t nr_files;	/* stack files read */
	uint64_t dropped;	/* samples whose stacks did not fit the files */
	char **names;		/* the "other" names, owned */
	size_t nr_names;
	/* the storage of the stacks' frames and counts: blocks, the last
	 * with block_left bytes free at block_at */
	void **blocks;
	size_t nr_blocks, block_left;
	char *block_at;
};

/*
 * Read the stack files of p's sessions.  Returns 0 when at least one was
 * read, -ENOENT when the sessions have none, -ENOTSUP when p's classes
 * are threads, processes or CPUs (which stack files do not tell apart),
 * or the error of a file that
 * cannot be read (noted through n as unusable: the caller falls back on
 * the arcs).  Samples whose stacks did not fit a file are noted too.
 * Symbol tables are loaded on demand.  alone: no other thread is busy,
 * so a big file is read by two threads (a second one would only take the
 * CPU from the busy one).  s is valid (maybe empty) either way; release
 * it with pp_stacks_release().
 */
int pp_stacks_load(struct pp_stacks *s, struct pp_profile *p, bool alone,
		   struct pp_notes *n);
/* why a profile has no whole stacks, for pp_stacks_load()'s error ret */
const char *pp_stacks_why(int ret);
void pp_stacks_release(struct pp_stacks *s);

#endif
