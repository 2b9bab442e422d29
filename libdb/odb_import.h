/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Converting sample files written on another ABI (byte order, structure
 * layout) into this build's, as OProfile's opimport does.  The foreign
 * layout is taken from the source session's abi file (odb_abi.h): the
 * header fields, descriptor and nodes are read at the offsets and with
 * the byte order it gives; the foreign hash table is ignored and the
 * nodes are re-inserted natively.
 *
 * Unlike OProfile 1.4's opimport, anon_start and cg_to_anon_start keep
 * all 64 bits (it read 4 bytes, the high half on big-endian sources),
 * cpu_speed is converted (it wrote 0.0), and the version is checked.
 *
 * Nothing here prints or exits.
 */
#ifndef ODB_IMPORT_H
#define ODB_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "libdb/odb.h"
#include "libdb/odb_abi.h"

/* a foreign layout, checked: every field lies inside its structure */
struct odb_import_layout {
	bool big_endian;
	size_t header_size;		/* bytes of struct opd_header */
	size_t descr_size;		/* bytes of the descriptor */
	size_t node_size;		/* bytes of one node */
	size_t index_size;		/* bytes of one hash bucket */
	size_t off_magic, off_version, off_cpu_type, off_ctr_event;
	size_t off_ctr_um, off_ctr_count, off_is_kernel, off_cpu_speed;
	size_t off_mtime, off_cg_to_is_kernel, off_anon_start;
	size_t off_cg_to_anon_start;	/* header offsets, bytes */
	size_t off_descr_size, off_descr_current_size;
	size_t off_node_key, off_node_value;
};

/*
 * Check abi and derive the layout from it.  Returns 0;
 * ODB_ERR_ABI_MISSING_KEY with *missing (if non-NULL) the index of the
 * first key absent (odb_abi_key_name()); or ODB_ERR_ABI_BAD_LAYOUT when a
 * size is not the one the format fixes (u32 4, u64/double/key 8, value
 * and index 4), a structure is larger than 64 KiB, a field reaches past
 * its structure, or little_endian is neither 0 nor 1.
 */
int odb_import_layout_init(struct odb_import_layout *lay,
			   const struct odb_abi *abi, size_t *missing);

/*
 * Convert the len bytes of a foreign sample file (borrowed).  On success
 * *hdr is the native header and *nodes (caller frees with free()) the
 * *nr used nodes, key and value set, next 0; equal keys are not merged.
 * Returns 0, -ENOMEM, or ODB_ERR_TRUNCATED (shorter than header and
 * descriptor), ODB_ERR_BAD_MAGIC, ODB_ERR_BAD_VERSION,
 * ODB_ERR_BAD_USED_COUNT (current_size 0 or above the table size), or
 * ODB_ERR_BEYOND_EOF (the node table and hash table do not fit in len).
 */
int odb_import_parse(const struct odb_import_layout *lay,
		     const unsigned char *buf, size_t len,
		     struct opd_header *hdr, struct odb_node **nodes,
		     size_t *nr);

/*
 * Convert the foreign sample file in_path into the native file out_path,
 * whose directory must exist.  An existing out_path is added to (equal
 * keys summed), after checking that its header is of the same event,
 * cpu type and image (ODB_ERR_HEADER_MISMATCH); its header is kept.
 * The result is built as "out_path.opimport.tmp" and renamed into place,
 * so on any failure out_path is as it was and no temporary is left.
 * Returns 0, a negative errno (of reading in_path or writing out_path;
 * *in_failed tells which, when non-NULL) or an odb_error.
 */
int odb_import_file(const struct odb_import_layout *lay, const char *in_path,
		    const char *out_path, bool *in_failed);

#endif
