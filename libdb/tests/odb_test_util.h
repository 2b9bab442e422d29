/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the libdb tests. */
#ifndef ODB_TEST_UTIL_H
#define ODB_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "libdb/odb.h"

/* the header the tests write: recognisable values in every field */
void odb_test_header(struct opd_header *hdr);

/*
 * Write a file at path holding keys key_base + 1 .. key_base + nr, key i
 * with count i % 7 + 1, through odb_file_add().  Returns 0 or the error.
 */
int odb_test_write_keys(const char *path, uint64_t key_base, size_t nr);

/* read a whole file into a malloc'd buffer; NULL on failure */
unsigned char *odb_test_slurp(const char *path, size_t *len);

/* write len bytes to path (replacing it); 0 or -1 */
int odb_test_spew(const char *path, const void *data, size_t len);

/* sum of the values of key in an open file */
uint64_t odb_test_count(const struct odb_file *file, odb_key_t key);

#endif

/*
 * The golden files' keys and counts (see golden/golden-spec.py): key i
 * of 1..nr, big giving key 1 a count of 5000000000.  Writes path through
 * odb_file_add() with the header mksamples.py gives such a spec.
 */
int odb_test_write_golden(const char *path, size_t nr, int big);
