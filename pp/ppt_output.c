// SPDX-License-Identifier: GPL-2.0-or-later
/* -o FILE, opened on the first byte written (see ppt_output.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "pp/ppt_output.h"

static int open_file(struct ppt_output *o)
{
	if (o->fd >= 0 || o->err)
		return o->err ? -1 : 0;
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

static int close_file(void *cookie)
{
	struct ppt_output *o = cookie;

	if (o->commit)
		open_file(o);
	if (o->fd >= 0 && close(o->fd) && !o->err)
		o->err = errno;
	o->fd = -1;
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
