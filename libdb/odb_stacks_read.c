// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack file (odb_stacks.h): checking its records, shared by the
 * reader and by a writer reopening a file, and the read-only side.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_int.h"
#include "libdb/odb_stacks.h"
#include "libutil/op_alloc.h"

/* v, or v grown (doubled) when its alloc elements of size are all used
 * (nr); NULL when out of memory (v is left as it was) */
static void *grow(void *v, size_t nr, size_t *alloc, size_t size)
{
	size_t n;
	void *p;

	if (nr < *alloc)
		return v;
	n = *alloc ? *alloc * 2 : 64;
	p = op_reallocarray(v, n, size);
	if (p)
		*alloc = n;
	return p;
}

int odb_stacks_push(uint64_t **v, size_t *nr, size_t *alloc, uint64_t off)
{
	uint64_t *p = grow(*v, *nr, alloc, sizeof(*p));

	if (!p)
		return -ENOMEM;
	*v = p;
	p[(*nr)++] = off;
	return 0;
}

/* a NUL-terminated string filling the record's payload */
static bool string_ok(const unsigned char *p, size_t len)
{
	return len > 0 && memchr(p, '\0', len) != NULL;
}

static bool stack_ok(const unsigned char *p, size_t size, uint32_t nr_events,
		     size_t nr_images)
{
	struct odb_stack_head h;
	const unsigned char *f;
	uint32_t i;

	if (size < sizeof(struct odb_stacks_rec) + sizeof(h))
		return false;
	memcpy(&h, p + sizeof(struct odb_stacks_rec), sizeof(h));
	if (!h.nr_frames || h.nr_frames > ODB_STACKS_MAX_FRAMES || h.app >= nr_images ||
	    size != odb_stacks_rec_size(nr_events, h.nr_frames))
		return false;
	f = p + sizeof(struct odb_stacks_rec) + sizeof(h) + 8u * nr_events;
	for (i = 0; i < h.nr_frames; i++) {
		struct odb_stack_frame fr;

		memcpy(&fr, f + i * sizeof(fr), sizeof(fr));
		if (fr.image >= nr_images)
			return false;
	}
	return true;
}

static int push_node(struct odb_stacks_scan *sc, uint64_t off, uint16_t depth)
{
	uint16_t *p = grow(sc->depth, sc->nr_node, &sc->a_depth, sizeof(*p));

	if (!p)
		return -ENOMEM;
	sc->depth = p;
	p[sc->nr_node] = depth;
	return odb_stacks_push(&sc->node, &sc->nr_node, &sc->a_node, off);
}

/*
 * A NODE record at map + off of size bytes: its image recorded before, its
 * parent an earlier node (so no chain loops), its depth within the limit;
 * a root (the application) at offset 0 counting nothing.  Indexed in
 * sc->node and, when it counts samples, sc->stk.
 */
static int node_scan(const unsigned char *map, uint64_t off, uint32_t nr_events,
		     struct odb_stacks_scan *sc)
{
	struct odb_stack_node n;
	const unsigned char *c = map + off + sizeof(n);
	uint64_t any = 0;
	uint32_t depth = 0, i;
	size_t idx = sc->nr_node;
	int ret;

	memcpy(&n, map + off, sizeof(n));
	for (i = 0; i < nr_events; i++) {
		uint64_t v;

		memcpy(&v, c + 8u * i, sizeof(v));
		any |= v;
	}
	if ((n.tag >> 8) >= sc->nr_img)
		return ODB_ERR_STACKS_BAD_RECORD;
	if (n.parent == ODB_STACKS_NO_PARENT) {
		if (n.offset || any)
			return ODB_ERR_STACKS_BAD_RECORD;
	} else {
		if (n.parent >= idx || sc->depth[n.parent] >= ODB_STACKS_MAX_FRAMES)
			return ODB_ERR_STACKS_BAD_RECORD;
		depth = sc->depth[n.parent] + 1u;
	}
	ret = push_node(sc, off, (uint16_t)depth);
	if (!ret && any)
		ret = odb_stacks_push(&sc->stk, &sc->nr_stk, &sc->a_stk, idx);
	return ret;
}

void odb_stacks_scan_release(struct odb_stacks_scan *sc)
{
	free(sc->ev);
	free(sc->img);
	free(sc->stk);
	free(sc->node);
	free(sc->depth);
	memset(sc, 0, sizeof(*sc));
}

