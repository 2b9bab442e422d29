// SPDX-License-Identifier: GPL-2.0-or-later
/* Counting samples per slice of time for the slice file (opd_slices.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon/opd_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

#define MIN_SLOTS 1024u

void opd_slices_init(struct opd_slices *s, uint64_t length_ns)
{
	memset(s, 0, sizeof(*s));
	s->length_ns = length_ns;
	s->gen = 1;
}

static void fail(struct opd_slices *s, int err)
{
	if (!s->first_error)
		s->first_error = err;
	if (err != ODB_ERR_SLICES_FULL)
		s->failed = true;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void opd_slices_open(struct opd_slices *s, const struct op_dir *samples)
{
	int ret;

	if (!s->length_ns || s->failed || s->w)
		return;
	ret = odb_slices_writer_open(samples, ODB_SLICES_NAME, wall_ns(), 0, &s->w);
	if (ret)
		fail(s, ret);
	s->started = false;
}

int opd_slices_file(struct opd_slices *s, const struct op_dir *samples,
		    const char *name, uint32_t *id)
{
	int ret;

	opd_slices_open(s, samples);
	if (!s->w)
		return -ECANCELED;
	ret = odb_slices_writer_file(s->w, name, id);
	if (ret)
		fail(s, ret);
	return ret;
}

static int by_file_key(const void *a, const void *b)
{
	const struct odb_slice_entry *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

void opd_slices_flush(struct opd_slices *s)
{
	struct odb_slice_entry *e;
	size_t i, n = 0;
	int ret;

	if (!s->nr || !s->w)
		return;
	e = op_malloc(s->nr * sizeof(*e));
	if (!e) {
		fail(s, -ENOMEM);
		return;
	}
	for (i = 0; i <= s->mask; i++)
		if (s->tab[i].file) {
			e[n].file = s->tab[i].file - 1;
			e[n].key = s->tab[i].key;
			e[n++].count = s->tab[i].count;
			s->tab[i].file = 0;
		}
	s->nr = 0;
	qsort(e, n, sizeof(*e), by_file_key);
	ret = odb_slices_writer_add(s->w, s->offset_ns + s->cur * s->length_ns,
				    s->length_ns, e, n);
	if (ret)
		fail(s, ret);
	free(e);
}

static bool grow(struct opd_slices *s)
{
	size_t slots = s->tab ? (s->mask + 1) * 2 : MIN_SLOTS, i;
	struct opd_slice_slot *old = s->tab, *tab = op_calloc(slots, sizeof(*tab));
	size_t old_slots = old ? s->mask + 1 : 0;

	if (!tab)
		return false;
	s->tab = tab;
	s->mask = slots - 1;
	for (i = 0; i < old_slots; i++)
		if (old[i].file) {
			size_t h = op_hash_combine(old[i].file, old[i].key) & s->mask;

			while (tab[h].file)
				h = (h + 1) & s->mask;
			tab[h] = old[i];
		}
	free(old);
	return true;
}

/* the first sample of a run: where its slice 0 lies in the session */
static void start(struct opd_slices *s, uint64_t now)
{
	uint64_t wall = wall_ns(), begin = odb_slices_writer_start(s->w);

	s->t0 = now;
	s->offset_ns = wall > begin ?
		       (wall - begin + s->length_ns / 2) / s->length_ns * s->length_ns : 0;
	s->cur = 0;
	s->started = true;
}

void opd_slices_add(struct opd_slices *s, uint32_t id, uint64_t key,
		    uint64_t count, uint64_t now)
{
	size_t h;

	if (!s->w || s->failed)
		return;
	if (!s->started)
		start(s, now);
	/* records come in time order; a late one joins the current slice */
	if (now >= s->t0 && (now - s->t0) / s->length_ns > s->cur) {
		opd_slices_flush(s);
		s->cur = (now - s->t0) / s->length_ns;
	}
	if ((s->nr + 1) * 4 > (s->mask + 1) * 3 && !grow(s)) {
		fail(s, -ENOMEM);
		return;
	}
	h = op_hash_combine(id + 1, key) & s->mask;
	while (s->tab[h].file && (s->tab[h].file != id + 1 || s->tab[h].key != key))
		h = (h + 1) & s->mask;
	if (!s->tab[h].file) {
		s->tab[h].file = id + 1;
		s->tab[h].key = key;
		s->tab[h].count = 0;
		s->nr++;
	}
	s->tab[h].count += count;
}

int opd_slices_close(struct opd_slices *s)
{
	int ret;

	opd_slices_flush(s);
	s->dropped += opd_slices_dropped(s);
	ret = odb_slices_writer_close(s->w);
	s->w = NULL;
	s->gen++;
	s->started = false;
	s->failed = false;
	return ret;
}

uint64_t opd_slices_dropped(const struct opd_slices *s)
{
	return s->dropped + (s->w ? odb_slices_writer_dropped(s->w) : 0);
}

void opd_slices_release(struct opd_slices *s)
{
	odb_slices_writer_close(s->w);
	free(s->tab);
	memset(s, 0, sizeof(*s));
}
