/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The abi file of a session (oprofile-ng-session(5), ABI FILE): the sizes
 * and offsets of the sample-file structures and the byte order of the
 * machine that wrote them, one "NAME VALUE" line each, values decimal, in
 * the names OProfile 1.4's opimport reads.  odb_session_write_abi()
 * (odb_session.h) writes this build's; the functions here read one back
 * and compare it with this build's, so that the report tools can say why
 * a session from another machine cannot be read.
 *
 * Nothing here prints, exits or allocates but the formatting strbuf.
 */
#ifndef ODB_ABI_H
#define ODB_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_strbuf.h"

/* how many keys this build writes (sizeof_*, offsetof_*, little_endian) */
#define ODB_ABI_NR_KEYS 31

/* an abi file's values, by key index (odb_abi_key_name()) */
struct odb_abi {
	uint64_t value[ODB_ABI_NR_KEYS];
	bool has[ODB_ABI_NR_KEYS];	/* the key was given */
	size_t nr_bad;			/* lines skipped: no "NAME VALUE", a
					 * value that is no decimal number,
					 * or a name this build does not know */
};

/* the name of key idx (< ODB_ABI_NR_KEYS), in the order they are written */
const char *odb_abi_key_name(size_t idx);

/* *abi is this build's layout, every key given */
void odb_abi_native(struct odb_abi *abi);

/*
 * Parse the len bytes of an abi file.  Lines are "NAME VALUE" separated
 * by blanks or tabs, a trailing '\r' allowed; VALUE is a decimal up to
 * 2^64 - 1.  A key given twice keeps its last value (as opimport's map
 * does).  Other lines are counted in nr_bad and skipped, as are empty
 * ones (not counted).  Never fails: text may be any bytes, NULs
 * included (a line with one is bad).
 */
void odb_abi_parse(const char *text, size_t len, struct odb_abi *abi);

/*
 * Append abi's given keys to sb as "NAME VALUE\n" lines, in key order:
 * for this build's layout, the abi file operf writes.  0 or -ENOMEM.
 */
int odb_abi_format(const struct odb_abi *abi, struct op_strbuf *sb);

/*
 * Does abi contradict other, key by key?  Only keys both give count.
 * Returns false when none differs, else true with *idx the first key that
 * differs.
 */
bool odb_abi_differs(const struct odb_abi *abi, const struct odb_abi *other,
		     size_t *idx);

/*
 * Read SESSION/abi of session_dir (a regular file of at most 64 KiB, not
 * through a symlink, not waiting on a FIFO) into *abi.  0, or a negative errno (-ENOENT: the
 * session has none, as sessions made by hand need not).
 */
int odb_abi_read(const char *session_dir, struct odb_abi *abi);

#endif
