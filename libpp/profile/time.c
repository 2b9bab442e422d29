// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * time: in profile specifications (pp_time.h): the samples of each sample
 * file taken from the session's slice file instead of the file itself,
 * summed over the slices that overlap a range of the spec.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libdb/odb_slices.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_time.h"
#include "libpp/profile/profile_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"
#include "libutil/op_quote.h"

#define QUOTE_SIZE 160

/* a slice of a session's file by its start, for finding a range */
struct slice_at {
	uint64_t start_ns;
	size_t idx;			/* odb_slices_get()'s */
};

struct time_session {
	struct odb_slices *s;
	size_t *to_list;		/* slice-file number -> list index,
					 * SIZE_MAX: not listed */
	struct slice_at *by_start;	/* every slice, in order of start (a
					 * timeline asks for each in turn) */
};

struct pp_time {
	struct pp_time_range *ranges;
	size_t nr_ranges;
	struct time_session *v;
	size_t nr;
	uint64_t start, dropped;
	bool partial;			/* a session had samples before its slices */
	uint64_t *points, *lengths;	/* distinct selected slice starts */
	size_t nr_points;
};

/* does the slice [start, start + len) overlap a range of t? */
static bool selected(const struct pp_time *t, uint64_t start, uint64_t len)
{
	size_t i;

	for (i = 0; i < t->nr_ranges; i++)
		if (start < t->ranges[i].end_ns && start + len > t->ranges[i].start_ns)
			return true;
	return false;
}

