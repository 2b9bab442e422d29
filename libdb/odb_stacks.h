/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stack file (oprofile-ng-formats(5), STACK FILE): every distinct
 * call stack of a --callgraph session stored once, with its count per
 * event.  It lives beside the sample trees (samples/current/stacks),
 * where OProfile 1.4's tools never look.
 *
 * Layout (native byte order, every record 8-byte aligned):
 *
 *	struct odb_stacks_header	64 bytes: magic "OPSTACK\n", version,
 *					events per stack, committed length,
 *					size limit, samples dropped
 *	records				committed bytes of them
 *
 * A record's first 32-bit word holds its type in the low byte.  EVENT
 * and IMAGE records are a struct odb_stacks_rec (type, size) followed by:
 *  - EVENT: "NAME.COUNT.UNITMASK" as the sample files spell the event,
 *    NUL-terminated; the first nr_events records, in counter order.
 *  - IMAGE: an image part of a sample-file name ("{root}/usr/bin/ls",
 *    "{kern}/vmlinux", "{anon:[vdso]}/12.0x7f..0x7f..", odb_name.h),
 *    NUL-terminated.  The n-th IMAGE record is image n.
 * Version 2 (written) stores the stacks as a prefix tree, outermost
 * caller first, in NODE records of a fixed size and no size field:
 *  - NODE: struct odb_stack_node (type and image number in one word,
 *    parent node, offset), then nr_events uint64_t counts: the samples
 *    whose stack ends at this node (its offset the sampled address).
 *    The n-th NODE record is node n.  A node without a parent
 *    (ODB_STACKS_NO_PARENT) is a root: its image is the application,
 *    its offset 0 and it counts nothing.  Another node's parent is an
 *    earlier node; its frames, leaf first, are its own and its
 *    ancestors' up to the root, at most ODB_STACKS_MAX_FRAMES.
 * Version 1 (still read) has a STACK record per stack instead:
 *  - STACK: struct odb_stack_head (the application's image, the number
 *    of frames), nr_events uint64_t counts, then the frames, leaf first:
 *    frame 0 is the sampled address, each next one its caller.
 * A record refers only to images recorded before it.
 *
 * Crash safety and concurrent readers: records are appended past the
 * committed length and only then the length is stored (release order);
 * counts of existing stacks are added to in place (atomically).  A writer
 * killed at any point leaves the committed records whole; a reader sees
 * the records committed when it opened.  A new file is built as
 * "stacks.tmp" and renamed into place.  The file grows by doubling while
 * written; the writer trims it to the committed records when it closes.
 *
 * Bounded: a stack that does not fit under the size limit is not stored;
 * its samples are counted in the header's dropped field.
 *
 * Nothing here prints or exits; errors are negative errno values or
 * ODB_ERR_* (odb_strerror()).
 */
#ifndef ODB_STACKS_H
#define ODB_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb.h"

#define ODB_STACKS_MAGIC "OPSTACK\n"
#define ODB_STACKS_VERSION 2u		/* written; 1 is still read */
#define ODB_STACKS_VERSION_1 1u
#define ODB_STACKS_NAME "stacks"		/* in samples/current */
#define ODB_STACKS_MAX_EVENTS 32u
#define ODB_STACKS_MAX_FRAMES 1024u
#define ODB_STACKS_DEFAULT_LIMIT (256ull << 20)
#define ODB_STACKS_MIN_LIMIT 4096ull

struct odb_stacks_header {
	unsigned char magic[8];		/* ODB_STACKS_MAGIC, no NUL */
	uint32_t version;		/* ODB_STACKS_VERSION */
	uint32_t nr_events;		/* counts per stack, 1 .. MAX_EVENTS */
	uint64_t committed;		/* bytes of whole records after this */
	uint64_t limit;			/* the writer keeps the file below */
	uint64_t dropped;		/* samples of stacks that did not fit */
	uint64_t reserved[3];		/* zero */
};

enum odb_stacks_type {
	ODB_STACKS_EVENT = 1,
	ODB_STACKS_IMAGE = 2,
	ODB_STACKS_STACK = 3,		/* version 1 only */
	ODB_STACKS_NODE = 4,		/* version 2 only */
};

#define ODB_STACKS_TYPE_MASK 0xffu
#define ODB_STACKS_MAX_IMAGES (1u << 24)	/* image numbers of nodes */
#define ODB_STACKS_NO_PARENT UINT32_MAX

struct odb_stacks_rec {
	uint32_t type;			/* enum odb_stacks_type */
	uint32_t size;			/* bytes, this header included, 8k */
};

struct odb_stack_head {
	uint32_t app;			/* image of the application */
	uint32_t nr_frames;		/* 1 .. ODB_STACKS_MAX_FRAMES */
};

struct odb_stack_frame {
	uint32_t image;			/* an image number */
	uint32_t reserved;		/* zero */
	uint64_t offset;		/* as the image's sample-file keys */
};

/* version 2: a node of the prefix tree, then nr_events uint64_t counts */
struct odb_stack_node {
	uint32_t tag;			/* ODB_STACKS_NODE | image << 8 */
	uint32_t parent;		/* node number, or ODB_STACKS_NO_PARENT */
	uint64_t offset;		/* as the image's sample-file keys */
};

