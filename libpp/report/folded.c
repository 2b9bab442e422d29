// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=folded: collapsed stacks, the input of flame-graph
 * tools and speedscope.  One line per distinct stack of names,
 *	APP;ROOT_FUNCTION;...;LEAF_FUNCTION COUNT
 * with the samples of the first class, symbols named as --symbols names
 * them (gap rows, [vdso], kernel symbols); stacks that come out the same
 * by name (other addresses in the same functions) are one line.  Lines
 * are in byte order of their names.  A stack is written when its leaf
 * frame is a row shown (-t, -i, -e, -x select leaves, as they select
 * the rows of -l).  Only the stack file has whole stacks: a session
 * without one is an error.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_stacks.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

struct line {
	char *text;
	uint64_t count;
};

/* a name in a line: ';' separates frames, so it becomes ':' */
static void add_name(struct op_strbuf *sb, const char *name)
{
	size_t at = sb->len, i;

	op_strbuf_addstr(sb, name);
	for (i = at; i < sb->len; i++)
		if (sb->buf[i] == ';' || sb->buf[i] == '\n')
			sb->buf[i] = sb->buf[i] == ';' ? ':' : ' ';
}

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

/* a shown row, as a stack's leaf names it */
struct leaf {
	size_t app, image;
	uintptr_t sym;
};

static int by_leaf(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->app != y->app)
		return x->app < y->app ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

/* the shown rows of side, sorted for shown_leaf() */
static struct leaf *shown_leaves(const struct pp_side *side)
{
	struct leaf *v = op_xcalloc(side->nr_sel + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < side->nr_sel; i++) {
		v[i].app = side->sel[i]->app;
		v[i].image = side->sel[i]->image;
		v[i].sym = (uintptr_t)side->sel[i]->sym;
	}
	qsort(v, side->nr_sel, sizeof(*v), by_leaf);
	return v;
}

static bool shown_leaf(const struct leaf *v, size_t nr, const struct pp_stack *s)
{
	struct leaf key;

	if (!s->nr_frames || s->frames[0].image == SIZE_MAX)
		return false;
	key.app = s->app;
	key.image = s->frames[0].image;
	key.sym = (uintptr_t)s->frames[0].sym;
	return bsearch(&key, v, nr, sizeof(*v), by_leaf) != NULL;
}

/*
 * Count samples on the line of text sb: a new one at lines[*nr], else the
 * one with the same text (found through map: stacks of other addresses
 * in the same functions are many, so lines are merged before sorting)
 */
static void count_line(struct op_hmap *map, struct line *lines, size_t *nr,
		       const struct op_strbuf *sb, uint64_t count)
{
	uint64_t h = op_hash_bytes(OP_FNV_OFFSET, sb->buf, sb->len);
	struct op_hmap_iter it;
	struct line *l;

	for (l = op_hmap_first(map, h, &it); l; l = op_hmap_next(map, h, &it))
		if (!strcmp(l->text, sb->buf)) {
			l->count += count;
			return;
		}
	l = &lines[(*nr)++];
	l->text = op_xstrdup(sb->buf);
	l->count = count;
	if (op_hmap_insert(map, h, l))
		op_die(1, "out of memory");
}

int pp_write_folded(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *side = &r->sides[0];
	struct pp_profile *p = side->p;
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct op_hmap map = OP_HMAP_INIT;
	struct pp_stacks st;
	struct line *lines;
	struct leaf *leaves;
	size_t i, nr = 0;
	int ret;

	ret = pp_stacks_load(&st, p, r->notes);
	if (ret) {
		op_err_set(err, "no whole call stacks: %s", ret == -ENOENT ?
			   "the session has no stack file (record with operf --callgraph)" :
			   ret == -ENOTSUP ?
			   "stack files do not tell threads, processes or CPUs apart "
			   "(merge them: --merge=tgid,tid,cpu)" :
			   "the stack file cannot be read");
		return PP_REPORT_ERR_NOTHING;
	}
	lines = op_xcalloc(st.nr + 1, sizeof(*lines));
	leaves = shown_leaves(side);
	for (i = 0; i < st.nr; i++) {
		const struct pp_stack *s = &st.v[i];
		size_t f;

		if (!s->counts[0] || !shown_leaf(leaves, side->nr_sel, s))
			continue;
		op_strbuf_reset(&sb);
		add_name(&sb, pp_names_app(&side->names, s->app));
		for (f = s->nr_frames; f-- > 0;) {
			const struct pp_stack_frame *fr = &s->frames[f];

			op_strbuf_addch(&sb, ';');
			add_name(&sb, fr->image == SIZE_MAX ? fr->other :
				 pp_shown_name(p, fr->image, fr->sym));
		}
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		count_line(&map, lines, &nr, &sb, s->counts[0]);
	}
	op_hmap_release(&map);
	qsort(lines, nr, sizeof(*lines), by_text);
	for (i = 0; i < nr; i++) {
		fprintf(out, "%s %" PRIu64 "\n", lines[i].text, lines[i].count);
		free(lines[i].text);
	}
	free(lines);
	free(leaves);
	op_strbuf_release(&sb);
	pp_stacks_release(&st);
	return 0;
}
