// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack file: stacks interned (a repeat only counts), images by
 * number, callers shared in the tree of version 2 (a stack differing in
 * its leaf costs one node), the file trimmed to its records on closing
 * and grown again when reopened, version 1 read and converted when
 * opened for adding, a reopened file continues, a truncated or corrupted one is
 * refused by readers (and replaced by a writer), the size limit drops
 * and counts, every committed prefix of a file reads, a symlink in the
 * file's place is replaced (not followed), and -ENOMEM at
 * every allocation leaves nothing open.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb_stacks.h"
#include "libdb/tests/odb_test_util.h"
#include "libutil/op_alloc.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;
static struct odb_stack_frame fbuf[ODB_STACKS_MAX_FRAMES];
static struct op_dir odir = OP_DIR_INIT;
static char path[600];
static const char *const events[] = { "cpu-clock.100000.0", "task-clock.200000.0" };

static int setup(void **state)
{
	(void)state;
	if (op_testdir_make(&dir))
		return -1;
	op_testdir_file(&dir, "stacks", path, sizeof(path));
	return op_testdir_hold(dir.path, &odir);
}

static int teardown(void **state)
{
	(void)state;
	op_dir_close(&odir);
	op_testdir_remove(&dir);
	return 0;
}

static struct odb_stacks_writer *writer(uint64_t limit)
{
	struct odb_stacks_writer *w;

	assert_int_equal(odb_stacks_writer_open(&odir, "stacks", events, 2, limit, &w), 0);
	return w;
}

/* app 0 ("{root}/bin/app"), frames of image 1 at offsets base, base+1, ... */
static void add(struct odb_stacks_writer *w, uint64_t base, size_t nr,
		uint32_t event, uint64_t count)
{
	struct odb_stack_frame f[8] = { { 0 } };
	uint32_t app, lib;
	size_t i;

	assert_int_equal(odb_stacks_writer_image(w, "{root}/bin/app", &app), 0);
	assert_int_equal(odb_stacks_writer_image(w, "{root}/lib/libc.so.6", &lib), 0);
	assert_int_equal(app, 0);
	assert_int_equal(lib, 1);
	for (i = 0; i < nr; i++) {
		f[i].image = i ? app : lib;
		f[i].offset = base + i;
	}
	assert_int_equal(odb_stacks_writer_add(w, app, f, nr, event, count), 0);
}

static void test_intern(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	struct odb_stack st;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 0x100, 3, 0, 5);
	add(w, 0x100, 3, 1, 2);
	add(w, 0x100, 3, 0, 1);
	add(w, 0x200, 2, 0, 7);
	/* readable while written */
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 2);
	odb_stacks_close(s);
	assert_int_equal(odb_stacks_writer_close(w), 0);

	w = writer(0);		/* reopened: the same stacks count on */
	add(w, 0x100, 3, 0, 4);
	assert_int_equal(odb_stacks_writer_close(w), 0);

	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_events(s), 2);
	assert_string_equal(odb_stacks_event(s, 1), "task-clock.200000.0");
	assert_int_equal(odb_stacks_nr_images(s), 2);
	assert_string_equal(odb_stacks_image(s, 1), "{root}/lib/libc.so.6");
	assert_int_equal(odb_stacks_nr_stacks(s), 2);
	odb_stacks_get(s, 0, &st, fbuf);
	assert_int_equal(st.nr_frames, 3);
	assert_int_equal(st.counts[0], 10);
	assert_int_equal(st.counts[1], 2);
	assert_int_equal(st.frames[0].image, 1);
	assert_int_equal(st.frames[0].offset, 0x100);
	assert_int_equal(st.frames[2].offset, 0x102);
	odb_stacks_get(s, 1, &st, fbuf);
	assert_int_equal(st.counts[0], 7);
	assert_int_equal(odb_stacks_dropped(s), 0);
	odb_stacks_close(s);
}

