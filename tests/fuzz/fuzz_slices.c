// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a time-slice file from untrusted bytes.  Opens it (from
 * memory and as a file) and walks every slice: each entry names a file
 * recorded, in (file, key) order, counting something.  If it opens, also
 * opens it for adding, appends a slice of a known and a new file, and
 * reads it back: one more slice, the counts added up.  A file that does
 * not open is replaced by the writer.  Nothing may crash, hang or leak.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_slices.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_tmp.h"

static struct op_dir odir = OP_DIR_INIT;

/* the sum of every count, checking the order and the file numbers */
static uint64_t walk(const struct odb_slices *s, size_t *nr)
{
	uint64_t sum = 0;
	size_t i;

	*nr = odb_slices_nr_slices(s);
	for (i = 0; i < odb_slices_nr_files(s); i++)
		if (!*odb_slices_file(s, i))
			abort();
	for (i = 0; i < *nr; i++) {
		struct odb_slice sl;
		struct odb_slice_entry e, prev = { 0, 0, 0 };
		uint32_t n = 0;

		odb_slices_get(s, i, &sl);
		if (!sl.nr_entries || sl.length_ns < ODB_SLICES_MIN_NS)
			abort();
		while (odb_slice_next(&sl, &e)) {
			if (e.file >= odb_slices_nr_files(s) || !e.count ||
			    (n && (e.file < prev.file ||
				   (e.file == prev.file && e.key <= prev.key))))
				abort();
			sum += e.count;
			prev = e;
			n++;
		}
		if (n != sl.nr_entries)
			abort();
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct odb_slice_entry add[2] = { { 0, 0x10, 3 }, { 0, 0x20, 4 } };
	struct odb_slices_writer *w;
	struct odb_slices *s, *m;
	uint64_t sum = 0, sum_after;
	size_t nr = 0, nr_after;
	bool opened;
	uint32_t id;

	fuzz_tmp("fuzz_slices", "slices");
	if (op_write_file_atomic(fuzz_tmp_file, data, size, 0644))
		abort();
	opened = !odb_slices_open(AT_FDCWD, fuzz_tmp_file, &s);
	if (opened != !odb_slices_open_mem(data, size, &m))
		abort();
	if (opened) {
		sum = walk(s, &nr);
		if (walk(m, &nr_after) != sum || nr_after != nr)
			abort();
		odb_slices_close(s);
		odb_slices_close(m);
	}
	if (odir.fd < 0 && op_dir_open_path(&odir, fuzz_tmp_dir))
		abort();
	if (odb_slices_writer_open(&odir, "slices", 1, 0, &w))
		abort();
	if (odb_slices_writer_file(w, "{root}/fuzz/new/{dep}/{root}/fuzz/new/"
				   "E.1.0.all.all.all", &id))
		abort();
	add[0].file = add[1].file = id;
	if (odb_slices_writer_add(w, 0, ODB_SLICES_MIN_NS, add, 2) ||
	    odb_slices_writer_close(w))
		abort();
	if (odb_slices_open(AT_FDCWD, fuzz_tmp_file, &s))
		abort();
	sum_after = walk(s, &nr_after);
	odb_slices_close(s);
	if (!opened)
		sum = nr = 0;	/* replaced by a new file */
	if (sum_after != sum + 7 || nr_after != nr + 1)
		abort();
	return 0;
}
