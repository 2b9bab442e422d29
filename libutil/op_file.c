// SPDX-License-Identifier: GPL-2.0-or-later
/* File and directory helpers (see op_file.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

static int mkdir_one(const char *path, mode_t mode)
{
	struct stat st;

	if (mkdir(path, mode) == 0)
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int op_mkdir_p(const char *path, mode_t mode)
{
	char *copy, *p;
	int ret = 0;

	if (!*path)
		return -ENOENT;
	copy = op_strdup(path);
	if (!copy)
		return -ENOMEM;
	/* walk the components from the top, making each that is missing */
	for (p = copy + 1; *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		ret = mkdir_one(copy, mode);
		*p = '/';
		if (ret)
			goto out;
	}
	ret = mkdir_one(copy, mode);
out:
	free(copy);
	return ret;
}

int op_mkdir_parents(const char *path, mode_t mode)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ret;

	if (!slash || slash == path)
		return 0;
	dir = op_strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	ret = op_mkdir_p(dir, mode);
	free(dir);
	return ret;
}

int op_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int op_read_all(int fd, void *data, size_t len, size_t *got)
{
	char *p = data;
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, p + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	*got = done;
	return 0;
}

/*
 * Read the file open as fd as op_read_file() reads it (owned: only a
 * regular file of this user or root, as op_read_owned_file()) into *buf
 * of *cap bytes, grown as needed (a NULL *buf of 0 to start; the caller
 * frees it, also on failure); closes fd.
 */
static int read_fd_into(int fd, size_t max_size, bool owned, char **buf, size_t *cap,
			size_t *len)
{
	struct stat st;
	size_t want, got = 0;
	int ret;

	if (fstat(fd, &st)) {
		ret = -errno;
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto out_close;
	}
	/* a FIFO, device or socket is never read: it could block for ever */
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		goto out_close;
	}
	if (owned && st.st_uid != geteuid() && st.st_uid != 0) {
		ret = -EPERM;
		goto out_close;
	}
	/*
	 * A byte more than the size: a read that comes short says the end was
	 * reached (a buffer of exactly the size would be grown, copied and
	 * read again to learn it).  st_size is 0 for /proc files: those are
	 * read in growing chunks.
	 */
	want = st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX ? (size_t)st.st_size + 1 : 4096;
	for (;;) {
		size_t n;

		if (want > max_size)
			want = max_size;
		if (!*buf || *cap < want + 1) {
			char *p = op_realloc(*buf, want + 1);

			if (!p) {
				ret = -ENOMEM;
				goto out_close;
			}
			*buf = p;
			*cap = want + 1;
		}
		ret = op_read_all(fd, *buf + got, want - got, &n);
		if (ret)
			goto out_close;
		got += n;
		if (got < want)
			break;
		if (want == max_size) {
			char probe;

			ret = op_read_all(fd, &probe, 1, &n);
			if (ret)
				goto out_close;
			if (n) {
				ret = -EFBIG;
				goto out_close;
			}
			break;
		}
		if (!op_mul_size(want, 2, &want))
			want = max_size;
	}
	(*buf)[got] = '\0';
	*len = got;
out_close:
	close(fd);
	return ret;
}

static int read_fd(int fd, size_t max_size, bool owned, char **data, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	int ret = read_fd_into(fd, max_size, owned, &buf, &cap, len);

	if (ret) {
		free(buf);
		return ret;
	}
	*data = buf;
	return 0;
}

int op_read_file_at(int dirfd, const char *name, size_t max_size, char **buf, size_t *cap,
		    size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	return fd < 0 ? -errno : read_fd_into(fd, max_size, false, buf, cap, len);
}

int op_read_file(const char *path, size_t max_size, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	return fd < 0 ? -errno : read_fd(fd, max_size, false, data, len);
}

int op_read_plain_file(const char *path, size_t max_size, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	return fd < 0 ? -errno : read_fd(fd, max_size, false, data, len);
}

bool op_is_plain_file(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int op_read_owned_file(const char *path, size_t max_size, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	return fd < 0 ? -errno : read_fd(fd, max_size, true, data, len);
}

int op_write_file_atomic(const char *path, const void *data, size_t len,
			 mode_t mode)
{
	const char *slash = strrchr(path, '/');
	struct op_dir d;
	char *dir;
	int ret;

	/* the file beneath its directory: "path.tmp" is never a link followed */
	if (!slash)
		dir = op_strdup(".");
	else if (slash == path)
		dir = op_strdup("/");
	else
		dir = op_strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	ret = op_dir_open_path(&d, dir);
	free(dir);
	if (ret)
		return ret;
	ret = op_dir_write_file(&d, slash ? slash + 1 : path, data, len, mode);
	op_dir_close(&d);
	return ret;
}

bool op_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool op_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int op_file_mtime(const char *path, int64_t *mtime)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	*mtime = (int64_t)st.st_mtime;
	return 0;
}

int op_remove_tree(const char *path)
{
	int fd, ret;

	if (!unlink(path) || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -errno;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	{
		struct op_dir d = { .fd = fd, .path = NULL };

		ret = op_dir_remove_contents(&d);
		close(fd);
	}
	if (ret)
		return ret;
	if (rmdir(path))
		return -errno;
	return 0;
}