static void test_other_events(void **state)
{
	struct odb_stacks_writer *w;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 1, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_writer_open(&odir, "stacks", events, 1, 0, &w),
			 ODB_ERR_STACKS_OTHER_EVENTS);
	assert_null(w);
}

static void test_limit(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stack_frame f = { 1, 0, 0 };
	struct odb_stacks *s;
	uint64_t i;
	int ret = 0;

	(void)state;
	unlink(path);
	w = writer(ODB_STACKS_MIN_LIMIT);
	add(w, 0, 1, 0, 1);
	for (i = 1; i < 1000 && !ret; i++) {
		f.offset = i;
		ret = odb_stacks_writer_add(w, 0, &f, 1, 0, 3);
	}
	assert_int_equal(ret, ODB_ERR_STACKS_FULL);
	f.offset = 0;		/* a known stack still counts */
	assert_int_equal(odb_stacks_writer_add(w, 0, &f, 1, 0, 1), 0);
	assert_int_equal(odb_stacks_writer_dropped(w), 3);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_dropped(s), 3);
	assert_true(odb_stacks_nr_stacks(s) > 50);
	odb_stacks_close(s);
}

/* every prefix of the committed records, as a killed writer leaves it */
static void test_prefixes(void **state)
{
	struct odb_stacks_header h;
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	unsigned char *buf;
	size_t len, total, n;
	uint64_t committed;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 0x10, 4, 0, 1);
	add(w, 0x20, 2, 1, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	buf = odb_test_slurp(path, &len);
	assert_non_null(buf);
	memcpy(&h, buf, sizeof(h));
	total = sizeof(h) + h.committed;
	for (n = sizeof(h); n <= total; n += 8) {
		int ret;

		committed = n - sizeof(h);
		memcpy(buf + offsetof(struct odb_stacks_header, committed), &committed,
		       sizeof(committed));
		assert_int_equal(odb_test_spew(path, buf, len), 0);
		ret = odb_stacks_open(path, &s);
		/* record boundaries open; a cut inside a record is refused */
		if (!ret)
			odb_stacks_close(s);
		else
			assert_int_equal(ret, ODB_ERR_STACKS_BAD_RECORD);
	}
	/* the file cut short of its committed records */
	assert_int_equal(odb_test_spew(path, buf, total - 8), 0);
	assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_STACKS_TRUNCATED);
	assert_int_equal(odb_test_spew(path, buf, 10), 0);
	assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_STACKS_TRUNCATED);
	buf[0] = 'X';
	assert_int_equal(odb_test_spew(path, buf, len), 0);
	assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_BAD_MAGIC);
	/* a writer replaces what it cannot read */
	w = writer(0);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 0);
	odb_stacks_close(s);
	free(buf);
}

static size_t file_size(void)
{
	unsigned char *b;
	size_t len;

	b = odb_test_slurp(path, &len);
	assert_non_null(b);
	free(b);
	return len;
}

/* header 64, then the records (8 + the string and NUL, to 8s) of the two
 * events (19 and 20 bytes) and the two images of add() (15 and 21) */
static const size_t strings_size = 64 + 32 + 32 + 24 + 32;

/* a new file of stacks sharing callers: root, 0x102, 0x101, leaf 0x100
 * (5 of event 0); leaf 0x900 under 0x101 (2 of event 1); 0x101 (1 of
 * event 0); with more, also root, 0x201, leaf 0x200 (7 of event 0) */
static void write_tree(bool more)
{
	struct odb_stack_frame f[3] = { { 1, 0, 0x900 }, { 0, 0, 0x101 }, { 0, 0, 0x102 } };
	struct odb_stacks_writer *w;

	unlink(path);
	w = writer(0);
	add(w, 0x100, 3, 0, 5);
	assert_int_equal(odb_stacks_writer_add(w, 0, f, 3, 1, 2), 0);
	assert_int_equal(odb_stacks_writer_add(w, 0, f + 1, 2, 0, 1), 0);
	if (more)
		add(w, 0x200, 2, 0, 7);
	assert_int_equal(odb_stacks_writer_close(w), 0);
}

