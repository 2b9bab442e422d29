// SPDX-License-Identifier: GPL-2.0-or-later
/* Pid lock files on flock() (see op_lockfile.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_lockfile.h"
#include "libutil/op_parse.h"

static pid_t read_pid(int fd)
{
	char buf[32];
	size_t got;
	int pid;

	if (lseek(fd, 0, SEEK_SET) < 0 || op_read_all(fd, buf, sizeof(buf) - 1, &got))
		return 0;
	buf[got] = '\0';
	if (got && buf[got - 1] == '\n')
		buf[got - 1] = '\0';
	if (op_parse_int(buf, 10, 1, 0x7fffffff, &pid))
		return 0;
	return pid;
}

int op_lockfile_acquire(struct op_lockfile *lock, const char *path,
			pid_t *holder)
{
	char buf[32];
	int fd, len, ret;

	lock->fd = -1;
	lock->path = NULL;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (holder)
			*holder = ret == -EBUSY ? read_pid(fd) : 0;
		goto out_close;
	}
	len = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) < 0) {
		ret = -errno;
		goto out_close;
	}
	ret = op_write_all(fd, buf, (size_t)len);
	if (ret)
		goto out_close;
	lock->path = op_strdup(path);
	if (!lock->path) {
		ret = -ENOMEM;
		goto out_close;
	}
	lock->fd = fd;
	return 0;
out_close:
	close(fd);
	return ret;
}

void op_lockfile_release(struct op_lockfile *lock)
{
	if (!lock || lock->fd < 0)
		return;
	/* unlink while still locked so nobody locks a file about to vanish */
	unlink(lock->path);
	close(lock->fd);
	free(lock->path);
	lock->fd = -1;
	lock->path = NULL;
}

int op_lockfile_holder(const char *path, pid_t *holder)
{
	int fd, ret = 0;

	*holder = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (flock(fd, LOCK_SH | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			*holder = read_pid(fd);
		else
			ret = -errno;
	} else {
		flock(fd, LOCK_UN);
	}
	close(fd);
	return ret;
}
