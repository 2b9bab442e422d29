// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live view's snapshots (pp_top.h): list the session's files, keep
 * the profile when they are the same files as last time (re-reading
 * their samples only), sum the rows of the view, and set each row's gain
 * against the totals of the snapshot before, found by the row's name.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libpp/profile/pp_rows.h"
#include "libpp/profile/pp_time.h"
#include "libpp/report/pp_top.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

/* rows of one snapshot: (where, name) -> total, in first-seen order */
struct tally {
	char **wheres;		/* NULL where none */
	char **names;
	uint64_t *totals;
	size_t nr, alloc;
	struct op_hmap index;	/* key hash -> position + 1 */
};

struct pp_top_state {
	const struct pp_session_dir *sd;
	const struct pp_spec *spec;
	const struct pp_sym_opts *sym_opts;
	struct pp_file_list list;	/* the files of the profile kept */
	struct pp_profile p;
	bool have_profile;
	struct pp_notes notes;
	struct tally now, before;
	bool have_before;
	enum pp_top_view view;		/* of before */
	struct timespec at;		/* when before was taken */
	/* the slice file of a one-session spec: its FILE records name the
	 * sample files as they are made, so that an unchanged count spares
	 * the walk of their directories */
	char *samples_dir;		/* the session's samples directory, or NULL */
	struct odb_slices_cursor cursor;
	bool have_cursor;		/* the list kept matches it */
};

static void tally_release(struct tally *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->wheres[i]);
		free(t->names[i]);
	}
	free(t->wheres);
	free(t->names);
	free(t->totals);
	op_hmap_release(&t->index);
	memset(t, 0, sizeof(*t));
}

static uint64_t key_hash(const char *where, const char *name)
{
	return op_hash_combine(op_hash_str(where ? where : ""), op_hash_str(name));
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static size_t tally_find(const struct tally *t, const char *where, const char *name)
{
	struct op_hmap_iter it;
	uint64_t h = key_hash(where, name);
	void *v;

	for (v = op_hmap_first(&t->index, h, &it); v; v = op_hmap_next(&t->index, h, &it)) {
		size_t i = (uintptr_t)v - 1;

		if (!strcmp(t->names[i], name) && same_str(t->wheres[i], where))
			return i;
	}
	return SIZE_MAX;
}

static void tally_add(struct tally *t, const char *where, const char *name,
		      uint64_t count)
{
	size_t i = tally_find(t, where, name);

	if (i != SIZE_MAX) {
		t->totals[i] += count;
		return;
	}
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? t->alloc * 2 : 256;
		t->wheres = op_xreallocarray(t->wheres, t->alloc, sizeof(*t->wheres));
		t->names = op_xreallocarray(t->names, t->alloc, sizeof(*t->names));
		t->totals = op_xreallocarray(t->totals, t->alloc, sizeof(*t->totals));
	}
	t->wheres[t->nr] = where ? op_xstrdup(where) : NULL;
	t->names[t->nr] = op_xstrdup(name);
	t->totals[t->nr] = count;
	if (op_hmap_insert(&t->index, key_hash(where, name), (void *)(uintptr_t)(t->nr + 1)))
		op_die(1, "out of memory");
	t->nr++;
}

static void keep_note(void *data, const char *msg)
{
	struct pp_top *t = data;

	snprintf(t->note, sizeof(t->note), "%s", msg);
}

void pp_top_init(struct pp_top *t, const struct pp_session_dir *sd,
		 const struct pp_spec *spec, const struct pp_sym_opts *sym_opts)
{
	memset(t, 0, sizeof(*t));
	t->st = op_xcalloc(1, sizeof(*t->st));
	t->st->sd = sd;
	t->st->spec = spec;
	t->st->sym_opts = sym_opts;
	pp_notes_init(&t->st->notes, keep_note, t);
	t->first = true;
	if (pp_spec_sessions(spec)->nr == 1)
		t->st->samples_dir = pp_session_path(sd, pp_spec_sessions(spec)->items[0]);
}

static void drop_profile(struct pp_top_state *st)
{
	if (st->have_profile)
		pp_profile_release(&st->p);
	pp_file_list_release(&st->list);
	st->have_profile = false;
}

static bool same_files(const struct pp_file_list *a, const struct pp_file_list *b)
{
	size_t i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (strcmp(a->files[i].path, b->files[i].path))
			return false;
	return true;
}

/*
 * Did no sample file come since the list kept was made?  Known only from
 * the slice file of a one-session spec; without it, false (walk again).
 */
static bool no_new_files(struct pp_top_state *st)
{
	struct odb_slices_cursor c = st->cursor;
	bool same;

	if (!st->samples_dir)
		return false;
	same = st->have_cursor && st->have_profile &&
	       !pp_time_follow(st->samples_dir, &c) &&
	       c.start_ns == st->cursor.start_ns && c.nr_files == st->cursor.nr_files;
	st->cursor = c;
	return same;
}

/* the slice file's count as the walk begins: files made later are new */
static void mark_cursor(struct pp_top_state *st)
{
	st->have_cursor = st->samples_dir && !pp_time_follow(st->samples_dir, &st->cursor);
}

