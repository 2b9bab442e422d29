/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One operf run, shared by operf's files: operf.c sets it up and
 * profiles, operf_finish.c writes the session's files at the end and
 * operf_convert.c converts a recording a killed --lazy-conversion run
 * left (operf --convert).
 */
#ifndef OPERF_RUN_H
#define OPERF_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_front.h"
#include "daemon/opd_ns.h"
#include "daemon/opd_session.h"
#include "daemon/opd_stream.h"
#include "daemon/operf_events.h"
#include "daemon/operf_target.h"
#include "daemon/perf_events.h"
#include "libutil/op_strbuf.h"

struct operf_options {
	char *events;
	int callgraph;
	int separate_thread;
	int separate_cpu;
	char *session_dir;
	int append;
	char *vmlinux;
	int lazy;
	char *verbose;
	int version;
	int help;
	int system_wide;
	int pid;
	int convert;
	char *slice;		/* --slice, checked by check_usage() */
};

/* the slice length of --slice (checked before), 1 s when not given */
uint64_t operf_slice_ns(const struct operf_options *o);

/* everything one run needs, set up step by step by main() */
struct run {
	const struct operf_options *o;
	char **argv;			/* the command, or NULL */
	struct operf_events evs;
	struct opd_session session;
	struct opd_target target;
	struct operf_target child;
	struct opd_perf perf;
	struct op_strbuf layout;
	struct opd_engine_config cfg;
	struct opd_front_prior prior;	/* --append: what current/ held */
	struct opd_engine *engine;	/* live conversion */
	/*
	 * Paths of other mount namespaces made ours: by the engine as it
	 * queues records (live), or before the recording is written (lazy);
	 * NULL for operf --convert, whose records were fixed when recorded
	 */
	struct opd_ns *ns;
	struct op_strbuf ns_buf;	/* a read with fixed paths, to record */
	struct opd_stream_writer *stream;	/* lazy conversion */
	struct opd_stream_reader *reader;	/* its replay, mapped until finished */
	char *stream_path;		/* SESSION/samples/operf.data, for messages */
	char started[64];
	int sigfd;
	int child_status;
	bool child_exited;
	bool stop_asked;		/* operf got SIGINT/SIGTERM/SIGHUP */
	uint64_t nr_read;		/* bytes read from the rings */
	bool converting;		/* operf --convert: session.info is the run's */
};

/*
 * Prepare and lock the session directory (opd_session_prepare()),
 * printing why not; a notice when a killed run's lock is taken over.
 * 0 or 1.
 */
int operf_open_session(struct run *r, bool append);

/* the recording of a --lazy-conversion run, in SESSION/samples */
#define OPERF_DATA "operf.data"

/*
 * Replay the recording into a new engine (r->engine); with
 * r->converting, the engine's events, sample type, cpus and kernel
 * layout come from the recording's header.  0, or 1 after an error
 */
int operf_replay(struct run *r);

/*
 * session.info: what this run was, for the report tools and for
 * operf --convert (a lazy run writes it when it starts)
 */
void operf_write_info(struct run *r);

/*
 * The end of a run: a lazy run's recording replayed, the sample files
 * closed, then stats/, abi, the JIT maps, comms, build-ids, session.info
 * and the log written, and the summary printed.  Returns 0 or 1.
 */
int operf_finish(struct run *r);

/*
 * operf --convert: replay SESSION/samples/operf.data, left by a
 * --lazy-conversion run that was killed, into current/ with the options
 * its session.info records, then finish as the run would have.  Returns
 * the exit status.
 */
int operf_convert(struct run *r);

#endif
