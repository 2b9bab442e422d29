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
	const struct pp_stacks *st = &side->stacks;
	const char **v;
	size_t i, frames = 0, deepest = 0;
	int ret;

	ret = side->stacks_ret;
	if (ret) {
		op_err_set(err, "no whole call stacks: %s", pp_stacks_why(ret));
		return PP_REPORT_ERR_NOTHING;
	}
	for (i = 0; i < st->nr; i++) {
		frames += st->v[i].nr_frames;
		if (st->v[i].nr_frames > deepest)
			deepest = st->v[i].nr_frames;
	}
	ls.v = op_xcalloc(st->nr + 1, sizeof(*ls.v));
	ls.arena = op_xcalloc(frames + 1, sizeof(*ls.arena));
	v = op_xcalloc(deepest + 1, sizeof(*v));
	for (i = 0; i < st->nr; i++) {
		const struct pp_stack *s = &st->v[i];

		if (!s->counts[0] || !pp_leaf_shown(r, side, s, NULL))
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
	return 0;
}