/* callers are shared: a stack differing in its leaf costs one node;
 * closing trims the file and a reopened one grows again */
static void test_tree(void **state)
{
	const size_t node = 16 + 2 * 8;
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	struct odb_stack st;
	size_t i;

	(void)state;
	write_tree(false);
	assert_int_equal(file_size(), strings_size + 5 * node);

	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 3);
	odb_stacks_get(s, 0, &st, fbuf);	/* nodes in file order: 0x101 first */
	assert_int_equal(st.app, 0);
	assert_int_equal(st.nr_frames, 2);
	assert_int_equal(st.frames[0].offset, 0x101);
	assert_int_equal(st.frames[1].offset, 0x102);
	assert_int_equal(st.counts[0], 1);
	odb_stacks_get(s, 2, &st, fbuf);
	assert_int_equal(st.nr_frames, 3);
	assert_int_equal(st.frames[0].image, 1);
	assert_int_equal(st.frames[0].offset, 0x900);
	assert_int_equal(st.counts[1], 2);
	odb_stacks_close(s);

	w = writer(0);		/* trimmed, so the first new node grows it */
	for (i = 0; i < 100; i++)
		add(w, 0x1000 + 16 * i, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(file_size(), strings_size + 105 * node);
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 103);
	odb_stacks_close(s);
}

static void write_v1(void);

/* every stack of s read through the tree's nodes: the frames odb_stacks_get() gives */
static void check_nodes(const struct odb_stacks *s)
{
	size_t i, n;

	for (n = 0; n < odb_stacks_nr_nodes(s); n++) {
		struct odb_stack_tree_node v;

		assert_true(odb_stacks_node(s, n, &v));
		assert_true(v.parent == ODB_STACKS_NO_PARENT || v.parent < n);
		assert_true(v.image < odb_stacks_nr_images(s));
	}
	for (i = 0; i < odb_stacks_nr_stacks(s); i++) {
		struct odb_stack_tree_node v;
		struct odb_stack st;
		size_t f = 0;

		odb_stacks_get(s, i, &st, fbuf);
		n = odb_stacks_stack_node(s, i);
		assert_true(n < odb_stacks_nr_nodes(s));
		assert_true(odb_stacks_node(s, n, &v));
		assert_memory_equal(v.counts, st.counts, 2 * sizeof(uint64_t));
		while (v.parent != ODB_STACKS_NO_PARENT) {
			assert_true(f < st.nr_frames);
			assert_int_equal(v.image, st.frames[f].image);
			assert_int_equal(v.offset, st.frames[f].offset);
			f++;
			assert_true(odb_stacks_node(s, v.parent, &v));
		}
		assert_int_equal(f, st.nr_frames);
		assert_int_equal(v.image, st.app);	/* the root */
	}
}

/*
 * The tree itself (odb_stacks_node()): each stack's leaf node and its
 * ancestors are its frames, the root its application; a node changed in
 * place since the file was opened (a parent not before it) reads as a
 * root of nothing; version 1 has no nodes
 */
static void test_nodes(void **state)
{
	const size_t node = 16 + 2 * 8;
	struct odb_stack_tree_node v;
	struct odb_stacks *s;
	uint32_t self = 4;
	FILE *fp;

	(void)state;
	write_tree(true);

	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_nodes(s), 7);
	assert_int_equal(odb_stacks_nr_stacks(s), 4);
	check_nodes(s);
	assert_true(odb_stacks_node(s, 0, &v));		/* the root */
	assert_int_equal(v.parent, ODB_STACKS_NO_PARENT);
	assert_int_equal(v.image, 0);
	/* node 4 (leaf 0x900) made its own parent behind the reader's back */
	fp = fopen(path, "r+");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, (long)(strings_size + 4 * node + 4), SEEK_SET), 0);
	assert_int_equal(fwrite(&self, sizeof(self), 1, fp), 1);
	assert_int_equal(fclose(fp), 0);
	assert_false(odb_stacks_node(s, 4, &v));
	assert_int_equal(v.parent, ODB_STACKS_NO_PARENT);
	assert_int_equal(v.counts[0] + v.counts[1], 0);
	odb_stacks_close(s);

	write_v1();
	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_nodes(s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), 3);
	odb_stacks_close(s);
}

