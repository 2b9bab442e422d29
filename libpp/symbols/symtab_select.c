// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From candidate symbols to a table (symbols_int.h): one sort, one symbol per
 * key, and extents.
 *
 * Aliases follow OProfile (formats.md §4.2): of the symbols at one key the
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

int pp_cands_reserve(struct pp_cands *c, size_t extra)
{
	size_t need, n;
	struct pp_sym_cand *v;

	if (!op_add_size(c->nr, extra, &need))
		return -ENOMEM;
	if (need <= c->alloc)
		return 0;
	n = c->alloc < 64 ? 64 : c->alloc;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	v = op_reallocarray(c->v, n, sizeof(*v));
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
	free(c->v);
	memset(c, 0, sizeof(*c));
}

#define PREFETCH 16		/* candidates fetched ahead when gathering */

static bool is_letext(const char *name)
{
	return name[0] == 'L' && !strcmp(name, "Letext");
}

/* does b win over a at the same key (a came first in the table)? */
static bool prefer(const struct pp_sym_cand *a, const struct pp_sym_cand *b)
{
	int d;

	if (a->boundary != b->boundary)
		return a->boundary;
	d = is_letext(a->name) - is_letext(b->name);
	if (d)
		return d > 0;
	d = (a->name[0] == '?' && a->name[1] == '?') -
	    (b->name[0] == '?' && b->name[1] == '?');
	if (d)
		return d > 0;
	d = (a->bind == PP_BIND_LOCAL) - (b->bind == PP_BIND_LOCAL);
	if (d)
		return d > 0;
	d = (a->name[0] == '_') - (b->name[0] == '_');
	if (d)
		return d > 0;
	return a->bind == PP_BIND_WEAK && b->bind != PP_BIND_WEAK;
}

/*
 * Keep one candidate per start, walking the sorted keys; the survivors'
 * indexes are written over keys[0..].  Returns how many are left.
 */
static size_t drop_aliases(struct pp_cands *c, struct op_kv *keys, size_t n)
{
	size_t i, w = 0;

	for (i = 0; i < n; i++) {
		struct pp_sym_cand *keep, *s;

		/* the keys are read in order; candidates only for aliases */
		if (!w || keys[w - 1].key != keys[i].key) {
			keys[w++] = keys[i];
			continue;
		}
		keep = &c->v[keys[w - 1].value];
		s = &c->v[keys[i].value];
		if (prefer(keep, s)) {
			if (!s->size)
				s->size = keep->size;
			keys[w - 1] = keys[i];
		} else if (!keep->size) {
			keep->size = s->size;	/* an alias may know the size */
		}
	}
	return w;
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

int pp_cands_finish(struct pp_cands *c, struct pp_sym **syms, size_t *nr)
{
	struct op_kv *keys, *tmp, *sorted;
	struct pp_sym *out = NULL;
	size_t i, n, w = 0;

	*syms = NULL;
	*nr = 0;
	if (!c->nr)
		return 0;
	keys = op_reallocarray(NULL, c->nr, sizeof(*keys));
	tmp = op_reallocarray(NULL, c->nr, sizeof(*tmp));
	if (!keys || !tmp)
		goto out_free;
	for (i = 0; i < c->nr; i++) {
		keys[i].key = c->v[i].start;
		keys[i].value = i;
	}
	/*
	 * A stable radix sort (3 passes for 100 000 symbols of a 100 MiB
	 * binary): equal starts keep table order, which alias selection
	 * needs.
	 */
	sorted = op_sort_kv(keys, tmp, c->nr);
	n = drop_aliases(c, sorted, c->nr);
	out = op_calloc(n, sizeof(*out));
	if (!out)
		goto out_free;
	for (i = 0; i < n; i++) {
		const struct pp_sym_cand *s = &c->v[sorted[i].value];
		uint64_t end;

		/* candidates come in table order, not key order: fetch ahead */
		if (i + PREFETCH < n)
			__builtin_prefetch(&c->v[sorted[i + PREFETCH].value]);
		if (s->boundary)
			continue;
		end = extent_end(s, i + 1 < n ? sorted[i + 1].key : UINT64_MAX);
		if (end <= s->start)
			continue;
		out[w].start = s->start;
		out[w].end = end;
		out[w].vma = s->vma;
		out[w].name = s->name;
		out[w].flags = s->bind == PP_BIND_LOCAL ? 0 : PP_SYM_GLOBAL;
		w++;
	}
	free(keys);
	free(tmp);
	if (!w) {
		free(out);
		return 0;
	}
	*syms = out;
	*nr = w;
	return 0;

out_free:
	free(keys);
	free(tmp);
	return -ENOMEM;
}
