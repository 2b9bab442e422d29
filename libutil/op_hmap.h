/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An open-addressing hash multimap from a 64-bit hash to a pointer.  The
 * caller hashes its key (op_hash.h) and checks candidates itself, so one
 * table type serves any key:
 *
 *	struct op_hmap_iter it;
 *	for (p = op_hmap_first(&map, h, &it); p; p = op_hmap_next(&map, h, &it))
 *		if (same_key(p, key))
 *			return p;
 *
 * Linear probing, grown at 3/4 load, deletion by backward shift (no
 * tombstones).  The table does not own the values.
 */
#ifndef OP_HMAP_H
#define OP_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct op_hmap_slot {
	uint64_t hash;
	void *val;		/* NULL: empty slot */
};

struct op_hmap {
	struct op_hmap_slot *slots;
	size_t mask;		/* slots - 1; 0 while nothing is allocated */
	size_t nr;		/* values stored */
};

#define OP_HMAP_INIT { .slots = NULL, .mask = 0, .nr = 0 }

struct op_hmap_iter {
	size_t idx;
};

void op_hmap_init(struct op_hmap *map);
/* free the slots (not the values); map is left empty and reusable */
void op_hmap_release(struct op_hmap *map);

/* add val (non-NULL) under hash; duplicates allowed.  0 or -ENOMEM */
int op_hmap_insert(struct op_hmap *map, uint64_t hash, void *val);

/* first / next value stored under hash, NULL when there are no more */
void *op_hmap_first(const struct op_hmap *map, uint64_t hash,
		    struct op_hmap_iter *it);
void *op_hmap_next(const struct op_hmap *map, uint64_t hash,
		   struct op_hmap_iter *it);

/* remove the entry (hash, val); returns 0 or -ENOENT */
int op_hmap_remove(struct op_hmap *map, uint64_t hash, const void *val);

/* call fn for every value (in no order); stop when fn returns non-zero */
int op_hmap_for_each(const struct op_hmap *map, int (*fn)(void *val, void *data),
		     void *data);

#endif
