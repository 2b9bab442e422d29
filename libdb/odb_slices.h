/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The time-slice file (oprofile-ng-formats(5), TIME SLICE FILE): the
 * samples of each sample file again, cut into slices of time (1 s by
 * default), so that a report can take seconds 4 to 5 of a run alone.  It
 * lives beside the sample trees (samples/current/slices), where OProfile
 * 1.4's tools never look.
 *
 * Layout (native byte order, every record 8-byte aligned):
 *
 *	struct odb_slices_header	64 bytes: magic "OPSLICE\n", version,
 *					flags, committed length, start of
 *					the session (wall clock), size
 *					limit, samples dropped
 *	records				committed bytes of them
 *
 * A record is a struct odb_slices_rec (type, size with the header, a
 * multiple of 8) followed by:
 *  - FILE: the path of a sample file relative to samples/NAME, as its
 *    sample-file name spells it ("{root}/usr/bin/xz/{dep}/.../CPU_CLK...
 *    .0.0.all.all.all"), NUL-terminated.  The n-th FILE record is file n.
 *  - SLICE: struct odb_slice_head (start and length in ns from the
 *    session's start, number of entries), then the entries packed as
 *    unsigned LEB128 numbers, three per entry: the file number minus the
 *    previous entry's (0 for the first entry: its file itself), the key
 *    (when the file changed: the key itself, else the key minus the
 *    previous key, at least 1), and the count (at least 1).  Entries are
 *    in (file, key) order and name only files recorded before the slice.
 *    Two SLICE records may cover the same time (a slice written in parts,
 *    or two runs appended to one session): readers add them up.
 *
 * Crash safety and concurrent readers: records are appended past the
 * committed length and only then the length is stored; a writer killed
 * at any point leaves the committed records whole, and the next writer
 * cuts what lies past them.  A new file is built as "slices.tmp" and
 * renamed into place.  Bounded: a slice that would take the file past its
 * size limit is not stored; its samples are counted as dropped.
 *
 * Nothing here prints or exits; errors are negative errno values or
 * ODB_ERR_* (odb_strerror()).
 */
#ifndef ODB_SLICES_H
#define ODB_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb.h"
#include "libutil/op_error.h"

#define ODB_SLICES_MAGIC "OPSLICE\n"
#define ODB_SLICES_VERSION 1u
#define ODB_SLICES_NAME "slices"		/* in samples/current */
#define ODB_SLICES_DEFAULT_LIMIT (256ull << 20)
#define ODB_SLICES_MIN_LIMIT 4096ull
#define ODB_SLICES_DEFAULT_NS 1000000000ull	/* a slice: 1 s */
#define ODB_SLICES_MIN_NS 1000000ull		/* 1 ms */
#define ODB_SLICES_MAX_NS 3600000000000ull	/* 1 h */
#define ODB_SLICES_MAX_FILES (1u << 24)

struct odb_slices_header {
	unsigned char magic[8];		/* ODB_SLICES_MAGIC, no NUL */
	uint32_t version;		/* ODB_SLICES_VERSION */
	uint32_t flags;			/* enum odb_slices_flags */
	uint64_t committed;		/* bytes of whole records after this */
	uint64_t start_ns;		/* wall clock (CLOCK_REALTIME) at the
					 * session's start, ns since the epoch */
	uint64_t limit;			/* the writer keeps the file below */
	uint64_t dropped;		/* samples of slices that did not fit */
	uint64_t reserved[2];		/* zero */
};

enum odb_slices_flags {
	/* the samples directory had sample files when the file was made
	 * (operf --append onto a session recorded without slices): those
	 * samples are in no slice */
	ODB_SLICES_PARTIAL = 1 << 0,
};

enum odb_slices_type {
	ODB_SLICES_FILE = 1,
	ODB_SLICES_SLICE = 2,
};

struct odb_slices_rec {
	uint32_t type;			/* enum odb_slices_type */
	uint32_t size;			/* bytes, this header included, 8k */
};

struct odb_slice_head {
	uint64_t start_ns;		/* from the session's start */
	uint64_t length_ns;		/* ODB_SLICES_MIN_NS .. MAX_NS */
	uint32_t nr_entries;		/* at least 1 */
	uint32_t reserved;		/* zero */
};

_Static_assert(sizeof(struct odb_slices_header) == 64, "slices header");
_Static_assert(sizeof(struct odb_slice_head) == 24, "slice head");

/* one entry of a slice: count samples at key of file */
struct odb_slice_entry {
	uint32_t file;
	uint64_t key;
	uint64_t count;
};

/*
 * Parse a slice length for --slice: seconds as a decimal number ("1",
 * "0.25"), or with a unit "ms" or "s" ("100ms"); "0" turns slices off.
 * Between ODB_SLICES_MIN_NS and ODB_SLICES_MAX_NS.  0 with *ns set, or
 * -EINVAL with the reason in err.
 */
int odb_slices_parse_length(const char *text, uint64_t *ns, struct op_err *err);

/* --- reading ------------------------------------------------------------ */

struct odb_slices;

/*
 * Read the committed records of the slice file name in dirfd (AT_FDCWD:
 * a path), not following a symbolic link, into memory and check every one
 * (sizes, strings, file numbers, the packed entries and their order), so
 * that nothing in it can make a reader crash or loop.  0 with *sp set,
 * or an error.
 */
int odb_slices_open(int dirfd, const char *name, struct odb_slices **sp);
/* the same over a copy of a file's bytes (for the fuzzer) */
int odb_slices_open_mem(const void *data, size_t len, struct odb_slices **sp);
void odb_slices_close(struct odb_slices *s);

uint64_t odb_slices_start(const struct odb_slices *s);
/* enum odb_slices_flags of the header */
uint32_t odb_slices_flags(const struct odb_slices *s);
uint64_t odb_slices_dropped(const struct odb_slices *s);
size_t odb_slices_nr_files(const struct odb_slices *s);
const char *odb_slices_file(const struct odb_slices *s, size_t i);
size_t odb_slices_nr_slices(const struct odb_slices *s);

/* slice i's entries, walked with odb_slice_next() */
struct odb_slice {
	uint64_t start_ns;
	uint64_t length_ns;
	uint32_t nr_entries;
	const unsigned char *p, *end;	/* what is left of the entries */
	uint32_t left;			/* entries left */
	struct odb_slice_entry last;	/* the entry returned last */
};

void odb_slices_get(const struct odb_slices *s, size_t i, struct odb_slice *sl);
/* the next entry of sl into *e, false after the last */
bool odb_slice_next(struct odb_slice *sl, struct odb_slice_entry *e);

/*
 * Following a slice file as it grows, cheaply: the FILE records added
 * since the last call, read from where that call stopped.  A reader
 * that lists sample files (optop) learns from it whether new ones came
 * without walking their directories.  A file begun anew (another start,
 * or shorter than before) counts from its beginning again.
 */
struct odb_slices_cursor {
	uint64_t start_ns;		/* of the file followed */
	uint64_t offset;		/* the records read so far end here */
	size_t nr_files;		/* FILE records among them */
};

/* 0 with *c brought up to the committed records, or an error (*c kept) */
int odb_slices_follow(int dirfd, const char *name, struct odb_slices_cursor *c);

/* --- writing ------------------------------------------------------------ */

struct odb_slices_writer;
struct op_dir;

/*
 * Open path (relative to dir, reached as op_dir_open_file() reaches
 * files) for adding, creating it through "PATH.tmp" with now_ns (wall
 * clock) as the session's start when it is missing; records past the
 * committed length of an existing file are cut; a new one in a
 * directory that holds sample files already ({root} or {kern}) is
 * marked ODB_SLICES_PARTIAL.  One that cannot be
 * read as a slice file (damaged, or a symbolic link, which is never
 * followed) is replaced by a new one.  limit:
 * the largest file size (0: ODB_SLICES_DEFAULT_LIMIT).
 */
int odb_slices_writer_open(const struct op_dir *dir, const char *path,
			   uint64_t now_ns, uint64_t limit,
			   struct odb_slices_writer **wp);

/* the session's start, wall clock (ns since the epoch) */
uint64_t odb_slices_writer_start(const struct odb_slices_writer *w);

/* the number of sample file name (a FILE record added if new): 0 or an
 * error */
int odb_slices_writer_file(struct odb_slices_writer *w, const char *name,
			   uint32_t *id);

/*
 * Append one slice: nr entries, in (file, key) order, distinct, counts
 * not 0.  ODB_ERR_SLICES_FULL when it does not fit under the limit (its
 * samples are counted as dropped), else 0 or an error.
 */
int odb_slices_writer_add(struct odb_slices_writer *w, uint64_t start_ns,
			  uint64_t length_ns, const struct odb_slice_entry *e,
			  size_t nr);

uint64_t odb_slices_writer_dropped(const struct odb_slices_writer *w);

/* close (NULL is fine); 0 or the error of close() */
int odb_slices_writer_close(struct odb_slices_writer *w);

#endif
