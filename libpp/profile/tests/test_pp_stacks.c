// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole stacks read as a prefix tree (pp_stacks.h, PP_STACKS_TREE) give
 * what the frame arrays give: the same stacks in the same order, with the
 * same applications, counts and frames (image, offset, symbol, or the
 * name of a frame in an image without samples), from a version 2 file
 * whose stacks share callers and from a version 1 file; stacks of an
 * application, or with a leaf, outside the profile are left out either
 * way.  Kernel symbols come from a kallsyms file, with gaps between them.
 * Also a table made ahead by another thread (pp_profile_symtab_ahead()):
 * taken by pp_profile_load() for its image, refused without one.
 */
#include "config.h"

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
#include "libpp/profile/pp_stacks.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

#define K "{kern}/no-vmlinux/{dep}/{kern}/no-vmlinux"
#define APP "{root}/opt/t/app/{dep}/{root}/opt/t/app"
#define EV "/ev.1000.0.all.all.all"

/* the stack file's images: in the profile, another library, another app */
enum { IMG_KERN, IMG_APP, IMG_OTHER, IMG_STRANGER, NR_IMG };
static const char *const images[NR_IMG] = {
	"{kern}/no-vmlinux", "{root}/opt/t/app", "{root}/usr/lib/libother.so",
	"{root}/opt/t/stranger",
};
static const char *const events[] = { "ev.1000.0" };

struct fixture {
	struct op_testdir dir;
	char kallsyms[600], stacks[600];
	struct pp_sym_opts sym_opts;
};

/* kernel symbols: 64 of 32 bytes from 0x1000, every fourth followed by data */
static char *kallsyms_text(const char *prefix)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	unsigned i;

	for (i = 0; i < 64; i++) {
		op_strbuf_addf(&sb, "%016x T %s%02u\n", 0x1000 + 32 * i, prefix, i);
		if (i % 4 == 3)
			op_strbuf_addf(&sb, "%016x D data%02u\n", 0x1000 + 32 * i + 16, i);
	}
	return op_strbuf_detach(&sb);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *text = kallsyms_text("k");

	if (!f || !text || op_testdir_make(&f->dir) ||
	    !op_testdir_file(&f->dir, "kallsyms", f->kallsyms, sizeof(f->kallsyms)) ||
	    op_write_file_atomic(f->kallsyms, text, strlen(text), 0644))
		return -1;
	op_testdir_file(&f->dir, PP_TEST_CURRENT "stacks", f->stacks, sizeof(f->stacks));
	f->sym_opts.kallsyms = f->kallsyms;
	pp_test_odb(f->dir.path, K EV, "1000:5 1020:3", true);
	pp_test_odb(f->dir.path, APP EV, "40:8 80:2", false);
	free(text);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	op_testdir_remove(&f->dir);
	free(f);
	return 0;
}

static uint64_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

/* a frame of image at a random offset: kernel keys reach past the symbols */
static void frame(uint64_t *x, struct odb_stack_frame *fr)
{
	fr->image = (uint32_t)(rnd(x) % 3);	/* kernel, app or the other library */
	fr->reserved = 0;
	fr->offset = fr->image == IMG_KERN ? 0xf00 + rnd(x) % 0x900 : rnd(x) % 0x100;
}

/*
 * A version 2 file: 400 stacks, each one of 8 caller chains (1 to 6
 * frames, outermost first) with 1 to 4 more frames; one in ten of the
 * stranger application, some with a leaf in the other library
 */
static void write_v2(const struct fixture *f)
{
	struct odb_stack_frame chains[8][6], st[10];
	struct op_dir dir = OP_DIR_INIT;
	struct odb_stacks_writer *w;
	uint64_t x = 42;
	size_t len[8], i, k;
	char *samples = pp_test_path(f->dir.path, PP_TEST_CURRENT);

	for (i = 0; i < 8; i++) {
		len[i] = 1 + rnd(&x) % 6;
		for (k = 0; k < len[i]; k++)
			frame(&x, &chains[i][k]);
	}
	assert_int_equal(op_dir_open_path(&dir, samples), 0);
	unlink(f->stacks);
	assert_int_equal(odb_stacks_writer_open(&dir, "stacks", events, 1, 0, &w), 0);
	for (i = 0; i < NR_IMG; i++) {
		uint32_t id;

		assert_int_equal(odb_stacks_writer_image(w, images[i], &id), 0);
		assert_int_equal(id, i);
	}
	for (i = 0; i < 400; i++) {
		size_t c = rnd(&x) % 8, more = 1 + rnd(&x) % 4, n = 0;
		uint32_t app = rnd(&x) % 10 ? IMG_APP : IMG_STRANGER;

		for (k = 0; k < more; k++)
			frame(&x, &st[n++]);
		for (k = len[c]; k-- > 0;)
			st[n++] = chains[c][k];
		assert_int_equal(odb_stacks_writer_add(w, app, st, n, 0, 1 + rnd(&x) % 3), 0);
	}
	assert_int_equal(odb_stacks_writer_close(w), 0);
	op_dir_close(&dir);
	free(samples);
}

