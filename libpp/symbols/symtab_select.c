// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From candidate symbols to a table (symbols_int.h): one sort, one symbol per
 * key, and extents.
 *
 * Aliases follow OProfile (opreport(1), SYMBOLS): of the symbols at one key the
 * survivor is the first in table order after preferring, in this order,
 * not "Letext", not "??...", global over local, a name not starting with
 * '_', non-weak.  So libc's strtoul shows as strtoull.
 *
 * Extents differ from OProfile on purpose: a symbol with a size ends at
 * start + size (padding after it belongs to nobody), one without a size
 * runs to the next symbol or the end of its section, and the last symbol
 * no longer swallows the rest of the file.  A symbol never runs into the
 * next one: tables never overlap.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/symbols_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

char *pp_strpool_adopt(struct pp_strpool *pool, char *s)
{
	if (!s)
		return NULL;
	if (pool->nr == pool->alloc) {
		size_t n = pool->alloc ? pool->alloc * 2 : 8;
		char **v = op_reallocarray(pool->strs, n, sizeof(*v));

		if (!v) {
			free(s);
			return NULL;
		}
		pool->strs = v;
		pool->alloc = n;
	}
	pool->strs[pool->nr++] = s;
	return s;
}

void pp_strpool_release(struct pp_strpool *pool)
{
	size_t i;

	if (!pool)
		return;
	for (i = 0; i < pool->nr; i++)
		free(pool->strs[i]);
	free(pool->strs);
	memset(pool, 0, sizeof(*pool));
}

/*
 * Candidates (and the sort keys of pp_cands_finish()) are scratch memory
 * (op_scratch_alloc()): tables are loaded in a thread of their own, and
 * megabytes freed to that thread's malloc arena would stay resident for
 * the rest of the report.
 */
int pp_cands_reserve(struct pp_cands *c, size_t extra)
{
	size_t need, n, bytes;
	struct pp_sym_cand *v;

	if (!op_add_size(c->nr, extra, &need))
		return -ENOMEM;
	if (need <= c->alloc)
		return 0;
	n = c->alloc < 64 ? 64 : c->alloc;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (!op_mul_size(n, sizeof(*v), &bytes))
		return -ENOMEM;
	v = op_scratch_realloc(c->v, c->alloc * sizeof(*v), bytes);
	if (!v)
		return -ENOMEM;
	c->v = v;
	c->alloc = n;
	return 0;
}

void pp_cands_release(struct pp_cands *c)
{
	if (!c)
		return;
	op_scratch_free(c->v, c->alloc * sizeof(*c->v));
	memset(c, 0, sizeof(*c));
}

#define PREFETCH 16		/* candidates fetched ahead when gathering */

uint8_t pp_name_class(const char *name)
{
	uint8_t c = 0;

	if (name[0] == 'L' && !strcmp(name, "Letext"))
		c |= PP_NAME_LETEXT;
	if (name[0] == '?' && name[1] == '?')
		c |= PP_NAME_UNNAMED;
	if (name[0] == '_')
		c |= PP_NAME_UNDERSCORE;
	return c;
}

/* a class bit of a minus that of b */
static int class_diff(const struct pp_sym_cand *a, const struct pp_sym_cand *b,
		      uint8_t bit)
{
	return !!(a->name_class & bit) - !!(b->name_class & bit);
}

/* does b win over a at the same key (a came first in the table)? */
static bool prefer(const struct pp_sym_cand *a, const struct pp_sym_cand *b)
{
	int d;

	if (a->boundary != b->boundary)
		return a->boundary;
	d = class_diff(a, b, PP_NAME_LETEXT);
	if (d)
		return d > 0;
	d = class_diff(a, b, PP_NAME_UNNAMED);
	if (d)
		return d > 0;
	d = (a->bind == PP_BIND_LOCAL) - (b->bind == PP_BIND_LOCAL);
	if (d)
		return d > 0;
	d = class_diff(a, b, PP_NAME_UNDERSCORE);
	if (d)
		return d > 0;
	return a->bind == PP_BIND_WEAK && b->bind != PP_BIND_WEAK;
}

