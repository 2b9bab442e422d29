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

static int push(uint64_t **v, size_t *nr, size_t *alloc, uint64_t off)
{
	if (*nr == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 64;
		uint64_t *p = op_reallocarray(*v, n, sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*alloc = n;
	}
	(*v)[(*nr)++] = off;
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

void odb_stacks_scan_release(struct odb_stacks_scan *sc)
{
	free(sc->ev);
	free(sc->img);
	free(sc->stk);
	memset(sc, 0, sizeof(*sc));
}

int odb_stacks_scan(const unsigned char *map, uint64_t end, uint32_t nr_events,
		    struct odb_stacks_scan *sc)
{
	uint64_t off = sizeof(struct odb_stacks_header);
	size_t a_ev = 0, a_img = 0, a_stk = 0;
	int ret = 0;

	memset(sc, 0, sizeof(*sc));
	while (off < end && !ret) {
		struct odb_stacks_rec r;
		const unsigned char *body;

		if (end - off < sizeof(r)) {
			ret = ODB_ERR_STACKS_BAD_RECORD;
			break;
		}
		memcpy(&r, map + off, sizeof(r));
		if (r.size < sizeof(r) || r.size % 8 || r.size > end - off) {
			ret = ODB_ERR_STACKS_BAD_RECORD;
			break;
		}
		body = map + off + sizeof(r);
		switch (r.type) {
		case ODB_STACKS_EVENT:
			if (sc->nr_ev == nr_events || !string_ok(body, r.size - sizeof(r)))
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = push(&sc->ev, &sc->nr_ev, &a_ev, off + sizeof(r));
			break;
		case ODB_STACKS_IMAGE:
			if (sc->nr_ev < nr_events || !string_ok(body, r.size - sizeof(r)))
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = push(&sc->img, &sc->nr_img, &a_img, off + sizeof(r));
			break;
		case ODB_STACKS_STACK:
			if (sc->nr_ev < nr_events ||
			    !stack_ok(map + off, r.size, nr_events, sc->nr_img))
				ret = ODB_ERR_STACKS_BAD_RECORD;
			else
				ret = push(&sc->stk, &sc->nr_stk, &a_stk, off);
			break;
		default:
			ret = ODB_ERR_STACKS_BAD_RECORD;
			break;
		}
		off += r.size;
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
	if (h->version != ODB_STACKS_VERSION)
		return ODB_ERR_BAD_VERSION;
	if (!h->nr_events || h->nr_events > ODB_STACKS_MAX_EVENTS)
		return ODB_ERR_STACKS_BAD_RECORD;
	return 0;
}

struct odb_stacks {
	unsigned char *map;
	size_t map_size;
	uint32_t nr_events;
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
	s->dropped = __atomic_load_n(&((const struct odb_stacks_header *)s->map)->dropped,
				     __ATOMIC_RELAXED);
	ret = odb_stacks_scan(s->map, end, s->nr_events, &s->sc);
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

void odb_stacks_get(const struct odb_stacks *s, size_t i, struct odb_stack *st)
{
	odb_stacks_decode(s->map + s->sc.stk[i], s->nr_events, st);
}

uint64_t odb_stacks_dropped(const struct odb_stacks *s)
{
	return s->dropped;
}
