// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time-slice file's writer (odb_slices.h): FILE records interned by
 * name, SLICE records packed, each appended with pwrite() and then
 * committed by storing the new length in the header.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_int.h"
#include "libdb/odb_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

struct odb_slices_writer {
	int fd;
	struct odb_slices_header h;	/* as on disk once committed */
	char **names;			/* FILE records, by number */
	size_t nr_names, a_names;
	struct op_hmap by_name;		/* name hash -> number + 1 */
	unsigned char *buf;		/* a record being built */
	size_t a_buf;
};

static uint64_t rec_bytes(size_t payload)
{
	return (sizeof(struct odb_slices_rec) + payload + 7) & ~7ull;
}

static int write_all(int fd, const void *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p = (const char *)p + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* a new file holding the header only, through "PATH.tmp" */
static int create(const struct op_dir *dir, const char *path, uint64_t now_ns,
		  uint64_t limit)
{
	struct odb_slices_header h = { .version = ODB_SLICES_VERSION };
	struct stat st;
	char tmp[4096];
	int fd, n, ret;

	n = snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(h.magic, ODB_SLICES_MAGIC, sizeof(h.magic));
	h.start_ns = now_ns;
	if (!op_dir_stat(dir, "{root}", &st) || !op_dir_stat(dir, "{kern}", &st))
		h.flags |= ODB_SLICES_PARTIAL;
	h.limit = limit;
	fd = op_dir_open_file(dir, tmp, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fd;
	ret = write_all(fd, &h, sizeof(h), 0);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = op_dir_rename(dir, tmp, path);
	if (ret)
		op_dir_unlink(dir, tmp);
	return ret;
}

static int intern(struct odb_slices_writer *w, const char *name, size_t len)
{
	char *copy;

	if (w->nr_names == w->a_names) {
		size_t n = w->a_names ? w->a_names * 2 : 64;
		char **v = op_reallocarray(w->names, n, sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->names = v;
		w->a_names = n;
	}
	copy = op_strndup(name, len);
	if (!copy)
		return -ENOMEM;
	if (op_hmap_insert(&w->by_name, op_hash_str(copy),
			   (void *)(uintptr_t)(w->nr_names + 1))) {
		free(copy);
		return -ENOMEM;
	}
	w->names[w->nr_names++] = copy;
	return 0;
}

/* the FILE records of what is committed, so that names are not repeated */
static int index_files(struct odb_slices_writer *w)
{
	struct odb_slices *s;
	unsigned char *data;
	size_t len = sizeof(w->h) + (size_t)w->h.committed, i;
	int ret;

	data = op_malloc(len);
	if (!data)
		return -ENOMEM;
	ret = pread(w->fd, data, len, 0) == (ssize_t)len ? 0 : ODB_ERR_SLICES_TRUNCATED;
	if (!ret)
		ret = odb_slices_open_mem(data, len, &s);
	free(data);
	if (ret)
		return ret;
	for (i = 0; !ret && i < odb_slices_nr_files(s); i++)
		ret = intern(w, odb_slices_file(s, i), strlen(odb_slices_file(s, i)));
	odb_slices_close(s);
	return ret;
}

static int reopen(struct odb_slices_writer *w, const struct op_dir *dir,
		  const char *path)
{
	struct stat st;
	int ret;

	w->fd = op_dir_open_file(dir, path, O_RDWR, 0);
	if (w->fd < 0)
		return w->fd;
	if (fstat(w->fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return ODB_ERR_NOT_REGULAR;
	if (pread(w->fd, &w->h, sizeof(w->h), 0) != (ssize_t)sizeof(w->h))
		return st.st_size ? ODB_ERR_SLICES_TRUNCATED : ODB_ERR_EMPTY;
	ret = odb_slices_check_header(&w->h, (uint64_t)st.st_size);
	if (ret)
		return ret;
	ret = index_files(w);
	if (ret)
		return ret;
	/* whatever a killed writer left past the committed records goes */
	if (ftruncate(w->fd, (off_t)(sizeof(w->h) + w->h.committed)))
		return -errno;
	return 0;
}

/* back to nothing open, nothing interned */
static void reset(struct odb_slices_writer *w)
{
	size_t i;

	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	for (i = 0; i < w->nr_names; i++)
		free(w->names[i]);
	w->nr_names = 0;
	op_hmap_release(&w->by_name);
	memset(&w->h, 0, sizeof(w->h));
}

int odb_slices_writer_open(const struct op_dir *dir, const char *path,
			   uint64_t now_ns, uint64_t limit,
			   struct odb_slices_writer **wp)
{
	struct odb_slices_writer *w;
	int ret;

	*wp = NULL;
	if (!limit)
		limit = ODB_SLICES_DEFAULT_LIMIT;
	if (limit < ODB_SLICES_MIN_LIMIT)
		limit = ODB_SLICES_MIN_LIMIT;
	w = op_calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	op_hmap_init(&w->by_name);
	w->fd = -1;
	ret = reopen(w, dir, path);
	if (ret && ret != -ENOMEM) {
		/* missing or unreadable (a symlink, a damaged file): a new one */
		reset(w);
		ret = create(dir, path, now_ns, limit);
		if (!ret)
			ret = reopen(w, dir, path);
	}
	if (ret) {
		odb_slices_writer_close(w);
		return ret;
	}
	w->h.limit = limit;
	*wp = w;
	return 0;
}

uint64_t odb_slices_writer_start(const struct odb_slices_writer *w)
{
	return w->h.start_ns;
}

uint64_t odb_slices_writer_dropped(const struct odb_slices_writer *w)
{
	return w->h.dropped;
}

static int reserve(struct odb_slices_writer *w, size_t len)
{
	if (len > w->a_buf) {
		size_t n = len > 2 * w->a_buf ? len : 2 * w->a_buf;
		unsigned char *p = op_realloc(w->buf, n);

		if (!p)
			return -ENOMEM;
		w->buf = p;
		w->a_buf = n;
	}
	memset(w->buf, 0, len);
	return 0;
}

/* append the record in w->buf (len bytes) and commit it */
static int append(struct odb_slices_writer *w, size_t len)
{
	uint64_t end = sizeof(w->h) + w->h.committed;
	int ret = write_all(w->fd, w->buf, len, end);

	if (ret)
		return ret;
	w->h.committed += len;
	return write_all(w->fd, &w->h.committed, sizeof(w->h.committed),
			 offsetof(struct odb_slices_header, committed));
}

static bool fits(const struct odb_slices_writer *w, size_t len)
{
	return sizeof(w->h) + w->h.committed + len <= w->h.limit;
}

int odb_slices_writer_file(struct odb_slices_writer *w, const char *name,
			   uint32_t *id)
{
	struct op_hmap_iter it;
	size_t len = strlen(name), bytes = rec_bytes(len + 1);
	void *v;
	int ret;

	for (v = op_hmap_first(&w->by_name, op_hash_str(name), &it); v;
	     v = op_hmap_next(&w->by_name, op_hash_str(name), &it))
		if (!strcmp(w->names[(uintptr_t)v - 1], name)) {
			*id = (uint32_t)((uintptr_t)v - 1);
			return 0;
		}
	if (!len || w->nr_names >= ODB_SLICES_MAX_FILES || bytes > UINT32_MAX)
		return -EINVAL;
	if (!fits(w, bytes))
		return ODB_ERR_SLICES_FULL;
	ret = reserve(w, bytes);
	if (ret)
		return ret;
	((struct odb_slices_rec *)w->buf)->type = ODB_SLICES_FILE;
	((struct odb_slices_rec *)w->buf)->size = (uint32_t)bytes;
	memcpy(w->buf + sizeof(struct odb_slices_rec), name, len);
	ret = intern(w, name, len);
	if (!ret)
		ret = append(w, bytes);
	if (ret) {
		/* not on disk: forget it again */
		if (w->nr_names && !strcmp(w->names[w->nr_names - 1], name)) {
			op_hmap_remove(&w->by_name, op_hash_str(name),
				       (void *)(uintptr_t)w->nr_names);
			free(w->names[--w->nr_names]);
		}
		return ret;
	}
	*id = (uint32_t)(w->nr_names - 1);
	return 0;
}

static unsigned char *put_uleb(unsigned char *p, uint64_t v)
{
	do {
		*p = (unsigned char)(v & 0x7f);
		v >>= 7;
		*p++ |= v ? 0x80 : 0;
	} while (v);
	return p;
}

static int count_dropped(struct odb_slices_writer *w, const struct odb_slice_entry *e,
			 size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		w->h.dropped += e[i].count;
	return write_all(w->fd, &w->h.dropped, sizeof(w->h.dropped),
			 offsetof(struct odb_slices_header, dropped));
}

int odb_slices_writer_add(struct odb_slices_writer *w, uint64_t start_ns,
			  uint64_t length_ns, const struct odb_slice_entry *e,
			  size_t nr)
{
	struct odb_slice_head head = { start_ns, length_ns, (uint32_t)nr, 0 };
	size_t max = sizeof(struct odb_slices_rec) + sizeof(head) + nr * 30 + 8, i;
	unsigned char *p;
	size_t len;
	int ret;

	if (!nr)
		return 0;
	if (nr > UINT32_MAX || max > UINT32_MAX)
		return -EINVAL;
	ret = reserve(w, max);
	if (ret)
		return ret;
	p = w->buf + sizeof(struct odb_slices_rec) + sizeof(head);
	for (i = 0; i < nr; i++) {
		bool same = i && e[i].file == e[i - 1].file;

		p = put_uleb(p, i ? e[i].file - e[i - 1].file : e[i].file);
		p = put_uleb(p, same ? e[i].key - e[i - 1].key : e[i].key);
		p = put_uleb(p, e[i].count);
	}
	len = (size_t)rec_bytes((size_t)(p - w->buf) - sizeof(struct odb_slices_rec));
	if (!fits(w, len)) {
		ret = count_dropped(w, e, nr);
		return ret ? ret : ODB_ERR_SLICES_FULL;
	}
	((struct odb_slices_rec *)w->buf)->type = ODB_SLICES_SLICE;
	((struct odb_slices_rec *)w->buf)->size = (uint32_t)len;
	memcpy(w->buf + sizeof(struct odb_slices_rec), &head, sizeof(head));
	return append(w, len);
}

int odb_slices_writer_close(struct odb_slices_writer *w)
{
	int ret = 0;

	if (!w)
		return 0;
	if (w->fd >= 0 && close(w->fd))
		ret = -errno;
	w->fd = -1;
	reset(w);
	free(w->names);
	free(w->buf);
	free(w);
	return ret;
}
