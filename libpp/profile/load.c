// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the samples of a group: every node of every file of the group,
 * sorted by key, equal keys summed in 64 bits (oprofile-ng-formats(5), SAMPLE FILES: readers
 * sum duplicate keys).  Memory follows distinct keys, not samples.
 * Symbol tables load on demand, or beside the samples in a second thread.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/profile/pp_profile.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

/*
 * Sample files are read through one odb_reader (a copy per file, not a
 * mapping).  A group's files often share a directory (one per thread, cpu
 * or process of an image): the directory is then opened once and each
 * file by its name in it, so the kernel does not walk the whole path
 * again for every file.
 */
struct file_reader {
	struct odb_reader odb;
	int dirfd;		/* the directory of the last file, or -1 */
	char *dir;		/* its path */
	size_t dir_len;
};

static void file_reader_release(struct file_reader *fr)
{
	odb_reader_release(&fr->odb);
	if (fr->dirfd >= 0)
		close(fr->dirfd);
	free(fr->dir);
}

static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

/*
 * The directory fd and name to open path by: the cached directory when
 * path is in it; when the next file of the group (next, may be NULL)
 * shares path's directory, that directory opened now; else AT_FDCWD and
 * path itself.
 */
static int file_dir(struct file_reader *fr, const char *path, const char *next,
		    const char **name)
{
	size_t len = dir_len(path);

	*name = path;
	if (!len)
		return AT_FDCWD;
	if (fr->dirfd >= 0 && len == fr->dir_len && !memcmp(path, fr->dir, len)) {
		*name = path + len + 1;
		return fr->dirfd;
	}
	if (!next || dir_len(next) != len || memcmp(path, next, len))
		return AT_FDCWD;
	if (fr->dirfd >= 0)
		close(fr->dirfd);
	free(fr->dir);
	fr->dir = op_xstrndup(path, len);
	fr->dir_len = len;
	fr->dirfd = open(fr->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fr->dirfd < 0)
		return AT_FDCWD;
	*name = path + len + 1;
	return fr->dirfd;
}

/*
 * Append the nodes of files[i] to *kv.  Returns 0 or the odb error (the
 * file is then skipped; err names it).
 */
static int read_file(struct file_reader *fr, const struct pp_sample_file *const *files,
		     size_t nr_files, size_t i, struct op_kv **kv, size_t *nr,
		     size_t *alloc, struct op_err *err)
{
	const char *path = files[i]->path, *name;
	struct odb_snapshot snap;
	int dirfd, ret;
	size_t k;

	dirfd = file_dir(fr, path, i + 1 < nr_files ? files[i + 1]->path : NULL, &name);
	ret = odb_reader_read(&fr->odb, dirfd, name, &snap);
	if (ret) {
		op_err_set(err, "cannot read sample file '%s': %s", path,
			   odb_strerror(ret));
		return ret;
	}
	if (*nr + snap.nr > *alloc) {
		*alloc = (*nr + snap.nr) * 2;
		*kv = op_xreallocarray(*kv, *alloc, sizeof(**kv));
	}
	for (k = 0; k < snap.nr; k++) {
		(*kv)[*nr + k].key = snap.nodes[k].key;
		(*kv)[*nr + k].value = snap.nodes[k].value;
	}
	*nr += snap.nr;
	return 0;
}

/* sorted, equal keys summed: a new array of *nr distinct keys */
static struct pp_kc *sort_merge(struct op_kv *kv, size_t *nr, uint64_t *total)
{
	struct op_kv *tmp = op_xreallocarray(NULL, *nr + 1, sizeof(*tmp));
	const struct op_kv *v = op_sort_kv(kv, tmp, *nr);
	struct pp_kc *kc;
	size_t i, out = 0;

	*total = 0;
	for (i = 0; i < *nr; i++)
		out += !i || v[i].key != v[i - 1].key;
	kc = out ? op_xcalloc(out, sizeof(*kc)) : NULL;
	out = 0;
	for (i = 0; i < *nr; i++) {
		*total += v[i].value;
		if (out && kc[out - 1].key == v[i].key) {
			kc[out - 1].count += v[i].value;
		} else {
			kc[out].key = v[i].key;
			kc[out++].count = v[i].value;
		}
	}
	free(tmp);
	*nr = out;
	return kc;
}

static int load(const struct pp_sample_file *const *files, size_t nr_files,
		struct pp_kc **kcp, size_t *nrp, uint64_t *total,
		size_t *nr_read, struct pp_notes *n)
{
	struct file_reader fr = { ODB_READER_INIT, -1, NULL, 0 };
	struct op_kv *kv = NULL;
	size_t nr = 0, alloc = 0, i;
	int first = 0;

	for (i = 0; i < nr_files; i++) {
		struct op_err e;
		int ret = read_file(&fr, files, nr_files, i, &kv, &nr, &alloc, &e);

		if (ret) {
			pp_note(n, "%s", e.msg);
			if (!first)
				first = ret;
		}
		if (!ret && nr_read)
			(*nr_read)++;
	}
	file_reader_release(&fr);
	*kcp = sort_merge(kv, &nr, total);
	*nrp = nr;
	free(kv);
	return first;
}

int pp_group_load(struct pp_profile *p, struct pp_group *g, struct pp_notes *n)
{
	int ret;

	(void)p;
	if (g->loaded)
		return 0;
	g->loaded = true;
	ret = load(g->files, g->nr_files, &g->kc, &g->nr_kc, &g->total, &g->nr_read,
		   n);
	p->classes[g->cls].total += g->total;
	return ret;
}

