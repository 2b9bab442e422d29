// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oparchive's plan (oparchive.h): which files an archive of a profile
 * needs, and where each goes below the archive directory.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libdb/odb_name.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"
#include "pp/oparchive.h"

/* where the symbol loader looks for an archive's debug files by build-id
 * (pp_symbols.h: the archive's own usr/lib/debug) */
#define ARCHIVE_DEBUG_ROOT "usr/lib/debug"

static void add_item(struct oa_plan *plan, const char *src, size_t safe_len,
		     char *dst, enum oa_kind kind, uint64_t size)
{
	struct oa_item *it;

	if (plan->nr == plan->alloc) {
		plan->alloc = plan->alloc ? 2 * plan->alloc : 64;
		plan->v = op_xreallocarray(plan->v, plan->alloc, sizeof(*plan->v));
	}
	it = &plan->v[plan->nr++];
	it->src = op_xstrdup(src);
	it->safe_len = safe_len;
	it->dst = dst;
	it->kind = kind;
	it->size = size;
}

/* the destination of an absolute path: itself without its leading '/' */
static char *dst_of(const char *path)
{
	return op_xstrdup(path + 1);
}

/* --- the session's files ------------------------------------------------ */

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n >= k && !strcmp(s + n - k, tail);
}

/*
 * Add the files of dir (rel below the session path base, "" for the top)
 * that are not sample files: stats/, kernel/, jit/, session.info, ... .
 * Sample trees ({root}, {kern}, {anon:...}) are skipped: the selected
 * sample files come from the job's list.  Links are not followed.
 */
static void add_session_dir(struct oa_plan *plan, const char *base,
			    const struct op_dir *dir, const char *rel)
{
	struct op_strbuf path = OP_STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd = dup(dir->fd);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		op_warning_errno(errno, "cannot list '%s'", dir->path);
		return;
	}
	while ((de = readdir(d))) {
		const char *name = de->d_name;

		if (!strcmp(name, ".") || !strcmp(name, "..") || ends_with(name, ".tmp") ||
		    (!rel[0] && name[0] == '{'))
			continue;
		op_strbuf_reset(&path);
		op_strbuf_addf(&path, "%s%s%s", rel, rel[0] ? "/" : "", name);
		if (op_strbuf_failed(&path))
			op_die(1, "out of memory");
		if (fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			op_warning_errno(errno, "cannot stat '%s/%s'", base, path.buf);
		} else if (S_ISDIR(st.st_mode)) {
			struct op_dir sub = OP_DIR_INIT;
			int ret = op_dir_sub(&sub, dir, name, false, 0);

			if (ret)
				op_warning_errno(-ret, "cannot open '%s/%s'", base, path.buf);
			else
				add_session_dir(plan, base, &sub, path.buf);
			op_dir_close(&sub);
		} else if (S_ISREG(st.st_mode)) {
			struct op_strbuf src = OP_STRBUF_INIT;

			op_strbuf_addf(&src, "%s/%s", base, path.buf);
			if (op_strbuf_failed(&src))
				op_die(1, "out of memory");
			add_item(plan, src.buf, strlen(base), dst_of(src.buf), OA_SESSION,
				 (uint64_t)st.st_size);
			op_strbuf_release(&src);
		} else if (S_ISLNK(st.st_mode)) {
			op_warning("'%s/%s' is a symbolic link: not archived (links in "
				   "a session are never followed)", base, path.buf);
		}
	}
	closedir(d);
	op_strbuf_release(&path);
}

/* the session directory's abi file, when base is one of its sessions */
static void add_abi(struct oa_plan *plan, const char *base)
{
	const char *sd = plan->session_dir;
	size_t len = strlen(sd);
	struct op_strbuf src = OP_STRBUF_INIT;
	struct op_dir dir = OP_DIR_INIT;
	struct stat st;

	if (strncmp(base, sd, len) || strncmp(base + len, "/samples/", 9))
		return;
	if (!op_dir_open_path(&dir, sd) && !op_dir_stat(&dir, "abi", &st) &&
	    S_ISREG(st.st_mode)) {
		op_strbuf_addf(&src, "%s/abi", sd);
		if (op_strbuf_failed(&src))
			op_die(1, "out of memory");
		add_item(plan, src.buf, len, dst_of(src.buf), OA_SESSION, (uint64_t)st.st_size);
	}
	op_dir_close(&dir);
	op_strbuf_release(&src);
}

/* the resolved samples directory of session name */
static char *session_base(const struct ppt_job *job, const char *name)
{
	char *path = pp_session_path(&job->sd, name), real[PATH_MAX];

	if (realpath(path, real)) {
		free(path);
		return op_xstrdup(real);
	}
	return path;
}