/* the record at off: its type and size, or 0 when malformed */
static uint32_t record(const unsigned char *map, uint64_t off, uint64_t end,
		       uint32_t version, uint32_t nr_events, uint64_t *size)
{
	struct odb_stacks_rec r;

	if (end - off < sizeof(r))
		return 0;
	memcpy(&r, map + off, sizeof(r));
	if (version != ODB_STACKS_VERSION_1 &&
	    (r.type & ODB_STACKS_TYPE_MASK) == ODB_STACKS_NODE) {
		*size = odb_stacks_node_size(nr_events);
		return *size <= end - off ? ODB_STACKS_NODE : 0;
	}
	if (r.size < sizeof(r) || r.size % 8 || r.size > end - off)
		return 0;
	*size = r.size;
	return r.type;
}

int odb_stacks_scan(const unsigned char *map, uint64_t end, uint32_t version,
		    uint32_t nr_events, struct odb_stacks_scan *sc)
{
	uint64_t off = sizeof(struct odb_stacks_header);
	int ret = 0;

	memset(sc, 0, sizeof(*sc));
	sc->version = version;
	while (off < end && !ret) {
		uint64_t size = 0;
		uint32_t type = record(map, off, end, version, nr_events, &size);
		const unsigned char *body = map + off + sizeof(struct odb_stacks_rec);

		if (type != ODB_STACKS_EVENT && sc->nr_ev < nr_events)
			type = 0;	/* the events come first */
		switch (type) {
		case ODB_STACKS_EVENT:
			if (sc->nr_ev == nr_events || !string_ok(body, size - 8))
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = odb_stacks_push(&sc->ev, &sc->nr_ev, &sc->a_ev, off + 8);
			break;
		case ODB_STACKS_IMAGE:
			if (!string_ok(body, size - 8))
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = odb_stacks_push(&sc->img, &sc->nr_img, &sc->a_img,
						      off + 8);
			break;
		case ODB_STACKS_STACK:
			if (version != ODB_STACKS_VERSION_1 ||
			    !stack_ok(map + off, size, nr_events, sc->nr_img))
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = odb_stacks_push(&sc->stk, &sc->nr_stk, &sc->a_stk, off);
			break;
		case ODB_STACKS_NODE:
			/* record() sized it as a node only in version 2 */
			if (version == ODB_STACKS_VERSION_1)
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = node_scan(map, off, nr_events, sc);
			break;
		default:
			ret = ODB_ERR_STACKS_BAD_RECORD;
			break;
		}
		off += size;
	}
	if (!ret && sc->nr_ev != nr_events)
		ret = ODB_ERR_STACKS_BAD_RECORD;
	if (ret)
		odb_stacks_scan_release(sc);
	return ret;
}

int odb_stacks_check_header(const struct odb_stacks_header *h, uint64_t file_size)
{
	if (file_size < sizeof(*h))
		return file_size ? ODB_ERR_STACKS_TRUNCATED : ODB_ERR_EMPTY;
	if (memcmp(h->magic, ODB_STACKS_MAGIC, sizeof(h->magic)))
		return ODB_ERR_BAD_MAGIC;
	if (h->version != ODB_STACKS_VERSION && h->version != ODB_STACKS_VERSION_1)
		return ODB_ERR_BAD_VERSION;
	if (!h->nr_events || h->nr_events > ODB_STACKS_MAX_EVENTS)
		return ODB_ERR_STACKS_BAD_RECORD;
	return 0;
}

/* the counts of a node that no longer checks out */
static const uint64_t zero_counts[ODB_STACKS_MAX_EVENTS];

struct odb_stacks {
	unsigned char *map;
	size_t map_size;
	uint32_t nr_events;
	uint32_t version;
	uint64_t dropped;
	struct odb_stacks_scan sc;
};

/* map fd whole; the committed length must lie within: a writer grows the
 * file before it commits, so a second look settles a race with it */
static int map_committed(int fd, unsigned char **mapp, size_t *sizep, uint64_t *endp)
{
	int tries;

	for (tries = 0; tries < 3; tries++) {
		const struct odb_stacks_header *h;
		struct stat st;
		unsigned char *map;
		uint64_t committed;
		int ret;

		if (fstat(fd, &st))
			return -errno;
		if (!S_ISREG(st.st_mode))
			return ODB_ERR_NOT_REGULAR;
		if ((uint64_t)st.st_size < sizeof(*h) || (uint64_t)st.st_size > SIZE_MAX)
			return st.st_size ? ODB_ERR_STACKS_TRUNCATED : ODB_ERR_EMPTY;
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			return -errno;
		h = (const struct odb_stacks_header *)map;
		ret = odb_stacks_check_header(h, (uint64_t)st.st_size);
		committed = __atomic_load_n(&h->committed, __ATOMIC_ACQUIRE);
		if (!ret && committed <= (uint64_t)st.st_size - sizeof(*h)) {
			*mapp = map;
			*sizep = (size_t)st.st_size;
			*endp = sizeof(*h) + committed;
			return 0;
		}
		munmap(map, (size_t)st.st_size);
		if (ret)
			return ret;
	}
	return ODB_ERR_STACKS_TRUNCATED;
}

