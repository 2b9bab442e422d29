/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Path and file helpers: mkdir -p, whole-file read, atomic whole-file write
 * (temp file then rename), and small stat wrappers.  All return 0 or a
 * negative errno; none prints.
 */
#ifndef OP_FILE_H
#define OP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libutil/op_error.h"

/*
 * Create directory path and any missing parents with mode (minus umask).
 * An existing directory is fine; an existing non-directory is -ENOTDIR.
 */
int op_mkdir_p(const char *path, mode_t mode);

/*
 * Create the parent directories of file path (everything before the last
 * '/') with mode.  A path without '/' needs none and returns 0.
 */
int op_mkdir_parents(const char *path, mode_t mode);

/*
 * Read a whole regular file into a NUL-terminated buffer that the caller
 * frees with free().  *len gets the size without the NUL.  A file larger
 * than max_size bytes is -EFBIG; a directory -EISDIR; a FIFO, device or
 * socket -EINVAL, without waiting on it (opened non-blocking).
 */
int op_read_file(const char *path, size_t max_size, char **data, size_t *len);

/*
 * op_read_file() of name in the directory open as dirfd, into *buf of
 * *cap bytes, which is grown as needed and kept for the next call (start
 * with NULL and 0; the caller frees it, also after a failure): for many
 * files read one after the other, with one buffer.
 */
int op_read_file_at(int dirfd, const char *name, size_t max_size, char **buf, size_t *cap,
		    size_t *len);

/*
 * op_read_file() of a file that must be itself, not a symlink (-ELOOP):
 * a session's files, which the report tools never follow elsewhere
 */
int op_read_plain_file(const char *path, size_t max_size, char **data, size_t *len);

/* true if path is a regular file itself (lstat(): a symlink is not) */
bool op_is_plain_file(const char *path);

/*
 * op_read_file() of a file another user may have planted: not through a
 * symlink (-ELOOP), only a regular file (-EINVAL), owned by this process's
 * effective user or root (-EPERM), as perf reads /tmp/perf-PID.map.
 */
int op_read_owned_file(const char *path, size_t max_size, char **data, size_t *len);

/*
 * Write len bytes to path through "path.tmp": written, fsync()ed, closed
 * (close checked), then renamed over path, so a reader sees the old or the
 * new content, never a part.  The temp file is removed on failure.
 */
int op_write_file_atomic(const char *path, const void *data, size_t len,
			 mode_t mode);

/* write all len bytes to fd, retrying short writes and EINTR */
int op_write_all(int fd, const void *data, size_t len);

/* read up to len bytes, retrying short reads and EINTR; *got = bytes read */
int op_read_all(int fd, void *data, size_t len, size_t *got);

/* true if path exists and is a directory / a regular file */
bool op_is_dir(const char *path);
bool op_is_file(const char *path);

/* st_mtime of path, or a negative errno */
int op_file_mtime(const char *path, int64_t *mtime);

/* remove path and everything below it (rm -rf); a missing path is fine */
int op_remove_tree(const char *path);

#endif