/* the files of session name besides its sample files */
static void add_session_files(struct oa_plan *plan, const struct ppt_job *job,
			      const char *name)
{
	char *base = session_base(job, name);
	struct op_dir dir = OP_DIR_INIT;

	if (!op_dir_open_path(&dir, base)) {
		add_session_dir(plan, base, &dir, "");
		add_abi(plan, base);
	}
	op_dir_close(&dir);
	free(base);
}

/*
 * Add the other files of each session the selected sample files come
 * from, once (session-exclude: and sessions without a selected file
 * bring none): the list holds them session by session, each once
 * (pp_session_list()).
 */
static void add_sessions(struct oa_plan *plan, const struct ppt_job *job)
{
	const struct pp_file_list *list = &job->files[0];
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (!i || strcmp(list->files[i - 1].session, list->files[i].session))
			add_session_files(plan, job, list->files[i].session);
}

/* is the sample file left out by -x: a library, module or kernel? */
static bool dependent(const struct odb_name *n)
{
	return !odb_image_id_equal(&n->app, &n->image) ||
	       (n->is_cg && !odb_image_id_equal(&n->app, &n->cg));
}

static void add_sample_file(struct oa_plan *plan, const struct ppt_job *job,
			    const struct pp_sample_file *f)
{
	char *base = session_base(job, f->session);
	size_t len = strlen(base);
	struct stat st;

	if (!strncmp(f->path, base, len) && f->path[len] == '/' && !lstat(f->path, &st))
		add_item(plan, f->path, len, dst_of(f->path), OA_SESSION,
			 (uint64_t)st.st_size);
	else
		op_warning("cannot find sample file '%s' below its session '%s'",
			   f->path, base);
	free(base);
}

/* --- binaries and their debug files ------------------------------------- */

struct paths {
	char **v;
	size_t nr, alloc;
};

/* add the binary at path (absolute); what is under /proc is no file */
static void paths_add_path(struct paths *p, const char *path)
{
	if (path[0] != '/' || !strncmp(path, "/proc/", 6))
		return;
	if (p->nr == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 32;
		p->v = op_xreallocarray(p->v, p->alloc, sizeof(*p->v));
	}
	p->v[p->nr++] = op_xstrdup(path);
}

/*
 * add the binary of image: a file; for the kernel without a vmlinux
 * image ({kern}/no-vmlinux), the vmlinux given to operf --vmlinux, which
 * the report tools read its symbols from (pp_sym_opts.vmlinux)
 */