static int by_key(const void *a, const void *b)
{
	const struct pp_kc *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* sort f's keys and sum equal ones */
static void merge_keys(struct pp_sample_file *f)
{
	size_t i, out = 0;

	if (f->nr_kc < 2)
		return;
	qsort(f->kc, f->nr_kc, sizeof(*f->kc), by_key);
	for (i = 0; i < f->nr_kc; i++) {
		if (out && f->kc[out - 1].key == f->kc[i].key)
			f->kc[out - 1].count += f->kc[i].count;
		else
			f->kc[out++] = f->kc[i];
	}
	f->nr_kc = out;
}

static void add_entry(struct pp_sample_file *f, size_t *alloc,
		      const struct odb_slice_entry *e)
{
	if (f->nr_kc == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 16;
		f->kc = op_xreallocarray(f->kc, *alloc, sizeof(*f->kc));
	}
	f->kc[f->nr_kc].key = e->key;
	f->kc[f->nr_kc++].count = e->count;
}

/* the samples of session ts's selected slices starting in [lo, hi) */
static void fill_session(struct pp_file_list *list, const struct pp_time *t,
			 const struct time_session *ts, size_t *alloc,
			 uint64_t lo, uint64_t hi)
{
	size_t n = odb_slices_nr_slices(ts->s), a = 0, b = n, i;

	while (a < b) {		/* the first slice starting at lo or later */
		size_t m = a + (b - a) / 2;

		if (ts->by_start[m].start_ns < lo)
			a = m + 1;
		else
			b = m;
	}
	for (i = a; i < n && ts->by_start[i].start_ns < hi; i++) {
		struct odb_slice sl;
		struct odb_slice_entry e;

		odb_slices_get(ts->s, ts->by_start[i].idx, &sl);
		if (!selected(t, sl.start_ns, sl.length_ns))
			continue;
		while (odb_slice_next(&sl, &e)) {
			size_t idx = ts->to_list[e.file];

			if (idx != SIZE_MAX)
				add_entry(&list->files[idx], &alloc[idx], &e);
		}
	}
}

void pp_time_select(struct pp_file_list *list, uint64_t start_ns, uint64_t end_ns)
{
	size_t *alloc = op_xcalloc(list->nr + 1, sizeof(*alloc)), i;
	struct pp_time *t = list->time;

	for (i = 0; i < list->nr; i++)
		if (list->files[i].sliced) {
			free(list->files[i].kc);
			list->files[i].kc = NULL;
			list->files[i].nr_kc = 0;
		}
	for (i = 0; t && i < t->nr; i++)
		fill_session(list, t, &t->v[i], alloc, start_ns, end_ns);
	for (i = 0; i < list->nr; i++)
		if (list->files[i].sliced)
			merge_keys(&list->files[i]);
	free(alloc);
}

static int by_start(const void *a, const void *b)
{
	const struct slice_at *x = a, *y = b;

	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* s's slices in order of start (written nearly so: one pass checks) */
static struct slice_at *order_slices(const struct odb_slices *s)
{
	size_t n = odb_slices_nr_slices(s), i;
	struct slice_at *v = op_xcalloc(n + 1, sizeof(*v));
	bool sorted = true;

	for (i = 0; i < n; i++) {
		struct odb_slice sl;

		odb_slices_get(s, i, &sl);
		v[i].start_ns = sl.start_ns;
		v[i].idx = i;
		sorted = sorted && (!i || v[i - 1].start_ns <= sl.start_ns);
	}
	if (!sorted)
		qsort(v, n, sizeof(*v), by_start);
	return v;
}

/* the file numbers of ts's slice file mapped to list[first ..] by path */
static void map_files(struct time_session *ts, const char *dir,
		      const struct pp_file_list *list, size_t first)
{
	size_t dir_len = strlen(dir), i, n = odb_slices_nr_files(ts->s);
	struct op_hmap by_path = OP_HMAP_INIT;

	for (i = first; i < list->nr; i++) {
		const char *p = list->files[i].path;

		if (!strncmp(p, dir, dir_len) && p[dir_len] == '/' &&
		    op_hmap_insert(&by_path, op_hash_str(p + dir_len + 1),
				   (void *)(uintptr_t)(i + 1)))
			op_die(1, "out of memory");
	}
	ts->to_list = op_xcalloc(n + 1, sizeof(*ts->to_list));
	for (i = 0; i < n; i++) {
		const char *name = odb_slices_file(ts->s, i);
		struct op_hmap_iter it;
		void *v;

		ts->to_list[i] = SIZE_MAX;
		for (v = op_hmap_first(&by_path, op_hash_str(name), &it); v;
		     v = op_hmap_next(&by_path, op_hash_str(name), &it))
			if (!strcmp(list->files[(uintptr_t)v - 1].path + dir_len + 1,
				    name))
				ts->to_list[i] = (uintptr_t)v - 1;
	}
	op_hmap_release(&by_path);
}

/*
 * Leave out of list[first ..] the call-graph files and those without
 * samples in the slices selected, renumbering ts's map
 */
static void drop_files(struct pp_file_list *list, struct time_session *ts,
		       size_t first)
{
	size_t *to = op_xcalloc(list->nr + 1, sizeof(*to)), i, out = first;

	for (i = first; i < list->nr; i++) {
		struct pp_sample_file *f = &list->files[i];

		to[i] = SIZE_MAX;
		if (f->name.is_cg)
			list->nr_unsliced++;
		if (f->name.is_cg || !f->nr_kc) {
			free(f->path);
			free(f->session);
			free(f->kc);
			odb_name_release(&f->name);
			continue;
		}
		to[i] = out;
		list->files[out++] = *f;
	}
	for (i = 0; i < odb_slices_nr_files(ts->s); i++)
		if (ts->to_list[i] != SIZE_MAX)
			ts->to_list[i] = to[ts->to_list[i]];
	list->nr = out;
	free(to);
}

static int no_slices(const char *dir, const char *session, int ret,
		     struct op_err *err)
{
	char qs[QUOTE_SIZE], qd[QUOTE_SIZE];

	if (ret == -ENOENT) {
		op_err_set(err, "session '%s' has no time slices for time: ('%s/%s' "
			   "is missing): operf and oprofiled record them unless "
			   "--slice=0; OProfile's sessions have none",
			   op_quote(qs, sizeof(qs), session),
			   op_quote(qd, sizeof(qd), dir), ODB_SLICES_NAME);
		return PP_PROFILE_ERR_NO_SLICES;
	}
	op_err_set(err, "cannot read the time slices of session '%s' ('%s/%s'): %s",
		   op_quote(qs, sizeof(qs), session), op_quote(qd, sizeof(qd), dir),
		   ODB_SLICES_NAME, odb_strerror(ret));
	return ret;
}

static struct pp_time *time_new(const struct pp_spec *spec)
{
	struct pp_time *t = op_xcalloc(1, sizeof(*t));
	size_t i;

	t->ranges = op_xcalloc(spec->time.nr, sizeof(*t->ranges));
	for (i = 0; i < spec->time.nr; i++)
		if (!pp_spec_time_parse(spec->time.items[i], &t->ranges[t->nr_ranges]))
			t->nr_ranges++;
	return t;
}

/* the distinct starts of the selected slices, all sessions, in order */
static void add_points(struct pp_time *t, const struct odb_slices *s)
{
	size_t i, k;

	for (i = 0; i < odb_slices_nr_slices(s); i++) {
		struct odb_slice sl;

		odb_slices_get(s, i, &sl);
		if (!selected(t, sl.start_ns, sl.length_ns))
			continue;
		for (k = t->nr_points; k > 0 && t->points[k - 1] > sl.start_ns; k--)
			;
		if (k && t->points[k - 1] == sl.start_ns)
			continue;
		t->points = op_xreallocarray(t->points, t->nr_points + 1, sizeof(*t->points));
		t->lengths = op_xreallocarray(t->lengths, t->nr_points + 1,
					      sizeof(*t->lengths));
		if (k < t->nr_points) {
			memmove(t->points + k + 1, t->points + k,
				(t->nr_points - k) * sizeof(*t->points));
			memmove(t->lengths + k + 1, t->lengths + k,
				(t->nr_points - k) * sizeof(*t->lengths));
		}
		t->points[k] = sl.start_ns;
		t->lengths[k] = sl.length_ns;
		t->nr_points++;
	}
}

/* the session directory dir opened for finding its slice file in: an fd,
 * or -errno */
static int session_fd(const char *dir)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int open_slices(const char *dir, struct odb_slices **s)
{
	int fd = session_fd(dir), ret = fd < 0 ? fd : odb_slices_open(fd, ODB_SLICES_NAME, s);

	if (fd >= 0)
		close(fd);
	return ret;
}

int pp_time_span(const char *dir, uint64_t *first_ns, uint64_t *end_ns)
{
	struct odb_slices *s;
	size_t i;
	int ret = open_slices(dir, &s);

	if (ret)
		return ret;
	*first_ns = UINT64_MAX;
	*end_ns = 0;
	for (i = 0; i < odb_slices_nr_slices(s); i++) {
		struct odb_slice sl;

		odb_slices_get(s, i, &sl);
		if (sl.start_ns < *first_ns)
			*first_ns = sl.start_ns;
		if (sl.start_ns + sl.length_ns > *end_ns)
			*end_ns = sl.start_ns + sl.length_ns;
	}
	if (*first_ns == UINT64_MAX)
		*first_ns = 0;
	odb_slices_close(s);
	return 0;
}

int pp_time_apply(const char *dir, const char *session, const struct pp_spec *spec,
		  struct pp_file_list *list, size_t first, struct op_err *err)
{
	struct time_session *ts;
	struct odb_slices *s;
	size_t *alloc, i;
	struct pp_time *t;
	int ret = open_slices(dir, &s);

	if (ret)
		return no_slices(dir, session, ret, err);
	if (!list->time)
		list->time = time_new(spec);
	t = list->time;
	if (!t->nr)
		t->start = odb_slices_start(s);
	t->dropped += odb_slices_dropped(s);
	t->partial |= !!(odb_slices_flags(s) & ODB_SLICES_PARTIAL);
	t->v = op_xreallocarray(t->v, t->nr + 1, sizeof(*t->v));
	ts = &t->v[t->nr++];
	ts->s = s;
	ts->by_start = order_slices(s);
	map_files(ts, dir, list, first);
	for (i = first; i < list->nr; i++)
		list->files[i].sliced = true;
	alloc = op_xcalloc(list->nr + 1, sizeof(*alloc));
	fill_session(list, t, ts, alloc, 0, UINT64_MAX);
	free(alloc);
	for (i = first; i < list->nr; i++)
		merge_keys(&list->files[i]);
	drop_files(list, ts, first);
	add_points(t, s);
	return 0;
}

void pp_time_free(struct pp_time *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++) {
		odb_slices_close(t->v[i].s);
		free(t->v[i].to_list);
		free(t->v[i].by_start);
	}
	free(t->v);
	free(t->ranges);
	free(t->points);
	free(t->lengths);
	free(t);
}

uint64_t pp_time_start(const struct pp_time *t)
{
	return t->start;
}

uint64_t pp_time_dropped(const struct pp_time *t)
{
	return t->dropped;
}

size_t pp_time_nr_points(const struct pp_time *t)
{
	return t->nr_points;
}

void pp_time_point(const struct pp_time *t, size_t i, uint64_t *start_ns,
		   uint64_t *length_ns)
{
	*start_ns = t->points[i];
	*length_ns = t->lengths[i];
}

int pp_time_follow(const char *dir, struct odb_slices_cursor *c)
{
	int fd = session_fd(dir), ret = fd < 0 ? fd : odb_slices_follow(fd, ODB_SLICES_NAME, c);

	if (fd >= 0)
		close(fd);
	return ret;
}

bool pp_time_partial(const struct pp_time *t)
{
	return t->partial;
}
