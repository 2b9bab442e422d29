// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the samples of a group: every node of every file of the group,
 * sorted by key, equal keys summed in 64 bits (formats.md §3.6: readers
 * sum duplicate keys).  Memory follows distinct keys, not samples.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/pp_profile.h"
#include "libutil/op_alloc.h"

static int by_key(const void *a, const void *b)
{
	const struct pp_kc *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/*
 * Append the nodes of path to *kc.  Returns 0 or the odb error (the file
 * is then skipped; err names it).
 */
static int read_file(const char *path, struct pp_kc **kc, size_t *nr,
		     size_t *alloc, struct op_err *err)
{
	const struct odb_node *nodes;
	struct odb_file *f;
	size_t n, i;
	int ret;

	ret = odb_file_open(path, ODB_READ, NULL, &f);
	if (ret) {
		op_err_set(err, "cannot read sample file '%s': %s", path,
			   odb_strerror(ret));
		return ret;
	}
	nodes = odb_file_nodes(f, &n);
	if (*nr + n > *alloc) {
		*alloc = (*nr + n) * 2;
		*kc = op_xreallocarray(*kc, *alloc, sizeof(**kc));
	}
	for (i = 0; i < n; i++) {
		(*kc)[*nr + i].key = nodes[i].key;
		(*kc)[*nr + i].count = nodes[i].value;
	}
	*nr += n;
	odb_file_close(f);
	return 0;
}

/* sort and merge equal keys; returns the new length */
static size_t sort_merge(struct pp_kc *kc, size_t nr, uint64_t *total)
{
	size_t i, out = 0;

	qsort(kc, nr, sizeof(*kc), by_key);
	*total = 0;
	for (i = 0; i < nr; i++) {
		*total += kc[i].count;
		if (out && kc[out - 1].key == kc[i].key)
			kc[out - 1].count += kc[i].count;
		else
			kc[out++] = kc[i];
	}
	return out;
}

static int load(const struct pp_sample_file *const *files, size_t nr_files,
		struct pp_kc **kcp, size_t *nrp, uint64_t *total,
		struct op_err *err)
{
	struct pp_kc *kc = NULL;
	size_t nr = 0, alloc = 0, i;
	int first = 0;

	for (i = 0; i < nr_files; i++) {
		struct op_err e;
		int ret = read_file(files[i]->path, &kc, &nr, &alloc, &e);

		if (ret && !first) {
			first = ret;
			*err = e;
		}
	}
	nr = sort_merge(kc, nr, total);
	if (nr)
		kc = op_xreallocarray(kc, nr, sizeof(*kc));
	*kcp = kc;
	*nrp = nr;
	return first;
}

int pp_group_load(struct pp_profile *p, struct pp_group *g, struct op_err *err)
{
	int ret;

	(void)p;
	if (g->loaded)
		return 0;
	g->loaded = true;
	ret = load(g->files, g->nr_files, &g->kc, &g->nr_kc, &g->total, err);
	p->classes[g->cls].total += g->total;
	return ret;
}

int pp_cg_group_load(struct pp_profile *p, struct pp_cg_group *g,
		     struct op_err *err)
{
	uint64_t total;

	(void)p;
	if (g->loaded)
		return 0;
	g->loaded = true;
	return load(g->files, g->nr_files, &g->kc, &g->nr_kc, &total, err);
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