_Static_assert(sizeof(struct odb_stacks_header) == 64, "stacks header");
_Static_assert(sizeof(struct odb_stack_node) == 16, "stack node");
_Static_assert(sizeof(struct odb_stack_frame) == 16, "stack frame");

/* --- reading ------------------------------------------------------------ */

/* one stored stack: counts point into the mapping, frames into the
 * mapping (version 1) or into the buffer given to odb_stacks_get() */
struct odb_stack {
	uint32_t app;
	uint32_t nr_frames;
	const uint64_t *counts;		/* nr_events of them */
	const struct odb_stack_frame *frames;	/* leaf first */
};

struct odb_stacks;

/*
 * Open the stack file (version 1 or 2) at path read-only and check every
 * committed record (sizes, strings, image and parent numbers, depths), so
 * that nothing in it can make a reader crash or loop.  Returns 0 with *sp
 * set, or an error.
 */
int odb_stacks_open(const char *path, struct odb_stacks **sp);
void odb_stacks_close(struct odb_stacks *s);

size_t odb_stacks_nr_events(const struct odb_stacks *s);
/* "NAME.COUNT.UNITMASK" of event i */
const char *odb_stacks_event(const struct odb_stacks *s, size_t i);
size_t odb_stacks_nr_images(const struct odb_stacks *s);
const char *odb_stacks_image(const struct odb_stacks *s, size_t i);
/* the stacks with samples (in version 2: nodes counting some, when opened) */
size_t odb_stacks_nr_stacks(const struct odb_stacks *s);
/*
 * Stack i (0 .. nr_stacks - 1) into *st; buf (ODB_STACKS_MAX_FRAMES of
 * them, the caller's) may receive its frames: st->frames is valid while
 * both buf and s are.  O(frames).
 */
void odb_stacks_get(const struct odb_stacks *s, size_t i, struct odb_stack *st,
		    struct odb_stack_frame *buf);
/* samples dropped at the size limit (as the header said at opening) */
uint64_t odb_stacks_dropped(const struct odb_stacks *s);

/*
 * Version 2's prefix tree itself, for a reader that follows the nodes
 * rather than copying each stack's frames (stacks share their callers'
 * nodes): the number of nodes (0 in version 1), node n (0 .. nr_nodes -
 * 1), and the node where stack i ends.  odb_stacks_node() is false for a
 * node that no longer checks out (the file rewritten in place since it
 * was opened: an image or parent out of range); *v is then a root of
 * image 0 counting nothing.
 */
struct odb_stack_tree_node {
	uint32_t image;
	uint32_t parent;		/* an earlier node, or ODB_STACKS_NO_PARENT:
					 * a root, the application */
	uint64_t offset;
	const uint64_t *counts;		/* nr_events, into the mapping */
};

size_t odb_stacks_nr_nodes(const struct odb_stacks *s);
bool odb_stacks_node(const struct odb_stacks *s, size_t n, struct odb_stack_tree_node *v);
size_t odb_stacks_stack_node(const struct odb_stacks *s, size_t i);

/* --- writing ------------------------------------------------------------ */

struct odb_stacks_writer;

/*
 * Open path for adding, creating it (through "PATH.tmp") for the events
 * (nr "NAME.COUNT.UNITMASK" strings) when it is missing or unreadable.
 * An existing file of other events gives ODB_ERR_STACKS_OTHER_EVENTS.
 * One of version 1 is converted first: rewritten as version 2 (the same
 * images, its stacks and counts, its dropped samples) through "PATH.tmp";
 * on failure it is left as it was, or converted whole.
 * limit: the largest file size (0: ODB_STACKS_DEFAULT_LIMIT).  path is
 * relative to dir and reached as op_dir_open_file() reaches files (no
 * symlink, one link; a new file given to the directory's owner when it
 * says so); dir is borrowed for the call only.
 */
struct op_dir;
int odb_stacks_writer_open(const struct op_dir *dir, const char *path,
			   const char *const *events, size_t nr, uint64_t limit,
			   struct odb_stacks_writer **wp);

/* the number of image name (added if new): 0 or an error */
int odb_stacks_writer_image(struct odb_stacks_writer *w, const char *name,
			    uint32_t *id);

/*
 * Add count samples of event to the stack (app, frames): a new stack is
 * appended, a known one counted.  ODB_ERR_STACKS_FULL when it does not fit
 * (the samples are counted as dropped), else 0 or an error.
 */
int odb_stacks_writer_add(struct odb_stacks_writer *w, uint32_t app,
			  const struct odb_stack_frame *frames, size_t nr_frames,
			  uint32_t event, uint64_t count);

/* samples dropped so far */
uint64_t odb_stacks_writer_dropped(const struct odb_stacks_writer *w);

/* trim the file to its committed records, unmap and close (NULL is
 * fine); 0 or the error of ftruncate() or close() */
int odb_stacks_writer_close(struct odb_stacks_writer *w);

#endif
