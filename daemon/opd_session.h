/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Preparing the session directory operf writes, rotating its current/
 * into previous/, and the run's log.  The files it holds are libdb's
 * (libdb/odb_session.h draws the layout): the daemon writes stats/,
 * session.info, the kernel copies and abi through libdb.
 */
#ifndef OPD_SESSION_H
#define OPD_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "daemon/opd_stats.h"
#include "events/opev.h"
#include "libutil/op_error.h"

struct opd_session {
	char *dir;		/* SESSION, absolute */
	char *samples;		/* SESSION/samples */
	char *current;		/* SESSION/samples/current */
	char *trash;		/* old previous/ waiting to be removed, or NULL */
	bool append;		/* add to current/ instead of rotating it */
};

/*
 * Check the session directory before anything is started: dir is
 * --session-dir (NULL: $PWD/oprofile_data), created with samples/ if
 * missing, and samples/ must be writable.  Nothing existing is touched
 * yet.  Returns 0 or a negative errno with the failing path in err.
 */
int opd_session_prepare(struct opd_session *s, const char *dir, bool append,
			struct op_err *err);

/*
 * Start the run's samples, once profiling really begins: without append
 * an existing current/ becomes previous/ (the old previous/ is set aside
 * for opd_session_cleanup()); current/ is created.  So a run that fails
 * to start leaves the session as it was.  0 or a negative errno (err).
 */
int opd_session_begin(struct opd_session *s, struct op_err *err);
void opd_session_release(struct opd_session *s);

/*
 * current/stats/ from the engine's counters (odb_stats_write()), with
 * stats/throttled/EVENT for each events[i] whose throttled[i] is set.
 * Returns 0 or a negative errno.
 */
int opd_session_write_stats(const struct opd_session *s,
			    const struct opd_stats *stats,
			    const struct opev_event *events, size_t nr_events,
			    const bool *throttled);

/* append the run's statistics to samples/operf.log */
int opd_session_append_log(const struct opd_session *s, const char *started,
			   const struct opd_stats *stats, const char *extra);

/*
 * Remove the old previous/ set aside by opd_session_begin(), and any left
 * by runs that were killed before removing theirs (samples/.previous-old.*).
 */
void opd_session_cleanup(struct opd_session *s);

/* MHz of cpu 0 for sample-file headers, 0 if unknown */
double opd_cpu_speed(void);

/* "YYYY-MM-DD HH:MM:SS" local time into buf */
void opd_time_string(char *buf, size_t size);

#endif
