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
#include <sys/types.h>

#include "daemon/opd_stats.h"
#include "events/opev.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"

/*
 * Everything beneath SESSION is reached through the directories held
 * open here, never following a symlink (libutil/op_dir.h): another user
 * who can write in the session can make a run fail, never make it touch
 * anything outside.  When root writes into a user's session, what it
 * creates is given to that user.
 */
struct opd_session {
	char *dir;		/* SESSION, absolute (for messages) */
	char *samples;		/* SESSION/samples */
	char *current;		/* SESSION/samples/current */
	struct op_dir top;	/* SESSION, held */
	struct op_dir sdir;	/* SESSION/samples, held */
	struct op_dir cdir;	/* SESSION/samples/current, once begun */
	uid_t owner;		/* SESSION's owner */
	char *trash;		/* old previous/ waiting to be removed (in samples/) */
	int lock_fd;		/* samples/operf.lock, held while writing */
	pid_t stale_pid;	/* the pid a killed run left in the lock, or 0 */
	bool append;		/* add to current/ instead of rotating it */
	bool private;		/* the daemon's: SESSION 0700, ours, no symlink */
};

enum opd_session_flags {
	OPD_SESSION_APPEND = 1 << 0,	/* add to an existing current/ */
	OPD_SESSION_PRIVATE = 1 << 1,	/* SESSION made 0700; a symlink or
					 * another user's is refused */
};

/*
 * Check the session directory before anything is started: dir is
 * --session-dir (NULL: $PWD/oprofile_data), created with samples/ if
 * missing, and samples/ must be writable.  SESSION may be a symlink of
 * this user's or root's only; SESSION, samples/ and current/ must not be
 * writable by others without the sticky bit, and samples/ and current/
 * must belong to this user or SESSION's owner.  The session is locked
 * (opd_session_lock()).  Nothing existing is touched yet.  Returns 0 or
 * a negative errno with the reason in err.
 */
int opd_session_prepare(struct opd_session *s, const char *dir, unsigned flags,
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
 * A new, empty current/ after the old one was moved away (opcontrol
 * --save): s->cdir holds it.  0 or a negative errno (err).
 */
int opd_session_renew_current(struct opd_session *s, struct op_err *err);

/*
 * One writer per session: an flock() on samples/operf.lock, which holds
 * the writer's pid.  -EBUSY (err names the holder) while another
 * process holds it; a lock file left by a killed run is taken over, its
 * pid in s->stale_pid.
 */
int opd_session_lock(struct opd_session *s, struct op_err *err);
/* give the lock up and remove its file; safe when not held */
void opd_session_unlock(struct opd_session *s);

/*
 * current/stats/ from the engine's counters (odb_stats_write()), with
 * stats/throttled/EVENT for each events[i] whose throttled[i] is set,
 * added to prior (what current/stats/ held before this writer; NULL for
 * none).  Returns 0 or a negative errno.
 */
int opd_session_write_stats(const struct opd_session *s,
			    const struct opd_stats *stats,
			    const struct opev_event *events, size_t nr_events,
			    const bool *throttled, const struct odb_stats *prior);

/*
 * Keep room on the session's disk (samples/.operf-reserve, 1 MiB, when
 * it can be had) for what the end of a run writes, stats/ first, even
 * when the samples fill the disk; opd_session_unreserve() gives it back
 * just before.  Best effort: nothing is said when there is no room.
 */
void opd_session_reserve(struct opd_session *s);
void opd_session_unreserve(struct opd_session *s);

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