int pp_cg_group_load(struct pp_profile *p, struct pp_cg_group *g,
		     struct pp_notes *n)
{
	uint64_t total;

	(void)p;
	if (g->loaded)
		return 0;
	g->loaded = true;
	return load(g->files, g->nr_files, &g->kc, &g->nr_kc, &total, NULL, n);
}

struct pp_symtab *pp_image_symtab(struct pp_profile *p, size_t i)
{
	struct pp_image *im = &p->images[i];
	uint64_t limit = 1;
	size_t k;

	if (im->symtab)
		return im->symtab;
	for (k = 0; k < im->nr_groups; k++) {
		const struct pp_group *g = &p->groups[im->groups[k]];

		if (g->nr_kc && g->kc[g->nr_kc - 1].key + 1 > limit)
			limit = g->kc[g->nr_kc - 1].key + 1;
	}
	if (pp_symtab_load(&im->id, im->is_kernel, limit, p->sym_opts, &im->symtab))
		op_die(1, "out of memory");
	return im->symtab;
}

/*
 * The symbol tables of the images with samples, read beside the samples:
 * ELF parsing overlaps sample-file reading.  The caller starts on the
 * tables at once, biggest binary first (node's table is most of a big
 * report's loading), while a second thread reads the groups and then
 * takes tables too; a thread that starts late (a VM's idle vCPU wakes
 * slowly) then delays only the small work.  Each table is claimed by one
 * thread (an atomic counter), made with its own libelf handle, and
 * written to its own slot of tabs; the table loaders read only the
 * images' ids and the symbol options, which group loading leaves alone.
 * A table that falls back to the artificial symbol is dropped: its
 * extent depends on the keys, so pp_image_symtab() makes it again.
 */
struct prefetch {
	struct pp_profile *p;
	struct pp_notes *notes;
	struct pp_symtab **tabs;
	size_t *order;			/* images to load, biggest binary first */
	size_t nr_order;
	size_t next;			/* the next of order to claim (atomic) */
	size_t nr_files, nr_read;	/* of the groups, once read */
};

static void prefetch_claimed(struct prefetch *f)
{
	size_t k;

	while ((k = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED)) < f->nr_order) {
		size_t i = f->order[k];
		const struct pp_image *im = &f->p->images[i];

		if (pp_symtab_load(&im->id, im->is_kernel, 0, f->p->sym_opts, &f->tabs[i]))
			f->tabs[i] = NULL;
	}
}

/* read every group; how many files there were and how many were read */
static void load_groups(struct pp_profile *p, struct pp_notes *n,
			size_t *nr_files, size_t *nr_read)
{
	size_t i;

	*nr_files = *nr_read = 0;
	for (i = 0; i < p->nr_groups; i++) {
		pp_group_load(p, &p->groups[i], n);
		*nr_files += p->groups[i].nr_files;
		*nr_read += p->groups[i].nr_read;
	}
}

/* the second thread: the groups, then tables */
static void *groups_then_tables(void *arg)
{
	struct prefetch *f = arg;

	load_groups(f->p, f->notes, &f->nr_files, &f->nr_read);
	prefetch_claimed(f);
	return NULL;
}

struct sized {
	size_t image;
	uint64_t size;
};

static int by_size(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->image < y->image ? -1 : x->image > y->image;
}

/* the images whose tables are still to be read, biggest binary first */
static void plan_tables(struct prefetch *f)
{
	const struct pp_profile *p = f->p;
	struct sized *v = op_xcalloc(p->nr_images + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < p->nr_images; i++) {
		const struct pp_image *im = &p->images[i];
		struct stat st;

		if (!im->nr_groups || im->symtab)
			continue;
		v[n].image = i;
		/* a guess at the table's cost: a kernel or missing binary is small */
		v[n++].size = im->id.kind == ODB_IMAGE_FILE && !stat(im->id.name, &st) ?
			      (uint64_t)st.st_size : 0;
	}
	qsort(v, n, sizeof(*v), by_size);
	f->order = op_xcalloc(n + 1, sizeof(*f->order));
	for (i = 0; i < n; i++)
		f->order[i] = v[i].image;
	f->nr_order = n;
	free(v);
}

int pp_profile_load(struct pp_profile *p, bool symbols, struct pp_notes *n,
		    struct op_err *err)
{
	struct prefetch f = { .p = p, .notes = n };
	pthread_t tid;
	bool threaded = false;
	size_t i;

	if (symbols) {
		f.tabs = op_xcalloc(p->nr_images + 1, sizeof(*f.tabs));
		plan_tables(&f);
		threaded = f.nr_order &&
			   !pthread_create(&tid, NULL, groups_then_tables, &f);
	}
	if (threaded) {
		prefetch_claimed(&f);
		pthread_join(tid, NULL);
	} else {
		load_groups(p, n, &f.nr_files, &f.nr_read);
		prefetch_claimed(&f);
	}
	for (i = 0; f.tabs && i < p->nr_images; i++) {
		if (f.tabs[i] && f.tabs[i]->source != PP_SYMS_NONE && !p->images[i].symtab)
			p->images[i].symtab = f.tabs[i];
		else
			pp_symtab_free(f.tabs[i]);
	}
	free(f.tabs);
	free(f.order);
	if (f.nr_files && !f.nr_read) {
		op_err_set(err, "no sample file could be read (%zu skipped)", f.nr_files);
		return PP_PROFILE_ERR_UNREADABLE;
	}
	return 0;
}
