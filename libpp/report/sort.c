// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order of rows (--sort): parsing the list of keys, and sorting by
 * them, stably (rows that compare equal keep their first-seen order, as
 * OProfile's stable sort keeps them).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

int pp_sort_parse(const char *list, struct pp_report_opts *o, struct op_err *err)
{
	static const struct { const char *name; enum pp_sort_key key; } words[] = {
		{ "sample", PP_SORT_SAMPLE }, { "vma", PP_SORT_VMA },
		{ "symbol", PP_SORT_SYMBOL }, { "debug", PP_SORT_DEBUG },
		{ "image", PP_SORT_IMAGE }, { "app-name", PP_SORT_APP },
	};
	const char *p = list;

	o->nr_sort = 0;
	if (!*p) {
		op_err_set(err, "empty --sort list (valid keys: sample, vma, symbol, "
			   "debug, image, app-name)");
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i].name) == len && !strncmp(p, words[i].name, len))
				break;
		if (i == sizeof(words) / sizeof(words[0])) {
			op_err_set(err, "unknown --sort key '%.*s' (valid: sample, vma, "
				   "symbol, debug, image, app-name)", (int)len, p);
			return -EINVAL;
		}
		if (o->nr_sort == PP_MAX_SORT_KEYS) {
			op_err_set(err, "too many --sort keys");
			return -EINVAL;
		}
		o->sort[o->nr_sort++] = words[i].key;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/*
 * What rows are compared by, computed once per row and kept together:
 * key[k] for the numeric sort keys (samples negated, so that every key
 * sorts ascending), the strings for the others.
 */
struct sort_item {
	uint64_t key[PP_MAX_SORT_KEYS];
	size_t index;
	struct pp_row *row;
	char *symbol;		/* shown name, when sorting by symbol */
	char *file;		/* source file, when sorting by debug */
	unsigned line;
};

struct sort_ctx {
	const enum pp_sort_key *keys;	/* --sort, or samples */
	size_t nr_keys;
	bool reverse;
	size_t *app_rank;	/* position of each app in name order */
	size_t *image_rank;	/* the same for images */
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_items(const void *pa, const void *pb, void *arg)
{
	const struct sort_item *a = pa, *b = pb;
	const struct sort_ctx *c = arg;
	size_t k;
	int r = 0;

	for (k = 0; k < c->nr_keys && !r; k++) {
		switch (c->keys[k]) {
		case PP_SORT_SYMBOL:
			r = cmp_str(a->symbol, b->symbol);
			break;
		case PP_SORT_DEBUG:
			r = cmp_str(a->file, b->file);
			if (!r)
				r = a->line < b->line ? -1 : a->line > b->line;
			break;
		default:
			r = cmp_u64(a->key[k], b->key[k]);
			break;
		}
	}
	if (!r)		/* stable: first seen first */
		r = a->index < b->index ? -1 : a->index > b->index;
	return c->reverse ? -r : r;
}

/* the numeric sort keys of row, ascending */
static void numeric_keys(struct sort_item *it, const struct sort_ctx *c)
{
	size_t k;

	for (k = 0; k < c->nr_keys; k++) {
		switch (c->keys[k]) {
		case PP_SORT_SAMPLE:	/* most first */
			it->key[k] = ~it->row->counts[0];
			break;
		case PP_SORT_VMA:
			it->key[k] = it->row->sym->vma;
			break;
		case PP_SORT_IMAGE:
			it->key[k] = c->image_rank[it->row->image];
			break;
		case PP_SORT_APP:
			it->key[k] = c->app_rank[it->row->app];
			break;
		default:
			it->key[k] = 0;
			break;
		}
	}
}

/* rank[i] = position of name i in sorted order (equal names, equal ranks) */
struct name_ref {
	const char *name;
	size_t i;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct name_ref *)a)->name, ((const struct name_ref *)b)->name);
}

static size_t *name_ranks(size_t nr, const char *(*get)(struct pp_names *, size_t),
			  struct pp_names *nm)
{
	struct name_ref *refs = op_xcalloc(nr + 1, sizeof(*refs));
	size_t *rank = op_xcalloc(nr + 1, sizeof(*rank));
	size_t i, r = 0;

