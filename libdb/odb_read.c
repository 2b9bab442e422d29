// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading sample files by copying them (odb.h: struct odb_reader), and
 * reading their headers alone.
 *
 * A report reads each sample file once and only sums its nodes.  Mapping
 * a small file costs more than the file: mmap(), a page fault, munmap()
 * and its TLB flush take about three times as long as reading the file
 * into a buffer kept from file to file.  The checks are the ones a mapping
 * gets (odb_check_map()), made on the copy.
 *
 * A writer may be adding to the file (odb.h): it fills a node, then
 * publishes it with a release store of current_size.  So the header and
 * descriptor are read first, then, after an acquire fence, the rest: every
 * node below the current_size read first is complete in the copy.  The
 * only question a copy cannot answer is whether a chain index past those
 * nodes belongs to a node published since; such a file is read again
 * through a mapping, which can look.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_barrier.h"

#define FIXED (sizeof(struct opd_header) + sizeof(struct odb_descr))

static int open_at(int dirfd, const char *path)
{
	int fd;

	/* O_NONBLOCK: a FIFO opens at once, then fails the type check */
	do
		fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

/* read len bytes at off, retrying short reads and EINTR; *got = bytes read */
static int read_at(int fd, unsigned char *buf, size_t len, off_t off, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, buf + *got, len - *got, off + (off_t)*got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* room for size bytes and slots chain stamps */
static int reserve(struct odb_reader *r, size_t size, size_t slots)
{
	if (size > r->buf_size) {
		size_t n = r->buf_size ? r->buf_size : 4096;
		unsigned char *buf;

		while (n < size)
			n *= 2;
		buf = op_realloc(r->buf, n);
		if (!buf)
			return -ENOMEM;
		r->buf = buf;
		r->buf_size = n;
	}
	if (slots > r->nr_stamp) {
		odb_index_t *stamp = op_reallocarray(r->stamp, slots, sizeof(*stamp));

		if (!stamp)
			return -ENOMEM;
		r->stamp = stamp;
		r->nr_stamp = slots;
	}
	return 0;
}

/* the file fd of size bytes (at least FIXED) into r->buf; *len: bytes read */
static int copy_file(struct odb_reader *r, int fd, size_t size, size_t *len)
{
	const struct odb_descr *descr;
	size_t got, rest;
	int ret;

	ret = reserve(r, size, ODB_MIN_NODES);
	if (ret)
		return ret;
	ret = read_at(fd, r->buf, FIXED, 0, &got);
	if (ret || got < FIXED) {
		*len = got;
		return ret;
	}
	/* pairs with the writer's release store of current_size */
	op_smp_acquire_fence();
	ret = read_at(fd, r->buf + FIXED, size - FIXED, FIXED, &rest);
	if (ret)
		return ret;
	*len = FIXED + rest;
	/* the stamps a table of this size needs; odb_check_map() rejects others */
	descr = (const void *)(r->buf + sizeof(struct opd_header));
	if (descr->size > ODB_MIN_NODES && descr->size <= ODB_MAX_NODES &&
	    (size_t)descr->size * sizeof(struct odb_node) <= *len)
		return reserve(r, 0, descr->size);
	return 0;
}

/* the file at fd (which this takes) through a mapping */
static int read_mapped(struct odb_reader *r, int fd, struct odb_snapshot *snap)
{
	int ret = odb_file_map_fd(fd, &r->mapped);

	if (ret)
		return ret;
	snap->hdr = odb_file_header(r->mapped);
	snap->nodes = odb_file_nodes(r->mapped, &snap->nr);
	return 0;
}

int odb_reader_read(struct odb_reader *r, int dirfd, const char *path,
		    struct odb_snapshot *snap)
{
	struct odb_file file;
	size_t size, len = 0;
	int fd, ret;

	odb_file_close(r->mapped);
	r->mapped = NULL;
	fd = open_at(dirfd, path);
	if (fd < 0)
		return fd;
	/* odb_file_open()'s checks, for the same errors */
	ret = odb_check_stat(fd, &size);
	if (ret)
		goto out_close;
	if (size > ODB_READER_COPY_MAX)
		return read_mapped(r, fd, snap);
	ret = copy_file(r, fd, size, &len);
	if (ret)
		goto out_close;
	memset(&file, 0, sizeof(file));
	file.fd = -1;
	file.mode = ODB_READ;
	ret = odb_check_map(&file, r->buf, len, r->stamp, true);
	if (ret == -EAGAIN)
		return read_mapped(r, fd, snap);
	/* zeros read from a hole look like nodes: ask the file system */
	if (!ret)
		ret = odb_check_holes(fd, file.nr_used);
	if (ret)
		goto out_close;
	snap->hdr = file.hdr;
	snap->nodes = file.nodes + 1;
	snap->nr = file.nr_used - 1;
out_close:
	close(fd);
	return ret;
}

void odb_reader_release(struct odb_reader *r)
{
	if (!r)
		return;
	odb_file_close(r->mapped);
	free(r->buf);
	free(r->stamp);
	memset(r, 0, sizeof(*r));
}

int odb_check_head(int fd, size_t len, struct opd_header *hdr,
		   struct odb_descr *descr)
{
	struct {
		struct opd_header hdr;
		struct odb_descr descr;
	} fixed;
	size_t got;
	int ret;

	_Static_assert(sizeof(fixed) == FIXED, "header and descriptor");
	ret = read_at(fd, (unsigned char *)&fixed, sizeof(fixed), 0, &got);
	if (!ret && got < sizeof(fixed))
		ret = ODB_ERR_TRUNCATED;	/* shrank since fstat() */
	if (!ret)
		ret = odb_check_fixed(&fixed.hdr, fixed.descr.size, len);
	if (!ret)
		ret = odb_check_used(fixed.descr.size, fixed.descr.current_size);
	if (!ret)
		ret = odb_check_holes(fd, fixed.descr.current_size);
	if (!ret) {
		*hdr = fixed.hdr;
		*descr = fixed.descr;
	}
	return ret;
}

int odb_header_read(int dirfd, const char *path, struct opd_header *hdr)
{
	struct odb_descr descr;
	size_t len;
	int fd, ret;

	fd = open_at(dirfd, path);
	if (fd < 0)
		return fd;
	ret = odb_check_stat(fd, &len);
	if (!ret)
		ret = odb_check_head(fd, len, hdr, &descr);
	close(fd);
	return ret;
}
