// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding the session directory and listing the sample files of the
 * sessions a profile specification selects (see pp_session.h).
 *
 * A session is walked one directory at a time: each directory's entries
 * are read, sorted and closed before going deeper, so the walk holds one
 * descriptor however deep image paths nest, and the list comes out in the
 * same order on every run.  Nothing is followed through a symbolic link.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/profile/pp_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "libutil/op_quote.h"

#define QUOTE_SIZE 256
#define DEFAULT_SESSION_DIR "/var/lib/oprofile"

static char *xdetach(struct op_strbuf *sb)
{
	char *s = op_strbuf_detach(sb);

	if (!s)
		op_die(1, "out of memory");
	return s;
}

/* path made absolute against the current directory (not resolved) */
static char *absolute(const char *path)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char cwd[PATH_MAX];

	if (path[0] != '/' && getcwd(cwd, sizeof(cwd)))
		op_strbuf_addf(&sb, "%s/", cwd);
	op_strbuf_addstr(&sb, path);
	return xdetach(&sb);
}

/* archive + path, both absolute; archive may be NULL */
static char *under_archive(const char *archive, const char *path)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *abs = absolute(path);

	if (archive)
		op_strbuf_addstr(&sb, archive);
	op_strbuf_addstr(&sb, abs);
	free(abs);
	return xdetach(&sb);
}

/* the resolved path of dir if it is a directory, else NULL and *ret */
static char *existing_dir(const char *dir, int *ret)
{
	char real[PATH_MAX];
	struct stat st;

	if (stat(dir, &st)) {
		*ret = -errno;
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		*ret = -ENOTDIR;
		return NULL;
	}
	if (!realpath(dir, real)) {
		*ret = -errno;
		return NULL;
	}
	*ret = 0;
	return op_xstrdup(real);
}

int pp_session_dir_find(struct pp_session_dir *sd, const char *option,
			const char *archive, struct op_err *err)
{
	char q1[QUOTE_SIZE], q2[QUOTE_SIZE], *first, *second = NULL;
	int ret;

	memset(sd, 0, sizeof(*sd));
	if (archive) {
		char *abs = absolute(archive);

		sd->archive = existing_dir(abs, &ret);
		if (!sd->archive) {
			op_err_set(err, "cannot use archive '%s': %s",
				   op_quote(q1, sizeof(q1), abs), op_strerror(ret));
			free(abs);
			return ret;
		}
		free(abs);
	}
	first = under_archive(sd->archive, option ? option : "oprofile_data");
	sd->dir = existing_dir(first, &ret);
	if (option) {
		sd->given = true;
		if (!sd->dir)
			op_err_set(err, "cannot use session directory '%s': %s",
				   op_quote(q1, sizeof(q1), first),
				   op_strerror(ret));
	} else if (!sd->dir) {
		second = under_archive(sd->archive, DEFAULT_SESSION_DIR);
		sd->dir = existing_dir(second, &ret);
		if (!sd->dir)
			op_err_set(err, "no session directory: neither '%s' "
				   "nor '%s' exists", op_quote(q1, sizeof(q1), first),
				   op_quote(q2, sizeof(q2), second));
	}
	free(first);
	free(second);
	if (!sd->dir) {
		pp_session_dir_release(sd);
		return ret;
	}
	return 0;
}

void pp_session_dir_release(struct pp_session_dir *sd)
{
	if (!sd)
		return;
	free(sd->dir);
	free(sd->archive);
	memset(sd, 0, sizeof(*sd));
}

char *pp_session_path(const struct pp_session_dir *sd, const char *name)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	if (name[0] == '/' || name[0] == '.')
		return absolute(name);
	op_strbuf_addf(&sb, "%s/samples/%s", sd->dir, name);
	return xdetach(&sb);
}

/* --- the walk ----------------------------------------------------------- */

/*
 * A session of a system-wide run holds tens of thousands of sample files,
 * each in a directory chain of its own ({root}/APP/{dep}/{root}/IMAGE/),
 * so the walk does little per directory: each is opened relative to its
 * parent (no walk of the whole path by the kernel), read with
 * getdents64() into one buffer, and its entries go on one stack of names
 * shared by all levels (no allocation per entry).  A directory stays open
 * while its children are walked, up to OPEN_DEPTH levels; deeper ones are
 * opened by their full path, which is always kept.
 */
#define OPEN_DEPTH 32
#define DIRENT_BUF (32 << 10)

enum entry_type { ENTRY_DIR, ENTRY_FILE, ENTRY_OTHER };

struct entry {
	size_t name;		/* offset in walk.names */
	enum entry_type type;
};