/* a version 1 file by hand: the events and images of add(), stack A
 * (app, frames lib:0x10 app:0x20, counts 3 0) twice, as a killed
 * writer of a race could not leave but a reader must take, then stack B
 * (app, frame app:0x30, counts 0 4); dropped 9 */
static void write_v1(void)
{
	unsigned char b[512] = { 0 };
	struct odb_stacks_header h = { .version = 1, .nr_events = 2, .dropped = 9 };
	const char *str[] = { events[0], events[1], "{root}/bin/app",
			      "{root}/lib/libc.so.6" };
	size_t len = sizeof(h), i;

	memcpy(h.magic, ODB_STACKS_MAGIC, 8);
	for (i = 0; i < 4; i++) {
		struct odb_stacks_rec r = { i < 2 ? ODB_STACKS_EVENT : ODB_STACKS_IMAGE,
					    (uint32_t)((8 + strlen(str[i]) + 1 + 7) & ~7u) };

		memcpy(b + len, &r, 8);
		memcpy(b + len + 8, str[i], strlen(str[i]));
		len += r.size;
	}
	for (i = 0; i < 3; i++) {
		struct odb_stacks_rec r = { ODB_STACKS_STACK, 0 };
		struct odb_stack_head sh = { 0, i < 2 ? 2 : 1 };
		uint64_t c[2] = { i < 2 ? 3 : 0, i < 2 ? 0 : 4 };
		struct odb_stack_frame f[2] = { { i < 2 ? 1 : 0, 0, i < 2 ? 0x10 : 0x30 },
						{ 0, 0, 0x20 } };

		r.size = (uint32_t)(8 + 8 + 16 + 16 * sh.nr_frames);
		memcpy(b + len, &r, 8);
		memcpy(b + len + 8, &sh, 8);
		memcpy(b + len + 16, c, 16);
		memcpy(b + len + 32, f, 16 * sh.nr_frames);
		len += r.size;
	}
	h.committed = len - sizeof(h);
	memcpy(b, &h, sizeof(h));
	assert_int_equal(odb_test_spew(path, b, len), 0);
}

/* the stacks of stacks(): A 6 of event 0, B 4 of event 1 (v1: A twice) */
static void check_v1_stacks(size_t nr_a)
{
	struct odb_stacks *s;
	struct odb_stack st;
	uint64_t a = 0, b = 0;
	size_t i;

	assert_int_equal(odb_stacks_open(path, &s), 0);
	assert_int_equal(odb_stacks_nr_stacks(s), nr_a + 1);
	assert_string_equal(odb_stacks_image(s, 1), "{root}/lib/libc.so.6");
	assert_int_equal(odb_stacks_dropped(s), 9);
	for (i = 0; i < nr_a + 1; i++) {
		odb_stacks_get(s, i, &st, fbuf);
		assert_int_equal(st.app, 0);
		if (st.nr_frames == 2) {
			assert_int_equal(st.frames[0].image, 1);
			assert_int_equal(st.frames[0].offset, 0x10);
			assert_int_equal(st.frames[1].offset, 0x20);
			a += st.counts[0];
		} else {
			assert_int_equal(st.nr_frames, 1);
			assert_int_equal(st.frames[0].offset, 0x30);
			b += st.counts[1];
		}
	}
	assert_int_equal(a, 6);
	assert_int_equal(b, 4);
	odb_stacks_close(s);
}

