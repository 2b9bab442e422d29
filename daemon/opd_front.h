/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both front ends of the engine, operf and oprofiled, do around it:
 * the kernel's layout and symbol copies before profiling, the engine's
 * configuration, and the session's files beside the samples (stats/,
 * abi, JIT maps, comms, build-ids, long names, session.info) whenever
 * the samples are to be read: at the end of an operf run, at each
 * opcontrol --dump.
 *
 * A profile added to (operf --append, a daemon restarted after a crash)
 * keeps what the earlier writers recorded: their statistics and names
 * are loaded once (opd_front_load_prior()) and merged into every write.
 *
 * These are tool-level helpers: warnings go to stderr (the daemon's log).
 */
#ifndef OPD_FRONT_H
#define OPD_FRONT_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/opd_engine.h"
#include "daemon/opd_session.h"
#include "daemon/operf_events.h"
#include "daemon/perf_events.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_stats.h"
#include "libutil/op_strbuf.h"

/* what earlier writers of current/ left: merged into what we write */
struct opd_front_prior {
	struct odb_stats stats;
	char *texts[3];		/* comms, buildids, longnames; NULL if none */
};

/*
 * What the last opd_front_write_files() wrote (hashes), so that a daemon
 * writing every few seconds skips the files that did not change; zeroed
 * for a new current/
 */
struct opd_front_written {
	uint64_t stats;
	uint64_t texts[3];
};

/* sample files a front end may keep open, with perf_fds fds in use */
unsigned opd_front_max_open_files(size_t perf_fds);

/*
 * Store the kernel's symbols, modules and vdso in current/kernel and put
 * the kernel's layout (opd_kernel_layout()) into layout; kallsyms may be
 * unreadable or hide addresses: kernel samples then go to no-vmlinux.
 */
void opd_front_load_kernel(const struct opd_session *s, const char *vmlinux,
			   struct op_strbuf *layout);

/* the same copies, into a new current/ (the layout is unchanged) */
void opd_front_store_kernel(const struct opd_session *s);

/*
 * The engine's configuration for a live run (everything but images and
 * the callgraph and separation flags, which the caller sets)
 */
void opd_front_config(struct opd_engine_config *cfg, const struct opd_session *s,
		      const struct operf_events *evs, const struct opd_perf *perf,
		      const struct op_strbuf *layout, const char *vmlinux);

/* a new engine for cfg, told the perf ids of perf */
struct opd_engine *opd_front_engine(const struct opd_engine_config *cfg,
				    const struct opd_perf *perf);

/*
 * Load what current/ already holds (its stats/, comms, build-ids, long
 * names) into prior, cleared first; nothing when current/ is new.
 */
void opd_front_load_prior(const struct opd_session *s, struct opd_front_prior *prior);
void opd_front_prior_release(struct opd_front_prior *prior);

/*
 * Write current/stats/, comms, build-ids and long names from the engine
 * (after its records are processed), merged with prior (NULL: none),
 * each unless last (NULL: none) says the same was written already; with
 * all, also SESSION/abi and the JIT maps (which walk the sample tree).
 * A warning names each file not written.
 */
void opd_front_write_files(const struct opd_session *s, struct opd_engine *e,
			   const struct operf_events *evs,
			   const struct opd_front_prior *prior,
			   struct opd_front_written *last, bool all);

/*
 * The event lines, fallback and kernel exclusion of a session.info, from
 * the events chosen and the perf events opened
 */
void opd_front_info_events(const struct operf_events *evs, const struct opd_perf *perf,
			   struct odb_session_info *info);

/*
 * -V LEVELS of operf and oprofiled (debug, perf_events, misc, sfile,
 * arcs, all): any turns on debug output, debug and all the most.  0, or
 * -1 after a usage error naming the bad level.
 */
int opd_front_parse_verbose(const char *list);

/*
 * --vmlinux names a readable ELF file (operf, opcontrol)?  0, or -1
 * after a usage error saying why not.
 */
int opd_front_check_vmlinux(const char *path);

#endif