	for (i = 0; i < nr; i++) {
		refs[i].name = get(nm, i);
		refs[i].i = i;
	}
	qsort(refs, nr, sizeof(*refs), by_name);
	for (i = 0; i < nr; i++) {
		if (i && strcmp(refs[i].name, refs[i - 1].name))
			r = i;
		rank[refs[i].i] = r;
	}
	free(refs);
	return rank;
}

/* the default order: most samples in the first class, first seen first */
static int by_samples(const void *pa, const void *pb)
{
	const struct pp_row *a = *(struct pp_row *const *)pa;
	const struct pp_row *b = *(struct pp_row *const *)pb;

	if (a->counts[0] != b->counts[0])
		return a->counts[0] < b->counts[0] ? 1 : -1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/*
 * The default order without comparisons: rows that come in index order
 * (the reports select them so) sort stably by count alone.
 */
static void sort_by_samples(struct pp_row **rows, size_t nr)
{
	struct op_kv *kv, *tmp;
	const struct op_kv *sorted;
	struct pp_row **copy;
	size_t i;

	for (i = 1; i < nr; i++)
		if (rows[i]->index < rows[i - 1]->index)
			break;
	if (i < nr) {
		qsort(rows, nr, sizeof(*rows), by_samples);
		return;
	}
	kv = op_xcalloc(nr + 1, sizeof(*kv));
	tmp = op_xcalloc(nr + 1, sizeof(*tmp));
	copy = op_xcalloc(nr + 1, sizeof(*copy));
	for (i = 0; i < nr; i++) {
		kv[i].key = ~rows[i]->counts[0];
		kv[i].value = i;
		copy[i] = rows[i];
	}
	sorted = op_sort_kv(kv, tmp, nr);
	for (i = 0; i < nr; i++)
		rows[i] = copy[sorted[i].value];
	free(kv);
	free(tmp);
	free(copy);
}

void pp_rows_sort(struct pp_row **rows, size_t nr, struct pp_profile *p,
		  struct pp_names *nm, const enum pp_sort_key *keys,
		  size_t nr_keys, bool reverse, enum pp_demangle_mode mode)
{
	static const enum pp_sort_key by_count = PP_SORT_SAMPLE;
	struct sort_item *items;
	struct sort_ctx ctx = {
		.keys = nr_keys ? keys : &by_count,
		.nr_keys = nr_keys ? nr_keys : 1,
		.reverse = reverse,
	};
	bool by_symbol = false, by_debug = false;
	size_t i;

	if (!reverse && ctx.nr_keys == 1 && ctx.keys[0] == PP_SORT_SAMPLE) {
		sort_by_samples(rows, nr);
		return;
	}
	items = op_xcalloc(nr ? nr : 1, sizeof(*items));
	for (i = 0; i < ctx.nr_keys; i++) {
		by_symbol |= ctx.keys[i] == PP_SORT_SYMBOL;
		by_debug |= ctx.keys[i] == PP_SORT_DEBUG;
	}
	ctx.app_rank = name_ranks(p->nr_apps, pp_names_app, nm);
	ctx.image_rank = name_ranks(p->nr_images, pp_names_image, nm);
	for (i = 0; i < nr; i++) {
		items[i].row = rows[i];
		items[i].index = rows[i]->index;
		numeric_keys(&items[i], &ctx);
		if (by_symbol)
			items[i].symbol = pp_symbol_display(rows[i]->sym, mode);
		if (by_debug) {
			const char *file, *why;

			if (!pp_symtab_line(pp_image_symtab(p, rows[i]->image),
					    rows[i]->sym->start, &file, &items[i].line, &why))
				items[i].file = op_xstrdup(file);
		}
	}
	qsort_r(items, nr, sizeof(*items), cmp_items, &ctx);
	free(ctx.app_rank);
	free(ctx.image_rank);
	for (i = 0; i < nr; i++) {
		rows[i] = items[i].row;
		free(items[i].symbol);
		free(items[i].file);
	}
	free(items);
}
