/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sample files ("odb"): memory-mapped hash tables of (key, count), on disk
 * exactly as OProfile 1.4 writes them (oprofile-ng-formats(5): SAMPLE FILES, KEYS, CALL-GRAPH FILES).
 *
 * Layout on x86-64 (native byte order and alignment, S node slots):
 *
 *	offset		size	what
 *	0		72	struct opd_header (magic "DAE\n", version 0x13, ...)
 *	72		32	struct odb_descr { size = S, current_size, pad }
 *	104		16 * S	struct odb_node[S] { key, value, next }
 *	104 + 16 S	4 * S	odb_index_t hash[S]: first node of each bucket
 *	104 + 20 S		end of file
 *
 *  - Node 0 is never used; index 0 means "none" in buckets and chains.
 *    Nodes 1 .. current_size - 1 are in use.
 *  - bucket(key) = (t ^ (t >> 8)) & (S - 1) with t = hi32(key) ^ lo32(key).
 *  - A new key fills node current_size and is prepended to its bucket's
 *    chain.  S starts at 128 and doubles when the nodes are full; the
 *    chains are then rebuilt by re-inserting nodes 1..n in index order.
 *  - Readers sum the values of all nodes with the same key.
 *
 * Guarantees beyond OProfile's libodb:
 *  - Counts never wrap: a count that would pass 2^32 - 1 continues in a
 *    further node with the same key.
 *  - The file at a path is always complete: a new file, and every grown
 *    table, is built as "PATH.tmp" and renamed into place.  A writer killed
 *    at any instant leaves a file that opens and iterates.
 *  - A reader may open a file while one writer adds to it: it sees the
 *    nodes published before it opened (current_size is stored with release
 *    ordering after the node is complete, and loaded with acquire), and a
 *    table being grown is a different inode, so the reader's stays whole.
 *  - Read-only opening checks every field and index against the file size
 *    and walks every chain, so no file can crash or hang a reader.
 *  - Nor make one map or read gigabytes: header and descriptor are read
 *    and checked before anything is mapped, and a file is refused whose
 *    table is more than twice its used nodes (above ODB_MIN_NODES: a
 *    writer doubles only a full table) or whose used nodes lie in a hole
 *    of a sparse file (SEEK_HOLE), so the work is bounded by the bytes
 *    really written.
 *
 * One writer per file at a time.  Nothing here prints or exits.
 */
#ifndef ODB_H
#define ODB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t odb_key_t;
typedef uint32_t odb_value_t;
typedef uint32_t odb_index_t;

#define OPD_MAGIC "DAE\n"
#define OPD_VERSION 0x13

/* struct opd_header: OProfile's sample file header, natural alignment */
struct opd_header {
	unsigned char magic[4];		/* OPD_MAGIC, not NUL-terminated */
	uint32_t version;		/* OPD_VERSION */
	uint32_t cpu_type;		/* OProfile op_cpu number (oprofile-ng-formats(5)) */
	uint32_t ctr_event;		/* numeric event code */
	uint32_t ctr_um;		/* unit mask */
	uint32_t ctr_count;		/* sample period */
	uint32_t is_kernel;		/* 1: the image is a kernel image */
	uint32_t reserved1;		/* alignment padding, zero */
	double cpu_speed;		/* MHz, 0 if unknown */
	uint64_t mtime;			/* st_mtime of the image, seconds */
	uint32_t cg_to_is_kernel;	/* {cg} files: callee is kernel */
	uint32_t reserved2;		/* alignment padding, zero */
	uint64_t anon_start;		/* anon image: mapping start address */
	uint64_t cg_to_anon_start;	/* {cg} files: the callee's */
};

struct odb_descr {
	odb_index_t size;		/* node slots S, a power of two >= 128 */
	odb_index_t current_size;	/* first free node; used = this - 1 */
	uint32_t reserved[6];		/* zero */
};

struct odb_node {
	odb_key_t key;
	odb_value_t value;		/* count for key (more nodes if > 2^32-1) */
	odb_index_t next;		/* next node in the bucket, 0 = end */
};

