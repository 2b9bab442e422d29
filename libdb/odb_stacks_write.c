// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack file's writer (odb_stacks.h): interning images and stacks,
 * appending records and committing them.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_int.h"
#include "libdb/odb_stacks.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

#define GROW_STEP (64u << 10)

struct odb_stacks_writer {
	int fd;
	unsigned char *map;
	size_t map_size;
	uint64_t end;			/* header + committed records */
	uint64_t limit;
	uint32_t nr_events;
	struct odb_stacks_scan sc;	/* image and stack offsets */
	size_t a_img;			/* allocated of sc.img */
	struct op_hmap images;		/* name hash -> image number + 1 */
	struct op_hmap stacks;		/* stack hash -> record offset */
};

static struct odb_stacks_header *header(struct odb_stacks_writer *w)
{
	return (struct odb_stacks_header *)w->map;
}

static uint64_t rec_bytes(size_t payload)
{
	return (sizeof(struct odb_stacks_rec) + payload + 7) & ~7ull;
}

/* header and EVENT records into a new "PATH.tmp", renamed to path */
static int create(const struct op_dir *dir, const char *path,
		  const char *const *events, size_t nr, uint64_t limit)
{
	struct odb_stacks_header h = { .version = ODB_STACKS_VERSION };
	unsigned char *buf;
	char tmp[4096];
	uint64_t len = sizeof(h);
	size_t i;
	int fd, ret = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	for (i = 0; i < nr; i++)
		len += rec_bytes(strlen(events[i]) + 1);
	if (len > limit)
		return ODB_ERR_STACKS_FULL;
	buf = op_calloc(1, (size_t)len);
	if (!buf)
		return -ENOMEM;
	memcpy(h.magic, ODB_STACKS_MAGIC, sizeof(h.magic));
	h.nr_events = (uint32_t)nr;
	h.committed = len - sizeof(h);
	h.limit = limit;
	memcpy(buf, &h, sizeof(h));
	for (len = sizeof(h), i = 0; i < nr; i++) {
		struct odb_stacks_rec r = { ODB_STACKS_EVENT,
					    (uint32_t)rec_bytes(strlen(events[i]) + 1) };

		memcpy(buf + len, &r, sizeof(r));
		memcpy(buf + len + sizeof(r), events[i], strlen(events[i]));
		len += r.size;
	}
	fd = op_dir_open_file(dir, tmp, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		free(buf);
		return fd;
	}
	if (pwrite(fd, buf, (size_t)len, 0) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = op_dir_rename(dir, tmp, path);
	if (ret)
		op_dir_unlink(dir, tmp);
	free(buf);
	return ret;
}

static uint64_t stack_hash(uint32_t app, const struct odb_stack_frame *frames,
			   size_t nr)
{
	uint64_t h = op_hash_u64(app);
	size_t i;

	/* a word per frame: this runs for every sample */
	for (i = 0; i < nr; i++)
		h = op_hash_combine(h, frames[i].offset ^ ((uint64_t)frames[i].image << 48));
	return h;
}

/* the index of what a reopened file holds */
static int index_records(struct odb_stacks_writer *w)
{
	size_t i;

	w->a_img = w->sc.nr_img;
	for (i = 0; i < w->sc.nr_img; i++)
		if (op_hmap_insert(&w->images, op_hash_str((char *)w->map + w->sc.img[i]),
				   (void *)(uintptr_t)(i + 1)))
			return -ENOMEM;
	for (i = 0; i < w->sc.nr_stk; i++) {
		struct odb_stack st;

		odb_stacks_decode(w->map + w->sc.stk[i], w->nr_events, &st);
		if (op_hmap_insert(&w->stacks, stack_hash(st.app, st.frames, st.nr_frames),
				   (void *)(uintptr_t)w->sc.stk[i]))
			return -ENOMEM;
	}
	/* the writer finds stacks through its index, not the list */
	free(w->sc.stk);
	w->sc.stk = NULL;
	w->sc.nr_stk = 0;
	return 0;
}

static bool same_events(struct odb_stacks_writer *w, const char *const *events,
			size_t nr)
{
	size_t i;

	if (nr != w->nr_events)
		return false;
	for (i = 0; i < nr; i++)
		if (strcmp((char *)w->map + w->sc.ev[i], events[i]))
			return false;
	return true;
}

/* open an existing file for adding: checked as a reader checks it */
static int reopen(struct odb_stacks_writer *w, const struct op_dir *dir,
		  const char *path, const char *const *events, size_t nr)
{
	const struct odb_stacks_header *h;
	struct stat st;
	uint64_t committed;
	int ret;

	w->fd = op_dir_open_file(dir, path, O_RDWR, 0);
	if (w->fd < 0)
		return w->fd;
	if (fstat(w->fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return ODB_ERR_NOT_REGULAR;
	if ((uint64_t)st.st_size < sizeof(*h))
		return st.st_size ? ODB_ERR_STACKS_TRUNCATED : ODB_ERR_EMPTY;
	w->map_size = (size_t)st.st_size;
	w->map = mmap(NULL, w->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
	if (w->map == MAP_FAILED) {
		w->map = NULL;
		return -errno;
	}
	h = header(w);
	ret = odb_stacks_check_header(h, w->map_size);
	if (ret)
		return ret;
	committed = h->committed;
	if (committed > w->map_size - sizeof(*h))
		return ODB_ERR_STACKS_TRUNCATED;
	w->end = sizeof(*h) + committed;
	w->nr_events = h->nr_events;
	ret = odb_stacks_scan(w->map, w->end, w->nr_events, &w->sc);
	if (ret)
		return ret;
	if (!same_events(w, events, nr))
		return ODB_ERR_STACKS_OTHER_EVENTS;
	return index_records(w);
}

static void reset(struct odb_stacks_writer *w)
{
	if (w->map)
		munmap(w->map, w->map_size);
	if (w->fd >= 0)
		close(w->fd);
	odb_stacks_scan_release(&w->sc);
	op_hmap_release(&w->images);
	op_hmap_release(&w->stacks);
	w->map = NULL;
	w->fd = -1;
	w->a_img = 0;
}

int odb_stacks_writer_open(const struct op_dir *dir, const char *path,
			   const char *const *events, size_t nr, uint64_t limit,
			   struct odb_stacks_writer **wp)
{
	struct odb_stacks_writer *w;
	int ret;

	*wp = NULL;
	if (!nr || nr > ODB_STACKS_MAX_EVENTS)
		return -EINVAL;
	if (!limit)
		limit = ODB_STACKS_DEFAULT_LIMIT;
	if (limit < ODB_STACKS_MIN_LIMIT)
		limit = ODB_STACKS_MIN_LIMIT;
	w = op_calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = -1;
	w->limit = limit;
	op_hmap_init(&w->images);
	op_hmap_init(&w->stacks);
	ret = reopen(w, dir, path, events, nr);
	if (ret && ret != -ENOMEM && ret != ODB_ERR_STACKS_OTHER_EVENTS) {
		/* missing or unreadable: start a new file */
		reset(w);
		ret = create(dir, path, events, nr, limit);
		if (!ret)
			ret = reopen(w, dir, path, events, nr);
	}
	if (ret) {
		reset(w);
		free(w);
		return ret;
	}
	w->limit = limit > w->map_size ? limit : w->map_size;
	*wp = w;
	return 0;
}

/* room for len more bytes past the committed ones, growing the file */
static int room(struct odb_stacks_writer *w, uint64_t len)
{
	uint64_t want = w->end + len, size;
	void *map;

	if (want <= w->map_size)
		return 0;
	if (want > w->limit)
		return ODB_ERR_STACKS_FULL;
	size = (uint64_t)w->map_size * 2;
	if (size < want)
		size = want;
	size = (size + GROW_STEP - 1) / GROW_STEP * GROW_STEP;
	if (size > w->limit)
		size = w->limit;
	if (size > SIZE_MAX)
		return -ENOMEM;
	if (ftruncate(w->fd, (off_t)size))
		return -errno;
	map = mremap(w->map, w->map_size, (size_t)size, MREMAP_MAYMOVE);
	if (map == MAP_FAILED)
		return -errno;
	w->map = map;
	w->map_size = (size_t)size;
	return 0;
}

/* publish the records written past the committed end */
static void commit(struct odb_stacks_writer *w, uint64_t len)
{
	w->end += len;
	__atomic_store_n(&header(w)->committed, w->end - sizeof(struct odb_stacks_header),
			 __ATOMIC_RELEASE);
}

int odb_stacks_writer_image(struct odb_stacks_writer *w, const char *name,
			    uint32_t *id)
{
	uint64_t h = op_hash_str(name), len;
	struct op_hmap_iter it;
	struct odb_stacks_rec r;
	uint64_t *img;
	void *v;
	int ret;

	for (v = op_hmap_first(&w->images, h, &it); v; v = op_hmap_next(&w->images, h, &it)) {
		size_t i = (uintptr_t)v - 1;

		if (!strcmp((char *)w->map + w->sc.img[i], name)) {
			*id = (uint32_t)i;
			return 0;
		}
	}
	if (w->sc.nr_img >= UINT32_MAX - 1)
		return ODB_ERR_STACKS_FULL;
	if (w->sc.nr_img == w->a_img) {
		size_t n = w->a_img ? w->a_img * 2 : 64;

		img = op_reallocarray(w->sc.img, n, sizeof(*img));
		if (!img)
			return -ENOMEM;
		w->sc.img = img;
		w->a_img = n;
	}
	len = rec_bytes(strlen(name) + 1);
	if (len > UINT32_MAX)
		return -ENAMETOOLONG;
	ret = room(w, len);
	if (ret)
		return ret;
	if (op_hmap_insert(&w->images, h, (void *)(uintptr_t)(w->sc.nr_img + 1)))
		return -ENOMEM;
	r.type = ODB_STACKS_IMAGE;
	r.size = (uint32_t)len;
	memset(w->map + w->end, 0, (size_t)len);
	memcpy(w->map + w->end, &r, sizeof(r));
	memcpy(w->map + w->end + sizeof(r), name, strlen(name));
	w->sc.img[w->sc.nr_img++] = w->end + sizeof(r);
	commit(w, len);
	*id = (uint32_t)(w->sc.nr_img - 1);
	return 0;
}

static uint64_t *find(struct odb_stacks_writer *w, uint64_t h, uint32_t app,
		      const struct odb_stack_frame *frames, size_t nr)
{
	struct op_hmap_iter it;
	void *v;

	for (v = op_hmap_first(&w->stacks, h, &it); v; v = op_hmap_next(&w->stacks, h, &it)) {
		struct odb_stack st;

		odb_stacks_decode(w->map + (uintptr_t)v, w->nr_events, &st);
		if (st.app == app && st.nr_frames == nr &&
		    !memcmp(st.frames, frames, nr * sizeof(*frames)))
			return (uint64_t *)st.counts;
	}
	return NULL;
}

static void drop(struct odb_stacks_writer *w, uint64_t count)
{
	__atomic_fetch_add(&header(w)->dropped, count, __ATOMIC_RELAXED);
}

int odb_stacks_writer_add(struct odb_stacks_writer *w, uint32_t app,
			  const struct odb_stack_frame *frames, size_t nr,
			  uint32_t event, uint64_t count)
{
	struct odb_stack_head sh = { app, (uint32_t)nr };
	struct odb_stacks_rec r = { ODB_STACKS_STACK, 0 };
	uint64_t h, len, *counts;
	size_t i;
	int ret;

	if (event >= w->nr_events || !nr || nr > ODB_STACKS_MAX_FRAMES ||
	    app >= w->sc.nr_img)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (frames[i].image >= w->sc.nr_img || frames[i].reserved)
			return -EINVAL;
	h = stack_hash(app, frames, nr);
	counts = find(w, h, app, frames, nr);
	if (counts) {
		/* one writer: a plain (untorn) store, no locked add */
		__atomic_store_n(&counts[event],
				 __atomic_load_n(&counts[event], __ATOMIC_RELAXED) + count,
				 __ATOMIC_RELAXED);
		return 0;
	}
	len = odb_stacks_rec_size(w->nr_events, (uint32_t)nr);
	ret = room(w, len);
	if (ret) {
		drop(w, count);
		return ret;
	}
	if (op_hmap_insert(&w->stacks, h, (void *)(uintptr_t)w->end)) {
		drop(w, count);
		return -ENOMEM;
	}
	r.size = (uint32_t)len;
	memcpy(w->map + w->end, &r, sizeof(r));
	memcpy(w->map + w->end + sizeof(r), &sh, sizeof(sh));
	counts = (uint64_t *)(w->map + w->end + sizeof(r) + sizeof(sh));
	memset(counts, 0, 8u * w->nr_events);
	counts[event] = count;
	memcpy(counts + w->nr_events, frames, nr * sizeof(*frames));
	commit(w, len);
	return 0;
}

uint64_t odb_stacks_writer_dropped(const struct odb_stacks_writer *w)
{
	return __atomic_load_n(&((const struct odb_stacks_header *)w->map)->dropped,
			       __ATOMIC_RELAXED);
}

int odb_stacks_writer_close(struct odb_stacks_writer *w)
{
	int ret = 0;

	if (!w)
		return 0;
	if (w->map && munmap(w->map, w->map_size))
		ret = -errno;
	w->map = NULL;
	if (w->fd >= 0 && close(w->fd) && !ret)
		ret = -errno;
	w->fd = -1;
	reset(w);
	free(w);
	return ret;
}