static void paths_add(struct paths *p, const struct odb_image_id *id,
		      const struct ppt_job *job)
{
	if (id->kind == ODB_IMAGE_FILE)
		paths_add_path(p, id->name);
	else if (id->kind == ODB_IMAGE_KERNEL && !strcmp(id->name, "no-vmlinux") &&
		 job->info.run.vmlinux && job->info.run.vmlinux[0])
		paths_add_path(p, job->info.run.vmlinux);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sort and drop repeats */
static void paths_unique(struct paths *p)
{
	size_t i, n = 0;

	if (p->nr)
		qsort(p->v, p->nr, sizeof(*p->v), cmp_str);
	for (i = 0; i < p->nr; i++) {
		if (n && !strcmp(p->v[n - 1], p->v[i]))
			free(p->v[i]);
		else
			p->v[n++] = p->v[i];
	}
	p->nr = n;
}

static void paths_release(struct paths *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		free(p->v[i]);
	free(p->v);
}

/* the i-th place a binary is looked for: --root, itself, --image-path */
static bool candidate(const struct ppt_job *job, const char *path, size_t i,
		      struct op_strbuf *cand)
{
	const char *slash = strrchr(path, '/');
	char *const *dirs = job->image_paths;
	size_t nr_dirs = 0;

	while (dirs && dirs[nr_dirs])
		nr_dirs++;
	if (i >= 2 + nr_dirs)
		return false;
	op_strbuf_reset(cand);
	if (i == 0 && job->sym_opts.root)
		op_strbuf_addf(cand, "%s%s", job->sym_opts.root, path);
	else if (i == 1)
		op_strbuf_addstr(cand, path);
	else if (i >= 2)
		op_strbuf_addf(cand, "%s/%s", dirs[i - 2], slash + 1);
	if (op_strbuf_failed(cand))
		op_die(1, "out of memory");
	return true;
}

/* what became of the search for one binary */
struct found {
	struct op_strbuf path;		/* where it was found */
	struct pp_binary_id id;
	uint64_t size;
	char other[41];			/* a build-id found instead of the recorded one */
	struct op_strbuf other_path;
};

/*
 * Look for the binary recorded as path: 1 found (in f), 0 not found,
 * -1 found but unreadable (said so).
 */
static int find_binary(const struct ppt_job *job, const char *path, struct found *f)
{
	const char *want = pp_buildids_find(&job->info.buildids, path);
	struct stat st;
	size_t i;
	int ret;

	for (i = 0; candidate(job, path, i, &f->path); i++) {
		if (!f->path.len || stat(f->path.buf, &st) || !S_ISREG(st.st_mode))
			continue;
		ret = pp_binary_identify(f->path.buf, NULL, &f->id);
		if (ret == -ENOMEM)
			op_die(1, "out of memory");
		if (ret && ret != -ENOEXEC && ret != -EIO) {
			op_error_errno(-ret, "cannot read binary '%s'", f->path.buf);
			return -1;
		}
		if (!ret && want && f->id.build_id[0] && strcmp(want, f->id.build_id)) {
			if (!f->other[0]) {
				memcpy(f->other, f->id.build_id, sizeof(f->other));
				op_strbuf_addstr(&f->other_path, f->path.buf);
			}
			pp_binary_id_release(&f->id);
			continue;
		}
		f->size = (uint64_t)st.st_size;
		return 1;
	}
	return 0;
}

static void add_debug_file(struct oa_plan *plan, const char *path,
			   const struct pp_binary_id *id)
{
	struct op_strbuf dst = OP_STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (id->how == PP_DEBUG_NONE || stat(id->debug_file, &st))
		return;
	if (id->how == PP_DEBUG_BY_BUILD_ID)
		op_strbuf_addf(&dst, ARCHIVE_DEBUG_ROOT "/.build-id/%.2s/%s.debug",
			       id->build_id, id->build_id + 2);
	else
		op_strbuf_addf(&dst, "%.*s/.debug/%s", (int)(slash - path - 1), path + 1,
			       id->debuglink);
	if (op_strbuf_failed(&dst))
		op_die(1, "out of memory");
	add_item(plan, id->debug_file, 0, op_strbuf_detach(&dst), OA_DEBUG,
		 (uint64_t)st.st_size);
}

static void add_binary(struct oa_plan *plan, const struct ppt_job *job, const char *path)
{
	struct found f = { .path = OP_STRBUF_INIT, .other_path = OP_STRBUF_INIT };
	int ret = find_binary(job, path, &f);

	if (ret > 0) {
		add_item(plan, f.path.buf, 0, dst_of(path), OA_BINARY, f.size);
		add_debug_file(plan, path, &f.id);
	} else if (ret < 0) {
		plan->status = 1;
	} else if (f.other[0]) {
		op_warning("'%s' is not the binary that was profiled (build-id %.12s... "
			   "then, %.12s... now): not archived",
			   f.other_path.buf, pp_buildids_find(&job->info.buildids, path),
			   f.other);
		op_hint("give the directory of the profiled build with --image-path, "
			"or --root");
	} else {
		op_warning("cannot find binary '%s': not archived (its samples will "
			   "show as one symbol)", path);
	}
	pp_binary_id_release(&f.id);
	op_strbuf_release(&f.path);
	op_strbuf_release(&f.other_path);
}

/* --- the plan --------------------------------------------------------------- */

static int cmp_dst(const void *a, const void *b)
{
	return strcmp(((const struct oa_item *)a)->dst, ((const struct oa_item *)b)->dst);
}

static void item_release(struct oa_item *it)
{
	free(it->src);
	free(it->dst);
}

/* sort by destination, keep the first of each, sum the sizes */
static void plan_finish(struct oa_plan *plan)
{
	size_t i, n = 0;

	if (plan->nr)
		qsort(plan->v, plan->nr, sizeof(*plan->v), cmp_dst);
	plan->total = 0;
	for (i = 0; i < plan->nr; i++) {
		if (n && !strcmp(plan->v[n - 1].dst, plan->v[i].dst)) {
			item_release(&plan->v[i]);
			continue;
		}
		plan->v[n] = plan->v[i];
		plan->total += plan->v[n++].size;
	}
	plan->nr = n;
}

void oa_plan_make(struct oa_plan *plan, struct ppt_job *job, bool exclude_dependent)
{
	const struct pp_file_list *list = &job->files[0];
	struct paths bins = { NULL, 0, 0 };
	size_t i;

	memset(plan, 0, sizeof(*plan));
	plan->session_dir = job->sd.dir;
	add_sessions(plan, job);
	for (i = 0; i < list->nr; i++) {
		const struct pp_sample_file *f = &list->files[i];

		if (exclude_dependent && dependent(&f->name))
			continue;
		add_sample_file(plan, job, f);
		paths_add(&bins, &f->name.app, job);
		paths_add(&bins, &f->name.image, job);
		if (f->name.is_cg)
			paths_add(&bins, &f->name.cg, job);
	}
	paths_unique(&bins);
	for (i = 0; i < bins.nr; i++)
		add_binary(plan, job, bins.v[i]);
	paths_release(&bins);
	plan_finish(plan);
}

void oa_plan_release(struct oa_plan *plan)
{
	size_t i;

	if (!plan)
		return;
	for (i = 0; i < plan->nr; i++)
		item_release(&plan->v[i]);
	free(plan->v);
	memset(plan, 0, sizeof(*plan));
}