/* the profile of the files there now: the one kept when they are the same */
static int take_files(struct pp_top *t, struct op_err *err)
{
	struct pp_top_state *st = t->st;
	struct pp_file_list list;
	unsigned merge = PP_MERGE_ALL & ~PP_MERGE_LIB;
	int ret;

	if (no_new_files(st)) {
		t->rebuilt = false;
		pp_profile_unload(&st->p);
		return 0;
	}
	mark_cursor(st);
	ret = pp_session_list(st->sd, st->spec, &list, err);
	if (ret) {
		drop_profile(st);
		return ret;
	}
	t->nr_files = list.nr;
	t->rebuilt = !st->have_profile || !same_files(&list, &st->list);
	if (!t->rebuilt) {
		pp_file_list_release(&list);
		pp_profile_unload(&st->p);
		return 0;
	}
	drop_profile(st);
	st->list = list;
	if (!list.nr) {
		op_err_set(err, "no sample files yet");
		return PP_PROFILE_ERR_EMPTY;
	}
	ret = pp_profile_build(&st->p, &st->list, merge, st->sym_opts, err);
	if (ret) {
		pp_file_list_release(&st->list);
		return ret;
	}
	st->have_profile = true;
	return 0;
}

/* this snapshot's rows of view into st->now */
static void tally_view(struct pp_top_state *st, enum pp_top_view view)
{
	struct pp_rows_opts ro = { .per_image = view != PP_TOP_SYMBOLS };
	struct pp_profile *p = &st->p;
	struct pp_names nm;
	struct pp_rows rows;
	size_t i;

	pp_rows_build(&rows, p, &ro);
	pp_names_init(&nm, p, false, NULL);
	for (i = 0; i < rows.nr; i++) {
		const struct pp_row *r = &rows.rows[i];

		if (!r->counts[0])
			continue;
		if (view == PP_TOP_SYMBOLS)
			tally_add(&st->now, pp_names_image(&nm, r->image),
				  pp_shown_name(p, r->image, r->sym), r->counts[0]);
		else if (view == PP_TOP_IMAGES)
			tally_add(&st->now, NULL, pp_names_image(&nm, r->image), r->counts[0]);
		else
			tally_add(&st->now, NULL, pp_names_app(&nm, r->app), r->counts[0]);
	}
	pp_names_release(&nm);
	pp_rows_release(&rows);
}

static int by_gain(const void *a, const void *b)
{
	const struct pp_top_row *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta > y->delta ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* the rows of st->now, each with its gain over st->before */
static void make_rows(struct pp_top *t, bool compare)
{
	struct pp_top_state *st = t->st;
	size_t i;

	free(t->rows);
	t->rows = op_xcalloc(st->now.nr + 1, sizeof(*t->rows));
	t->nr_rows = st->now.nr;
	t->total = t->delta = 0;
	for (i = 0; i < st->now.nr; i++) {
		size_t k = compare ? tally_find(&st->before, st->now.wheres[i],
						st->now.names[i]) : SIZE_MAX;
		uint64_t was = k != SIZE_MAX ? st->before.totals[k] : 0;
		struct pp_top_row *r = &t->rows[i];

		r->where = st->now.wheres[i];
		r->name = st->now.names[i];
		r->total = st->now.totals[i];
		r->delta = r->total > was ? r->total - was : 0;
		t->total += r->total;
		t->delta += r->delta;
	}
	qsort(t->rows, t->nr_rows, sizeof(*t->rows), by_gain);
}

int pp_top_snapshot(struct pp_top *t, enum pp_top_view view, struct op_err *err)
{
	struct pp_top_state *st = t->st;
	struct timespec now;
	bool compare;
	int ret;

	t->note[0] = '\0';
	ret = take_files(t, err);
	if (!ret)
		ret = pp_profile_load(&st->p, view == PP_TOP_SYMBOLS, &st->notes, err);
	clock_gettime(CLOCK_MONOTONIC, &now);
	tally_release(&st->now);
	if (ret) {
		free(t->rows);
		t->rows = NULL;
		t->nr_rows = 0;
		t->total = t->delta = 0;
		t->event = NULL;
		st->have_before = false;
		t->first = true;
		return ret;
	}
	tally_view(st, view);
	compare = st->have_before && st->view == view;
	t->first = !compare;
	t->interval = compare ? (double)(now.tv_sec - st->at.tv_sec) +
				(double)(now.tv_nsec - st->at.tv_nsec) / 1e9 : 0;
	t->event = st->p.nr_classes ? st->p.classes[0].name : NULL;
	make_rows(t, compare);
	/* now becomes before (the rows point into it) */
	tally_release(&st->before);
	st->before = st->now;
	memset(&st->now, 0, sizeof(st->now));
	st->have_before = true;
	st->view = view;
	st->at = now;
	return 0;
}

void pp_top_release(struct pp_top *t)
{
	if (!t->st)
		return;
	drop_profile(t->st);
	tally_release(&t->st->now);
	tally_release(&t->st->before);
	pp_notes_release(&t->st->notes);
	free(t->st->samples_dir);
	free(t->st);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
