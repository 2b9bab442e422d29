/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sampling engine: perf_events records in, OProfile sample files out.
 *
 * Callers feed the raw records of each CPU's ring buffer (or of a recorded
 * stream) with opd_engine_queue(), end each read round over all buffers
 * with opd_engine_round(), and call opd_engine_finish() at the end.  The
 * engine orders records by time (opd_order), follows processes and their
 * mappings (opd_proc), turns each sample into a transient (app, image,
 * offset, event, tgid, tid, cpu) and adds it to its sample file
 * (opd_sfile); with call graphs, each caller/callee pair of the callchain
 * becomes an arc in a {cg} file.  It never resolves symbols.
 *
 * The engine prints nothing; failures are counted in its statistics and
 * the first sample-file error is kept for the caller to report.
 */
#ifndef OPD_ENGINE_H
#define OPD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/opd_stats.h"
#include "events/opev.h"
#include "libutil/op_dir.h"

struct opd_engine_config {
	const struct op_dir *samples;	/* SESSION/samples/current (op_dir.h) */
	const struct opev_event *events;	/* the events, by index */
	size_t nr_events;
	uint64_t sample_type;		/* as opened (OPD_SAMPLE_TYPE [+ CALLCHAIN]) */
	bool separate_thread;		/* --separate-thread: tgid and tid in names */
	bool separate_cpu;		/* --separate-cpu: cpu in names */
	bool callgraph;			/* record {cg} arcs from callchains */
	uint64_t slice_ns;		/* time slices of this length (the
					 * slices file, opd_slices.h); 0: none */
	uint32_t nr_cpus;		/* queues: records of cpu >= this share queue 0 */
	double cpu_speed;		/* MHz for headers, 0 if unknown */
	const char *kernel_layout;	/* opd_kernel_layout() text, or NULL */
	const char *vmlinux;		/* --vmlinux, or NULL */
	unsigned max_open_files;	/* sample files kept open at once */
	const char *const *images;	/* --image: only samples of these
					 * binaries (as app or image); NULL: all */
	size_t nr_images;
	/*
	 * Live records: the paths of MMAP2 records of processes in other
	 * mount namespaces are made paths here as they are queued
	 * (opd_ns.h).  NULL for records replayed from a stream, which were
	 * fixed when they were recorded.  Borrowed; must outlive the engine.
	 */
	struct opd_ns *ns;
};

struct opd_engine;

/* a new engine; the config and its strings must outlive it */
struct opd_engine *opd_engine_new(const struct opd_engine_config *cfg);

/* Tell the engine that perf event id counts event number event_idx. */
void opd_engine_add_id(struct opd_engine *e, uint64_t id, uint32_t event_idx);

/*
 * Queue len bytes of whole records read from cpu's buffer (or stream).
 * Returns 0, or -EINVAL when the bytes do not split into records (the
 * rest of the buffer is dropped and counted as lost).
 */
int opd_engine_queue(struct opd_engine *e, uint32_t cpu, const void *data,
		     size_t len);

/*
 * The same without copying the records: data must stay valid and
 * unchanged until opd_engine_finish() (a mapped stream file).
 */
int opd_engine_queue_borrowed(struct opd_engine *e, uint32_t cpu,
			      const void *data, size_t len);

/* End of a read round over all buffers: process what is safe. */
void opd_engine_round(struct opd_engine *e);

/*
 * Process everything queued, then close all sample files.  Returns 0 or
 * the first error closing them.
 */
int opd_engine_finish(struct opd_engine *e);

/*
 * Process every record queued so far, without waiting for later records
 * of other cpus (a running daemon's --dump: what was read is in the
 * sample files when this returns, where readers see it).
 */
void opd_engine_flush(struct opd_engine *e);

/*
 * Close every sample file, after opd_engine_flush(), so that their
 * directory can be emptied or moved away; the next samples create their
 * files anew beneath cfg->samples, which the caller may have pointed at
 * a new directory (the op_dir is borrowed: its fd may change).  With
 * reset the statistics, throttle flags and first error start again from
 * zero.  Processes, mappings and names are kept.  Returns the first close
 * error.
 */
int opd_engine_close_files(struct opd_engine *e, bool reset);

/*
 * Start writing back the sample files added to since the last call, so
 * that a crash of the machine loses at most what came after; after a
 * full disk, new sample files are tried again.
 */
void opd_engine_sync(struct opd_engine *e);

/* sample files open now */
unsigned opd_engine_nr_open(const struct opd_engine *e);

/* Statistics so far; valid until opd_engine_free(). */
const struct opd_stats *opd_engine_stats(const struct opd_engine *e);

/*
 * The names of the run's processes and threads, as the session's comms
 * file holds them (opd_comm.h), appended to sb.
 */
struct op_strbuf;
void opd_engine_comms_text(const struct opd_engine *e, struct op_strbuf *sb);

/*
 * "BUILDID PATH" lines (PATH escaped as in comms) of the binaries the run
 * mapped, read from them now, appended to sb: the session's buildids file
 */
void opd_engine_buildids_text(const struct opd_engine *e, struct op_strbuf *sb);

/*
 * "HASH PATH" lines of the images whose paths are too long for sample-file
 * names (written as /#long/HASH/...), appended to sb: the session's
 * longnames file (libdb/odb_longnames.h), by which the reports find them
 */
void opd_engine_longnames_text(const struct opd_engine *e, struct op_strbuf *sb);

/*
 * The jitdump files the run's processes mapped (opd_jit.h), for
 * converting at the end (which notes in them what it did); valid until
 * opd_engine_free().
 */
struct opd_jit_dumps *opd_engine_jitdumps(struct opd_engine *e);

/* Was event event_idx throttled by the kernel? */
bool opd_engine_throttled(const struct opd_engine *e, uint32_t event_idx);

/*
 * The first sample-file failure (0 if none), with the file's path in
 * *path (borrowed).
 */
int opd_engine_first_error(const struct opd_engine *e, const char **path);

/*
 * Why time slices were lost (0 if they were not) and the samples dropped
 * at the slice file's size limit
 */
int opd_engine_slices_error(const struct opd_engine *e, uint64_t *dropped);

/* number of sample files the engine has used */
size_t opd_engine_nr_files(const struct opd_engine *e);

void opd_engine_free(struct opd_engine *e);

#endif