_Static_assert(sizeof(struct opd_header) == 72, "opd_header layout");
_Static_assert(sizeof(struct odb_descr) == 32, "odb_descr layout");
_Static_assert(sizeof(struct odb_node) == 16, "odb_node layout");

#define ODB_MIN_NODES 128u
#define ODB_MAX_NODES 0x80000000u	/* largest S an odb_index_t can count */
#define ODB_VALUE_MAX UINT32_MAX

/* bytes of a file with S node slots */
static inline uint64_t odb_layout_size(uint64_t nr_slots)
{
	return sizeof(struct opd_header) + sizeof(struct odb_descr) +
	       nr_slots * (sizeof(struct odb_node) + sizeof(odb_index_t));
}

/* the bucket of key in a table of S = mask + 1 slots */
static inline odb_index_t odb_hash(odb_key_t key, odb_index_t mask)
{
	uint32_t t = (uint32_t)(key >> 32) ^ (uint32_t)key;

	return (t ^ (t >> 8)) & mask;
}

/*
 * Errors of this library: negative errno values, or one of these, all
 * below -4096.  odb_strerror() gives the text of either kind.
 */
#define ODB_ERRORS							\
	ODB_ERROR(EMPTY, "empty file")					\
	ODB_ERROR(TRUNCATED, "file too short for a sample file header")	\
	ODB_ERROR(NOT_REGULAR, "not a regular file")			\
	ODB_ERROR(BAD_MAGIC, "bad magic number")			\
	ODB_ERROR(BAD_VERSION, "unsupported sample file version")	\
	ODB_ERROR(BAD_TABLE_SIZE,					\
		  "node table size is not a power of two from 128 to 2^31") \
	ODB_ERROR(BEYOND_EOF, "node table extends past the end of the file") \
	ODB_ERROR(TRAILING_DATA, "file is longer than its node table")	\
	ODB_ERROR(BAD_USED_COUNT, "used-node count outside the node table") \
	ODB_ERROR(BAD_BUCKET, "hash bucket points outside the used nodes") \
	ODB_ERROR(BAD_NEXT, "hash chain link points outside the used nodes") \
	ODB_ERROR(CHAIN_LOOP, "hash chain loops back on itself")		\
	ODB_ERROR(OVERSIZED_TABLE,					\
		  "node table larger than twice its used nodes (writers grow only full tables)") \
	ODB_ERROR(NODES_IN_HOLE,					\
		  "used nodes lie in a hole of the file (never written)")	\
	ODB_ERROR(TABLE_FULL, "sample file cannot grow any further")	\
	ODB_ERROR(READ_ONLY, "sample file is open read-only")		\
	ODB_ERROR(NAME_NO_SPEC,						\
		  "the last component is not EVENT.COUNT.UNITMASK.TGID.TID.CPU") \
	ODB_ERROR(NAME_BAD_FIELD, "bad number in the event specification") \
	ODB_ERROR(NAME_NO_APP, "no {root}, {kern} or {anon:...} application part") \
	ODB_ERROR(NAME_NO_DEP, "no {dep} part")				\
	ODB_ERROR(NAME_BAD_IMAGE, "malformed image part")		\
	ODB_ERROR(NAME_BAD_ANON, "malformed anonymous region (TGID.0xSTART.0xEND)") \
	ODB_ERROR(BAD_COUNTER, "not a decimal counter")			\
	ODB_ERROR(ABI_MISSING_KEY, "the abi file lacks a key needed to convert") \
	ODB_ERROR(ABI_BAD_LAYOUT,					\
		  "the abi file describes a layout that cannot be converted") \
	ODB_ERROR(HEADER_MISMATCH,					\
		  "the existing output file is of another event or image") \
	ODB_ERROR(STACKS_TRUNCATED,					\
		  "stack file shorter than its header or its committed records") \
	ODB_ERROR(STACKS_BAD_RECORD, "malformed record in the stack file") \
	ODB_ERROR(STACKS_FULL, "stack file at its size limit")		\
	ODB_ERROR(STACKS_OTHER_EVENTS,					\
		  "the existing stack file records other events")	\
	ODB_ERROR(STACKS_OLD_VERSION,					\
		  "the stack file is of version 1 (converted before adding)") \
	ODB_ERROR(SLICES_TRUNCATED,					\
		  "slice file shorter than its header or its committed records") \
	ODB_ERROR(SLICES_BAD_MAGIC, "not a slice file (bad magic)")	\
	ODB_ERROR(SLICES_BAD_VERSION, "unsupported slice file version")	\
	ODB_ERROR(SLICES_BAD_RECORD, "malformed record in the slice file") \
	ODB_ERROR(SLICES_FULL, "slice file at its size limit")

