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

/*
 * A node of the stacks' prefix tree (PP_STACKS_TREE): a frame and the
 * node of its caller, SIZE_MAX for the outermost frame
 */
struct pp_stack_node {
	struct pp_stack_frame frame;
	size_t parent;
};

struct pp_stack {
	size_t app;		/* into the profile's apps */
	size_t nr_frames;
	struct pp_stack_frame *frames;	/* leaf first; NULL with PP_STACKS_TREE */
	size_t leaf;		/* PP_STACKS_TREE: the node of frame 0 */
	uint64_t *counts;	/* per class */
};

struct pp_stacks {
	struct pp_stack *v;
	size_t nr, alloc;
	size_t nr_files;	/* stack files read */
	uint64_t dropped;	/* samples whose stacks did not fit the files */
	/* PP_STACKS_TREE: the frames as a prefix tree (callers before the
	 * frames they call); a stack's frames are its leaf and the leaf's
	 * ancestors */
	struct pp_stack_node *nodes;
	size_t nr_nodes, alloc_nodes;
	char **names;		/* the "other" names, owned */
	size_t nr_names;
	/* the storage of the stacks' frames and counts: blocks, the last
	 * with block_left bytes free at block_at */
	void **blocks;
	size_t nr_blocks, block_left;
	char *block_at;
};

/* how pp_stacks_load() reads */
enum pp_stacks_flags {
	PP_STACKS_ALONE = 1 << 0,	/* no other thread is busy: a big file
					 * is read by two threads (a second one
					 * would only take the CPU from the busy
					 * one) */
	PP_STACKS_TREE = 1 << 1,	/* the stacks' frames as the nodes of a
					 * prefix tree, each shared frame once,
					 * not copied into each stack */
};

/* frame 0 of st, a stack of s */
static inline const struct pp_stack_frame *pp_stack_leaf(const struct pp_stacks *s,
							const struct pp_stack *st)
{
	return st->frames ? &st->frames[0] : &s->nodes[st->leaf].frame;
}

/*
 * Read the stack files of p's sessions.  Returns 0 when at least one was
 * read, -ENOENT when the sessions have none, -ENOTSUP when p's classes
 * are threads, processes or CPUs (which stack files do not tell apart),
 * -ERANGE when p's samples are time slices (time:; stacks are not sliced),
 * or the error of a file that
 * cannot be read (noted through n as unusable: the caller falls back on
 * the arcs).  Samples whose stacks did not fit a file are noted too.
 * Symbol tables are loaded on demand.  flags: enum pp_stacks_flags.  s
 * is valid (maybe empty) either way; release it with pp_stacks_release().
 */
int pp_stacks_load(struct pp_stacks *s, struct pp_profile *p, unsigned flags,
		   struct pp_notes *n);
/* why a profile has no whole stacks, for pp_stacks_load()'s error ret */
const char *pp_stacks_why(int ret);
void pp_stacks_release(struct pp_stacks *s);
/*
 * Free s's stacks and frames (most of its memory) once they are read,
 * keeping the names of "other" frames: pointers to them stay valid until
 * pp_stacks_release(), which s still needs.
 */
void pp_stacks_drop(struct pp_stacks *s);

#endif