/* a record of a version 1 file into sb: type, then len bytes of body */
static void record(struct op_strbuf *sb, uint32_t type, const void *body, size_t len)
{
	struct odb_stacks_rec r = { type, (uint32_t)((8 + len + 7) & ~(size_t)7) };
	static const char zero[8];

	op_strbuf_add(sb, &r, sizeof(r));
	op_strbuf_add(sb, body, len);
	op_strbuf_add(sb, zero, r.size - 8 - len);
}

/* a version 1 file: 60 stacks of 1 to 8 random frames, as version 2's */
static void write_v1(const struct fixture *f)
{
	struct odb_stacks_header h = { .version = ODB_STACKS_VERSION_1, .nr_events = 1 };
	struct op_strbuf sb = OP_STRBUF_INIT;
	uint64_t x = 7;
	size_t i, k;

	memcpy(h.magic, ODB_STACKS_MAGIC, sizeof(h.magic));
	op_strbuf_add(&sb, &h, sizeof(h));
	record(&sb, ODB_STACKS_EVENT, events[0], strlen(events[0]) + 1);
	for (i = 0; i < NR_IMG; i++)
		record(&sb, ODB_STACKS_IMAGE, images[i], strlen(images[i]) + 1);
	for (i = 0; i < 60; i++) {
		unsigned char body[8 + 8 + 8 * sizeof(struct odb_stack_frame)];
		struct odb_stack_head sh = { i % 10 ? IMG_APP : IMG_STRANGER,
					     (uint32_t)(1 + rnd(&x) % 8) };
		uint64_t count = 1 + rnd(&x) % 3;

		memcpy(body, &sh, 8);
		memcpy(body + 8, &count, 8);
		for (k = 0; k < sh.nr_frames; k++) {
			struct odb_stack_frame fr;

			frame(&x, &fr);
			memcpy(body + 16 + k * sizeof(fr), &fr, sizeof(fr));
		}
		record(&sb, ODB_STACKS_STACK, body, 16 + sh.nr_frames * sizeof(struct odb_stack_frame));
	}
	assert_false(op_strbuf_failed(&sb));
	h.committed = sb.len - sizeof(h);
	memcpy(sb.buf, &h, sizeof(h));
	assert_int_equal(op_write_file_atomic(f->stacks, sb.buf, sb.len, 0644), 0);
	op_strbuf_release(&sb);
}

static void same_frame(const struct pp_stack_frame *a, const struct pp_stack_frame *b)
{
	assert_int_equal(a->image, b->image);
	assert_int_equal(a->offset, b->offset);
	if (a->image == SIZE_MAX)
		assert_string_equal(a->other, b->other);
	else
		assert_ptr_equal(a->sym, b->sym);
}