enum odb_error {
	ODB_ERR_BASE = -5000,
#define ODB_ERROR(name, text) ODB_ERR_##name,
	ODB_ERRORS
#undef ODB_ERROR
	ODB_ERR_END
};

/* text for an odb_error or a negative errno; never NULL */
const char *odb_strerror(int err);

enum odb_mode {
	ODB_READ,		/* read-only snapshot */
	ODB_WRITE,		/* create if missing, else open to add to it */
};

struct odb_file;

/*
 * Open the sample file at path.
 *
 * ODB_READ: check header and descriptor (magic, version, sizes, used
 * count against the table and the file's holes), then map the file
 * read-only and check every bucket and chain.  The header and the
 * used-node count are taken once, here: later additions by a writer are
 * not seen.
 *
 * ODB_WRITE: create path if it does not exist (built as "path.tmp", then
 * renamed), else check it as ODB_READ does and open it for adding.  The
 * parent directory must exist.  When hdr is non-NULL it becomes the file's
 * header (magic and version are filled in), on creation and on reopening
 * alike; with hdr NULL a new file gets a zero header.
 *
 * On success *filep is the open file, which the caller closes with
 * odb_file_close().  Returns 0, a negative errno or an odb_error.
 */
int odb_file_open(const char *path, enum odb_mode mode,
		  const struct opd_header *hdr, struct odb_file **filep);

/*
 * odb_file_open() of path relative to dir, reached without following a
 * symlink anywhere and never through a hard link when writing (op_dir.h:
 * -ELOOP, -EMLINK); the file and its growth's temporary are created
 * beneath dir, given to its owner when dir says so.  dir is borrowed
 * until odb_file_close().
 */
struct op_dir;
int odb_file_open_at(const struct op_dir *dir, const char *path, enum odb_mode mode,
		     const struct opd_header *hdr, struct odb_file **filep);

/*
 * Add count to key: new keys get a node, existing keys are added to, and
 * counts past ODB_VALUE_MAX spill into further nodes of the same key.
 * Returns 0, -ENOMEM, -ENOSPC or another errno from growing the file,
 * ODB_ERR_TABLE_FULL, or ODB_ERR_READ_ONLY.  On failure the file is left
 * valid, with the part of count that was added (none, unless a spill
 * failed).
 */
int odb_file_add(struct odb_file *file, odb_key_t key, uint64_t count);

/*
 * The used nodes: nodes[0 .. *nr - 1] are file nodes 1 .. current_size - 1.
 * For a reader, the snapshot taken at open; for a writer, the nodes now.
 * Borrowed, valid until the next odb_file_add() or odb_file_close().
 * Sum the values of equal keys.
 */
const struct odb_node *odb_file_nodes(const struct odb_file *file, size_t *nr);

/*
 * Iterate over the used nodes:
 *	struct odb_iter it = odb_iter_init(file);
 *	while (odb_iter_next(&it, &key, &value)) ...
 */
struct odb_iter {
	const struct odb_node *nodes;
	size_t nr;
	size_t idx;
};

struct odb_iter odb_iter_init(const struct odb_file *file);
bool odb_iter_next(struct odb_iter *it, odb_key_t *key, odb_value_t *value);

/* Total of all values, as a 64-bit number. */
uint64_t odb_file_total(const struct odb_file *file);

