// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: a stack file from untrusted bytes.  Opens it read-only and
 * walks every stack and frame, and every node of its tree (version 2),
 * each stack's nodes giving its frames; if it opens, also opens it for adding
 * (with the events it names) and adds a new and a known stack, then
 * reads it back: the stacks grow by exactly one and the counts add up.
 * Version 1 and 2 files are read; a version 1 file is converted to 2 by
 * the writer.
 * Nothing may crash, hang or leak.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_stacks.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_tmp.h"

static struct op_dir odir = OP_DIR_INIT;

/* the file's stacks, frames and count sum, checking every reference */
static uint64_t walk(const struct odb_stacks *s, size_t *nr)
{
	static struct odb_stack_frame buf[ODB_STACKS_MAX_FRAMES];
	uint64_t sum = 0;
	size_t i, j;

	*nr = odb_stacks_nr_stacks(s);
	for (i = 0; i < *nr; i++) {
		struct odb_stack st;

		odb_stacks_get(s, i, &st, buf);
		if (st.app >= odb_stacks_nr_images(s) || !st.nr_frames)
			abort();
		for (j = 0; j < st.nr_frames; j++)
			if (st.frames[j].image >= odb_stacks_nr_images(s))
				abort();
		for (j = 0; j < odb_stacks_nr_events(s); j++)
			sum += st.counts[j];
	}
	for (i = 0; i < odb_stacks_nr_images(s); i++)
		sum += strlen(odb_stacks_image(s, i)) * 0;
	return sum;
}

/* the tree's nodes: each stack's leaf and ancestors are its frames */
static void walk_nodes(const struct odb_stacks *s)
{
	static struct odb_stack_frame buf[ODB_STACKS_MAX_FRAMES];
	size_t i, n;

	for (n = 0; n < odb_stacks_nr_nodes(s); n++) {
		struct odb_stack_tree_node v;

		if (!odb_stacks_node(s, n, &v) ||
		    (v.parent != ODB_STACKS_NO_PARENT && v.parent >= n) ||
		    v.image >= odb_stacks_nr_images(s))
			abort();
	}
	for (i = 0; i < odb_stacks_nr_stacks(s) && odb_stacks_nr_nodes(s); i++) {
		struct odb_stack_tree_node v;
		struct odb_stack st;
		size_t f = 0;

		odb_stacks_get(s, i, &st, buf);
		n = odb_stacks_stack_node(s, i);
		if (n >= odb_stacks_nr_nodes(s) || !odb_stacks_node(s, n, &v))
			abort();
		while (v.parent != ODB_STACKS_NO_PARENT) {
			if (f >= st.nr_frames || v.image != st.frames[f].image ||
			    v.offset != st.frames[f].offset)
				abort();
			f++;
			if (!odb_stacks_node(s, v.parent, &v))
				abort();
		}
		if (f != st.nr_frames || v.image != st.app)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *events[ODB_STACKS_MAX_EVENTS];
	struct odb_stacks_writer *w;
	struct odb_stack_frame f[2] = { { 0, 0, 0x1234 }, { 0, 0, 0x5678 } };
	struct odb_stacks *s;
	char names[ODB_STACKS_MAX_EVENTS][128];
	size_t nr, nr_after, i, nev;
	uint64_t sum, sum_after;
	uint32_t img, version;
	int ret;

	fuzz_tmp("fuzz_stacks", "stacks");
	if (op_write_file_atomic(fuzz_tmp_file, data, size, 0644))
		abort();
	if (odb_stacks_open(fuzz_tmp_file, &s))
		return 0;
	sum = walk(s, &nr);
	walk_nodes(s);
	memcpy(&version, data + 8, sizeof(version));	/* opened: 64 bytes */
	nev = odb_stacks_nr_events(s);
	for (i = 0; i < nev; i++) {
		snprintf(names[i], sizeof(names[i]), "%s", odb_stacks_event(s, i));
		events[i] = names[i];
	}
	odb_stacks_close(s);
	if (odir.fd < 0 && op_dir_open_path(&odir, fuzz_tmp_dir))
		abort();
	ret = odb_stacks_writer_open(&odir, "stacks", events, nev, 0, &w);
	if (ret)
		return 0;	/* event names cut short above, or a duplicate */
	if (odb_stacks_writer_image(w, "{root}/fuzz/new image", &img))
		abort();
	f[0].image = f[1].image = img;
	if (odb_stacks_writer_add(w, img, f, 2, 0, 3) ||
	    odb_stacks_writer_add(w, img, f, 2, 0, 4))
		abort();
	if (odb_stacks_writer_close(w))
		abort();
	if (odb_stacks_open(fuzz_tmp_file, &s))
		abort();
	sum_after = walk(s, &nr_after);
	odb_stacks_close(s);
	/* the stack may have been there already (same image and frames);
	 * converting version 1 merges repeated stacks and leaves out those
	 * counting nothing */
	if (sum_after != sum + 7 || nr_after > nr + 1 ||
	    (version != ODB_STACKS_VERSION_1 && nr_after < nr))
		abort();
	return 0;
}
