// SPDX-License-Identifier: GPL-2.0-or-later
/* Names beneath an open directory, never through a symlink (see op_dir.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* a relative name into buf: -EINVAL if empty, absolute or with a ".." */
static int copy_rel(const char *rel, char *buf, size_t size)
{
	size_t len = strlen(rel);
	const char *p;

	if (!len || rel[0] == '/')
		return -EINVAL;
	for (p = rel; (p = strstr(p, "..")); p += 2)
		if ((p == rel || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return -EINVAL;
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, rel, len + 1);
	return 0;
}

/* why component name beneath fd could not be opened as a directory */
static int not_dir_reason(int fd, const char *name, int err)
{
	struct stat st;

	if ((err == ELOOP || err == ENOTDIR) &&
	    !fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return S_ISLNK(st.st_mode) ? -ELOOP : -ENOTDIR;
	return -err;
}

/* one directory component beneath fd, made if missing and create is set */
static int open_component(const struct op_dir *d, int fd, const char *name,
			  bool create, mode_t mode)
{
	int sub = openat(fd, name, DIR_FLAGS);
	bool made = false;

	if (sub < 0 && errno == ENOENT && create) {
		if (!mkdirat(fd, name, mode))
			made = true;
		else if (errno != EEXIST)
			return -errno;
		sub = openat(fd, name, DIR_FLAGS);
	}
	if (sub < 0)
		return not_dir_reason(fd, name, errno);
	if (made && d->give && fchown(sub, d->uid, d->gid)) {
		int ret = -errno;

		close(sub);
		return ret;
	}
	return sub;
}

/*
 * Walk the directory components of the mutable name in buf from d,
 * one at a time: the fd of the last one (a new fd, d's own duplicated
 * when there is none); "." and empty ones are skipped.
 */
static int walk(const struct op_dir *d, char *buf, bool create, mode_t mode)
{
	int fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0);
	char *save = NULL, *comp;

	if (fd < 0)
		return -errno;
	for (comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		int sub;

		if (!strcmp(comp, "."))
			continue;
		sub = open_component(d, fd, comp, create, mode);
		close(fd);
		if (sub < 0)
			return sub;
		fd = sub;
	}
	return fd;
}

/*
 * The directory holding rel's last component (a new fd) and that
 * component, copied into last[PATH_MAX].
 */
static int parent_of(const struct op_dir *d, const char *rel, bool create,
		     mode_t mode, char *last)
{
	char buf[PATH_MAX], *slash;
	int ret;

	if (d->fd < 0)
		return -EBADF;
	ret = copy_rel(rel, buf, sizeof(buf));
	if (ret)
		return ret;
	slash = strrchr(buf, '/');
	while (slash && !slash[1]) {	/* "a/b/" names b */
		*slash = '\0';
		slash = strrchr(buf, '/');
	}
	if (!slash) {
		memcpy(last, buf, strlen(buf) + 1);
		buf[0] = '\0';
	} else {
		*slash = '\0';
		memcpy(last, slash + 1, strlen(slash + 1) + 1);
	}
	if (!*last || !strcmp(last, "..") || !strcmp(last, "."))
		return -EINVAL;
	return walk(d, buf, create, mode);
}

static char *join(const char *a, const char *b)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s/%s", a ? a : ".", b);
	return op_strbuf_detach(&sb);
}

int op_dir_open_path(struct op_dir *d, const char *path)
{
	*d = (struct op_dir)OP_DIR_INIT;
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	d->path = op_strdup(path);
	if (!d->path) {
		op_dir_close(d);
		return -ENOMEM;
	}
	return 0;
}

int op_dir_sub(struct op_dir *d, const struct op_dir *parent, const char *rel,
	       bool create, mode_t mode)
{
	char buf[PATH_MAX];
	int fd, ret;

	*d = (struct op_dir)OP_DIR_INIT;
	if (parent->fd < 0)
		return -EBADF;
	ret = copy_rel(rel, buf, sizeof(buf));
	if (ret)
		return ret;
	fd = walk(parent, buf, create, mode);
	if (fd < 0)
		return fd;
	d->fd = fd;
	d->give = parent->give;
	d->uid = parent->uid;
	d->gid = parent->gid;
	d->path = join(parent->path, rel);
	if (!d->path) {
		op_dir_close(d);
		return -ENOMEM;
	}
	return 0;
}

void op_dir_close(struct op_dir *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	d->fd = -1;
	d->path = NULL;
}

/* the checks of op_dir_open_file() on what openat() gave */
static int check_file(const struct op_dir *d, int fd, int flags)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	if ((flags & O_ACCMODE) != O_RDONLY && st.st_nlink > 1)
		return -EMLINK;
	if ((flags & O_CREAT) && d->give && st.st_uid != d->uid &&
	    fchown(fd, d->uid, d->gid))
		return -errno;
	if ((flags & O_TRUNC) && st.st_size && ftruncate(fd, 0))
		return -errno;
	return 0;
}

