// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the time-slice file (odb_slices.h): the committed records are
 * copied into memory and checked whole at opening, so that walking a
 * slice later needs no more checks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_int.h"
#include "libdb/odb_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"

/* no file may claim more than this (a damaged committed length) */
#define MAX_FILE_SIZE (1ull << 40)

struct odb_slices {
	unsigned char *buf;		/* header and committed records */
	size_t len;
	uint64_t start_ns, dropped;
	uint32_t flags;
	size_t *files;			/* offsets of the FILE strings */
	size_t nr_files, a_files;
	size_t *slices;			/* offsets of the SLICE heads */
	size_t nr_slices, a_slices;
};

/* an unsigned LEB128 number at *p (before end) into *v */
static bool get_uleb(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift;

	for (shift = 0; *p < end && shift < 64; shift += 7) {
		unsigned char b = *(*p)++;

		if (shift == 63 && b > 1)
			return false;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

static void start_walk(struct odb_slice *sl, const unsigned char *rec, size_t size)
{
	struct odb_slice_head h;

	memcpy(&h, rec + sizeof(struct odb_slices_rec), sizeof(h));
	sl->start_ns = h.start_ns;
	sl->length_ns = h.length_ns;
	sl->nr_entries = sl->left = h.nr_entries;
	sl->p = rec + sizeof(struct odb_slices_rec) + sizeof(h);
	sl->end = rec + size;
	memset(&sl->last, 0, sizeof(sl->last));
}

/* the next entry, decoded and checked against the rules of the format */
static bool next_checked(struct odb_slice *sl, size_t nr_files,
			 struct odb_slice_entry *e)
{
	uint64_t df, key, count;
	bool first = sl->left == sl->nr_entries;

	if (!sl->left || !get_uleb(&sl->p, sl->end, &df) ||
	    !get_uleb(&sl->p, sl->end, &key) || !get_uleb(&sl->p, sl->end, &count))
		return false;
	if (!count || df >= nr_files - (first ? 0 : sl->last.file))
		return false;
	e->file = sl->last.file + (uint32_t)df;
	if (df || first) {
		e->key = key;
	} else {
		if (!key || key > UINT64_MAX - sl->last.key)
			return false;
		e->key = sl->last.key + key;
	}
	e->count = count;
	sl->last = *e;
	sl->left--;
	return true;
}

bool odb_slice_next(struct odb_slice *sl, struct odb_slice_entry *e)
{
	return next_checked(sl, ODB_SLICES_MAX_FILES, e);
}

static int push(size_t **v, size_t *nr, size_t *alloc, size_t off)
{
	if (*nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 64;
		size_t *p = op_reallocarray(*v, n, sizeof(**v));

		if (!p)
			return -ENOMEM;
		*v = p;
		*alloc = n;
	}
	(*v)[(*nr)++] = off;
	return 0;
}

static int check_slice(struct odb_slices *s, size_t off, uint32_t size)
{
	struct odb_slice_head h;
	struct odb_slice sl;
	struct odb_slice_entry e;

	if (size < sizeof(struct odb_slices_rec) + sizeof(h))
		return ODB_ERR_SLICES_BAD_RECORD;
	memcpy(&h, s->buf + off + sizeof(struct odb_slices_rec), sizeof(h));
	if (h.length_ns < ODB_SLICES_MIN_NS || h.length_ns > ODB_SLICES_MAX_NS ||
	    h.start_ns > UINT64_MAX - h.length_ns || !h.nr_entries || h.reserved)
		return ODB_ERR_SLICES_BAD_RECORD;
	start_walk(&sl, s->buf + off, size);
	while (sl.left)
		if (!next_checked(&sl, s->nr_files, &e))
			return ODB_ERR_SLICES_BAD_RECORD;
	/* only the padding may follow the last entry */
	if ((size_t)(sl.end - sl.p) >= 8)
		return ODB_ERR_SLICES_BAD_RECORD;
	return push(&s->slices, &s->nr_slices, &s->a_slices, off);
}

static int check_file(struct odb_slices *s, size_t off, uint32_t size)
{
	const char *name = (const char *)s->buf + off + sizeof(struct odb_slices_rec);
	size_t room = size - sizeof(struct odb_slices_rec);

	if (!room || !memchr(name, '\0', room) || !*name ||
	    s->nr_files >= ODB_SLICES_MAX_FILES)
		return ODB_ERR_SLICES_BAD_RECORD;
	return push(&s->files, &s->nr_files, &s->a_files,
		    off + sizeof(struct odb_slices_rec));
}

static int scan(struct odb_slices *s)
{
	size_t off = sizeof(struct odb_slices_header);
	int ret = 0;

	while (!ret && off < s->len) {
		struct odb_slices_rec r;

		if (s->len - off < sizeof(r))
			return ODB_ERR_SLICES_BAD_RECORD;
		memcpy(&r, s->buf + off, sizeof(r));
		if (r.size < sizeof(r) || r.size % 8 || r.size > s->len - off)
			return ODB_ERR_SLICES_BAD_RECORD;
		if (r.type == ODB_SLICES_FILE)
			ret = check_file(s, off, r.size);
		else if (r.type == ODB_SLICES_SLICE)
			ret = check_slice(s, off, r.size);
		else
			ret = ODB_ERR_SLICES_BAD_RECORD;
		off += r.size;
	}
	return ret;
}

int odb_slices_check_header(const struct odb_slices_header *h, uint64_t size)
{
	if (size < sizeof(*h))
		return size ? ODB_ERR_SLICES_TRUNCATED : ODB_ERR_EMPTY;
	if (memcmp(h->magic, ODB_SLICES_MAGIC, sizeof(h->magic)))
		return ODB_ERR_SLICES_BAD_MAGIC;
	if (h->version != ODB_SLICES_VERSION)
		return ODB_ERR_SLICES_BAD_VERSION;
	if (h->committed > size - sizeof(*h) || h->committed % 8)
		return ODB_ERR_SLICES_TRUNCATED;
	return 0;
}

/* s->buf holds len bytes of a file: check them, keep the committed ones */
static int take(struct odb_slices *s, size_t len)
{
	struct odb_slices_header h;
	int ret;

	if (len < sizeof(h))
		return len ? ODB_ERR_SLICES_TRUNCATED : ODB_ERR_EMPTY;
	memcpy(&h, s->buf, sizeof(h));
	ret = odb_slices_check_header(&h, len);
	if (ret)
		return ret;
	s->len = sizeof(h) + (size_t)h.committed;
	s->start_ns = h.start_ns;
	s->dropped = h.dropped;
	s->flags = h.flags;
	return scan(s);
}

/* the header and committed records of the file open as fd (at its start) */
static int read_all(int fd, struct odb_slices *s, size_t *lenp)
{
	struct odb_slices_header h;
	struct stat st;
	size_t want, got;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return ODB_ERR_NOT_REGULAR;
	ret = op_read_all(fd, &h, sizeof(h), &got);
	if (ret)
		return ret;
	if (got < sizeof(h))
		return got ? ODB_ERR_SLICES_TRUNCATED : ODB_ERR_EMPTY;
	/*
	 * The committed length read first: the records before it are whole.
	 * It must lie within the file (a writer writes before it commits),
	 * so a damaged one never makes a huge allocation.
	 */
	if (h.committed > MAX_FILE_SIZE || h.committed % 8 ||
	    (uint64_t)st.st_size < sizeof(h) ||
	    h.committed > (uint64_t)st.st_size - sizeof(h))
		return ODB_ERR_SLICES_TRUNCATED;
	want = sizeof(h) + (size_t)h.committed;
	s->buf = op_malloc(want);
	if (!s->buf)
		return -ENOMEM;
	memcpy(s->buf, &h, sizeof(h));
	ret = op_read_all(fd, s->buf + sizeof(h), want - sizeof(h), &got);
	if (ret)
		return ret;
	if (got < want - sizeof(h))
		return ODB_ERR_SLICES_TRUNCATED;
	*lenp = want;
	return 0;
}

static int finish_open(struct odb_slices *s, int ret, struct odb_slices **sp)
{
	if (ret) {
		odb_slices_close(s);
		return ret;
	}
	*sp = s;
	return 0;
}

int odb_slices_open(int dirfd, const char *name, struct odb_slices **sp)
{
	struct odb_slices *s;
	size_t len = 0;
	int fd, ret;

	*sp = NULL;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return errno == ELOOP ? ODB_ERR_NOT_REGULAR : -errno;
	s = op_calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return -ENOMEM;
	}
	ret = read_all(fd, s, &len);
	close(fd);
	if (!ret)
		ret = take(s, len);
	return finish_open(s, ret, sp);
}

int odb_slices_open_mem(const void *data, size_t len, struct odb_slices **sp)
{
	struct odb_slices *s;

	*sp = NULL;
	s = op_calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->buf = op_malloc(len ? len : 1);
	if (!s->buf)
		return finish_open(s, -ENOMEM, sp);
	if (len)
		memcpy(s->buf, data, len);
	return finish_open(s, take(s, len), sp);
}

void odb_slices_close(struct odb_slices *s)
{
	if (!s)
		return;
	free(s->buf);
	free(s->files);
	free(s->slices);
	free(s);
}

uint64_t odb_slices_start(const struct odb_slices *s)
{
	return s->start_ns;
}

uint32_t odb_slices_flags(const struct odb_slices *s)
{
	return s->flags;
}

uint64_t odb_slices_dropped(const struct odb_slices *s)
{
	return s->dropped;
}

size_t odb_slices_nr_files(const struct odb_slices *s)
{
	return s->nr_files;
}

const char *odb_slices_file(const struct odb_slices *s, size_t i)
{
	return (const char *)s->buf + s->files[i];
}

size_t odb_slices_nr_slices(const struct odb_slices *s)
{
	return s->nr_slices;
}

void odb_slices_get(const struct odb_slices *s, size_t i, struct odb_slice *sl)
{
	struct odb_slices_rec r;

	memcpy(&r, s->buf + s->slices[i], sizeof(r));
	start_walk(sl, s->buf + s->slices[i], r.size);
}

/* count the FILE records of buf[0 .. len) (whole records of a file) */
static int count_files(const unsigned char *buf, size_t len, size_t *used,
		       size_t *nr_files)
{
	size_t off = 0;

	while (len - off >= sizeof(struct odb_slices_rec)) {
		struct odb_slices_rec r;

		memcpy(&r, buf + off, sizeof(r));
		if (r.size < sizeof(r) || r.size % 8 || r.size > len - off)
			return ODB_ERR_SLICES_BAD_RECORD;
		*nr_files += r.type == ODB_SLICES_FILE;
		off += r.size;
	}
	*used = off;
	return off == len ? 0 : ODB_ERR_SLICES_BAD_RECORD;
}

int odb_slices_follow(int dirfd, const char *name, struct odb_slices_cursor *c)
{
	struct odb_slices_header h;
	struct odb_slices_cursor n = *c;
	unsigned char *buf;
	size_t len, used = 0;
	struct stat st;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return errno == ELOOP ? ODB_ERR_NOT_REGULAR : -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size < sizeof(h) ||
	    pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    h.committed > (uint64_t)st.st_size - sizeof(h) ||
	    memcmp(h.magic, ODB_SLICES_MAGIC, sizeof(h.magic)) ||
	    h.version != ODB_SLICES_VERSION || h.committed % 8 ||
	    h.committed > MAX_FILE_SIZE) {
		close(fd);
		return ODB_ERR_SLICES_TRUNCATED;
	}
	if (h.start_ns != n.start_ns || sizeof(h) + h.committed < n.offset ||
	    n.offset < sizeof(h)) {
		n.start_ns = h.start_ns;
		n.offset = sizeof(h);
		n.nr_files = 0;
	}
	len = (size_t)(sizeof(h) + h.committed - n.offset);
	buf = op_malloc(len ? len : 1);
	ret = buf ? 0 : -ENOMEM;
	if (!ret && len && pread(fd, buf, len, (off_t)n.offset) != (ssize_t)len)
		ret = ODB_ERR_SLICES_TRUNCATED;
	close(fd);
	if (!ret)
		ret = count_files(buf, len, &used, &n.nr_files);
	free(buf);
	if (ret)
		return ret;
	n.offset += used;
	*c = n;
	return 0;
}
