// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Walking one session directory for its sample files (profile_int.h).
 *
 * A session of a system-wide run holds tens of thousands of sample files,
 * each in a directory chain of its own ({root}/APP/{dep}/{root}/IMAGE/),
 * so the walk does little per directory: each is opened relative to its
 * parent (no walk of the whole path by the kernel), read with
 * getdents64() into one buffer, and its entries go on one stack of names
 * shared by all levels (no allocation per entry).  A directory stays open
 * while its children are walked, up to OPEN_DEPTH levels; deeper ones are
 * opened by their full path, which is always kept.  Entries are walked in
 * sorted order, so the list is the same on every run, and nothing is
 * followed through a symbolic link.
 *
 * Reading directories is most of the time (the kernel's, per directory),
 * so the first directory with many entries (the applications of a
 * system-wide run, the threads of one image) is shared out: its sorted
 * entries are cut into one contiguous run per CPU, each walked by its own
 * thread into a list of its own, and the lists are appended in the order
 * of the runs, which gives the list a single walk would.  Of the runs'
 * errors, the first in that order is the walk's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_longnames.h"
#include "libpp/profile/profile_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"

#define QUOTE_SIZE 256
#define OPEN_DEPTH 32
#define DIRENT_BUF (32 << 10)
#define SPLIT_MIN 1024		/* fewer entries are not worth a thread */
#define MAX_RUNS 8

enum entry_type { ENTRY_DIR, ENTRY_FILE, ENTRY_OTHER };

struct entry {
	size_t name;		/* offset in walk.names */
	enum entry_type type;
};

struct walk {
	const struct pp_spec *spec;	/* NULL: keep every file */
	const char *session;		/* its name, as the spec gives it */
	const struct odb_longnames *longnames;	/* its long names' paths */
	struct pp_file_list *list;
	size_t *alloc;			/* list->files allocated */
	struct op_err *err;
	bool split;			/* a directory was shared out (or this
					 * walk is one of its runs) */
	struct op_strbuf path;		/* the path being walked */
	size_t rel;			/* where the session-relative part starts */
	struct op_strbuf names;		/* entry names of every open level */
	struct entry *ents;		/* a stack: each level's entries */
	size_t nr_ents, alloc_ents;
	char *dirents;			/* getdents64() buffer */
};

static void check_strbuf(const struct op_strbuf *sb)
{
	if (op_strbuf_failed(sb))
		op_die(1, "out of memory");
}

static enum entry_type entry_type(int dfd, const struct dirent64 *de)
{
	struct stat st;

	if (de->d_type == DT_DIR)
		return ENTRY_DIR;
	if (de->d_type == DT_REG)
		return ENTRY_FILE;
	if (de->d_type != DT_UNKNOWN ||
	    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
		return ENTRY_OTHER;
	return S_ISDIR(st.st_mode) ? ENTRY_DIR :
	       S_ISREG(st.st_mode) ? ENTRY_FILE : ENTRY_OTHER;
}

static void push_entry(struct walk *w, const char *name, enum entry_type type)
{
	if (w->nr_ents == w->alloc_ents) {
		w->alloc_ents = w->alloc_ents ? w->alloc_ents * 2 : 64;
		w->ents = op_xreallocarray(w->ents, w->alloc_ents, sizeof(*w->ents));
	}
	w->ents[w->nr_ents].name = w->names.len;
	w->ents[w->nr_ents].type = type;
	w->nr_ents++;
	op_strbuf_add(&w->names, name, strlen(name) + 1);
	check_strbuf(&w->names);
}

/* push the entries of the open directory fd on the stack */
static int read_entries(struct walk *w, int fd)
{
	for (;;) {
		ssize_t n = getdents64(fd, w->dirents, DIRENT_BUF), off;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		for (off = 0; off < n;) {
			const struct dirent64 *de = (const void *)(w->dirents + off);
			const char *name = de->d_name;

			off += de->d_reclen;
			if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			push_entry(w, name, entry_type(fd, de));
		}
	}
}

/* for qsort_r(): names is the names buffer the offsets are in */
static int cmp_entry(const void *a, const void *b, void *names)
{
	return strcmp((const char *)names + ((const struct entry *)a)->name,
		      (const char *)names + ((const struct entry *)b)->name);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t len = strlen(s), n = strlen(suffix);

	return len >= n && !strcmp(s + len - n, suffix);
}

/* a JIT agent's ELF file beside its anon regions: .../{anon:NAME}/PID.jo */
static bool is_jit_file(const char *rel)
{
	const char *slash = strrchr(rel, '/'), *parent;

	if (!slash || !ends_with(rel, ".jo"))
		return false;
	for (parent = slash; parent > rel && parent[-1] != '/'; parent--)
		;
	return !strncmp(parent, "{anon", 5);
}

static void add_bad(struct pp_file_list *list, const char *path,
		    const char *why)
{
	list->bad = op_xreallocarray(list->bad, list->nr_bad + 1,
				     sizeof(*list->bad));
	list->bad[list->nr_bad].path = op_xstrdup(path);
	list->bad[list->nr_bad].why = op_xstrdup(why);
	list->nr_bad++;
}

/*
 * Not a regular file where sample files are (the walk never follows a
 * symlink): skipped, with what it is (fd: its directory, or -1)
 */
static void add_odd(struct walk *w, int fd, const char *name)
{
	struct stat st;
	int ret = fd >= 0 ? fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) :
		  lstat(w->path.buf, &st);
	const char *why = ret ? "cannot be examined" :
			  S_ISLNK(st.st_mode) ? "a symbolic link, not a sample file" :
			  S_ISFIFO(st.st_mode) ? "a FIFO, not a sample file" :
			  S_ISSOCK(st.st_mode) ? "a socket, not a sample file" :
			  S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ?
			  "a device, not a sample file" : "not a regular file";

	add_bad(w->list, w->path.buf, why);
}

static struct pp_sample_file *new_file(struct pp_file_list *list, size_t *alloc)
{
	if (list->nr == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 64;
		list->files = op_xreallocarray(list->files, *alloc, sizeof(*list->files));
	}
	memset(&list->files[list->nr], 0, sizeof(list->files[list->nr]));
	return &list->files[list->nr++];
}

/* the file at w->path, below {root} or {kern} */
static void add_file(struct walk *w)
{
	struct pp_file_list *list = w->list;
	const char *path = w->path.buf, *rel = path + w->rel;
	struct op_err err = { "" };
	struct pp_sample_file *f;
	struct odb_name name;

	if (ends_with(rel, ".tmp") || is_jit_file(rel)) {
		list->nr_other++;
		return;
	}
	if (odb_name_parse(rel, &name, &err)) {
		add_bad(list, path, err.msg);
		return;
	}
	/* a long name stands for the path the session recorded for it:
	 * shown, matched and opened as that path */
	if (odb_longnames_resolve(w->longnames, &name.app) < 0 ||
	    odb_longnames_resolve(w->longnames, &name.image) < 0 ||
	    (name.is_cg && odb_longnames_resolve(w->longnames, &name.cg) < 0))
		op_die(1, "out of memory");
	if (w->spec && pp_spec_reject(w->spec, w->session, &name)) {
		odb_name_release(&name);
		return;
	}
	f = new_file(list, w->alloc);
	f->path = op_xstrndup(path, w->path.len);
	f->session = op_xstrdup(w->session);
	f->name = name;
}

static int walk_dir(struct walk *w, int parent, const char *name, unsigned depth,
		    bool samples);
static int walk_split(struct walk *w, int fd, size_t from, size_t to,
		      unsigned depth, bool samples);

/*
 * Walk entries [from, to) of the stack, those of the directory at
 * w->path (open as fd, or -1).  depth and samples: the directory's, as
 * walk_dir() takes them.
 */
static int walk_entries(struct walk *w, int fd, size_t from, size_t to,
			unsigned depth, bool samples)
{
	size_t path_len = w->path.len, i;
	int ret = 0;

	if (depth && !w->split && to - from >= SPLIT_MIN && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		return walk_split(w, fd, from, to, depth, samples);
	for (i = from; i < to && !ret; i++) {
		/* w->names may move as deeper levels push their names */
		enum entry_type type = w->ents[i].type;
		const char *sub;

		op_strbuf_setlen(&w->path, path_len);
		op_strbuf_addch(&w->path, '/');
		op_strbuf_addstr(&w->path, w->names.buf + w->ents[i].name);
		check_strbuf(&w->path);
		if (!depth)
			w->rel = path_len + 1;
		sub = w->path.buf + path_len + 1;
		if (type == ENTRY_DIR)
			ret = walk_dir(w, fd, sub, depth + 1, depth ?
				       samples : !strcmp(sub, "{root}") ||
						 !strcmp(sub, "{kern}"));
		else if (type == ENTRY_FILE && samples)
			add_file(w);
		else if (samples)
			add_odd(w, fd, sub);
		else
			w->list->nr_other++;
	}
	op_strbuf_setlen(&w->path, path_len);
	return ret;
}

/*
 * Walk the directory at w->path, named name in the open directory parent
 * (parent < 0: open it by its path).  depth: 0 for the session itself.
 * samples: whether the files below are sample files ({root}/ or {kern}/
 * trees).
 */
static int walk_dir(struct walk *w, int parent, const char *name, unsigned depth,
		    bool samples)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
	size_t from = w->nr_ents, names_from = w->names.len;
	char q[QUOTE_SIZE];
	int fd, ret;

	fd = parent >= 0 ? openat(parent, name, flags) : open(w->path.buf, flags);
	ret = fd < 0 ? -errno : read_entries(w, fd);
	if (ret) {
		op_err_set(w->err, "cannot read '%s': %s",
			   op_quote(q, sizeof(q), w->path.buf), op_strerror(ret));
		goto out;
	}
	if (w->nr_ents > from)
		qsort_r(w->ents + from, w->nr_ents - from, sizeof(*w->ents),
			cmp_entry, w->names.buf);
	if (depth >= OPEN_DEPTH) {
		close(fd);
		fd = -1;
	}
	ret = walk_entries(w, fd, from, w->nr_ents, depth, samples);
out:
	if (fd >= 0)
		close(fd);
	w->nr_ents = from;
	op_strbuf_setlen(&w->names, names_from);
	return ret;
}

/* --- sharing a directory out ------------------------------------------- */

/* one contiguous run of a shared directory's entries, walked alone */
struct run {
	struct walk w;
	struct pp_file_list list;
	size_t alloc;
	struct op_err err;
	int fd;
	unsigned depth;
	bool samples;
	bool started;
	pthread_t thread;
	int ret;
};

static void walk_init(struct walk *w, const struct walk *like, struct pp_file_list *list,
		      size_t *alloc, struct op_err *err)
{
	memset(w, 0, sizeof(*w));
	w->spec = like->spec;
	w->session = like->session;
	w->longnames = like->longnames;
	w->list = list;
	w->alloc = alloc;
	w->err = err;
	op_strbuf_init(&w->path);
	op_strbuf_init(&w->names);
	w->dirents = op_xmalloc(DIRENT_BUF);
}

static void walk_release(struct walk *w)
{
	free(w->dirents);
	free(w->ents);
	op_strbuf_release(&w->names);
	op_strbuf_release(&w->path);
}

/* a run of the entries [from, to) of w's stack, with copies of their names */
static void run_init(struct run *r, const struct walk *w, size_t from, size_t to,
		     int fd, unsigned depth, bool samples)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	walk_init(&r->w, w, &r->list, &r->alloc, &r->err);
	r->w.split = true;
	r->w.rel = w->rel;
	op_strbuf_add(&r->w.path, w->path.buf, w->path.len);
	check_strbuf(&r->w.path);
	for (i = from; i < to; i++)
		push_entry(&r->w, w->names.buf + w->ents[i].name, w->ents[i].type);
	r->fd = fd;
	r->depth = depth;
	r->samples = samples;
}

