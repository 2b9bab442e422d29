// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why a profile specification matched nothing (pp_session_explain()).
 * OProfile only said "No sample found"; we say where we looked, what is
 * there, and which tag threw everything away, in a few sorted lines:
 *
 *	session directory: /home/u/oprofile_data
 *	sessions: current, previous
 *	searched: current (6 sample files, 4 other files)
 *	events: cpu-clock (count 100000)
 *	applications: /home/u/prog, /usr/bin/bash
 *	images: /home/u/prog, /usr/lib/libc.so.6, [vdso], no-vmlinux
 *	separation: cpu all; tgid all; tid all
 *	excluded everything: image:/usr/lib/libc.so.6 (no application matches)
 *	hint: image: selects applications; for samples in an image they use, try lib-image:/usr/lib/libc.so.6
 *
 * Each tag is tried on its own against every file: a tag that keeps no
 * file is named; if every tag keeps some, it is their combination.
 */
#include "config.h"

#include <dirent.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libpp/profile/pp_session.h"
#include "libpp/profile/pp_time.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "libutil/op_quote.h"

#define QUOTE_SIZE 160
#define MAX_ITEMS 8		/* of a list, before "and N more" */

/* a sorted set of strings or of numbers */
struct strset {
	char **v;
	size_t nr;
};

struct idset {
	int64_t *v;
	size_t nr;
};