int odb_stacks_open(const char *path, struct odb_stacks **sp)
{
	struct odb_stacks *s;
	uint64_t end = 0;
	int fd, ret;

	*sp = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	s = op_calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return -ENOMEM;
	}
	ret = map_committed(fd, &s->map, &s->map_size, &end);
	close(fd);
	if (ret) {
		free(s);
		return ret;
	}
	s->nr_events = ((const struct odb_stacks_header *)s->map)->nr_events;
	s->version = ((const struct odb_stacks_header *)s->map)->version;
	s->dropped = __atomic_load_n(&((const struct odb_stacks_header *)s->map)->dropped,
				     __ATOMIC_RELAXED);
	ret = odb_stacks_scan(s->map, end, s->version, s->nr_events, &s->sc);
	if (ret) {
		munmap(s->map, s->map_size);
		free(s);
		return ret;
	}
	*sp = s;
	return 0;
}

void odb_stacks_close(struct odb_stacks *s)
{
	if (!s)
		return;
	odb_stacks_scan_release(&s->sc);
	munmap(s->map, s->map_size);
	free(s);
}

size_t odb_stacks_nr_events(const struct odb_stacks *s)
{
	return s->nr_events;
}

const char *odb_stacks_event(const struct odb_stacks *s, size_t i)
{
	return (const char *)s->map + s->sc.ev[i];
}

size_t odb_stacks_nr_images(const struct odb_stacks *s)
{
	return s->sc.nr_img;
}

const char *odb_stacks_image(const struct odb_stacks *s, size_t i)
{
	return (const char *)s->map + s->sc.img[i];
}

size_t odb_stacks_nr_stacks(const struct odb_stacks *s)
{
	return s->sc.nr_stk;
}

/* the frames of node i and its ancestors into buf, leaf first: checked
 * again as they are followed (parents before children, within the
 * committed nodes), so a file changed since opening cannot loop */
static uint32_t node_frames(const struct odb_stacks *s, uint64_t i,
			    struct odb_stack_frame *buf, uint32_t *app)
{
	uint32_t nr = 0;

	for (;;) {
		struct odb_stack_node n;

		memcpy(&n, s->map + s->sc.node[i], sizeof(n));
		if (n.parent == ODB_STACKS_NO_PARENT || n.parent >= i ||
		    nr == ODB_STACKS_MAX_FRAMES) {
			*app = n.tag >> 8;
			return nr;
		}
		buf[nr].image = n.tag >> 8;
		buf[nr].reserved = 0;
		buf[nr++].offset = n.offset;
		i = n.parent;
	}
}

void odb_stacks_get(const struct odb_stacks *s, size_t i, struct odb_stack *st,
		    struct odb_stack_frame *buf)
{
	uint64_t node;

	if (s->version == ODB_STACKS_VERSION_1) {
		odb_stacks_decode(s->map + s->sc.stk[i], s->nr_events, st);
		return;
	}
	node = s->sc.stk[i];
	st->nr_frames = node_frames(s, node, buf, &st->app);
	st->counts = (const uint64_t *)(s->map + s->sc.node[node] +
					sizeof(struct odb_stack_node));
	st->frames = buf;
}

uint64_t odb_stacks_dropped(const struct odb_stacks *s)
{
	return s->dropped;
}

size_t odb_stacks_nr_nodes(const struct odb_stacks *s)
{
	return s->version == ODB_STACKS_VERSION_1 ? 0 : s->sc.nr_node;
}

bool odb_stacks_node(const struct odb_stacks *s, size_t n, struct odb_stack_tree_node *v)
{
	struct odb_stack_node node;

	memcpy(&node, s->map + s->sc.node[n], sizeof(node));
	v->counts = (const uint64_t *)(s->map + s->sc.node[n] + sizeof(node));
	v->image = node.tag >> 8;
	v->parent = node.parent;
	v->offset = node.offset;
	/* checked when opened; checked again, as node_frames() does */
	if (v->image >= s->sc.nr_img ||
	    (v->parent != ODB_STACKS_NO_PARENT && v->parent >= n)) {
		v->image = 0;
		v->parent = ODB_STACKS_NO_PARENT;
		v->offset = 0;
		v->counts = zero_counts;
		return false;
	}
	return true;
}

size_t odb_stacks_stack_node(const struct odb_stacks *s, size_t i)
{
	return s->version == ODB_STACKS_VERSION_1 ? 0 : s->sc.stk[i];
}