/* the session's stacks read both ways: the same; how many there are */
static size_t compare(struct fixture *f)
{
	struct pp_test_profile t;
	struct pp_stacks frames, tree;
	struct op_err err = { "" };
	size_t i, k, others = 0;

	assert_int_equal(pp_test_profile_build(&t, f->dir.path, NULL, 0, &f->sym_opts, &err), 0);
	assert_int_equal(pp_profile_load(&t.p, true, &t.notes, &err), 0);
	assert_int_equal(pp_stacks_load(&frames, &t.p, PP_STACKS_ALONE, &t.notes), 0);
	assert_int_equal(pp_stacks_load(&tree, &t.p, PP_STACKS_TREE, &t.notes), 0);
	assert_int_equal(tree.nr, frames.nr);
	assert_int_equal(tree.nr_files, 1);
	for (i = 0; i < frames.nr; i++) {
		const struct pp_stack *a = &frames.v[i], *b = &tree.v[i];
		size_t nd = b->leaf;

		assert_null(b->frames);
		assert_int_equal(a->app, b->app);
		assert_int_equal(a->counts[0], b->counts[0]);
		assert_int_equal(a->nr_frames, b->nr_frames);
		assert_ptr_equal(pp_stack_leaf(&tree, b), &tree.nodes[b->leaf].frame);
		for (k = 0; k < a->nr_frames; k++) {
			assert_true(nd < tree.nr_nodes);
			same_frame(&a->frames[k], &tree.nodes[nd].frame);
			others += a->frames[k].image == SIZE_MAX;
			nd = tree.nodes[nd].parent;
		}
		assert_int_equal(nd, SIZE_MAX);
	}
	assert_true(others > 0);
	pp_stacks_drop(&tree);
	assert_int_equal(tree.nr, 0);
	pp_stacks_release(&tree);
	pp_stacks_release(&frames);
	pp_test_profile_release(&t);
	return i;
}

static void test_tree_v2(void **state)
{
	struct fixture *f = *state;

	write_v2(f);
	/* of the 400, those of the app with a leaf in the profile: many */
	assert_true(compare(f) > 200);
}

static void test_tree_v1(void **state)
{
	struct fixture *f = *state;

	write_v1(f);
	assert_true(compare(f) > 20);
}

/*
 * A kernel table made ahead, from other kallsyms text than the profile's
 * options name: the profile has its symbols, so it took that table
 */
static void test_ahead(void **state)
{
	struct fixture *f = *state;
	static const struct odb_image_id kern = { .kind = ODB_IMAGE_KERNEL,
						  .name = (char *)"no-vmlinux" };
	static const struct odb_image_id lib = { .kind = ODB_IMAGE_FILE,
						 .name = (char *)"/usr/lib/libother.so" };
	struct pp_sym_opts ahead_opts = f->sym_opts;
	struct pp_test_profile t;
	struct op_err err = { "" };
	char path[600], *text = kallsyms_text("ahead");
	struct pp_symtab_ahead *a;
	const struct pp_sym *sym;
	size_t k;

	assert_non_null(op_testdir_file(&f->dir, "kallsyms.ahead", path, sizeof(path)));
	assert_int_equal(op_write_file_atomic(path, text, strlen(text), 0644), 0);
	free(text);
	ahead_opts.kallsyms = path;
	assert_int_equal(pp_test_profile_build(&t, f->dir.path, NULL, 0, &f->sym_opts, &err), 0);
	k = pp_test_image(&t.p, "no-vmlinux");
	a = pp_symtab_ahead_start(&kern, true, &ahead_opts);
	assert_non_null(a);
	assert_false(pp_profile_symtab_ahead(&t.p, &lib, false, a));
	assert_false(pp_profile_symtab_ahead(&t.p, &kern, false, a));
	assert_true(pp_profile_symtab_ahead(&t.p, &kern, true, a));
	assert_int_equal(pp_profile_load(&t.p, true, &t.notes, &err), 0);
	assert_null(t.p.ahead);
	sym = pp_symtab_lookup(pp_image_symtab(&t.p, k), 0x1020);
	assert_non_null(sym);
	assert_string_equal(sym->name, "ahead01");
	pp_test_profile_release(&t);

	/* never loaded: released with the profile, its thread waited for */
	assert_int_equal(pp_test_profile_build(&t, f->dir.path, NULL, 0, &f->sym_opts, &err), 0);
	a = pp_symtab_ahead_start(&kern, true, &ahead_opts);
	assert_true(pp_profile_symtab_ahead(&t.p, &kern, true, a));
	sym = pp_symtab_lookup(pp_image_symtab(&t.p, k), 0x1000);
	assert_string_equal(sym->name, "ahead00");
	pp_test_profile_release(&t);
	a = pp_symtab_ahead_start(&kern, true, &ahead_opts);
	assert_int_equal(pp_test_profile_build(&t, f->dir.path, NULL, 0, &f->sym_opts, &err), 0);
	assert_true(pp_profile_symtab_ahead(&t.p, &kern, true, a));
	pp_test_profile_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_v2),
		cmocka_unit_test(test_tree_v1),
		cmocka_unit_test(test_ahead),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
