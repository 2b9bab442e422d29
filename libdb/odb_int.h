/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libdb internals shared by its modules; no other directory includes this. */
#ifndef ODB_INT_H
#define ODB_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "libutil/op_dir.h"
#include "libdb/odb.h"
#include "libdb/odb_stacks.h"

struct odb_file {
	int fd;				/* the mapped file */
	enum odb_mode mode;
	char *path;			/* owned copy, for growing by rename */
	const struct op_dir *dir;	/* borrowed: path is beneath it, or NULL */
	unsigned char *map;		/* the whole file */
	size_t map_size;		/* bytes mapped == file size */
	struct opd_header *hdr;		/* in map */
	struct odb_descr *descr;	/* in map */
	struct odb_node *nodes;		/* in map: node slots 0 .. size-1 */
	odb_index_t *hash;		/* in map: size buckets */
	odb_index_t size;		/* node slots S of this mapping */
	odb_index_t nr_used;		/* reader: snapshot of current_size */
	struct opd_header hdr_copy;	/* reader: header at open time */
};

/* descriptor, node and hash addresses for a mapping of nr_slots */
void odb_file_point(struct odb_file *file, unsigned char *map,
		    size_t map_size, odb_index_t nr_slots);

/*
 * Create the file "path.tmp" sized for nr_slots, map it read-write and
 * leave it open in tmp (fd, map, pointers); the caller fills it and then
 * calls odb_tmp_commit().  Returns 0 or a negative errno.
 */
int odb_tmp_create(struct odb_file *tmp, const struct op_dir *dir,
		   const char *path, odb_index_t nr_slots);

/*
 * Rename "path.tmp" over path.  On failure tmp is unmapped, closed and
 * unlinked.
 */
int odb_tmp_commit(struct odb_file *tmp, const struct op_dir *dir,
		   const char *path);

#define FIXED_SIZE (sizeof(struct opd_header) + sizeof(struct odb_descr))

/*
 * Why the file open as fd cannot be a sample file (not regular, empty,
 * too big to map, shorter than header and descriptor), else 0 with its
 * size in *len.  A negative errno when fstat() fails.
 */
int odb_check_stat(int fd, size_t *len);

/*
 * The header and table size S of a file of len bytes (at least
 * FIXED_SIZE): magic, version, S a power of two from 128 to 2^31, and
 * exactly S slots after the fixed part.  0 or the odb_error.
 */
int odb_check_fixed(const struct opd_header *hdr, odb_index_t size, size_t len);

/*
 * The used-node count (current_size, node 0 included) of a table of size
 * slots: from 1 to size, and above ODB_MIN_NODES at least size / 2, as a
 * writer doubles only a full table (one killed just after growing leaves
 * exactly half).  0, ODB_ERR_BAD_USED_COUNT or ODB_ERR_OVERSIZED_TABLE.
 */
int odb_check_used(odb_index_t size, odb_index_t used);

/*
 * Do the first used nodes of the file open as fd lie in a hole of it
 * (SEEK_HOLE before their end)?  A writer stores every node it counts,
 * so such a file is crafted or damaged, and reading it would read
 * zeros, possibly gigabytes of them.  0 (also where the file system
 * cannot tell) or ODB_ERR_NODES_IN_HOLE.  Moves the file offset.
 */
int odb_check_holes(int fd, odb_index_t used);

/*
 * Read the header and descriptor of the file open as fd, len bytes long
 * (odb_check_stat()), and check them before anything else is read or
 * mapped: odb_check_fixed(), odb_check_used(), odb_check_holes().
 * Returns 0 with *hdr and *descr set, a negative errno, or the odb_error.
 */
int odb_check_head(int fd, size_t len, struct opd_header *hdr,
		   struct odb_descr *descr);

/*
 * Check the len bytes of a sample file at map (a mapping, or a copy when
 * copy is set) as odb_file_open() does: header, sizes, used count, every
 * bucket and chain.  On success file points into map, with the used-node
 * snapshot in file->nr_used.  scratch: room for S zeroed indexes (cleared
 * here), or NULL to allocate them.  Returns 0, an odb_error, -ENOMEM, or,
 * for a copy only, -EAGAIN when a chain reaches a node past the snapshot:
 * a writer may have added it since, which only a mapping can tell.
 */
int odb_check_map(struct odb_file *file, unsigned char *map, size_t len,
		  odb_index_t *scratch, bool copy);

/*
 * odb_file_open(ODB_READ) of a file already open read-only as fd, which
 * the result owns (closed on failure too).  The file has no path.
 */
int odb_file_map_fd(int fd, struct odb_file **filep);

/* unmap and close fd and map of file, keeping the struct; errors of close */
int odb_file_unmap(struct odb_file *file);

/* "dir/name", for the caller to free; NULL when out of memory */
char *odb_path_join(const char *dir, const char *name);

/* --- the stack file (odb_stacks_read.c, odb_stacks_write.c) ----------- */

/* the records of a file, in file order: offsets of the EVENT and IMAGE
 * strings; in version 1 the offsets of the STACK records (stk), in
 * version 2 those of the NODE records (node, with each one's depth in
 * frames) and the numbers of the nodes counting samples (stk) */
struct odb_stacks_scan {
	uint32_t version;
	uint64_t *ev, *img, *stk, *node;
	uint16_t *depth;
	size_t nr_ev, nr_img, nr_stk, nr_node;
	size_t a_ev, a_img, a_stk, a_node, a_depth;	/* allocated */
};

/* check the header against the file's size (magic, version, events) */
int odb_stacks_check_header(const struct odb_stacks_header *h, uint64_t file_size);

/* the slice file's header against the file's size (odb_slices_read.c) */
struct odb_slices_header;
int odb_slices_check_header(const struct odb_slices_header *h, uint64_t size);

/*
 * Check and index the records of map[sizeof header .. end) of a file of
 * version: 0, -ENOMEM or ODB_ERR_STACKS_BAD_RECORD (sc is then empty).
 */
int odb_stacks_scan(const unsigned char *map, uint64_t end, uint32_t version,
		    uint32_t nr_events, struct odb_stacks_scan *sc);
void odb_stacks_scan_release(struct odb_stacks_scan *sc);

/* append off to *v (nr, alloc in the scan): 0 or -ENOMEM */
int odb_stacks_push(uint64_t **v, size_t *nr, size_t *alloc, uint64_t off);

/* bytes of a NODE record */
static inline uint64_t odb_stacks_node_size(uint32_t nr_events)
{
	return sizeof(struct odb_stack_node) + 8ull * nr_events;
}

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
