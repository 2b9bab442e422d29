// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Foreign-ABI sample files into native ones (see odb_import.h).  Every
 * field is read byte by byte in the source's byte order at the offset its
 * abi file gives, so the host's own layout never matters for the input.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdb/odb.h"
#include "libdb/odb_abi.h"
#include "libdb/odb_import.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"

#define STRUCT_MAX ((size_t)64 << 10)
#define INPUT_MAX ((size_t)1 << 36)

/* the index of the abi key called name */
static size_t key_idx(const char *name)
{
	size_t i;

	for (i = 0; i < ODB_ABI_NR_KEYS; i++)
		if (!strcmp(odb_abi_key_name(i), name))
			return i;
	return ODB_ABI_NR_KEYS;
}

/* the size or offset keys the conversion reads, and where they go */
struct key_slot {
	const char *name;
	size_t offset;		/* into struct odb_import_layout */
};

#define SLOT(key, field) { key, offsetof(struct odb_import_layout, field) }
static const struct key_slot slots[] = {
	SLOT("sizeof_struct_opd_header", header_size),
	SLOT("sizeof_odb_descr_t", descr_size),
	SLOT("sizeof_odb_node_t", node_size),
	SLOT("sizeof_odb_index_t", index_size),
	SLOT("offsetof_header_magic", off_magic),
	SLOT("offsetof_header_version", off_version),
	SLOT("offsetof_header_cpu_type", off_cpu_type),
	SLOT("offsetof_header_ctr_event", off_ctr_event),
	SLOT("offsetof_header_ctr_um", off_ctr_um),
	SLOT("offsetof_header_ctr_count", off_ctr_count),
	SLOT("offsetof_header_is_kernel", off_is_kernel),
	SLOT("offsetof_header_cpu_speed", off_cpu_speed),
	SLOT("offsetof_header_mtime", off_mtime),
	SLOT("offsetof_header_cg_to_is_kernel", off_cg_to_is_kernel),
	SLOT("offsetof_header_anon_start", off_anon_start),
	SLOT("offsetof_header_cg_to_anon_start", off_cg_to_anon_start),
	SLOT("offsetof_descr_size", off_descr_size),
	SLOT("offsetof_descr_current_size", off_descr_current_size),
	SLOT("offsetof_node_key", off_node_key),
	SLOT("offsetof_node_value", off_node_value),
};
#undef SLOT

/* sizes the format fixes: a layout giving others cannot be this format */
static const struct {
	const char *name;
	uint64_t value;
} fixed_sizes[] = {
	{ "sizeof_u32", 4 },
	{ "sizeof_u64", 8 },
	{ "sizeof_double", 8 },
	{ "sizeof_odb_key_t", 8 },
	{ "sizeof_odb_value_t", 4 },
	{ "sizeof_odb_index_t", 4 },
};

/* does a field of size bytes at off fit in a structure of struct_size? */
static bool fits(size_t off, size_t size, size_t struct_size)
{
	return off <= struct_size && size <= struct_size - off;
}

static int check_layout(const struct odb_import_layout *l)
{
	static const size_t u32_fields[] = {
		offsetof(struct odb_import_layout, off_version),
		offsetof(struct odb_import_layout, off_cpu_type),
		offsetof(struct odb_import_layout, off_ctr_event),
		offsetof(struct odb_import_layout, off_ctr_um),
		offsetof(struct odb_import_layout, off_ctr_count),
		offsetof(struct odb_import_layout, off_is_kernel),
		offsetof(struct odb_import_layout, off_cg_to_is_kernel),
		offsetof(struct odb_import_layout, off_magic),
	};
	size_t i;

	if (!l->header_size || l->header_size > STRUCT_MAX ||
	    !l->descr_size || l->descr_size > STRUCT_MAX ||
	    !l->node_size || l->node_size > STRUCT_MAX)
		return ODB_ERR_ABI_BAD_LAYOUT;
	for (i = 0; i < sizeof(u32_fields) / sizeof(u32_fields[0]); i++) {
		size_t off = *(const size_t *)((const char *)l + u32_fields[i]);

		if (!fits(off, 4, l->header_size))
			return ODB_ERR_ABI_BAD_LAYOUT;
	}
	if (!fits(l->off_cpu_speed, 8, l->header_size) ||
	    !fits(l->off_mtime, 8, l->header_size) ||
	    !fits(l->off_anon_start, 8, l->header_size) ||
	    !fits(l->off_cg_to_anon_start, 8, l->header_size) ||
	    !fits(l->off_descr_size, 4, l->descr_size) ||
	    !fits(l->off_descr_current_size, 4, l->descr_size) ||
	    !fits(l->off_node_key, 8, l->node_size) ||
	    !fits(l->off_node_value, 4, l->node_size))
		return ODB_ERR_ABI_BAD_LAYOUT;
	return 0;
}

