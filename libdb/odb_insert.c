// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Adding counts to a sample file open for writing, and growing its table.
 *
 * The order of stores is what keeps a concurrent reader, and a file left
 * by a killed writer, valid:
 *  1. a new node's key, value and next are stored;
 *  2. current_size is incremented with release ordering, publishing it;
 *  3. only then the bucket head is pointed at it.
 * A writer killed between 2 and 3 leaves a node no chain reaches: readers,
 * which iterate nodes, still count it.  A table is grown into a new file
 * renamed over the old one, so the path never shows a half-grown table.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libutil/op_barrier.h"

/*
 * Copy the header, descriptor and used nodes into a table twice the size,
 * rebuilding the chains as if nodes 1..n were inserted in index order (the
 * chains OProfile's growth leaves), then rename it into place.
 */
static int grow(struct odb_file *file)
{
	struct odb_file big = { .fd = -1 };
	odb_index_t used = file->descr->current_size, i, mask;
	int ret;

	if (file->size >= ODB_MAX_NODES)
		return ODB_ERR_TABLE_FULL;
	ret = odb_tmp_create(&big, file->dir, file->path, file->size * 2);
	if (ret)
		return ret;
	memcpy(big.hdr, file->hdr, sizeof(*big.hdr));
	big.descr->size = big.size;
	big.descr->current_size = used;
	memcpy(big.nodes + 1, file->nodes + 1,
	       (size_t)(used - 1) * sizeof(struct odb_node));
	mask = big.size - 1;
	for (i = 1; i < used; i++) {
		odb_index_t b = odb_hash(big.nodes[i].key, mask);

		big.nodes[i].next = big.hash[b];
		big.hash[b] = i;
	}
	ret = odb_tmp_commit(&big, file->dir, file->path);
	if (ret)
		return ret;
	/* the old inode is no longer ours; its readers keep their snapshot */
	odb_file_unmap(file);
	file->fd = big.fd;
	odb_file_point(file, big.map, big.map_size, big.size);
	return 0;
}

/* a new node for key holding value, prepended to bucket b */
static int add_node(struct odb_file *file, odb_key_t key, odb_value_t value)
{
	odb_index_t i, b;
	struct odb_node *n;
	int ret;

	i = file->descr->current_size;
	if (i >= file->size) {
		ret = grow(file);
		if (ret)
			return ret;
	}
	b = odb_hash(key, file->size - 1);
	n = &file->nodes[i];
	n->key = key;
	n->value = value;
	n->next = file->hash[b];
	/* pairs with op_load_acquire() of current_size in readers */
	op_store_release(&file->descr->current_size, i + 1);
	op_store_relaxed(&file->hash[b], i);
	return 0;
}

/*
 * The rare part of an add: key is new, or its newest node (n, or NULL)
 * cannot take the whole count.  Kept out of line so that the common case
 * in odb_file_add() compiles to a few loads and one store.
 */
static __attribute__((noinline)) int add_slow(struct odb_file *file,
					      struct odb_node *n,
					      odb_key_t key, uint64_t count)
{
	int ret;

	if (n) {
		count -= ODB_VALUE_MAX - n->value;
		op_store_relaxed(&n->value, ODB_VALUE_MAX);
	}
	while (count) {
		odb_value_t v = count > ODB_VALUE_MAX ? ODB_VALUE_MAX
						      : (odb_value_t)count;

		ret = add_node(file, key, v);
		if (ret)
			return ret;
		count -= v;
	}
	return 0;
}

int odb_file_add(struct odb_file *file, odb_key_t key, uint64_t count)
{
	struct odb_node *nodes = file->nodes;
	odb_index_t i;

	if (file->mode != ODB_WRITE)
		return ODB_ERR_READ_ONLY;
	/* the newest node of a key is first in its chain: add there */
	i = file->hash[odb_hash(key, file->size - 1)];
	while (i) {
		struct odb_node *n = &nodes[i];

		if (n->key == key) {
			if (count <= (odb_value_t)(ODB_VALUE_MAX - n->value)) {
				op_store_relaxed(&n->value,
						 n->value + (odb_value_t)count);
				return 0;
			}
			return add_slow(file, n, key, count);
		}
		i = n->next;
	}
	return add_slow(file, NULL, key, count);
}
