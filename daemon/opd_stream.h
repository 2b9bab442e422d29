/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Recorded perf_events streams (SESSION/samples/operf.data with
 * --lazy-conversion; fixtures for tests and the ingest benchmark).
 *
 * Little-endian, native x86-64 layout:
 *	struct opd_stream_header	magic "OPNGRAW\0", version 1, sizes
 *	struct opd_stream_event[nr_events]	the events as encoded
 *	struct opd_stream_id[nr_ids]	perf event id -> event index
 *	char layout[layout_len]		kernel layout text (opd_kernel)
 *	then chunks, each a struct opd_stream_chunk and its data:
 *	  OPD_CHUNK_DATA   len bytes of whole records read from cpu's buffer
 *	  OPD_CHUNK_ROUND  the end of a read round over all buffers
 *	  OPD_CHUNK_END    the end of the recording
 * Replaying feeds the chunks to the engine exactly as they were read
 * live, rounds included, so the result does not depend on timing.  A
 * stream cut short (operf killed) replays up to its last whole chunk.
 * The writer puts the header on disk at once and what it buffered at the
 * first round 250 ms after the last write, so a killed recording loses
 * about the last quarter second.
 */
#ifndef OPD_STREAM_H
#define OPD_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/opd_engine.h"
#include "events/opev.h"
#include "libutil/op_error.h"

#define OPD_STREAM_MAGIC "OPNGRAW"
#define OPD_STREAM_VERSION 1

struct opd_stream_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;		/* sizeof(struct opd_stream_header) */
	uint64_t sample_type;
	uint32_t nr_cpus;
	uint32_t nr_events;
	uint32_t nr_ids;
	uint32_t layout_len;
	uint32_t event_size;		/* sizeof(struct opd_stream_event) */
	uint32_t reserved[7];
};

struct opd_stream_event {
	char name[64];
	char desc[256];
	uint64_t attr_config, attr_config1, attr_config2, period;
	uint32_t kind, attr_type, exclude_kernel, exclude_user;
	uint32_t op_cpu_type, op_event, op_unit_mask, reserved;
};

struct opd_stream_id {
	uint64_t id;
	uint32_t event;
	uint32_t reserved;
};

enum opd_chunk_type {
	OPD_CHUNK_DATA = 1,
	OPD_CHUNK_ROUND = 2,
	OPD_CHUNK_END = 3,
};

struct opd_stream_chunk {
	uint32_t type;
	uint32_t cpu;
	uint64_t len;			/* data bytes after this header */
};

_Static_assert(sizeof(struct opd_stream_header) == 72, "stream header layout");
_Static_assert(sizeof(struct opd_stream_event) == 384, "stream event layout");
_Static_assert(sizeof(struct opd_stream_chunk) == 16, "stream chunk layout");

/* what a stream describes, besides its chunks */
struct opd_stream_info {
	uint64_t sample_type;
	uint32_t nr_cpus;
	const struct opev_event *events;
	size_t nr_events;
	const struct opd_stream_id *ids;
	size_t nr_ids;
	const char *layout;		/* kernel layout text, may be "" */
};

struct opd_stream_writer;

/*
 * Write the header to fd, which the writer takes over (closed by
 * opd_stream_close_writer(), also on failure); 0 or a negative errno
 */
int opd_stream_create_fd(int fd, const struct opd_stream_info *info,
			 struct opd_stream_writer **wp);
/* opd_stream_create_fd() of path, created or truncated */
int opd_stream_create(const char *path, const struct opd_stream_info *info,
		      struct opd_stream_writer **w);
int opd_stream_write(struct opd_stream_writer *w, uint32_t cpu,
		     const void *data, size_t len);
/* a round's end; flushes the buffer when 250 ms have passed since the last */
int opd_stream_round(struct opd_stream_writer *w);
/* write the end marker, flush and close (close checked); NULL is fine */
int opd_stream_close_writer(struct opd_stream_writer *w);

struct opd_stream_reader;

/*
 * Open and check a recorded stream.  The events, ids and layout are then
 * available through opd_stream_reader_info() (borrowed until close).
 */
int opd_stream_open(const char *path, struct opd_stream_reader **r,
		    struct op_err *err);
/* opd_stream_open() of fd, which is closed (also on failure) */
int opd_stream_open_fd(int fd, struct opd_stream_reader **r, struct op_err *err);
const struct opd_stream_info *opd_stream_reader_info(const struct opd_stream_reader *r);

/*
 * The chunks in order: each call gives the next chunk's type, cpu and
 * data (borrowed from the mapping).  Returns 1 for a chunk, 0 at the end
 * marker, OPD_STREAM_TRUNCATED - 2 (-1) at an end without marker, or
 * -EINVAL for a malformed chunk (message in err).
 */
struct opd_stream_chunk_view {
	uint32_t type;
	uint32_t cpu;
	const void *data;
	size_t len;
};
int opd_stream_next_chunk(struct opd_stream_reader *r,
			  struct opd_stream_chunk_view *c, struct op_err *err);
/* start again at the first chunk */
void opd_stream_rewind(struct opd_stream_reader *r);

/*
 * Feed every chunk to e (its ids first); the caller then finishes e with
 * opd_engine_finish() before closing r: the engine borrows the records
 * from r's mapping.  Returns 0, or
 * OPD_STREAM_TRUNCATED when the stream ended without its end marker (all
 * whole chunks were still replayed), or -EINVAL for a malformed chunk.
 */
#define OPD_STREAM_TRUNCATED 1
int opd_stream_replay(struct opd_stream_reader *r, struct opd_engine *e,
		      struct op_err *err);
void opd_stream_close(struct opd_stream_reader *r);

#endif
