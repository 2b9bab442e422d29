// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack file's writer (odb_stacks.h): interning images and the nodes
 * of the stack tree (version 2), appending records and committing them;
 * a version 1 file opened for adding is converted first.
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
	struct odb_stacks_scan sc;	/* event, image and node offsets */
	struct op_hmap images;		/* name hash -> image number + 1 */
	struct op_hmap nodes;		/* node hash -> node number + 1 */
};

static struct odb_stacks_header *header(struct odb_stacks_writer *w)
{
	return (struct odb_stacks_header *)w->map;
}

static uint64_t rec_bytes(size_t payload)
{
	return (sizeof(struct odb_stacks_rec) + payload + 7) & ~7ull;
}

static int tmp_name(char *tmp, size_t size, const char *path)
{
	int n = snprintf(tmp, size, "%s.tmp", path);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* header and EVENT records into a new "PATH.tmp", renamed to path when
 * publish says so */
static int create(const struct op_dir *dir, const char *path, bool publish,
		  const char *const *events, size_t nr, uint64_t limit)
{
	struct odb_stacks_header h = { .version = ODB_STACKS_VERSION };
	unsigned char *buf;
	char tmp[4096];
	uint64_t len = sizeof(h);
	size_t i;
	int fd, ret = 0;

	ret = tmp_name(tmp, sizeof(tmp), path);
	if (ret)
		return ret;
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
	if (!ret && publish)
		ret = op_dir_rename(dir, tmp, path);
	if (ret)
		op_dir_unlink(dir, tmp);
	free(buf);
	return ret;
}

static uint64_t node_hash(uint32_t parent, uint32_t image, uint64_t offset)
{
	return op_hash_combine(op_hash_u64(((uint64_t)parent << 32) | image), offset);
}

static const struct odb_stack_node *node_at(const struct odb_stacks_writer *w,
					    uint32_t id)
{
	return (const struct odb_stack_node *)(w->map + w->sc.node[id]);
}

/* the index of what a reopened file holds */
static int index_records(struct odb_stacks_writer *w)
{
	size_t i;

	for (i = 0; i < w->sc.nr_img; i++)
		if (op_hmap_insert(&w->images, op_hash_str((char *)w->map + w->sc.img[i]),
				   (void *)(uintptr_t)(i + 1)))
			return -ENOMEM;
	for (i = 0; i < w->sc.nr_node; i++) {
		const struct odb_stack_node *n = node_at(w, (uint32_t)i);

		if (op_hmap_insert(&w->nodes, node_hash(n->parent, n->tag >> 8, n->offset),
				   (void *)(uintptr_t)(i + 1)))
			return -ENOMEM;
	}
	/* the writer needs neither the depths nor the list of stacks */
	free(w->sc.stk);
	free(w->sc.depth);
	w->sc.stk = NULL;
	w->sc.depth = NULL;
	w->sc.nr_stk = w->sc.a_stk = w->sc.a_depth = 0;
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
	ret = odb_stacks_scan(w->map, w->end, h->version, w->nr_events, &w->sc);
	if (ret)
		return ret;
	if (!same_events(w, events, nr))
		return ODB_ERR_STACKS_OTHER_EVENTS;
	if (h->version == ODB_STACKS_VERSION_1)
		return ODB_ERR_STACKS_OLD_VERSION;
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
	op_hmap_release(&w->nodes);
	w->map = NULL;
	w->fd = -1;
}

static struct odb_stacks_writer *writer_new(uint64_t limit)
{
	struct odb_stacks_writer *w = op_calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->fd = -1;
	w->limit = limit;
	op_hmap_init(&w->images);
	op_hmap_init(&w->nodes);
	return w;
}

static int convert(const struct odb_stacks_writer *old, const struct op_dir *dir,
		   const char *path, const char *const *events, size_t nr);

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
	w = writer_new(limit);
	if (!w)
		return -ENOMEM;
	ret = reopen(w, dir, path, events, nr);
	if (ret == ODB_ERR_STACKS_OLD_VERSION) {
		ret = convert(w, dir, path, events, nr);
		reset(w);
		if (!ret)
			ret = reopen(w, dir, path, events, nr);
	} else if (ret && ret != -ENOMEM && ret != ODB_ERR_STACKS_OTHER_EVENTS) {
		/* missing or unreadable: start a new file */
		reset(w);
		ret = create(dir, path, true, events, nr, limit);
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
	void *v;
	int ret;

	for (v = op_hmap_first(&w->images, h, &it); v; v = op_hmap_next(&w->images, h, &it)) {
		size_t i = (uintptr_t)v - 1;

		if (!strcmp((char *)w->map + w->sc.img[i], name)) {
			*id = (uint32_t)i;
			return 0;
		}
	}
	if (w->sc.nr_img >= ODB_STACKS_MAX_IMAGES)	/* numbers of 24 bits */
		return ODB_ERR_STACKS_FULL;
	len = rec_bytes(strlen(name) + 1);
	if (len > UINT32_MAX)
		return -ENAMETOOLONG;
	ret = room(w, len);
	if (!ret)
		ret = odb_stacks_push(&w->sc.img, &w->sc.nr_img, &w->sc.a_img, w->end + sizeof(r));
	if (ret)
		return ret;
	if (op_hmap_insert(&w->images, h, (void *)(uintptr_t)w->sc.nr_img)) {
		w->sc.nr_img--;
		return -ENOMEM;
	}
	r.type = ODB_STACKS_IMAGE;
	r.size = (uint32_t)len;
	memset(w->map + w->end, 0, (size_t)len);
	memcpy(w->map + w->end, &r, sizeof(r));
	memcpy(w->map + w->end + sizeof(r), name, strlen(name));
	commit(w, len);
	*id = (uint32_t)(w->sc.nr_img - 1);
	return 0;
}

static void drop(struct odb_stacks_writer *w, uint64_t count)
{
	__atomic_fetch_add(&header(w)->dropped, count, __ATOMIC_RELAXED);
}

/* the node (parent, image, offset), appended if new: 0 or an error */
static int node(struct odb_stacks_writer *w, uint32_t parent, uint32_t image,
		uint64_t offset, uint32_t *id)
{
	struct odb_stack_node n = { ODB_STACKS_NODE | image << 8, parent, offset };
	uint64_t h = node_hash(parent, image, offset);
	uint64_t len = odb_stacks_node_size(w->nr_events);
	struct op_hmap_iter it;
	void *v;
	int ret;

	for (v = op_hmap_first(&w->nodes, h, &it); v; v = op_hmap_next(&w->nodes, h, &it)) {
		const struct odb_stack_node *o = node_at(w, (uint32_t)((uintptr_t)v - 1));

		if (o->parent == parent && o->tag == n.tag && o->offset == offset) {
			*id = (uint32_t)((uintptr_t)v - 1);
			return 0;
		}
	}
	if (w->sc.nr_node >= ODB_STACKS_NO_PARENT)
		return ODB_ERR_STACKS_FULL;
	ret = room(w, len);
	if (!ret)
		ret = odb_stacks_push(&w->sc.node, &w->sc.nr_node, &w->sc.a_node, w->end);
	if (ret)
		return ret;
	if (op_hmap_insert(&w->nodes, h, (void *)(uintptr_t)w->sc.nr_node)) {
		w->sc.nr_node--;
		return -ENOMEM;
	}
	memset(w->map + w->end, 0, (size_t)len);
	memcpy(w->map + w->end, &n, sizeof(n));
	*id = (uint32_t)(w->sc.nr_node - 1);
	/* each node whole on its own: a stack cut short leaves callers
	 * that count nothing */
	commit(w, len);
	return 0;
}

int odb_stacks_writer_add(struct odb_stacks_writer *w, uint32_t app,
			  const struct odb_stack_frame *frames, size_t nr,
			  uint32_t event, uint64_t count)
{
	uint64_t *counts;
	uint32_t id;
	size_t i;
	int ret;

	if (event >= w->nr_events || !nr || nr > ODB_STACKS_MAX_FRAMES ||
	    app >= w->sc.nr_img)
		return -EINVAL;
	for (i = 0; i < nr; i++)
		if (frames[i].image >= w->sc.nr_img || frames[i].reserved)
			return -EINVAL;
	/* root (the application) first, then callers down to the leaf */
	ret = node(w, ODB_STACKS_NO_PARENT, app, 0, &id);
	for (i = nr; !ret && i-- > 0;)
		ret = node(w, id, frames[i].image, frames[i].offset, &id);
	if (ret) {
		drop(w, count);
		return ret;
	}
	counts = (uint64_t *)(w->map + w->sc.node[id] + sizeof(struct odb_stack_node));
	/* one writer: a plain (untorn) store, no locked add */
	__atomic_store_n(&counts[event],
			 __atomic_load_n(&counts[event], __ATOMIC_RELAXED) + count,
			 __ATOMIC_RELAXED);
	return 0;
}

/*
 * Rewrite the version 1 file old (open, of the same events) as version 2
 * through "PATH.tmp": the same images in the same order, every stack with
 * its counts, the dropped samples carried over.
 */
static int convert(const struct odb_stacks_writer *old, const struct op_dir *dir,
		   const char *path, const char *const *events, size_t nr)
{
	struct odb_stacks_writer *w;
	char tmp[4096];
	uint32_t id;
	size_t i, e;
	int ret;

	ret = tmp_name(tmp, sizeof(tmp), path);
	if (!ret)
		ret = create(dir, path, false, events, nr, old->limit);
	if (ret)
		return ret;
	w = writer_new(old->limit);
	ret = w ? reopen(w, dir, tmp, events, nr) : -ENOMEM;
	for (i = 0; !ret && i < old->sc.nr_img; i++)
		ret = odb_stacks_writer_image(w, (const char *)old->map + old->sc.img[i], &id);
	for (i = 0; !ret && i < old->sc.nr_stk; i++) {
		struct odb_stack st;

		odb_stacks_decode(old->map + old->sc.stk[i], old->nr_events, &st);
		for (e = 0; !ret && e < nr; e++)
			if (st.counts[e])
				ret = odb_stacks_writer_add(w, st.app, st.frames,
							    st.nr_frames, (uint32_t)e,
							    st.counts[e]);
		if (ret == ODB_ERR_STACKS_FULL)
			ret = 0;	/* counted as dropped */
	}
	if (!ret)
		drop(w, ((const struct odb_stacks_header *)old->map)->dropped);
	if (w) {
		int ret2 = odb_stacks_writer_close(w);

		if (!ret)
			ret = ret2;
	}
	if (!ret)
		ret = op_dir_rename(dir, tmp, path);
	if (ret)
		op_dir_unlink(dir, tmp);
	return ret;
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
	/* the apparent size is what was written, not the doubled mapping */
	if (w->fd >= 0 && w->map && w->end < w->map_size && ftruncate(w->fd, (off_t)w->end))
		ret = -errno;
	if (w->map && munmap(w->map, w->map_size) && !ret)
		ret = -errno;
	w->map = NULL;
	if (w->fd >= 0 && close(w->fd) && !ret)
		ret = -errno;
	w->fd = -1;
	reset(w);
	free(w);
	return ret;
}
