// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the samples of a group: every node of every file of the group,
 * sorted by key, equal keys summed in 64 bits (oprofile-ng-formats(5),
 * SAMPLE FILES: readers sum duplicate keys).  Memory follows distinct
 * keys, not samples.  Symbol tables load on demand, or with the groups,
 * the two threads of pp_profile_load() sharing both.
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
#include "libpp/profile/profile_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"
#include "libutil/op_strbuf.h"

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

/* room for extra more pairs in *kv */
static void kv_reserve(struct op_kv **kv, size_t nr, size_t *alloc, size_t extra)
{
	if (nr + extra > *alloc) {
		*alloc = (nr + extra) * 2;
		*kv = op_xreallocarray(*kv, *alloc, sizeof(**kv));
	}
}

/*
 * Append the nodes of files[i] to *kv (with time:, the samples of its
 * slices selected, time.c).  Returns 0 or the odb error (the file is
 * then skipped; err names it).
 */
static int read_file(struct file_reader *fr, const struct pp_sample_file *const *files,
		     size_t nr_files, size_t i, struct op_kv **kv, size_t *nr,
		     size_t *alloc, struct op_err *err)
{
	const char *path = files[i]->path, *name;
	struct odb_snapshot snap;
	int dirfd, ret;
	size_t k;

	if (files[i]->sliced) {
		kv_reserve(kv, *nr, alloc, files[i]->nr_kc);
		for (k = 0; k < files[i]->nr_kc; k++) {
			(*kv)[*nr + k].key = files[i]->kc[k].key;
			(*kv)[*nr + k].value = files[i]->kc[k].count;
		}
		*nr += files[i]->nr_kc;
		return 0;
	}
	dirfd = file_dir(fr, path, i + 1 < nr_files ? files[i + 1]->path : NULL, &name);
	ret = odb_reader_read(&fr->odb, dirfd, name, &snap);
	if (ret) {
		op_err_set(err, "cannot read sample file '%s': %s", path,
			   odb_strerror(ret));
		return ret;
	}
	kv_reserve(kv, *nr, alloc, snap.nr);
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

/*
 * Read files into *kcp (*nrp distinct keys, *total samples), counting the
 * files read in *nr_read (may be NULL).  A file that cannot be read is
 * skipped, its line (ending in '\n') added to notes.  Returns 0 or the
 * error of the first file skipped.
 */
static int load(const struct pp_sample_file *const *files, size_t nr_files,
		struct pp_kc **kcp, size_t *nrp, uint64_t *total,
		size_t *nr_read, struct op_strbuf *notes)
{
	struct file_reader fr = { ODB_READER_INIT, -1, NULL, 0 };
	struct op_kv *kv = NULL;
	size_t nr = 0, alloc = 0, i;
	int first = 0;

	for (i = 0; i < nr_files; i++) {
		struct op_err e;
		int ret = read_file(&fr, files, nr_files, i, &kv, &nr, &alloc, &e);

		if (ret) {
			op_strbuf_addf(notes, "%s\n", e.msg);
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

/* give each line of text (lines ending in '\n') as a note */
static void give_notes(struct pp_notes *n, const char *text)
{
	const char *end;

	for (; text && *text; text = end + 1) {
		end = strchr(text, '\n');
		pp_note(n, "%.*s", (int)(end - text), text);
	}
}

static void check_strbuf(const struct op_strbuf *sb)
{
	if (op_strbuf_failed(sb))
		op_die(1, "out of memory");
}

/* read group g (not loaded yet), its notes added to notes */
static int group_read(struct pp_group *g, struct op_strbuf *notes)
{
	g->loaded = true;
	return load(g->files, g->nr_files, &g->kc, &g->nr_kc, &g->total, &g->nr_read,
		    notes);
}

int pp_group_load(struct pp_profile *p, struct pp_group *g, struct pp_notes *n)
{
	struct op_strbuf notes = OP_STRBUF_INIT;
	int ret;

	if (g->loaded)
		return 0;
	ret = group_read(g, &notes);
	check_strbuf(&notes);
	p->classes[g->cls].total += g->total;
	give_notes(n, notes.buf);
	op_strbuf_release(&notes);
	return ret;
}

int pp_cg_group_load(struct pp_profile *p, struct pp_cg_group *g,
		     struct pp_notes *n)
{
	struct op_strbuf notes = OP_STRBUF_INIT;
	uint64_t total;
	int ret;

	(void)p;
	if (g->loaded)
		return 0;
	g->loaded = true;
	ret = load(g->files, g->nr_files, &g->kc, &g->nr_kc, &total, NULL, &notes);
	check_strbuf(&notes);
	give_notes(n, notes.buf);
	op_strbuf_release(&notes);
	return ret;
}

struct pp_symtab *pp_image_symtab(struct pp_profile *p, size_t i)
{
	struct pp_image *im = &p->images[i];
	uint64_t limit = 1;
	size_t k;

	if (p->ahead && p->ahead_image == i)
		pp_profile_take_ahead(p);
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

bool pp_profile_symtab_ahead(struct pp_profile *p, const struct odb_image_id *id,
			     bool is_kernel, struct pp_symtab_ahead *a)
{
	size_t i;

	if (p->ahead)
		return false;
	for (i = 0; i < p->nr_images; i++) {
		const struct pp_image *im = &p->images[i];

		if (!im->symtab && im->is_kernel == is_kernel && odb_image_id_equal(&im->id, id)) {
			p->ahead = a;
			p->ahead_image = i;
			return true;
		}
	}
	return false;
}

/*
 * The table made ahead, waited for: its image's (one falling back on the
 * artificial symbol is dropped, as pp_profile_load() drops its own)
 */
void pp_profile_take_ahead(struct pp_profile *p)
{
	struct pp_symtab *t;
	struct pp_image *im;

	if (!p->ahead)
		return;
	t = pp_symtab_ahead_take(p->ahead);
	p->ahead = NULL;
	im = &p->images[p->ahead_image];
	if (t && t->source != PP_SYMS_NONE && !im->symtab)
		im->symtab = t;
	else
		pp_symtab_free(t);
}

/*
 * The groups and the symbol tables of the images with samples, read by
 * two threads at once: ELF parsing overlaps sample-file reading, and a
 * session of many small groups (one per process of a system-wide run)
 * has them read by both.  The caller starts on the tables at once,
 * costliest first (node's table, or the kernel's from kallsyms, is most
 * of a big report's loading, and must not be left to the end),
 * then takes groups; a second thread takes groups, then tables; a thread
 * that starts late (a VM's idle vCPU wakes slowly) then delays only the
 * small work.  Each table and each group is claimed by one thread (an
 * atomic counter each).  A table is made with its own libelf handle and
 * written to its own slot of tabs; the table loaders read only the
 * images' ids and the symbol options, which group loading leaves alone.
 * A group's notes wait in its slot of notes, and the class totals are
 * added, once both threads are done, in group order: the report says the
 * same whichever thread read what.  A table that falls back to the
 * artificial symbol is dropped: its extent depends on the keys, so
 * pp_image_symtab() makes it again.
 */
struct prefetch {
	struct pp_profile *p;
	struct pp_symtab **tabs;
	size_t *order;			/* images to load, costliest first */
	size_t nr_order;
	size_t next;			/* the next of order to claim (atomic) */
	size_t next_group;		/* the next group to claim (atomic) */
	bool *read_here;		/* per group: read by this load */
	char **notes;			/* per group: its notes, or NULL */
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

static void groups_claimed(struct prefetch *f)
{
	size_t i;

	while ((i = __atomic_fetch_add(&f->next_group, 1, __ATOMIC_RELAXED)) <
	       f->p->nr_groups) {
		struct pp_group *g = &f->p->groups[i];
		struct op_strbuf notes = OP_STRBUF_INIT;

		if (g->loaded)
			continue;
		f->read_here[i] = true;
		group_read(g, &notes);
		check_strbuf(&notes);
		f->notes[i] = notes.len ? op_strbuf_detach(&notes) : NULL;
		op_strbuf_release(&notes);
	}
}

/* the second thread: groups, then tables */
static void *groups_then_tables(void *arg)
{
	struct prefetch *f = arg;

	groups_claimed(f);
	prefetch_claimed(f);
	return NULL;
}

/*
 * Once both threads are done: the class totals of the groups read, the
 * notes in group order, and how many files there were and were read.
 */
static void groups_done(struct prefetch *f, struct pp_notes *n, size_t *nr_files,
			size_t *nr_read)
{
	struct pp_profile *p = f->p;
	size_t i;

	*nr_files = *nr_read = 0;
	for (i = 0; i < p->nr_groups; i++) {
		const struct pp_group *g = &p->groups[i];

		if (f->read_here[i])
			p->classes[g->cls].total += g->total;
		give_notes(n, f->notes[i]);
		free(f->notes[i]);
		*nr_files += g->nr_files;
		*nr_read += g->nr_read;
	}
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

/* the size of path, 0 when it cannot be had */
static uint64_t size_of(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) ? (uint64_t)st.st_size : 0;
}

/*
 * A guess at what reading image's table costs, in bytes of a binary:
 * its binary's size; for the kernel and its modules, the vmlinux's, or
 * the kallsyms text's times KALLSYMS_WEIGHT (all of it is parsed for
 * each, line by line: 5 MB and 120 000 symbols of a distribution kernel
 * take 13 ms here, as long as a 350 MB binary's symbol tables would;
 * /proc/kallsyms, whose size stat() does not tell, is taken as
 * KALLSYMS_GUESS bytes); nothing for another image (a missing binary,
 * anonymous memory).
 */
#define KALLSYMS_WEIGHT 64
#define KALLSYMS_GUESS (5u << 20)
static uint64_t table_cost(const struct pp_profile *p, const struct pp_image *im)
{
	const struct pp_sym_opts *o = p->sym_opts;

	if (im->is_kernel || im->id.kind == ODB_IMAGE_KERNEL) {
		uint64_t size = o && o->vmlinux ? size_of(o->vmlinux) : 0;

		if (!size && o && o->kallsyms)
			size = KALLSYMS_WEIGHT * size_of(o->kallsyms);
		return size ? size : KALLSYMS_WEIGHT * (uint64_t)KALLSYMS_GUESS;
	}
	return im->id.kind == ODB_IMAGE_FILE ? size_of(im->id.name) : 0;
}

/* the images whose tables are still to be read, costliest first */
static void plan_tables(struct prefetch *f)
{
	const struct pp_profile *p = f->p;
	struct sized *v = op_xcalloc(p->nr_images + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < p->nr_images; i++) {
		const struct pp_image *im = &p->images[i];

		if (!im->nr_groups || im->symtab || (p->ahead && p->ahead_image == i))
			continue;
		v[n].image = i;
		v[n++].size = table_cost(p, im);
	}
	qsort(v, n, sizeof(*v), by_size);
	f->order = op_xcalloc(n + 1, sizeof(*f->order));
	for (i = 0; i < n; i++)
		f->order[i] = v[i].image;
	f->nr_order = n;
	free(v);
}

/* fewer groups and no table: not worth a thread */
#define MIN_THREADED_GROUPS 64

int pp_profile_load(struct pp_profile *p, bool symbols, struct pp_notes *n,
		    struct op_err *err)
{
	struct prefetch f = { .p = p };
	size_t nr_files, nr_read, i;
	pthread_t tid;
	bool threaded;

	f.tabs = op_xcalloc(p->nr_images + 1, sizeof(*f.tabs));
	f.read_here = op_xcalloc(p->nr_groups + 1, sizeof(*f.read_here));
	f.notes = op_xcalloc(p->nr_groups + 1, sizeof(*f.notes));
	if (symbols)
		plan_tables(&f);
	threaded = (f.nr_order || p->nr_groups >= MIN_THREADED_GROUPS) &&
		   !pthread_create(&tid, NULL, groups_then_tables, &f);
	prefetch_claimed(&f);
	groups_claimed(&f);
	if (threaded)
		pthread_join(tid, NULL);
	pp_profile_take_ahead(p);	/* last: its thread ran meanwhile */
	groups_done(&f, n, &nr_files, &nr_read);
	for (i = 0; i < p->nr_images; i++) {
		if (f.tabs[i] && f.tabs[i]->source != PP_SYMS_NONE && !p->images[i].symtab)
			p->images[i].symtab = f.tabs[i];
		else
			pp_symtab_free(f.tabs[i]);
	}
	free(f.tabs);
	free(f.order);
	free(f.read_here);
	free(f.notes);
	if (nr_files && !nr_read) {
		op_err_set(err, "no sample file could be read (%zu skipped)", nr_files);
		return PP_PROFILE_ERR_UNREADABLE;
	}
	return 0;
}

void pp_profile_unload(struct pp_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_groups; i++) {
		struct pp_group *g = &p->groups[i];

		free(g->kc);
		g->kc = NULL;
		g->nr_kc = 0;
		g->total = 0;
		g->nr_read = 0;
		g->loaded = false;
	}
	for (i = 0; i < p->nr_cg; i++) {
		free(p->cg[i].kc);
		p->cg[i].kc = NULL;
		p->cg[i].nr_kc = 0;
		p->cg[i].loaded = false;
	}
	for (i = 0; i < p->nr_classes; i++)
		p->classes[i].total = 0;
}
