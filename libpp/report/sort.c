// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The order of rows (--sort): parsing the list of keys, and sorting by
 * them.  As in OProfile 1.4, the keys the list leaves out break its ties,
 * in the order samples, image, application, symbol name, source line
 * (with -g only: without it no row has one), address; rows equal in
 * every key keep their first-seen order.  So rows with equal samples come
 * by image, application and name, the same on every run.
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
/* the keys --sort gives, then those it leaves out */
#define MAX_KEYS (PP_MAX_SORT_KEYS + 6)

struct sort_item {
	uint64_t key[MAX_KEYS];
	size_t index;
	struct pp_row *row;
	const char *symbol;	/* shown name, when sorting by symbol */
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
static uint64_t key_of(const struct pp_row *row, enum pp_sort_key key,
		       const struct sort_ctx *c)
{
	switch (key) {
	case PP_SORT_SAMPLE:	/* most first */
		return ~row->counts[0];
	case PP_SORT_VMA:
		return row->sym->vma;
	case PP_SORT_IMAGE:
		return c->image_rank[row->image];
	case PP_SORT_APP:
		return c->app_rank[row->app];
	default:
		return 0;
	}
}

static void numeric_keys(struct sort_item *it, const struct sort_ctx *c)
{
	size_t k;

	for (k = 0; k < c->nr_keys; k++)
		it->key[k] = key_of(it->row, c->keys[k], c);
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
	if (nr > 1)
		qsort(refs, nr, sizeof(*refs), by_name);
	for (i = 0; i < nr; i++) {
		if (i && strcmp(refs[i].name, refs[i - 1].name))
			r = i;
		rank[refs[i].i] = r;
	}
	free(refs);
	return rank;
}

/*
 * Only numeric keys: sorted by each key in turn, the last first, each a
 * stable radix sort (op_sort_kv()), which leaves rows with equal keys in
 * their order, as the comparison does when they come in index order;
 * reverse turns the whole order around, as negating every comparison
 * does.  XML's fixed order (application, image, samples, address) on
 * 20 000 rows costs a tenth of a comparison sort.
 */
static void sort_numeric(struct pp_row **rows, size_t nr, const struct sort_ctx *c)
{
	struct op_kv *kv = op_xcalloc(nr + 1, sizeof(*kv));
	struct op_kv *tmp = op_xcalloc(nr + 1, sizeof(*tmp));
	struct pp_row **copy = op_xcalloc(nr + 1, sizeof(*copy));
	size_t i, k;

	memcpy(copy, rows, nr * sizeof(*rows));
	for (k = c->nr_keys; k-- > 0;) {
		const struct op_kv *sorted;

		for (i = 0; i < nr; i++) {
			kv[i].key = key_of(rows[i], c->keys[k], c);
			kv[i].value = i;
		}
		sorted = op_sort_kv(kv, tmp, nr);
		for (i = 0; i < nr; i++)
			copy[i] = rows[sorted[i].value];
		memcpy(rows, copy, nr * sizeof(*rows));
	}
	for (i = 0; c->reverse && i < nr / 2; i++) {
		struct pp_row *t = rows[i];

		rows[i] = rows[nr - 1 - i];
		rows[nr - 1 - i] = t;
	}
	free(kv);
	free(tmp);
	free(copy);
}

/* do the rows come in index order (as the preparation selects them)? */
static bool in_index_order(struct pp_row *const *rows, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (rows[i]->index < rows[i - 1]->index)
			return false;
	return true;
}

/* the shown names of the rows' symbols, made on every CPU */
static void symbol_keys(struct sort_item *items, struct pp_row *const *rows, size_t nr,
			struct pp_profile *p)
{
	const struct pp_sym **syms = op_xcalloc(nr + 1, sizeof(*syms));
	const char **names = op_xcalloc(nr + 1, sizeof(*names));
	size_t *images = op_xcalloc(nr + 1, sizeof(*images));
	size_t i;

	for (i = 0; i < nr; i++) {
		images[i] = rows[i]->image;
		syms[i] = rows[i]->sym;
	}
	pp_shown_names(p, images, syms, nr, names);
	for (i = 0; i < nr; i++)
		items[i].symbol = names[i];
	free(images);
	free(names);
	free(syms);
}

/* is key compared as a number (key_of())? */
static bool numeric(enum pp_sort_key key)
{
	return key != PP_SORT_SYMBOL && key != PP_SORT_DEBUG;
}

/*
 * The keys rows are compared by: keys[0..nr) (none: samples), then those
 * missing, in OProfile's order; the source line only when lines are
 * shown (with_lines).  Returns how many, in eff.
 */
static size_t effective_keys(const enum pp_sort_key *keys, size_t nr, bool with_lines,
			     enum pp_sort_key *eff)
{
	static const enum pp_sort_key implicit[] = {
		PP_SORT_SAMPLE, PP_SORT_IMAGE, PP_SORT_APP, PP_SORT_SYMBOL,
		PP_SORT_DEBUG, PP_SORT_VMA,
	};
	size_t n = 0, i, k;

