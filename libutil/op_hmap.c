// SPDX-License-Identifier: GPL-2.0-or-later
/* Open-addressing hash multimap (see op_hmap.h). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "libutil/op_alloc.h"
#include "libutil/op_hmap.h"

void op_hmap_init(struct op_hmap *map)
{
	map->slots = NULL;
	map->mask = 0;
	map->nr = 0;
}

void op_hmap_release(struct op_hmap *map)
{
	if (!map)
		return;
	free(map->slots);
	op_hmap_init(map);
}

static int grow(struct op_hmap *map)
{
	size_t old_size = map->slots ? map->mask + 1 : 0;
	size_t size = old_size ? old_size * 2 : 16, i;
	struct op_hmap_slot *slots;

	slots = op_calloc_written(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < old_size; i++) {
		struct op_hmap_slot *s = &map->slots[i];
		size_t j;

		if (!s->val)
			continue;
		for (j = s->hash & (size - 1); slots[j].val; j = (j + 1) & (size - 1))
			;
		slots[j] = *s;
	}
	free(map->slots);
	map->slots = slots;
	map->mask = size - 1;
	return 0;
}

int op_hmap_insert(struct op_hmap *map, uint64_t hash, void *val)
{
	size_t j;

	if (!map->slots || (map->nr + 1) * 4 > (map->mask + 1) * 3) {
		int ret = grow(map);

		if (ret)
			return ret;
	}
	for (j = hash & map->mask; map->slots[j].val; j = (j + 1) & map->mask)
		;
	map->slots[j].hash = hash;
	map->slots[j].val = val;
	map->nr++;
	return 0;
}

void *op_hmap_first(const struct op_hmap *map, uint64_t hash,
		    struct op_hmap_iter *it)
{
	if (!map->slots)
		return NULL;
	it->idx = hash & map->mask;
	for (;;) {
		const struct op_hmap_slot *s = &map->slots[it->idx];

		if (!s->val)
			return NULL;
		if (s->hash == hash)
			return s->val;
		it->idx = (it->idx + 1) & map->mask;
	}
}

void *op_hmap_next(const struct op_hmap *map, uint64_t hash,
		   struct op_hmap_iter *it)
{
	for (;;) {
		const struct op_hmap_slot *s;

		it->idx = (it->idx + 1) & map->mask;
		s = &map->slots[it->idx];
		if (!s->val)
			return NULL;
		if (s->hash == hash)
			return s->val;
	}
}

int op_hmap_remove(struct op_hmap *map, uint64_t hash, const void *val)
{
	size_t i, j;

	if (!map->slots)
		return -ENOENT;
	for (i = hash & map->mask;; i = (i + 1) & map->mask) {
		if (!map->slots[i].val)
			return -ENOENT;
		if (map->slots[i].hash == hash && map->slots[i].val == val)
			break;
	}
	/* shift later members of the probe run back into the hole */
	for (j = (i + 1) & map->mask; map->slots[j].val; j = (j + 1) & map->mask) {
		size_t home = map->slots[j].hash & map->mask;

		/* j may move to i if its home is not in the cyclic range (i, j] */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			map->slots[i] = map->slots[j];
			i = j;
		}
	}
	map->slots[i].val = NULL;
	map->slots[i].hash = 0;
	map->nr--;
	return 0;
}

int op_hmap_for_each(const struct op_hmap *map, int (*fn)(void *val, void *data),
		     void *data)
{
	size_t i;

	if (!map->slots)
		return 0;
	for (i = 0; i <= map->mask; i++) {
		int ret;

		if (!map->slots[i].val)
			continue;
		ret = fn(map->slots[i].val, data);
		if (ret)
			return ret;
	}
	return 0;
}
