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

/*
 * A distinct stack of names: its application and its frames' names, root
 * first (pointers to the names the symbol tables hold: the same function
 * gives the same pointer, so stacks of other addresses in the same
 * functions are one entry before any text is made)
 */
struct line {
	size_t app;
	size_t nr_names;
	const char **names;		/* into the names arena */
	uint64_t count;
	char *text;			/* the line's text, made last */
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

/* the names of the frames of s, root first, into v */
static void stack_names(struct pp_profile *p, const struct pp_stack *s,
			const char **v)
{
	size_t f;

	for (f = 0; f < s->nr_frames; f++) {
		const struct pp_stack_frame *fr = &s->frames[s->nr_frames - 1 - f];

		v[f] = fr->image == SIZE_MAX ? fr->other :
		       pp_shown_name(p, fr->image, fr->sym);
	}
}

static uint64_t names_hash(size_t app, const char **v, size_t nr)
{
	uint64_t h = op_hash_u64(app);
	size_t i;

	for (i = 0; i < nr; i++)
		h = op_hash_combine(h, (uintptr_t)v[i]);
	return h;
}

/* the folded lines: one per distinct (application, names) */
struct lines {
	struct op_hmap map;
	struct line *v;			/* as many as there are stacks */
	size_t nr;
	const char **arena;		/* every stack's names, at most */
	size_t used;
};

/* count samples of application app at the names v (nr of them) */
static void count_line(struct lines *ls, size_t app, const char **v, size_t nr,
		       uint64_t count)
{
	uint64_t h = names_hash(app, v, nr);
	struct op_hmap_iter it;
	struct line *l;

	for (l = op_hmap_first(&ls->map, h, &it); l; l = op_hmap_next(&ls->map, h, &it))
		if (l->app == app && l->nr_names == nr &&
		    !memcmp(l->names, v, nr * sizeof(*v))) {
			l->count += count;
			return;
		}
	l = &ls->v[ls->nr++];
	l->app = app;
	l->nr_names = nr;
	l->names = ls->arena + ls->used;
	memcpy(l->names, v, nr * sizeof(*v));
	ls->used += nr;
	l->count = count;
	if (op_hmap_insert(&ls->map, h, l))
		op_die(1, "out of memory");
}

/* the text of each line, "APP;ROOT;...;LEAF" */
static void make_texts(struct lines *ls, struct pp_names *names)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i, f;

	for (i = 0; i < ls->nr; i++) {
		struct line *l = &ls->v[i];

		op_strbuf_reset(&sb);
		add_name(&sb, pp_names_app(names, l->app));
		for (f = 0; f < l->nr_names; f++) {
			op_strbuf_addch(&sb, ';');
			add_name(&sb, l->names[f]);
		}
		if (op_strbuf_failed(&sb))
			op_die(1, "out of memory");
		l->text = op_xstrdup(sb.buf);
	}
	op_strbuf_release(&sb);
}

/* the lines in byte order, those of the same text (names of other
 * functions that read the same) as one */
static void write_lines(struct lines *ls, FILE *f)
{
	struct pp_out out;
	size_t i;

	qsort(ls->v, ls->nr, sizeof(*ls->v), by_text);
	pp_out_init(&out, f);
	for (i = 0; i < ls->nr; i++) {
		uint64_t count = ls->v[i].count;

		while (i + 1 < ls->nr && !strcmp(ls->v[i].text, ls->v[i + 1].text))
			count += ls->v[++i].count;
		pp_out_str(&out, ls->v[i].text);
		pp_out_ch(&out, ' ');
		pp_out_u64(&out, count);
		pp_out_ch(&out, '\n');
	}
	pp_out_flush(&out);
}

int pp_write_folded(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *side = &r->sides[0];
	struct pp_profile *p = side->p;
	struct lines ls = { .map = OP_HMAP_INIT };
	struct pp_stacks st;
	struct leaf *leaves;
	const char **v;
	size_t i, frames = 0, deepest = 0;
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
	for (i = 0; i < st.nr; i++) {
		frames += st.v[i].nr_frames;
		if (st.v[i].nr_frames > deepest)
			deepest = st.v[i].nr_frames;
	}
	ls.v = op_xcalloc(st.nr + 1, sizeof(*ls.v));
	ls.arena = op_xcalloc(frames + 1, sizeof(*ls.arena));
	v = op_xcalloc(deepest + 1, sizeof(*v));
	leaves = shown_leaves(side);
	for (i = 0; i < st.nr; i++) {
		const struct pp_stack *s = &st.v[i];

		if (!s->counts[0] || !shown_leaf(leaves, side->nr_sel, s))
			continue;
		stack_names(p, s, v);
		count_line(&ls, s->app, v, s->nr_frames, s->counts[0]);
	}
	op_hmap_release(&ls.map);
	make_texts(&ls, &side->names);
	write_lines(&ls, out);
	for (i = 0; i < ls.nr; i++)
		free(ls.v[i].text);
	free(ls.v);
	free(ls.arena);
	free(v);
	free(leaves);
	pp_stacks_release(&st);
	return 0;
}