/* version 1 is read; opened for adding, it is converted to version 2 */
static void test_v1(void **state)
{
	struct odb_stacks_header h;
	struct odb_stacks_writer *w;
	unsigned char *b;
	char tmp[600];
	size_t len;

	(void)state;
	write_v1();
	check_v1_stacks(2);
	w = writer(0);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	b = odb_test_slurp(path, &len);
	assert_non_null(b);
	memcpy(&h, b, sizeof(h));
	free(b);
	assert_int_equal(h.version, 2);
	assert_int_equal(len, sizeof(h) + h.committed);
	check_v1_stacks(1);
	op_testdir_file(&dir, "stacks.tmp", tmp, sizeof(tmp));
	assert_int_not_equal(access(tmp, F_OK), 0);
}

/* version 2 nodes that a reader must refuse, each a change to the node
 * at a byte offset from its start in the file of stack_file() */
static const struct bad_node {
	int line;
	unsigned node;			/* node number */
	unsigned at;			/* byte in the node */
	uint64_t value;
	size_t bytes;
} bad_nodes[] = {
	{ .line = __LINE__, .node = 1, .at = 4, .value = 1 },	/* parent: itself */
	{ .line = __LINE__, .node = 1, .at = 4, .value = 2 },	/* parent: later */
	{ .line = __LINE__, .node = 0, .at = 0, .value = 4 | 2u << 8 },	/* image 2 */
	{ .line = __LINE__, .node = 2, .at = 0, .value = 4 | 9u << 8 },
	{ .line = __LINE__, .node = 0, .at = 8, .value = 1, .bytes = 8 },	/* root offset */
	{ .line = __LINE__, .node = 0, .at = 16, .value = 1, .bytes = 8 },	/* root counts */
	{ .line = __LINE__, .node = 2, .at = 0, .value = 3 },	/* a v1 STACK type */
	{ .line = __LINE__, .node = 2, .at = 0, .value = 5 },	/* no such type */
};

static void test_bad_nodes(void **state)
{
	struct odb_stack st_deep;
	const size_t node0 = strings_size, node = 16 + 2 * 8;
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	unsigned char *b;
	size_t len, i;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 0x100, 2, 0, 1);		/* root, app:0x101, lib:0x100 */
	assert_int_equal(odb_stacks_writer_close(w), 0);
	b = odb_test_slurp(path, &len);
	assert_non_null(b);
	assert_int_equal(len, node0 + 3 * node);
	for (i = 0; i < sizeof(bad_nodes) / sizeof(bad_nodes[0]); i++) {
		const struct bad_node *t = &bad_nodes[i];
		unsigned char *c = malloc(len);
		uint32_t v32 = (uint32_t)t->value;
		int ret;

		assert_non_null(c);
		memcpy(c, b, len);
		if (t->bytes == 8)
			memcpy(c + node0 + t->node * node + t->at, &t->value, 8);
		else
			memcpy(c + node0 + t->node * node + t->at, &v32, 4);
		assert_int_equal(odb_test_spew(path, c, len), 0);
		ret = odb_stacks_open(path, &s);
		if (ret != ODB_ERR_STACKS_BAD_RECORD)
			fail_msg("line %d: %d", t->line, ret);
		free(c);
	}
	/* too deep: a chain of ODB_STACKS_MAX_FRAMES + 1 frames below a root */
	free(b);
	unlink(path);
	w = writer(0);
	{
		static struct odb_stack_frame f[ODB_STACKS_MAX_FRAMES];

		for (i = 0; i < ODB_STACKS_MAX_FRAMES; i++)
			f[i].offset = i;
		add(w, 0, 1, 0, 1);
		assert_int_equal(odb_stacks_writer_add(w, 0, f, ODB_STACKS_MAX_FRAMES, 0, 1), 0);
		assert_int_equal(odb_stacks_writer_add(w, 0, f, ODB_STACKS_MAX_FRAMES + 1, 0, 1),
				 -EINVAL);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
	assert_int_equal(odb_stacks_open(path, &s), 0);
	odb_stacks_get(s, 1, &st_deep, fbuf);
	assert_int_equal(st_deep.nr_frames, ODB_STACKS_MAX_FRAMES);
	odb_stacks_close(s);
	/* one more node below the deepest: refused */
	b = odb_test_slurp(path, &len);
	assert_non_null(b);
	{
		unsigned char *c = malloc(len + node);
		struct odb_stacks_header h;
		struct odb_stack_node n = { 4, 0, 7 };

		assert_non_null(c);
		memcpy(c, b, len);
		n.parent = (uint32_t)((len - node0) / node - 1);
		memset(c + len, 0, node);
		memcpy(c + len, &n, sizeof(n));
		memcpy(&h, c, sizeof(h));
		h.committed += node;
		memcpy(c, &h, sizeof(h));
		assert_int_equal(odb_test_spew(path, c, len + node), 0);
		assert_int_equal(odb_stacks_open(path, &s), ODB_ERR_STACKS_BAD_RECORD);
		n.parent--;	/* at the limit: fine */
		memcpy(c + len, &n, sizeof(n));
		assert_int_equal(odb_test_spew(path, c, len + node), 0);
		assert_int_equal(odb_stacks_open(path, &s), 0);
		odb_stacks_close(s);
		free(c);
	}
	free(b);
}

