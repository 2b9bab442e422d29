// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -o FILE, opened on the first byte written (see ppt_output.h).  A regular
 * FILE (or none yet) is written as FILE.XXXXXX beside it and renamed over
 * it once whole; anything else (a FIFO, a terminal, /dev/stdout, a
 * symbolic link) is written in place, as it cannot be replaced; so is a
 * FILE whose directory the user may not write in.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "pp/ppt_output.h"

/* the mode a new file gets: 0666 less the umask (which is read by setting it) */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(022);

	umask(mask);
	return 0666 & ~mask;
}

/* FILE.XXXXXX, made with the mode FILE has, or a new file's */
static int open_temporary(struct ppt_output *o, const struct stat *old)
{
	size_t len = strlen(o->path);

	o->tmp = op_xmalloc(len + sizeof(".XXXXXX"));
	memcpy(o->tmp, o->path, len);
	memcpy(o->tmp + len, ".XXXXXX", sizeof(".XXXXXX"));
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0 || fchmod(o->fd, old ? old->st_mode & 07777 : new_file_mode())) {
		o->err = errno;
		if (o->fd >= 0) {
			close(o->fd);
			unlink(o->tmp);
			o->fd = -1;
		}
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	return 0;
}

static int open_file(struct ppt_output *o)
{
	struct stat st;
	bool exists;

	if (o->fd >= 0 || o->err)
		return o->err ? -1 : 0;
	exists = !lstat(o->path, &st);
	if (!exists && errno != ENOENT) {
		o->err = errno;
		return -1;
	}
	if (!exists || S_ISREG(st.st_mode)) {
		if (!open_temporary(o, exists ? &st : NULL))
			return 0;
		if (!exists)
			return -1;
		o->err = 0;	/* a file it may write in a directory it may not */
	}
	o->fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0) {
		o->err = errno;
		return -1;
	}
	return 0;
}

static ssize_t write_file(void *cookie, const char *buf, size_t len)
{
	struct ppt_output *o = cookie;
	int ret;

	if (o->discard)
		return (ssize_t)len;
	if (open_file(o))
		return -1;
	ret = op_write_all(o->fd, buf, len);
	if (ret) {
		if (!o->err)
			o->err = -ret;
		return -1;
	}
	return (ssize_t)len;
}

/* the temporary file renamed over FILE when whole and committed, else removed */
static void finish_temporary(struct ppt_output *o)
{
	if (o->commit && !o->err && rename(o->tmp, o->path))
		o->err = errno;
	if (!o->commit || o->err)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

static int close_file(void *cookie)
{
	struct ppt_output *o = cookie;

	if (o->commit)
		open_file(o);
	if (o->fd >= 0 && close(o->fd) && !o->err)
		o->err = errno;
	o->fd = -1;
	if (o->tmp)
		finish_temporary(o);
	return o->err ? -1 : 0;
}

int ppt_output_open(struct ppt_output *o, const char *path)
{
	cookie_io_functions_t io = { .write = write_file, .close = close_file };

	memset(o, 0, sizeof(*o));
	o->path = op_xstrdup(path);
	o->fd = -1;
	o->stream = fopencookie(o, "w", io);
	if (!o->stream) {
		free(o->path);
		return errno ? errno : ENOMEM;
	}
	return 0;
}

int ppt_output_close(struct ppt_output *o, bool commit)
{
	int err;

	o->commit = commit;
	o->discard = !commit && o->fd < 0;
	fclose(o->stream);
	err = o->err;
	free(o->path);
	memset(o, 0, sizeof(*o));
	return err;
}
