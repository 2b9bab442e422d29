// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding the session directory and listing the sample files of the
 * sessions a profile specification selects (see pp_session.h).
 *
 * The walk of one session's directory tree is session_walk.c's.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/profile/pp_session.h"
#include "libpp/profile/profile_int.h"
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

/* is dir/name a directory? */
static bool has_dir(const char *dir, const char *name)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	bool yes;

	op_strbuf_addf(&sb, "%s/%s", dir, name);
	yes = !op_strbuf_failed(&sb) && op_is_dir(sb.buf);
	op_strbuf_release(&sb);
	return yes;
}

/*
 * A --session-dir that holds no session but is next to one: the project
 * directory operf made ./oprofile_data in, or that session's samples/.
 * Sets err with the option to give; 0 when dir is no such case.
 */
static int near_session(const char *dir, struct op_err *err)
{
	char q[QUOTE_SIZE];
	const char *slash;

	if (has_dir(dir, "samples"))
		return 0;
	if (has_dir(dir, "oprofile_data/samples")) {
		op_err_set(err, "'%s' holds no session, but its oprofile_data does: "
			   "give --session-dir=%s/oprofile_data",
			   op_quote(q, sizeof(q), dir), dir);
		return -ENOENT;
	}
	slash = strrchr(dir, '/');
	if (slash && !strcmp(slash + 1, "samples") && has_dir(dir, "current")) {
		op_err_set(err, "'%s' is the samples directory of a session: give "
			   "--session-dir=%.*s, the directory above it",
			   op_quote(q, sizeof(q), dir), (int)(slash - dir), dir);
		return -ENOENT;
	}
	return 0;
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
			op_err_set(err, "cannot use archive '%s': %s (an archive is the "
				   "directory oparchive copied a session and its "
				   "binaries to)", op_quote(q1, sizeof(q1), abs), op_strerror(ret));
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
		else if ((ret = near_session(sd->dir, err))) {
			free(sd->dir);
			sd->dir = NULL;
		}
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
			size_t first = list->nr;

			seen[nr_seen++] = real;
			ret = pp_walk_session(real, name, filter ? spec : NULL, list,
					      &alloc, err);
			if (!ret && filter && spec->time.nr)
				ret = pp_time_apply(real, name, spec, list, first, err);
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
		free(list->files[i].kc);
		odb_name_release(&list->files[i].name);
	}
	pp_time_free(list->time);
	free(list->files);
	for (i = 0; i < list->nr_bad; i++) {
		free(list->bad[i].path);
		free(list->bad[i].why);
	}
	free(list->bad);
	memset(list, 0, sizeof(*list));
}
