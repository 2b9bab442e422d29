// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PLT entries of a binary, for pp_symtab_hold(): libbfd's synthetic
 * symbols ("memcmp@plt", made from the dynamic symbols and the PLT
 * relocations), the names objdump -d shows; those of an x86-64 binary
 * are read the same way with libelf, at a small part of the cost
 * (plt_x86_64.c).  Read once per table, on the first sample that falls
 * in a .plt section, so that tables without such samples never read
 * their binary's relocations.
 */
#include "config.h"

#include <bfd.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"

struct pp_plt {
	struct pp_plt_entry *v;	/* sorted by vma */
	size_t nr;
};

static int by_vma(const void *a, const void *b)
{
	const struct pp_plt_entry *x = a, *y = b;

	return x->vma < y->vma ? -1 : x->vma > y->vma;
}

/* the entries of synth[0 .. nr) in .plt sections, names copied */
static int keep_entries(struct pp_plt *plt, asymbol *synth, long nr)
{
	long i;

	plt->v = op_calloc((size_t)nr + 1, sizeof(*plt->v));
	if (!plt->v)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		const asymbol *s = &synth[i];
		const char *sec = s->section ? bfd_section_name(s->section) : "";
		struct pp_plt_entry *e = &plt->v[plt->nr];

		if (!s->name || strncmp(sec, ".plt", 4))
			continue;
		e->vma = bfd_asymbol_value(s);
		e->name = op_strdup(s->name);
		if (!e->name)
			return -ENOMEM;
		plt->nr++;
	}
	qsort(plt->v, plt->nr, sizeof(*plt->v), by_vma);
	return 0;
}

/*
 * read the entries of t's binary: with libelf for an x86-64 binary
 * (plt_x86_64.c), else with libbfd; a binary neither reads has none
 */
static int read_plt(struct pp_symtab *t, struct pp_plt **out)
{
	const struct symtab_priv *p = t->priv;
	struct pp_plt *plt = op_calloc(1, sizeof(*plt));
	asymbol **dyn = NULL, *synth = NULL;
	struct bfd *abfd = NULL;
	long size, nr_dyn, nr_synth;
	int ret = 0;

	*out = plt;
	if (!plt)
		return -ENOMEM;
	if (p->elf) {
		ret = pp_plt_x86_64(p->elf->elf, &plt->v, &plt->nr);
		if (ret != -ENOTSUP)
			return ret;
		ret = 0;
	}
	if (!t->file || pp_bfd_open(t->file, &abfd))
		return 0;
	size = bfd_get_dynamic_symtab_upper_bound(abfd);
	if (size <= 0)
		goto out;
	dyn = op_malloc((size_t)size);
	if (!dyn) {
		ret = -ENOMEM;
		goto out;
	}
	nr_dyn = bfd_canonicalize_dynamic_symtab(abfd, dyn);
	if (nr_dyn <= 0)
		goto out;
	nr_synth = bfd_get_synthetic_symtab(abfd, 0, NULL, nr_dyn, dyn, &synth);
	if (nr_synth > 0)
		ret = keep_entries(plt, synth, nr_synth);
out:
	free(synth);
	free(dyn);
	bfd_close(abfd);
	return ret;
}

const struct pp_plt_entry *pp_plt_find(struct pp_symtab *t, uint64_t vma,
				       const struct pp_gap_sec *sec, uint64_t *end,
				       int *err)
{
	struct symtab_priv *p = t->priv;
	uint64_t sec_end = sec->addr + sec->size;
	size_t lo = 0, hi;

	*err = 0;
	*end = sec_end;
	if (!p->plt_read) {
		p->plt_read = true;
		*err = read_plt(t, &p->plt);
		if (*err)
			return NULL;
	}
	if (!p->plt)
		return NULL;
	hi = p->plt->nr;
	while (lo < hi) {	/* the first entry above vma */
		size_t mid = lo + (hi - lo) / 2;

		if (p->plt->v[mid].vma <= vma)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->plt->nr && p->plt->v[lo].vma < sec_end)
		*end = p->plt->v[lo].vma;
	if (!lo || p->plt->v[lo - 1].vma < sec->addr)
		return NULL;	/* before the section's first entry */
	return &p->plt->v[lo - 1];
}

char *pp_plt_shown(const char *name, enum pp_demangle_mode mode)
{
	const char *at = strrchr(name, '@');
	char *raw, *shown, *out = NULL;
	size_t len;

	if (!at)
		return pp_demangle(name, mode);
	raw = op_strndup(name, (size_t)(at - name));
	shown = raw ? pp_demangle(raw, mode) : NULL;
	if (shown) {
		size_t tail = strlen(at) + 1;

		len = strlen(shown);
		out = op_malloc(len + tail);
		if (out) {
			memcpy(out, shown, len);
			memcpy(out + len, at, tail);
		}
	}
	free(shown);
	free(raw);
	return out;
}

void pp_plt_free(struct pp_plt *plt)
{
	size_t i;

	if (!plt)
		return;
	for (i = 0; i < plt->nr; i++)
		free((char *)plt->v[i].name);
	free(plt->v);
	free(plt);
}