static uint64_t extent_end(const struct pp_sym_cand *s, uint64_t next)
{
	uint64_t end;

	if (s->size) {
		end = s->start + s->size < s->start ? UINT64_MAX : s->start + s->size;
		return end < next ? end : next;
	}
	end = next < s->limit ? next : s->limit;
	if (end == UINT64_MAX)
		end = s->start + PP_SYM_LAST_EXTENT < s->start ?
		      UINT64_MAX : s->start + PP_SYM_LAST_EXTENT;
	return end;
}

/*
 * The survivor of the candidates keys[i .. *j] that share keys[i]'s start
 * (*j is set to the last of them), in *keep: of aliases one survives, and
 * a survivor without a size takes an alias's (the first in table order
 * that knows it, as each replaced survivor hands its size on).
 */
static void survivor(const struct op_kv *keys, size_t nr, size_t i, size_t *j,
		     const struct pp_cand_src *src, struct pp_sym_cand *keep)
{
	struct pp_sym_cand s;

	src->get(src->data, keys[i].value, keep);
	for (*j = i; *j + 1 < nr && keys[*j + 1].key == keys[i].key; ++*j) {
		src->get(src->data, keys[*j + 1].value, &s);
		if (prefer(keep, &s)) {
			if (!s.size)
				s.size = keep->size;
			*keep = s;
		} else if (!keep->size) {
			keep->size = s.size;	/* an alias may know the size */
		}
	}
}

int pp_syms_from_keys(struct op_kv *keys, size_t nr, const struct pp_cand_src *src,
		      struct pp_sym **syms, size_t *nr_syms)
{
	struct op_kv *sorted;
	struct pp_sym *out;
	size_t i, j, w = 0;

	*syms = NULL;
	*nr_syms = 0;
	if (!nr)
		return 0;
	/*
	 * The symbols' own array is the scratch of the sort (40 bytes per
	 * candidate hold 16): its pages are touched once, for both.  A
	 * stable radix sort (2 passes for 100 000 symbols of a 30 MiB
	 * binary): equal starts keep table order, which alias selection
	 * needs.  Every field of the symbols is set below: not zeroed.
	 */
	_Static_assert(sizeof(*out) >= sizeof(*keys), "symbols hold sort keys");
	out = op_reallocarray(NULL, nr, sizeof(*out));
	if (!out)
		return -ENOMEM;
	sorted = op_sort_kv(keys, (struct op_kv *)out, nr);
	if (sorted != keys)
		memcpy(keys, sorted, nr * sizeof(*keys));
	for (i = 0; i < nr; i = j + 1) {
		struct pp_sym_cand keep;
		uint64_t end;

		/* candidates come in table order, not key order: fetch ahead */
		if (src->prefetch && i + PREFETCH < nr)
			src->prefetch(src->data, keys[i + PREFETCH].value);
		survivor(keys, nr, i, &j, src, &keep);
		if (keep.boundary)
			continue;
		end = extent_end(&keep, j + 1 < nr ? keys[j + 1].key : UINT64_MAX);
		if (end <= keep.start)
			continue;
		out[w].start = keep.start;
		out[w].end = end;
		out[w].vma = keep.vma;
		out[w].name = keep.name;
		out[w].flags = keep.bind == PP_BIND_LOCAL ? 0 : PP_SYM_GLOBAL;
		w++;
	}
	if (!w) {
		free(out);
		return 0;
	}
	/* not shrunk: the pages past the symbols were never touched */
	*syms = out;
	*nr_syms = w;
	return 0;
}

static void array_get(void *data, uint64_t idx, struct pp_sym_cand *c)
{
	*c = ((const struct pp_cands *)data)->v[idx];
}

static void array_prefetch(void *data, uint64_t idx)
{
	__builtin_prefetch(&((const struct pp_cands *)data)->v[idx]);
}

int pp_cands_finish(struct pp_cands *c, struct pp_sym **syms, size_t *nr)
{
	const struct pp_cand_src src = { array_get, array_prefetch, c };
	struct op_kv *keys;
	size_t i, bytes;
	int ret;

	*syms = NULL;
	*nr = 0;
	if (!c->nr)
		return 0;
	if (!op_mul_size(c->nr, sizeof(*keys), &bytes))
		return -ENOMEM;
	keys = op_scratch_alloc(bytes);
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < c->nr; i++) {
		keys[i].key = c->v[i].start;
		keys[i].value = i;
	}
	ret = pp_syms_from_keys(keys, c->nr, &src, syms, nr);
	op_scratch_free(keys, bytes);
	return ret;
}