int odb_import_layout_init(struct odb_import_layout *lay,
			   const struct odb_abi *abi, size_t *missing)
{
	size_t i, idx;

	memset(lay, 0, sizeof(*lay));
	for (i = 0; i < sizeof(fixed_sizes) / sizeof(fixed_sizes[0]); i++) {
		idx = key_idx(fixed_sizes[i].name);
		if (!abi->has[idx])
			goto out_missing;
		if (abi->value[idx] != fixed_sizes[i].value)
			return ODB_ERR_ABI_BAD_LAYOUT;
	}
	for (i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
		idx = key_idx(slots[i].name);
		if (!abi->has[idx])
			goto out_missing;
		if (abi->value[idx] > STRUCT_MAX)
			return ODB_ERR_ABI_BAD_LAYOUT;
		*(size_t *)((char *)lay + slots[i].offset) = abi->value[idx];
	}
	idx = key_idx("little_endian");
	if (!abi->has[idx])
		goto out_missing;
	if (abi->value[idx] > 1)
		return ODB_ERR_ABI_BAD_LAYOUT;
	lay->big_endian = !abi->value[idx];
	return check_layout(lay);

out_missing:
	if (missing)
		*missing = idx;
	return ODB_ERR_ABI_MISSING_KEY;
}

/* the size-byte unsigned number at p in the layout's byte order */
static uint64_t get(const struct odb_import_layout *lay,
		    const unsigned char *p, size_t size)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[lay->big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

static void parse_header(const struct odb_import_layout *l,
			 const unsigned char *b, struct opd_header *hdr)
{
	uint64_t speed = get(l, b + l->off_cpu_speed, 8);

	memset(hdr, 0, sizeof(*hdr));
	memcpy(hdr->magic, b + l->off_magic, sizeof(hdr->magic));
	hdr->version = get(l, b + l->off_version, 4);
	hdr->cpu_type = get(l, b + l->off_cpu_type, 4);
	hdr->ctr_event = get(l, b + l->off_ctr_event, 4);
	hdr->ctr_um = get(l, b + l->off_ctr_um, 4);
	hdr->ctr_count = get(l, b + l->off_ctr_count, 4);
	hdr->is_kernel = get(l, b + l->off_is_kernel, 4);
	/* an IEEE double: its bits, in the source's byte order */
	memcpy(&hdr->cpu_speed, &speed, sizeof(speed));
	hdr->mtime = get(l, b + l->off_mtime, 8);
	hdr->cg_to_is_kernel = get(l, b + l->off_cg_to_is_kernel, 4);
	hdr->anon_start = get(l, b + l->off_anon_start, 8);
	hdr->cg_to_anon_start = get(l, b + l->off_cg_to_anon_start, 8);
}

int odb_import_parse(const struct odb_import_layout *lay,
		     const unsigned char *buf, size_t len,
		     struct opd_header *hdr, struct odb_node **nodes,
		     size_t *nr)
{
	const unsigned char *descr = buf + lay->header_size;
	uint64_t nr_slots, used, table;
	struct odb_node *out;
	size_t i;

	if (len < lay->header_size + lay->descr_size)
		return ODB_ERR_TRUNCATED;
	parse_header(lay, buf, hdr);
	if (memcmp(hdr->magic, OPD_MAGIC, sizeof(hdr->magic)))
		return ODB_ERR_BAD_MAGIC;
	if (hdr->version != OPD_VERSION)
		return ODB_ERR_BAD_VERSION;
	nr_slots = get(lay, descr + lay->off_descr_size, 4);
	used = get(lay, descr + lay->off_descr_current_size, 4);
	if (!used || used > nr_slots)
		return ODB_ERR_BAD_USED_COUNT;
	/* sizes below 2^16 times slots below 2^32: no overflow in 64 bits */
	table = nr_slots * (lay->node_size + lay->index_size);
	if (table > len - lay->header_size - lay->descr_size)
		return ODB_ERR_BEYOND_EOF;
	out = op_calloc(used, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (i = 1; i < used; i++) {
		const unsigned char *n = descr + lay->descr_size + i * lay->node_size;

		out[i - 1].key = get(lay, n + lay->off_node_key, 8);
		out[i - 1].value = get(lay, n + lay->off_node_value, 4);
	}
	*nodes = out;
	*nr = used - 1;
	return 0;
}

/* may the nodes of a file with header b be added to one with header a? */
static bool same_profile(const struct opd_header *a, const struct opd_header *b)
{
	return a->cpu_type == b->cpu_type && a->ctr_event == b->ctr_event &&
	       a->ctr_um == b->ctr_um && a->ctr_count == b->ctr_count &&
	       a->is_kernel == b->is_kernel &&
	       a->cg_to_is_kernel == b->cg_to_is_kernel &&
	       a->anon_start == b->anon_start &&
	       a->cg_to_anon_start == b->cg_to_anon_start;
}

static int add_nodes(struct odb_file *f, const struct odb_node *n, size_t nr)
{
	size_t i;
	int err;

	for (i = 0; i < nr; i++) {
		err = odb_file_add(f, n[i].key, n[i].value);
		if (err)
			return err;
	}
	return 0;
}

/* write tmp: the existing out_path's nodes (if any), then the new ones */
static int write_tmp(const char *tmp, const char *out_path,
		     const struct opd_header *hdr, const struct odb_node *nodes,
		     size_t nr)
{
	struct odb_file *old = NULL, *f = NULL;
	const struct odb_node *old_nodes;
	size_t old_nr;
	int err, err2;

	err = odb_file_open(out_path, ODB_READ, NULL, &old);
	if (err == -ENOENT) {
		old = NULL;
	} else if (err) {
		return err;
	} else if (!same_profile(odb_file_header(old), hdr)) {
		err = ODB_ERR_HEADER_MISMATCH;
		goto out_close;
	}
	err = odb_file_open(tmp, ODB_WRITE, old ? odb_file_header(old) : hdr, &f);
	if (err)
		goto out_close;
	if (old) {
		old_nodes = odb_file_nodes(old, &old_nr);
		err = add_nodes(f, old_nodes, old_nr);
	}
	if (!err)
		err = add_nodes(f, nodes, nr);
	err2 = odb_file_close(f);
	if (!err)
		err = err2;
out_close:
	odb_file_close(old);
	return err;
}

int odb_import_file(const struct odb_import_layout *lay, const char *in_path,
		    const char *out_path, bool *in_failed)
{
	struct odb_node *nodes = NULL;
	struct opd_header hdr;
	char *data = NULL, *tmp = NULL;
	size_t len, nr, tmp_len;
	bool bad_in = true;
	int err;

	err = op_read_file(in_path, INPUT_MAX, &data, &len);
	if (err)
		goto out;
	err = odb_import_parse(lay, (const unsigned char *)data, len, &hdr,
			       &nodes, &nr);
	if (err)
		goto out;
	bad_in = false;
	tmp_len = strlen(out_path) + sizeof(".opimport.tmp");
	tmp = op_malloc(tmp_len);
	if (!tmp) {
		err = -ENOMEM;
		goto out;
	}
	snprintf(tmp, tmp_len, "%s.opimport.tmp", out_path);
	err = write_tmp(tmp, out_path, &hdr, nodes, nr);
	if (!err && rename(tmp, out_path))
		err = -errno;
	if (err)
		unlink(tmp);
out:
	if (in_failed)
		*in_failed = bad_in && err;
	free(tmp);
	free(nodes);
	free(data);
	return err;
}
