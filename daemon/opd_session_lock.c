// SPDX-License-Identifier: GPL-2.0-or-later
/* One writer per session directory (see opd_session.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/opd_session.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"

#define LOCK_NAME "operf.lock"

/* the pid written in the lock file, 0 if none */
static pid_t read_pid(int fd)
{
	char buf[32];
	ssize_t got = pread(fd, buf, sizeof(buf) - 1, 0);
	int pid;

	if (got <= 0)
		return 0;
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return op_parse_int(buf, 10, 1, 0x7fffffff, &pid) ? 0 : (pid_t)pid;
}

/* what process pid runs, for the message ("" if unknown) */
static void comm_of(pid_t pid, char *buf, size_t size)
{
	char path[64], *text;
	size_t len;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	if (op_read_file(path, 256, &text, &len))
		return;
	text[strcspn(text, "\n")] = '\0';
	snprintf(buf, size, " (%s)", text);
	free(text);
}

/* is fd still the file the directory names LOCK_NAME? */
static bool still_named(const struct opd_session *s, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) && !op_dir_stat(&s->sdir, LOCK_NAME, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int opd_session_lock(struct opd_session *s, struct op_err *err)
{
	char pidtext[32], comm[300];
	int tries, fd = -1, ret = 0, len;

	/* a holder may remove the file between our open and our flock: again */
	for (tries = 0; tries < 5; tries++) {
		fd = op_dir_open_file(&s->sdir, LOCK_NAME, O_RDWR | O_CREAT, 0644);
		if (fd < 0) {
			ret = fd;
			goto fail;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			pid_t holder;

			ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
			holder = read_pid(fd);
			close(fd);
			if (ret != -EBUSY)
				goto fail;
			comm_of(holder, comm, sizeof(comm));
			op_err_set(err, "session directory '%s' is in use by process %ld%s",
				   s->dir, (long)holder, comm);
			return ret;
		}
		if (still_named(s, fd))
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		ret = -EAGAIN;
		goto fail;
	}
	s->stale_pid = read_pid(fd);
	len = snprintf(pidtext, sizeof(pidtext), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pidtext, (size_t)len, 0) != len) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	s->lock_fd = fd;
	return 0;
fail:
	op_err_set(err, "cannot lock '%s/%s': %s", s->samples, LOCK_NAME,
		   ret == -ELOOP ? "it is a symbolic link" : strerror(-ret));
	return ret;
}

void opd_session_unlock(struct opd_session *s)
{
	if (s->lock_fd < 0)
		return;
	/* removed while still held, so nobody locks a file about to vanish */
	op_dir_unlink(&s->sdir, LOCK_NAME);
	close(s->lock_fd);
	s->lock_fd = -1;
}