int op_dir_open_file(const struct op_dir *d, const char *rel, int flags,
		     mode_t mode)
{
	char last[PATH_MAX];
	int pfd, fd, ret;

	pfd = parent_of(d, rel, false, 0, last);
	if (pfd < 0)
		return pfd;
	/* truncated only once known to be ours alone (check_file) */
	fd = openat(pfd, last, (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		    mode);
	if (fd < 0)
		ret = errno == ENXIO ? -EINVAL : -errno;	/* a FIFO without reader */
	else
		ret = check_file(d, fd, flags);
	close(pfd);
	if (ret) {
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return fd;
}

int op_dir_mkparents(const struct op_dir *d, const char *rel, mode_t mode)
{
	char last[PATH_MAX];
	int pfd = parent_of(d, rel, true, mode, last);

	if (pfd < 0)
		return pfd;
	close(pfd);
	return 0;
}

int op_dir_rename(const struct op_dir *d, const char *from, const char *to)
{
	char last_from[PATH_MAX], last_to[PATH_MAX];
	int pfrom, pto, ret = 0;

	pfrom = parent_of(d, from, false, 0, last_from);
	if (pfrom < 0)
		return pfrom;
	pto = parent_of(d, to, false, 0, last_to);
	if (pto < 0) {
		close(pfrom);
		return pto;
	}
	if (renameat(pfrom, last_from, pto, last_to))
		ret = -errno;
	close(pfrom);
	close(pto);
	return ret;
}

int op_dir_unlink(const struct op_dir *d, const char *rel)
{
	char last[PATH_MAX];
	int pfd = parent_of(d, rel, false, 0, last), ret = 0;

	if (pfd < 0)
		return pfd == -ENOENT ? 0 : pfd;
	if (unlinkat(pfd, last, 0) && errno != ENOENT) {
		ret = -errno;
		if ((ret == -EISDIR || ret == -EPERM) && !unlinkat(pfd, last, AT_REMOVEDIR))
			ret = 0;
	}
	close(pfd);
	return ret;
}

/* remove what is inside directory fd (taken over and closed) */
static int remove_contents(int fd)
{
	struct dirent *de;
	DIR *dir = fdopendir(fd);
	int ret = 0;

	if (!dir) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((de = readdir(dir))) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (!unlinkat(fd, de->d_name, 0))
			continue;
		if (errno != EISDIR && errno != EPERM) {
			ret = -errno;
			break;
		}
		sub = openat(fd, de->d_name, DIR_FLAGS);
		if (sub < 0) {
			ret = -errno;
			break;
		}
		ret = remove_contents(sub);
		if (!ret && unlinkat(fd, de->d_name, AT_REMOVEDIR))
			ret = -errno;
		if (ret)
			break;
	}
	closedir(dir);
	return ret;
}

int op_dir_remove_tree(const struct op_dir *d, const char *rel)
{
	char last[PATH_MAX];
	int pfd = parent_of(d, rel, false, 0, last), sub, ret = 0;

	if (pfd < 0)
		return pfd == -ENOENT ? 0 : pfd;
	if (!unlinkat(pfd, last, 0) || errno == ENOENT)
		goto out;
	if (errno != EISDIR && errno != EPERM) {
		ret = -errno;
		goto out;
	}
	sub = openat(pfd, last, DIR_FLAGS);
	if (sub < 0) {
		ret = -errno;
		goto out;
	}
	ret = remove_contents(sub);
	if (!ret && unlinkat(pfd, last, AT_REMOVEDIR))
		ret = -errno;
out:
	close(pfd);
	return ret;
}

int op_dir_remove_contents(const struct op_dir *d)
{
	int fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	/* a duplicate shares the read position: start from the top */
	if (lseek(fd, 0, SEEK_SET) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	return remove_contents(fd);
}

int op_dir_write_file(const struct op_dir *d, const char *rel, const void *data,
		      size_t len, mode_t mode)
{
	char *tmp = NULL;
	struct stat st;
	int fd, ret;
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s.tmp", rel);
	tmp = op_strbuf_detach(&sb);
	if (!tmp)
		return -ENOMEM;
	fd = op_dir_open_file(d, tmp, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	/*
	 * A .tmp a killed writer left keeps its mode through O_CREAT: take
	 * away what mode does not give (the umask's cut stays, as for a new one)
	 */
	ret = fstat(fd, &st) ? -errno : 0;
	if (!ret && (st.st_mode & 07777 & ~mode) && fchmod(fd, st.st_mode & mode & 07777))
		ret = -errno;
	if (!ret)
		ret = op_write_all(fd, data, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = op_dir_rename(d, tmp, rel);
	if (ret)
		op_dir_unlink(d, tmp);
out:
	free(tmp);
	return ret;
}

int op_dir_stat(const struct op_dir *d, const char *rel, struct stat *st)
{
	char last[PATH_MAX];
	int pfd = parent_of(d, rel, false, 0, last), ret = 0;

	if (pfd < 0)
		return pfd;
	if (fstatat(pfd, last, st, AT_SYMLINK_NOFOLLOW))
		ret = -errno;
	close(pfd);
	return ret;
}