struct walk {
	const struct pp_spec *spec;	/* NULL: keep every file */
	const char *session;		/* its name, as the spec gives it */
	struct pp_file_list *list;
	size_t alloc;			/* list->files allocated */
	struct op_err *err;
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
			if (w->nr_ents == w->alloc_ents) {
				w->alloc_ents = w->alloc_ents ? w->alloc_ents * 2 : 64;
				w->ents = op_xreallocarray(w->ents, w->alloc_ents,
							   sizeof(*w->ents));
			}
			w->ents[w->nr_ents].name = w->names.len;
			w->ents[w->nr_ents].type = entry_type(fd, de);
			w->nr_ents++;
			op_strbuf_add(&w->names, name, strlen(name) + 1);
			check_strbuf(&w->names);
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
	if (w->spec && pp_spec_reject(w->spec, w->session, &name)) {
		odb_name_release(&name);
		return;
	}
	if (list->nr == w->alloc) {
		w->alloc = w->alloc ? w->alloc * 2 : 64;
		list->files = op_xreallocarray(list->files, w->alloc,
					       sizeof(*list->files));
	}
	f = &list->files[list->nr++];
	f->path = op_xstrndup(path, w->path.len);
	f->session = op_xstrdup(w->session);
	f->name = name;
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
	size_t from = w->nr_ents, names_from = w->names.len, path_len = w->path.len, i;
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
	for (i = from; i < w->nr_ents && !ret; i++) {
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
		else
			w->list->nr_other++;
	}
	op_strbuf_setlen(&w->path, path_len);
out:
	if (fd >= 0)
		close(fd);
	w->nr_ents = from;
	op_strbuf_setlen(&w->names, names_from);
	return ret;
}

/* walk the session directory dir, adding to w->list */
static int walk_session(struct walk *w, const char *dir)
{
	int ret;

	op_strbuf_addstr(&w->path, dir);
	check_strbuf(&w->path);
	w->rel = w->path.len;
	w->dirents = op_xmalloc(DIRENT_BUF);
	ret = walk_dir(w, -1, dir, 0, false);
	free(w->dirents);
	free(w->ents);
	op_strbuf_release(&w->names);
	op_strbuf_release(&w->path);
	return ret;
}

static bool contains(char *const *v, size_t nr, const char *s)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static int list_sessions(const struct pp_session_dir *sd,
			 const struct pp_spec *spec, bool filter,
			 struct pp_file_list *list, struct op_err *err)
{
	const struct pp_spec_list *sessions = pp_spec_sessions(spec);
	char **seen = op_xcalloc(sessions->nr + 1, sizeof(*seen));
	size_t i, nr_seen = 0, alloc = 0;
	int ret = 0;

	memset(list, 0, sizeof(*list));
	for (i = 0; i < sessions->nr && !ret; i++) {
		const char *name = sessions->items[i];
		struct walk w = { .spec = filter ? spec : NULL, .session = name,
				  .list = list, .alloc = alloc, .err = err,
				  .path = OP_STRBUF_INIT, .names = OP_STRBUF_INIT };
		char q[QUOTE_SIZE], qp[QUOTE_SIZE], *path, *real;

		if (contains(spec->session_exclude.items,
			     spec->session_exclude.nr, name))
			continue;
		path = pp_session_path(sd, name);
		real = existing_dir(path, &ret);
		if (!real) {
			op_err_set(err, "session '%s' not found: '%s': %s",
				   op_quote(q, sizeof(q), name),
				   op_quote(qp, sizeof(qp), path),
				   op_strerror(ret));
		} else if (contains(seen, nr_seen, real)) {
			free(real);	/* the same directory under two names */
		} else {
			seen[nr_seen++] = real;
			ret = walk_session(&w, real);
			alloc = w.alloc;
		}
		free(path);
	}
	for (i = 0; i < nr_seen; i++)
		free(seen[i]);
	free(seen);
	if (ret)
		pp_file_list_release(list);
	return ret;
}

int pp_session_list(const struct pp_session_dir *sd, const struct pp_spec *spec,
		    struct pp_file_list *list, struct op_err *err)
{
	return list_sessions(sd, spec, true, list, err);
}

int pp_session_list_all(const struct pp_session_dir *sd,
			const struct pp_spec *spec, struct pp_file_list *list,
			struct op_err *err)
{
	return list_sessions(sd, spec, false, list, err);
}

void pp_file_list_release(struct pp_file_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->nr; i++) {
		free(list->files[i].path);
		free(list->files[i].session);
		odb_name_release(&list->files[i].name);
	}
	free(list->files);
	for (i = 0; i < list->nr_bad; i++) {
		free(list->bad[i].path);
		free(list->bad[i].why);
	}
	free(list->bad);
	memset(list, 0, sizeof(*list));
}