	for (i = 0; i < nr && n < PP_MAX_SORT_KEYS; i++)
		eff[n++] = keys[i];
	if (!n)
		eff[n++] = PP_SORT_SAMPLE;
	for (i = 0; i < sizeof(implicit) / sizeof(implicit[0]); i++) {
		if (implicit[i] == PP_SORT_DEBUG && !with_lines)
			continue;
		for (k = 0; k < n && eff[k] != implicit[i]; k++)
			;
		if (k == n)
			eff[n++] = implicit[i];
	}
	return n;
}

/*
 * Sort rows[0..nr) by every key of c with the comparison of cmp_items():
 * the shown names (names[i] of rows[i] when given) and source lines are
 * made for these rows only.
 */
static void sort_compared(struct pp_row **rows, size_t nr, struct pp_profile *p,
			  const struct sort_ctx *c, const char *const *names)
{
	bool by_symbol = false, by_debug = false;
	struct sort_item *items;
	size_t i;

	for (i = 0; i < c->nr_keys; i++) {
		by_symbol |= c->keys[i] == PP_SORT_SYMBOL;
		by_debug |= c->keys[i] == PP_SORT_DEBUG;
	}
	items = op_xcalloc(nr ? nr : 1, sizeof(*items));
	if (by_symbol && !names)
		symbol_keys(items, rows, nr, p);
	for (i = 0; i < nr; i++) {
		if (by_symbol && names)
			items[i].symbol = names[i];
		items[i].row = rows[i];
		items[i].index = rows[i]->index;
		numeric_keys(&items[i], c);
		if (by_debug) {
			const char *file, *why;

			if (!pp_symtab_line(pp_image_symtab(p, rows[i]->image),
					    rows[i]->sym->start, &file, &items[i].line, &why))
				items[i].file = op_xstrdup(file);
		}
	}
	if (nr > 1)
		qsort_r(items, nr, sizeof(*items), cmp_items, (void *)c);
	for (i = 0; i < nr; i++) {
		rows[i] = items[i].row;
		free(items[i].file);
	}
	free(items);
}

/* do rows a and b have equal keys keys[0..nr)? */
static bool same_keys(const struct pp_row *a, const struct pp_row *b,
		      const enum pp_sort_key *keys, size_t nr, const struct sort_ctx *c)
{
	size_t k;

	for (k = 0; k < nr; k++)
		if (key_of(a, keys[k], c) != key_of(b, keys[k], c))
			return false;
	return true;
}

/* the end of the run of rows equal to rows[start] in keys[0..nr) */
static size_t run_end(struct pp_row *const *rows, size_t n, size_t start,
		      const enum pp_sort_key *keys, size_t nr, const struct sort_ctx *c)
{
	size_t i;

	for (i = start + 1; i < n && same_keys(rows[start], rows[i], keys, nr, c); i++)
		;
	return i;
}

/*
 * The shown names of the rows of every run of more than one (others:
 * NULL), made at once on every CPU.  The caller frees the array.
 */
static const char **name_runs(struct pp_row *const *rows, size_t nr, struct pp_profile *p,
			      const struct sort_ctx *c, size_t prefix)
{
	const struct pp_sym **syms = op_xcalloc(nr + 1, sizeof(*syms));
	const char **got = op_xcalloc(nr + 1, sizeof(*got));
	const char **names = op_xcalloc(nr + 1, sizeof(*names));
	size_t *images = op_xcalloc(nr + 1, sizeof(*images));
	size_t *at = op_xcalloc(nr + 1, sizeof(*at));
	size_t n = 0, start, end, i;

	for (start = 0; start < nr; start = end) {
		end = run_end(rows, nr, start, c->keys, prefix, c);
		for (i = start; end - start > 1 && i < end; i++) {
			at[n] = i;
			images[n] = rows[i]->image;
			syms[n++] = rows[i]->sym;
		}
	}
	pp_shown_names(p, images, syms, n, got);
	for (i = 0; i < n; i++)
		names[at[i]] = got[i];
	free(at);
	free(images);
	free(got);
	free(syms);
	return names;
}

/*
 * The keys up to the first that is not numeric by radix sort, then each
 * run of rows equal in them by the other keys (names and lines are made
 * only for the rows of such runs), then the whole turned around for -r.
 */
static void sort_prefix(struct pp_row **rows, size_t nr, struct pp_profile *p,
			const struct sort_ctx *c, size_t prefix)
{
	struct sort_ctx head = *c, tail = *c;
	const char **names = NULL;
	size_t i, start, end;

	head.nr_keys = prefix;
	head.reverse = false;
	tail.keys = c->keys + prefix;
	tail.nr_keys = c->nr_keys - prefix;
	tail.reverse = false;
	sort_numeric(rows, nr, &head);
	if (tail.nr_keys && tail.keys[0] == PP_SORT_SYMBOL)
		names = name_runs(rows, nr, p, c, prefix);
	for (start = 0; tail.nr_keys && start < nr; start = end) {
		end = run_end(rows, nr, start, c->keys, prefix, c);
		if (end - start > 1)
			sort_compared(rows + start, end - start, p, &tail,
				      names ? names + start : NULL);
	}
	free(names);
	for (i = 0; c->reverse && i < nr / 2; i++) {
		struct pp_row *t = rows[i];

		rows[i] = rows[nr - 1 - i];
		rows[nr - 1 - i] = t;
	}
}

void pp_rows_sort(struct pp_row **rows, size_t nr, struct pp_profile *p,
		  struct pp_names *nm, const enum pp_sort_key *keys,
		  size_t nr_keys, bool reverse, bool with_lines)
{
	enum pp_sort_key eff[MAX_KEYS];
	struct sort_ctx ctx = { .keys = eff, .reverse = reverse };
	size_t prefix;

	ctx.nr_keys = effective_keys(keys, nr_keys, with_lines, eff);
	ctx.app_rank = name_ranks(p->nr_apps, pp_names_app, nm);
	ctx.image_rank = name_ranks(p->nr_images, pp_names_image, nm);
	for (prefix = 0; prefix < ctx.nr_keys && numeric(eff[prefix]); prefix++)
		;
	if (prefix && in_index_order(rows, nr))
		sort_prefix(rows, nr, p, &ctx, prefix);
	else
		sort_compared(rows, nr, p, &ctx, NULL);
	free(ctx.app_rank);
	free(ctx.image_rank);
}