/* a frame naming an image not yet recorded is refused */
static void test_bad_image(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stack_frame f = { 5, 0, 0 };

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 1, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_add(w, 0, &f, 1, 0, 1), -EINVAL);
	assert_int_equal(odb_stacks_writer_add(w, 0, &f, 1, 2, 1), -EINVAL);
	assert_int_equal(odb_stacks_writer_close(w), 0);
}

/* a symlink where the file goes is replaced, never followed */
static void test_symlink(void **state)
{
	struct odb_stacks_writer *w;
	char victim[600];
	unsigned char *buf;
	size_t len;

	(void)state;
	unlink(path);
	op_testdir_file(&dir, "victim", victim, sizeof(victim));
	assert_int_equal(odb_test_spew(victim, "x", 1), 0);
	assert_int_equal(symlink(victim, path), 0);
	w = writer(0);
	add(w, 1, 1, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	buf = odb_test_slurp(victim, &len);
	assert_non_null(buf);
	assert_int_equal(len, 1);
	assert_int_equal(buf[0], 'x');
	free(buf);
	unlink(victim);
}

/* odb_stacks_writer_open() with allocation k failing */
static int writer_failing_at(unsigned long k, struct odb_stacks_writer **w)
{
	int ret;

	op_alloc_fail_at(k);
	ret = odb_stacks_writer_open(&odir, "stacks", events, 2, 0, w);
	op_alloc_fail_at(0);
	return ret;
}

static void test_enomem(void **state)
{
	struct odb_stacks_writer *w;
	struct odb_stacks *s;
	unsigned long k;
	size_t len;
	int ret;

	(void)state;
	unlink(path);
	w = writer(0);
	add(w, 1, 3, 0, 1);
	assert_int_equal(odb_stacks_writer_close(w), 0);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_stacks_open(path, &s);
		op_alloc_fail_at(0);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(s);
	}
	odb_stacks_close(s);
	for (k = 1;; k++) {
		ret = writer_failing_at(k, &w);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(w);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
	/* converting version 1: the file is left as it was, or converted
	 * whole (when reopening the new file failed) */
	for (k = 1;; k++) {
		write_v1();
		ret = writer_failing_at(k, &w);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_null(w);
		assert_int_equal(odb_stacks_open(path, &s), 0);
		len = odb_stacks_nr_stacks(s);
		odb_stacks_close(s);
		check_v1_stacks(len == 3 ? 2 : 1);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
	check_v1_stacks(1);
	unlink(path);
	for (k = 1;; k++) {
		ret = writer_failing_at(k, &w);
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_other_events),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_bad_nodes),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_bad_image),
		cmocka_unit_test(test_symlink),
		cmocka_unit_test(test_enomem),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
