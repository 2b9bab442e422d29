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

struct walk {
	const struct pp_spec *spec;	/* NULL: keep every file */
	const char *session;		/* its name, as the spec gives it */
	struct pp_file_list *list;
	struct op_err *err;
};

enum entry_type { ENTRY_DIR, ENTRY_FILE, ENTRY_OTHER };

struct entry {
	char *name;
	enum entry_type type;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
		      ((const struct entry *)b)->name);
}

static enum entry_type entry_type(int dfd, const struct dirent *de)
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

/* the entries of path, sorted; *nr of them */
static int read_entries(const char *path, struct entry **entries, size_t *nr)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct entry *v = NULL;
	struct dirent *de;
	size_t n = 0;
	DIR *dir;

	*entries = NULL;
	*nr = 0;
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	while ((errno = 0, de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		v = op_xreallocarray(v, n + 1, sizeof(*v));
		v[n].name = op_xstrdup(de->d_name);
		v[n].type = entry_type(dirfd(dir), de);
		n++;
	}
	closedir(dir);
	if (n)
		qsort(v, n, sizeof(*v), cmp_entry);
	*entries = v;
	*nr = n;
	return 0;
}

static void free_entries(struct entry *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
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

/* one file below {root} or {kern}: rel is relative to the session */
static void add_file(struct walk *w, const char *path, const char *rel)
{
	struct pp_file_list *list = w->list;
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
	list->files = op_xreallocarray(list->files, list->nr + 1,
				       sizeof(*list->files));
	f = &list->files[list->nr++];
	f->path = op_xstrdup(path);
	f->session = op_xstrdup(w->session);
	f->name = name;
}

/*
 * Walk the directory path (rel below the session, "" at the top).  samples:
 * whether the files below are sample files ({root}/ or {kern}/ trees).
 */
static int walk_dir(struct walk *w, const char *path, const char *rel,
		    bool samples)
{
	struct op_strbuf sub = OP_STRBUF_INIT, subrel = OP_STRBUF_INIT;
	char q[QUOTE_SIZE];
	struct entry *v;
	size_t nr, i;
	int ret;

	ret = read_entries(path, &v, &nr);
	if (ret) {
		op_err_set(w->err, "cannot read '%s': %s",
			   op_quote(q, sizeof(q), path), op_strerror(ret));
		return ret;
	}
	for (i = 0; i < nr && !ret; i++) {
		bool top = !*rel;

		op_strbuf_reset(&sub);
		op_strbuf_reset(&subrel);
		op_strbuf_addf(&sub, "%s/%s", path, v[i].name);
		if (!top)
			op_strbuf_addf(&subrel, "%s/", rel);
		op_strbuf_addstr(&subrel, v[i].name);
		if (op_strbuf_failed(&sub) || op_strbuf_failed(&subrel))
			op_die(1, "out of memory");
		if (v[i].type == ENTRY_DIR)
			ret = walk_dir(w, sub.buf, subrel.buf, top ?
				       !strcmp(v[i].name, "{root}") ||
				       !strcmp(v[i].name, "{kern}") : samples);
		else if (v[i].type == ENTRY_FILE && samples)
			add_file(w, sub.buf, subrel.buf);
		else
			w->list->nr_other++;
	}
	op_strbuf_release(&sub);
	op_strbuf_release(&subrel);
	free_entries(v, nr);
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
	size_t i, nr_seen = 0;
	int ret = 0;

	memset(list, 0, sizeof(*list));
	for (i = 0; i < sessions->nr && !ret; i++) {
		const char *name = sessions->items[i];
		struct walk w = { filter ? spec : NULL, name, list, err };
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
			ret = walk_dir(&w, real, "", false);
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
