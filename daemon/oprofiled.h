/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oprofiled, the system-wide profiling daemon: one daemon, shared by its
 * files.  oprofiled.c starts it (options, setup, daemonizing, the perf
 * events and the engine); oprofiled_loop.c runs it (reading the rings,
 * the control commands opcontrol sends, periodic syncs, cpus coming
 * online, signals) until it is told to stop.
 */
#ifndef OPROFILED_H
#define OPROFILED_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_front.h"
#include "daemon/opd_ns.h"
#include "daemon/opd_session.h"
#include "daemon/operf_events.h"
#include "daemon/perf_events.h"
#include "libdb/odb_setup.h"
#include "libutil/op_strbuf.h"

#define OPROFILED_DEFAULT_DIR "/var/lib/oprofile"
#define OPROFILED_LOG "oprofiled.log"

struct oprofiled_options {
	char *session_dir;
	int no_daemon;
	int start;
	char *verbose;
	int version;
	int help;
};

struct daemon {
	const struct oprofiled_options *o;
	struct odb_setup setup;		/* SESSION/daemonrc */
	struct operf_events evs;
	struct opd_session session;
	struct opd_perf perf;
	struct op_strbuf layout;
	struct opd_engine_config cfg;
	struct opd_engine *engine;
	struct opd_ns *ns;		/* paths of other mount namespaces made ours */
	struct opd_front_prior prior;	/* what current/ held when we began */
	struct opd_front_written written;	/* what is in current/ now */
	unsigned ring_kib;		/* per-cpu ring buffer */
	int sigfd;
	int listen_fd;			/* the control socket */
	char started[64];		/* when the daemon started, local time */
	time_t start_time;		/* the same, for the uptime */
	bool profiling;			/* the events are enabled */
	bool resynth;			/* processes to re-read at the next --start */
	bool quit;			/* SIGTERM or --shutdown */
	uint64_t nr_read;		/* bytes read from the rings */
	uint64_t nr_dumps;
	uint64_t write_errors;		/* session files not written */
	int last_error;			/* the last sample-file error logged */
	int last_slices_error;		/* the last slice-file error logged */
	uint64_t slices_dropped;	/* samples dropped from slices, logged */
	uint64_t next_sync_ms, next_files_ms, next_cpus_ms;
};

/* log one line to the daemon's log (stderr) with the time */
void oprofiled_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* read every ring into the engine and end the round */
void oprofiled_read_rings(struct daemon *d);

/*
 * What the reports read beside the samples: stats/, comms, build-ids,
 * long names, session.info (those that changed), and with all the JIT
 * maps and abi too (a dump); after the engine processed everything read.
 * Failures are logged and counted.
 */
void oprofiled_write_files(struct daemon *d, bool all);

/* the processes running now, as records for the engine */
void oprofiled_synthesize(struct daemon *d);

/* the main loop; returns the exit status once asked to stop */
int oprofiled_loop(struct daemon *d);

/* the reply to one control request (ok/error last line) into reply */
void oprofiled_command(struct daemon *d, const char *req, struct op_strbuf *reply);

/* milliseconds of CLOCK_MONOTONIC */
uint64_t oprofiled_now_ms(void);

#endif