static void *run_walk(void *arg)
{
	struct run *r = arg;

	r->ret = walk_entries(&r->w, r->fd, 0, r->w.nr_ents, r->depth, r->samples);
	return NULL;
}

/* append what run r found to w's list, emptying r's */
static void run_merge(struct walk *w, struct run *r)
{
	struct pp_file_list *to = w->list, *from = &r->list;
	size_t i;

	for (i = 0; i < from->nr; i++)
		*new_file(to, w->alloc) = from->files[i];
	if (from->nr_bad) {
		to->bad = op_xreallocarray(to->bad, to->nr_bad + from->nr_bad,
					   sizeof(*to->bad));
		memcpy(to->bad + to->nr_bad, from->bad, from->nr_bad * sizeof(*to->bad));
		to->nr_bad += from->nr_bad;
	}
	to->nr_other += from->nr_other;
	free(from->files);
	free(from->bad);
	memset(from, 0, sizeof(*from));
}

/*
 * Walk entries [from, to) as walk_entries() does, in one run per CPU: the
 * first in this thread, the others each in a thread of its own (or here,
 * in order, when one cannot be started).
 */
static int walk_split(struct walk *w, int fd, size_t from, size_t to,
		      unsigned depth, bool samples)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nr_runs = cpus > MAX_RUNS ? MAX_RUNS : (size_t)cpus, per, i;
	struct run *runs = op_xcalloc(nr_runs, sizeof(*runs));
	int ret;

	w->split = true;
	per = (to - from + nr_runs - 1) / nr_runs;
	for (i = 1; i < nr_runs; i++) {
		size_t lo = from + i * per, hi = lo + per < to ? lo + per : to;

		run_init(&runs[i], w, lo < to ? lo : to, hi, fd, depth, samples);
		runs[i].started = !pthread_create(&runs[i].thread, NULL, run_walk, &runs[i]);
	}
	ret = walk_entries(w, fd, from, from + per < to ? from + per : to, depth, samples);
	for (i = 1; i < nr_runs; i++) {
		struct run *r = &runs[i];

		if (r->started)
			pthread_join(r->thread, NULL);
		else if (!ret)
			run_walk(r);
		if (!ret && r->ret) {
			ret = r->ret;
			op_err_set(w->err, "%s", r->err.msg);
		}
		run_merge(w, r);
		walk_release(&r->w);
	}
	free(runs);
	return ret;
}

int pp_walk_session(const char *dir, const char *session, const struct pp_spec *spec,
		    struct pp_file_list *list, size_t *alloc, struct op_err *err)
{
	struct odb_longnames longnames;
	struct walk w;
	struct walk like = { .spec = spec, .session = session,
			     .longnames = &longnames };
	int ret;

	/* none, or unreadable: long names stay as they are */
	if (odb_longnames_read(dir, &longnames) == -ENOMEM)
		op_die(1, "out of memory");
	walk_init(&w, &like, list, alloc, err);
	op_strbuf_addstr(&w.path, dir);
	check_strbuf(&w.path);
	w.rel = w.path.len;
	ret = walk_dir(&w, -1, dir, 0, false);
	walk_release(&w);
	odb_longnames_release(&longnames);
	return ret;
}