/*
 * The header: for a reader, the copy taken at open; for a writer, the one
 * in the file.  Borrowed, valid until odb_file_close().
 */
const struct opd_header *odb_file_header(const struct odb_file *file);

/* Rewrite the header of a file open for writing (magic, version kept). */
int odb_file_set_header(struct odb_file *file, const struct opd_header *hdr);

/* Node slots S of the table. */
size_t odb_file_nr_slots(const struct odb_file *file);

/*
 * Write dirty pages back: with wait, msync(MS_SYNC) then fsync(), else
 * start their writeback without waiting (sync_file_range()).  Not needed for a killed writer's data to
 * survive (the page cache keeps it); only for a crash of the machine.
 */
int odb_file_sync(struct odb_file *file, bool wait);

/*
 * Unmap and close; NULL is fine.  Returns 0 or the first error of
 * munmap()/close() for a file open for writing.
 */
int odb_file_close(struct odb_file *file);

/* A zeroed header with magic and version set. */
void opd_header_init(struct opd_header *hdr);

/*
 * Reading many sample files one after another (a report reads thousands):
 * each file is opened, checked exactly as odb_file_open(ODB_READ) checks
 * it, with the same errors, and copied with pread() into a buffer the
 * reader keeps, so no mapping is made and unmade per file.  A file too big
 * to copy cheaply, or one whose chains reach past the used nodes (a writer
 * adding to it as it was read), is mapped through odb_file_open() instead.
 *
 *	struct odb_reader r = ODB_READER_INIT;
 *	struct odb_snapshot s;
 *	while (...)
 *		if (!odb_reader_read(&r, dirfd, name, &s))
 *			use s.nodes[0 .. s.nr - 1];
 *	odb_reader_release(&r);
 */
struct odb_reader {
	unsigned char *buf;		/* the last file copied */
	size_t buf_size;		/* bytes allocated */
	odb_index_t *stamp;		/* chain-walk scratch */
	size_t nr_stamp;		/* entries allocated */
	struct odb_file *mapped;	/* the last file mapped, or NULL */
};

#define ODB_READER_INIT { NULL, 0, NULL, 0, NULL }

/* files above this size are mapped, not copied */
#define ODB_READER_COPY_MAX (8u << 20)

/* one file as the reader read it */
struct odb_snapshot {
	const struct opd_header *hdr;	/* its header */
	const struct odb_node *nodes;	/* the used nodes (file nodes 1 ..) */
	size_t nr;			/* how many; sum the values of equal keys */
};

/*
 * Read the sample file path, relative to the directory dirfd (AT_FDCWD:
 * the current directory; an absolute path ignores dirfd).  On success
 * *snap points into the reader, valid until its next read or release.
 * Returns 0, a negative errno or an odb_error (as odb_file_open()).
 */
int odb_reader_read(struct odb_reader *r, int dirfd, const char *path,
		    struct odb_snapshot *snap);

/* free the reader's buffers and close its mapping; r stays reusable */
void odb_reader_release(struct odb_reader *r);

/*
 * Read the header of the sample file path (relative to dirfd, as above)
 * without mapping it, checked as odb_file_open() checks it: a regular
 * file (a FIFO is refused without blocking), not empty, long enough for
 * header and descriptor, magic, version, a table size that is a power of
 * two from 128 to 2^31, a file size that is exactly that table's, and a
 * used-node count that fits the table, fills at least half of it (above
 * 128 slots) and does not reach into a hole of the file.
 * The hash chains are not walked (reading the file does that).  Returns
 * 0 with *hdr set, a negative errno, or one of the odb_errors EMPTY,
 * TRUNCATED, NOT_REGULAR, BAD_MAGIC, BAD_VERSION, BAD_TABLE_SIZE,
 * BEYOND_EOF, TRAILING_DATA, BAD_USED_COUNT, OVERSIZED_TABLE,
 * NODES_IN_HOLE.
 */
int odb_header_read(int dirfd, const char *path, struct opd_header *hdr);

#endif