static void strset_add_owned(struct strset *s, char *str)
{
	s->v = op_xreallocarray(s->v, s->nr + 1, sizeof(*s->v));
	s->v[s->nr++] = str;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void strset_finish(struct strset *s)
{
	size_t i, n = 0;

	if (!s->nr)
		return;
	qsort(s->v, s->nr, sizeof(*s->v), cmp_str);
	for (i = 0; i < s->nr; i++) {
		if (n && !strcmp(s->v[n - 1], s->v[i]))
			free(s->v[i]);
		else
			s->v[n++] = s->v[i];
	}
	s->nr = n;
}

static void strset_release(struct strset *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->nr = 0;
}

static void idset_add(struct idset *s, int64_t id)
{
	s->v = op_xreallocarray(s->v, s->nr + 1, sizeof(*s->v));
	s->v[s->nr++] = id;
}

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void idset_finish(struct idset *s)
{
	size_t i, n = 0;

	if (!s->nr)
		return;
	qsort(s->v, s->nr, sizeof(*s->v), cmp_id);
	for (i = 0; i < s->nr; i++)
		if (!n || s->v[n - 1] != s->v[i])
			s->v[n++] = s->v[i];
	s->nr = n;
}

/* the sample files of every searched session, and what they hold */
struct found {
	struct pp_file_list *lists;	/* one per searched session */
	size_t nr_lists;
	size_t nr_files;
	size_t nr_bad;
	const struct pp_bad_file *first_bad;
	struct strset events, apps, images;
	struct idset cpu, tgid, tid;
};

/* "a, b, c, and 4 more" */
static void add_strings(struct op_strbuf *sb, const struct strset *s)
{
	char q[QUOTE_SIZE];
	size_t i;

	for (i = 0; i < s->nr && i < MAX_ITEMS; i++)
		op_strbuf_addf(sb, "%s%s", i ? ", " : "",
			       op_quote(q, sizeof(q), s->v[i]));
	if (s->nr > MAX_ITEMS)
		op_strbuf_addf(sb, ", and %zu more", s->nr - MAX_ITEMS);
}

static void add_ids(struct op_strbuf *sb, const char *field,
		    const struct idset *s)
{
	size_t i;

	op_strbuf_addstr(sb, field);
	for (i = 0; i < s->nr && i < MAX_ITEMS; i++) {
		op_strbuf_addstr(sb, i ? ", " : " ");
		if (s->v[i] == ODB_ALL)
			op_strbuf_addstr(sb, "all");
		else
			op_strbuf_addf(sb, "%" PRId64, s->v[i]);
	}
	if (s->nr > MAX_ITEMS)
		op_strbuf_addf(sb, ", and %zu more", s->nr - MAX_ITEMS);
}

/* the items of a tag as the user could type them: "image:a,b" */
static void add_tag(struct op_strbuf *sb, const char *tag,
		    const struct pp_spec_list *list)
{
	struct op_strbuf items = OP_STRBUF_INIT;
	char q[QUOTE_SIZE];
	size_t i;

	for (i = 0; i < list->nr; i++)
		op_strbuf_addf(&items, "%s%s", i ? "," : "", list->items[i]);
	op_strbuf_addf(sb, "%s:%s", tag, op_quote(q, sizeof(q), items.buf));
	op_strbuf_release(&items);
}

/* "sessions: a, b": the directories under DIR/samples */
static void add_sessions_there(struct op_strbuf *sb,
			       const struct pp_session_dir *sd)
{
	struct strset names = { 0 };
	struct op_strbuf path = OP_STRBUF_INIT;
	struct dirent *de;
	char q[QUOTE_SIZE];
	DIR *dir;

	op_strbuf_addf(&path, "%s/samples", sd->dir);
	dir = opendir(path.buf);
	if (!dir) {
		op_strbuf_addf(sb, "sessions: none (no directory '%s')\n",
			       op_quote(q, sizeof(q), path.buf));
		op_strbuf_release(&path);
		return;
	}
	while ((de = readdir(dir))) {
		struct op_strbuf sub = OP_STRBUF_INIT;

		if (de->d_name[0] == '.')
			continue;
		op_strbuf_addf(&sub, "%s/%s", path.buf, de->d_name);
		if (op_is_dir(sub.buf))
			strset_add_owned(&names, op_xstrdup(de->d_name));
		op_strbuf_release(&sub);
	}
	closedir(dir);
	strset_finish(&names);
	op_strbuf_addstr(sb, "sessions: ");
	if (names.nr)
		add_strings(sb, &names);
	else
		op_strbuf_addstr(sb, "none");
	op_strbuf_addch(sb, '\n');
	strset_release(&names);
	op_strbuf_release(&path);
}

static bool excluded_session(const struct pp_spec *spec, const char *name)
{
	size_t i;

	for (i = 0; i < spec->session_exclude.nr; i++)
		if (!strcmp(spec->session_exclude.items[i], name))
			return true;
	return false;
}

static void note_file(struct found *f, const struct odb_name *name)
{
	struct op_strbuf ev = OP_STRBUF_INIT;

	op_strbuf_addf(&ev, "%s (count %d", name->event, name->count);
	if (name->unit_mask)
		op_strbuf_addf(&ev, ", unit mask 0x%" PRIx32, name->unit_mask);
	op_strbuf_addch(&ev, ')');
	if (op_strbuf_failed(&ev))
		op_die(1, "out of memory");
	strset_add_owned(&f->events, op_strbuf_detach(&ev));
	/* the names image tags match: paths, kernel and anon region names */
	strset_add_owned(&f->apps, op_xstrdup(name->app.name));
	strset_add_owned(&f->images, op_xstrdup(name->image.name));
	idset_add(&f->cpu, name->cpu);
	idset_add(&f->tgid, name->tgid);
	idset_add(&f->tid, name->tid);
}

/* list the sessions one by one: "searched: current (N sample files, ...)" */
static void search(struct op_strbuf *sb, const struct pp_session_dir *sd,
		   const struct pp_spec *spec, struct found *f)
{
	const struct pp_spec_list *sessions = pp_spec_sessions(spec);
	char q[QUOTE_SIZE];
	size_t i, j;

	for (i = 0; i < sessions->nr; i++) {
		struct pp_spec one = { .session = { &sessions->items[i], 1 } };
		struct pp_file_list *l;
		struct op_err err = { "" };

		if (excluded_session(spec, sessions->items[i]))
			continue;
		f->lists = op_xreallocarray(f->lists, f->nr_lists + 1,
					    sizeof(*f->lists));
		l = &f->lists[f->nr_lists++];
		op_strbuf_addf(sb, "%s %s", f->nr_lists > 1 ? "," : "searched:",
			       op_quote(q, sizeof(q), sessions->items[i]));
		if (pp_session_list_all(sd, &one, l, &err)) {
			char *path = pp_session_path(sd, sessions->items[i]);

			if (op_is_dir(path))
				op_strbuf_addf(sb, " (%s)", err.msg);
			else
				op_strbuf_addf(sb, " (no directory '%s')",
					       op_quote(q, sizeof(q), path));
			free(path);
			continue;
		}
		op_strbuf_addf(sb, " (%zu sample file%s", l->nr,
			       l->nr == 1 ? "" : "s");
		if (l->nr_other)
			op_strbuf_addf(sb, ", %zu other file%s", l->nr_other,
				       l->nr_other == 1 ? "" : "s");
		if (l->nr_bad)
			op_strbuf_addf(sb, ", %zu skipped", l->nr_bad);
		op_strbuf_addch(sb, ')');
		for (j = 0; j < l->nr; j++)
			note_file(f, &l->files[j].name);
		if (l->nr_bad && !f->first_bad)
			f->first_bad = &l->bad[0];
		f->nr_files += l->nr;
		f->nr_bad += l->nr_bad;
	}
	if (f->nr_lists)
		op_strbuf_addch(sb, '\n');
	strset_finish(&f->events);
	strset_finish(&f->apps);
	strset_finish(&f->images);
	idset_finish(&f->cpu);
	idset_finish(&f->tgid);
	idset_finish(&f->tid);
}

static void add_contents(struct op_strbuf *sb, const struct found *f)
{
	op_strbuf_addstr(sb, "events: ");
	add_strings(sb, &f->events);
	op_strbuf_addstr(sb, "\napplications: ");
	add_strings(sb, &f->apps);
	op_strbuf_addstr(sb, "\nimages: ");
	add_strings(sb, &f->images);
	op_strbuf_addstr(sb, "\nseparation: ");
	add_ids(sb, "cpu", &f->cpu);
	add_ids(sb, "; tgid", &f->tgid);
	add_ids(sb, "; tid", &f->tid);
	op_strbuf_addch(sb, '\n');
}

/* --- which tag ------------------------------------------------------------ */

#define LIST(field) offsetof(struct pp_spec, field)

enum sep { SEP_NONE, SEP_CPU, SEP_TGID, SEP_TID };

static const struct culprit {
	const char *tag;
	size_t offset;		/* of its list in struct pp_spec */
	const char *none;	/* why it kept no file */
	enum sep sep;		/* a separation field */
} culprits[] = {
	{ "image", LIST(image), "no application matches", SEP_NONE },
	{ "image-exclude", LIST(image_exclude), "it excludes every application", SEP_NONE },
	{ "lib-image", LIST(lib_image), "no image matches", SEP_NONE },
	{ "lib-image-exclude", LIST(lib_image_exclude), "it excludes every image", SEP_NONE },
	{ "event", LIST(event), "no such event", SEP_NONE },
	{ "count", LIST(count), "no file has that count", SEP_NONE },
	{ "unit-mask", LIST(unit_mask), "no file has that unit mask", SEP_NONE },
	{ "cpu", LIST(cpu), "no file of that cpu", SEP_CPU },
	{ "tgid", LIST(tgid), "no file of that process", SEP_TGID },
	{ "tid", LIST(tid), "no file of that thread", SEP_TID },
};

#define NR_CULPRITS (sizeof(culprits) / sizeof(culprits[0]))

static const struct pp_spec_list *list_at(const struct pp_spec *spec,
					  size_t offset)
{
	return (const struct pp_spec_list *)((const char *)spec + offset);
}

/* how many files a spec with just list at offset keeps */
static size_t kept_by(const struct found *f, size_t offset,
		      const struct pp_spec_list *list)
{
	struct pp_spec one = { 0 };
	size_t i, j, n = 0;

	*(struct pp_spec_list *)((char *)&one + offset) = *list;
	for (i = 0; i < f->nr_lists; i++)
		for (j = 0; j < f->lists[i].nr; j++)
			n += !pp_spec_reject(&one, NULL, &f->lists[i].files[j].name);
	return n;
}

static bool only_all(const struct idset *s)
{
	return s->nr == 1 && s->v[0] == ODB_ALL;
}

static const char *why_none(const struct culprit *c, const struct found *f)
{
	if (c->sep == SEP_CPU && only_all(&f->cpu))
		return "the profile is not separated by cpu: operf --separate-cpu";
	if (c->sep == SEP_TGID && only_all(&f->tgid))
		return "the profile is not separated by process: operf --separate-thread";
	if (c->sep == SEP_TID && only_all(&f->tid))
		return "the profile is not separated by thread: operf --separate-thread";
	return c->none;
}

/* an event of the session that differs from an item only in case */
static const char *event_in_other_case(const struct found *f,
				       const struct pp_spec_list *list)
{
	size_t i, j;

	for (i = 0; i < list->nr; i++) {
		size_t len = strlen(list->items[i]);

		for (j = 0; j < f->events.nr; j++)
			if (!strncasecmp(f->events.v[j], list->items[i], len) &&
			    f->events.v[j][len] == ' ')
				return f->events.v[j];
	}
	return NULL;
}

static void add_hint(struct op_strbuf *sb, const struct culprit *c,
		     const struct pp_spec_list *list, const struct found *f)
{
	const char *ev;
	char q[QUOTE_SIZE];

	/* image: and lib-image: mixed up: try the list as the other tag */
	if (!strcmp(c->tag, "image") && kept_by(f, LIST(lib_image), list)) {
		op_strbuf_addstr(sb, "hint: image: selects applications; for "
				 "samples in an image they use, try ");
		add_tag(sb, "lib-image", list);
		op_strbuf_addch(sb, '\n');
	} else if (!strcmp(c->tag, "lib-image") && kept_by(f, LIST(image), list)) {
		op_strbuf_addstr(sb, "hint: lib-image: selects the images "
				 "samples fell in; to select applications, try ");
		add_tag(sb, "image", list);
		op_strbuf_addch(sb, '\n');
	} else if (!strcmp(c->tag, "event") &&
		   (ev = event_in_other_case(f, list))) {
		size_t len = strcspn(ev, " ");
		char *name = op_xstrndup(ev, len);

		op_strbuf_addf(sb, "hint: event names are case-sensitive: "
			       "try event:%s\n", op_quote(q, sizeof(q), name));
		free(name);
	}
}

static void add_culprits(struct op_strbuf *sb, const struct pp_spec *spec,
			 const struct found *f)
{
	size_t kept[NR_CULPRITS], i, nr_tags = 0, nr_none = 0;

	for (i = 0; i < NR_CULPRITS; i++) {
		const struct pp_spec_list *list = list_at(spec, culprits[i].offset);

		if (!list->nr)
			continue;
		nr_tags++;
		kept[i] = kept_by(f, culprits[i].offset, list);
		if (kept[i])
			continue;
		nr_none++;
		op_strbuf_addstr(sb, "excluded everything: ");
		add_tag(sb, culprits[i].tag, list);
		op_strbuf_addf(sb, " (%s)\n", why_none(&culprits[i], f));
		add_hint(sb, &culprits[i], list, f);
	}
	if (nr_none)
		return;
	if (!nr_tags) {
		op_strbuf_addf(sb, "every one of the %zu sample files matches%s\n",
			       f->nr_files, spec->time.nr ? " the other tags" : "");
		return;
	}
	op_strbuf_addstr(sb, "no file matches all of: ");
	for (i = 0, nr_none = 0; i < NR_CULPRITS; i++) {
		const struct pp_spec_list *list = list_at(spec, culprits[i].offset);

		if (!list->nr)
			continue;
		op_strbuf_addstr(sb, nr_none++ ? ", " : "");
		add_tag(sb, culprits[i].tag, list);
		op_strbuf_addf(sb, " (%zu file%s)", kept[i],
			       kept[i] == 1 ? "" : "s");
	}
	op_strbuf_addch(sb, '\n');
}

/* what time the slices of each session cover, when time: found nothing */
static void add_time_spans(struct op_strbuf *sb, const struct pp_session_dir *sd,
			   const struct pp_spec *spec)
{
	const struct pp_spec_list *sessions = pp_spec_sessions(spec);
	char q[QUOTE_SIZE];
	size_t i;

	for (i = 0; i < sessions->nr; i++) {
		char *dir = pp_session_path(sd, sessions->items[i]);
		uint64_t lo, hi;

		op_strbuf_addf(sb, "time: session '%s' ",
			       op_quote(q, sizeof(q), sessions->items[i]));
		if (pp_time_span(dir, &lo, &hi))
			op_strbuf_addstr(sb, "has no time slices\n");
		else
			op_strbuf_addf(sb, "has samples from %.3f s to %.3f s\n",
				       lo / 1e9, hi / 1e9);
		free(dir);
	}
}

static void found_release(struct found *f)
{
	size_t i;

	for (i = 0; i < f->nr_lists; i++)
		pp_file_list_release(&f->lists[i]);
	free(f->lists);
	strset_release(&f->events);
	strset_release(&f->apps);
	strset_release(&f->images);
	free(f->cpu.v);
	free(f->tgid.v);
	free(f->tid.v);
}

char *pp_session_explain(const struct pp_session_dir *sd,
			 const struct pp_spec *spec)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct found f = { 0 };
	char q[QUOTE_SIZE], *text;

	op_strbuf_addf(&sb, "session directory: %s\n",
		       op_quote(q, sizeof(q), sd->dir));
	if (sd->archive)
		op_strbuf_addf(&sb, "archive: %s\n",
			       op_quote(q, sizeof(q), sd->archive));
	add_sessions_there(&sb, sd);
	search(&sb, sd, spec, &f);
	if (!f.nr_lists) {
		op_strbuf_addstr(&sb, "excluded everything: ");
		add_tag(&sb, "session-exclude", &spec->session_exclude);
		op_strbuf_addstr(&sb, " (it excludes every session of ");
		add_tag(&sb, "session", pp_spec_sessions(spec));
		op_strbuf_addstr(&sb, ")\n");
	} else if (f.first_bad) {
		char qp[QUOTE_SIZE];

		op_strbuf_addf(&sb, "skipped: %zu, the first '%s': %s\n",
			       f.nr_bad, op_quote(qp, sizeof(qp), f.first_bad->path),
			       op_quote(q, sizeof(q), f.first_bad->why));
	}
	if (f.nr_files) {
		add_contents(&sb, &f);
		add_culprits(&sb, spec, &f);
		if (spec->time.nr)
			add_time_spans(&sb, sd, spec);
	} else if (f.nr_lists) {
		op_strbuf_addstr(&sb, "no sample files in the sessions searched\n");
		if (!f.nr_bad)
			op_strbuf_addstr(&sb, "hint: profile with operf first, or "
					 "pick a session with session:NAME\n");
	}
	found_release(&f);
	text = op_strbuf_detach(&sb);
	if (!text)
		op_die(1, "out of memory");
	return text;
}
