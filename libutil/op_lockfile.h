/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An exclusive lock held through a file that records the holder's pid
 * (the daemon's /var/lib/oprofile/lock).  The lock is an flock() on the
 * open file, so it dies with its holder: a lock file left by a killed
 * process is simply taken over, never "stale".
 */
#ifndef OP_LOCKFILE_H
#define OP_LOCKFILE_H

#include <sys/types.h>

struct op_lockfile {
	int fd;			/* open lock file, -1 when not held */
	char *path;		/* owned copy of the path */
};

#define OP_LOCKFILE_INIT { .fd = -1, .path = NULL }

/*
 * Create path if needed, lock it and write our pid into it.  Returns 0,
 * -EBUSY if another live process holds it (its pid in *holder when holder
 * is non-NULL, 0 if unknown), or another negative errno.
 */
int op_lockfile_acquire(struct op_lockfile *lock, const char *path,
			pid_t *holder);

/* unlink and unlock; safe on a lock not held */
void op_lockfile_release(struct op_lockfile *lock);

/*
 * Pid recorded in the lock file at path if a live process holds the lock,
 * 0 if nobody holds it, or a negative errno.
 */
int op_lockfile_holder(const char *path, pid_t *holder);

#endif
