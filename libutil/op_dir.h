/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A directory held open, and what lies beneath it reached without ever
 * following a symbolic link or leaving it.  A profile's session
 * directory may be writable by someone else (root's operf writing into
 * a user's project): every name below it is resolved one component at
 * a time relative to the open directory (openat() with O_NOFOLLOW), so
 * a symlink planted anywhere makes the operation fail with -ELOOP
 * instead of reaching outside, and a rename of a parent meanwhile
 * cannot redirect it.
 *
 * Relative names only: an absolute name, an empty one or a ".."
 * component is -EINVAL.  All functions return 0 (or an fd) or a
 * negative errno, and print nothing.
 */
#ifndef OP_DIR_H
#define OP_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct op_dir {
	int fd;		/* the directory (O_DIRECTORY), -1 when closed */
	char *path;	/* its name, for messages; owned */
	bool give;	/* give what is created beneath to uid:gid (chown) */
	uid_t uid;
	gid_t gid;
};

#define OP_DIR_INIT { .fd = -1, .path = NULL, .give = false, .uid = 0, .gid = 0 }

/*
 * Hold the directory path as the top of a tree (it is the caller's to
 * decide whether path may be a symlink: this one follows what path
 * names).  -ENOTDIR if it is not a directory.
 */
int op_dir_open_path(struct op_dir *d, const char *path);

/*
 * Hold rel beneath parent as d, creating it (and its missing parents)
 * with mode when create is set; d inherits parent's owner to give.
 */
int op_dir_sub(struct op_dir *d, const struct op_dir *parent, const char *rel,
	       bool create, mode_t mode);

/* close d (safe on a closed one) */
void op_dir_close(struct op_dir *d);

/*
 * Open the regular file rel beneath d with open(2) flags and mode.
 * Never blocks on a FIFO (O_NONBLOCK), which is then -EINVAL like any
 * other file that is not regular; a file opened for writing must have
 * one link (-EMLINK: a hard link could lead anywhere).  A file created
 * while d->give is set is given to d->uid:d->gid.
 */
int op_dir_open_file(const struct op_dir *d, const char *rel, int flags,
		     mode_t mode);

/* create rel's parent directories beneath d (what is before its last '/') */
int op_dir_mkparents(const struct op_dir *d, const char *rel, mode_t mode);

/* rename from to to, both beneath d (the entries themselves, never a link's target) */
int op_dir_rename(const struct op_dir *d, const char *from, const char *to);

/* unlink the file or empty directory rel beneath d; a missing one is fine */
int op_dir_unlink(const struct op_dir *d, const char *rel);

/* remove rel beneath d and all below it (rm -rf); a missing one is fine */
int op_dir_remove_tree(const struct op_dir *d, const char *rel);

/* remove everything inside d, leaving d itself (empty) */
int op_dir_remove_contents(const struct op_dir *d);

/*
 * Write rel beneath d whole through "rel.tmp" renamed over it (fsync()ed
 * first), so a reader sees the old or the new content, never a part.
 */
int op_dir_write_file(const struct op_dir *d, const char *rel, const void *data,
		      size_t len, mode_t mode);

/* lstat() of rel beneath d without following a link anywhere */
int op_dir_stat(const struct op_dir *d, const char *rel, struct stat *st);

#endif
