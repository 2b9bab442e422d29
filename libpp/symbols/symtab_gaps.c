// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbols for the code between symbols (pp_symtab_hold()): so that a
 * stripped library, whose .dynsym names only its exported functions,
 * still has every sample in some row.  A key outside every symbol gets
 * the widest range around it that crosses no symbol and no section or
 * segment boundary of the binary: one row per gap, never one per address,
 * and never a neighbour's name.  In a .plt section the key gets its PLT
 * entry instead, named by libbfd's synthetic symbols as objdump names it
 * (symtab_plt.c).
 *
 * Made symbols are kept in priv->made, sorted by start, under
 * priv->made_lock: the report's threads may ask at once.  Each lives in
 * a block of its own (struct made_sym) so that its pointer never moves.
 */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"
#include "libutil/op_strbuf.h"

/* a gap without a binary to bound it is cut at these boundaries */
#define GAP_PAGE 4096ull

struct made_sym {
	struct pp_sym sym;
	char *shown;		/* demangled name (PLT entries), or NULL */
	char name[];
};

static const struct made_sym *made_of(const struct pp_sym *sym)
{
	return (const struct made_sym *)((const char *)sym - offsetof(struct made_sym, sym));
}

bool pp_symtab_is_made(const struct pp_symtab *t, const struct pp_sym *sym)
{
	return sym < t->syms || sym >= t->syms + t->nr;
}

const char *pp_symtab_made_shown(const struct pp_sym *sym)
{
	const struct made_sym *m = made_of(sym);

	return m->shown ? m->shown : m->sym.name;
}

/* the index of the first made symbol whose end is above key */
static size_t made_find(const struct symtab_priv *p, uint64_t key)
{
	size_t lo = 0, hi = p->nr_made;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->made[mid]->end <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the sections with bytes in the file, read once from the binary */
static int read_sections(struct symtab_priv *p)
{
	Elf *elf = p->elf->elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0;

	p->secs_read = true;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		struct pp_gap_sec *v;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		v = op_reallocarray(p->secs, n + 1, sizeof(*p->secs));
		if (!v)
			return -ENOMEM;
		p->secs = v;
		p->secs[n].addr = sh.sh_addr;
		p->secs[n].size = sh.sh_size;
		p->secs[n].name = name ? name : "";
		p->nr_secs = ++n;
	}
	return 0;
}

const struct pp_gap_sec *pp_symtab_section(struct pp_symtab *t, uint64_t vma)
{
	struct symtab_priv *p = t->priv;
	size_t i;

	if (!p->elf || (!p->secs_read && read_sections(p)))
		return NULL;
	for (i = 0; i < p->nr_secs; i++)
		if (vma >= p->secs[i].addr && vma - p->secs[i].addr < p->secs[i].size)
			return &p->secs[i];
	return NULL;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* the keys [*lo, *hi) of the PT_LOAD holding key, if the binary says */
static bool segment_keys(const struct pp_symtab *t, uint64_t key, uint64_t vma,
			 uint64_t *lo, uint64_t *hi)
{
	const struct symtab_priv *p = t->priv;
	const struct pp_elf_load *l;
	size_t i;

	if (!p->elf)
		return false;
	if (p->segments) {
		for (i = 0; i < p->elf->nr_loads; i++) {
			l = &p->elf->loads[i];
			if (key >= l->offset && key - l->offset < l->filesz) {
				*lo = l->offset;
				*hi = l->offset + l->filesz;
				return true;
			}
		}
		return false;
	}
	l = pp_elf_find_load(p->elf, vma, NULL);
	if (!l)
		return false;
	*lo = key - (vma - l->vaddr);
	*hi = *lo + l->filesz;
	return true;
}

/* keep m among the made symbols, in order; 0 or -ENOMEM */
static int made_insert(struct symtab_priv *p, size_t at, struct made_sym *m)
{
	if (p->nr_made == p->alloc_made) {
		size_t alloc = p->alloc_made ? p->alloc_made * 2 : 16;
		struct pp_sym **v = op_reallocarray(p->made, alloc, sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->made = v;
		p->alloc_made = alloc;
	}
	memmove(&p->made[at + 1], &p->made[at], (p->nr_made - at) * sizeof(*p->made));
	p->made[at] = &m->sym;
	p->nr_made++;
	return 0;
}

static struct made_sym *made_new(const char *name, uint64_t start, uint64_t end,
				 uint64_t vma, uint32_t flags)
{
	size_t len = strlen(name);
	struct made_sym *m = op_malloc(sizeof(*m) + len + 1);

	if (!m)
		return NULL;
	memcpy(m->name, name, len + 1);
	m->shown = NULL;
	m->sym.start = start;
	m->sym.end = end;
	m->sym.vma = vma;
	m->sym.name = m->name;
	m->sym.flags = flags;
	return m;
}

/*
 * The gap holding key: between the table's neighbours of key, inside
 * the section and segment of key, and not over a made symbol.
 */
static void gap_bounds(struct pp_symtab *t, uint64_t key, uint64_t cap,
		       uint64_t *lo, uint64_t *hi)
{
	struct symtab_priv *p = t->priv;
	uint64_t vma = pp_symtab_vma(t, key), delta = vma - key, slo, shi;
	const struct pp_gap_sec *sec;
	size_t a = 0, b = t->nr, i;

	while (a < b) {	/* the first symbol starting above key */
		size_t mid = a + (b - a) / 2;

		if (t->syms[mid].start <= key)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a ? t->syms[a - 1].end : 0;
	*hi = min_u64(a < t->nr ? t->syms[a].start : UINT64_MAX, cap);
	if (segment_keys(t, key, vma, &slo, &shi)) {
		*lo = max_u64(*lo, slo);
		*hi = min_u64(*hi, shi);
		sec = pp_symtab_section(t, vma);
		if (sec) {
			*lo = max_u64(*lo, sec->addr - delta);
			*hi = min_u64(*hi, sec->addr + sec->size - delta);
		}
	} else {
		*lo = max_u64(*lo, key & ~(GAP_PAGE - 1));
		*hi = min_u64(*hi, (key | (GAP_PAGE - 1)) + 1);
	}
	i = made_find(p, key);
	if (i < p->nr_made && p->made[i]->start > key)
		*hi = min_u64(*hi, p->made[i]->start);
	if (i && p->made[i - 1]->end <= key)
		*lo = max_u64(*lo, p->made[i - 1]->end);
	if (*lo > key)
		*lo = key;
	if (*hi <= key)
		*hi = key + 1;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* cap: the gap ends there at the latest (the first PLT entry above) */
static struct made_sym *make_gap(struct pp_symtab *t, uint64_t key, uint64_t cap)
{
	struct symtab_priv *p = t->priv;
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct made_sym *m = NULL;
	uint64_t lo, hi, vlo, vhi;
	int failed;

	gap_bounds(t, key, cap, &lo, &hi);
	vlo = pp_symtab_vma(t, lo);
	vhi = vlo + (hi - lo - 1);
	op_strbuf_addf(&sb, "[%s 0x%" PRIx64 "-0x%" PRIx64 "]",
		       base_name(p->label ? p->label : "?"), vlo, vhi);
	if (!op_strbuf_failed(&sb))
		m = made_new(sb.buf, lo, hi, vlo, PP_SYM_GAP);
	if (m)
		m->shown = op_escape_controls(m->name, &failed);
	op_strbuf_release(&sb);
	return m;
}

/*
 * The PLT entry of key, if key is in a .plt section and libbfd knows it;
 * else NULL with *cap the key where the next entry starts (UINT64_MAX:
 * none), or *err -ENOMEM.
 */
static struct made_sym *make_plt(struct pp_symtab *t, uint64_t key, uint64_t *cap,
				 int *err)
{
	struct symtab_priv *p = t->priv;
	uint64_t vma = pp_symtab_vma(t, key), delta = vma - key, start, end;
	const struct pp_gap_sec *sec = pp_symtab_section(t, vma);
	const struct pp_plt_entry *e;
	struct made_sym *m;

	*err = 0;
	*cap = UINT64_MAX;
	if (!sec || strncmp(sec->name, ".plt", 4))
		return NULL;
	e = pp_plt_find(t, vma, sec, &end, err);
	if (!e) {
		if (end > vma)
			*cap = end - delta;
		return NULL;
	}
	start = e->vma - delta;
	end -= delta;
	m = made_new(e->name, start, end, e->vma, PP_SYM_PLT);
	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	m->shown = pp_plt_shown(e->name, p->demangle);
	{
		int failed;
		char *esc = op_escape_controls(m->shown ? m->shown : m->name, &failed);

		if (esc) {
			free(m->shown);
			m->shown = esc;
		}
	}
	return m;
}

const struct pp_sym *pp_symtab_hold(struct pp_symtab *t, uint64_t key)
{
	struct symtab_priv *p = t->priv;
	const struct pp_sym *sym = pp_symtab_lookup(t, key);
	struct made_sym *m;
	uint64_t cap;
	size_t i;
	int err;

	if (sym)
		return sym;
	pthread_mutex_lock(&p->made_lock);
	i = made_find(p, key);
	if (i < p->nr_made && p->made[i]->start <= key) {
		sym = p->made[i];
		goto out;
	}
	m = make_plt(t, key, &cap, &err);
	if (!m && !err)
		m = make_gap(t, key, cap);
	if (m && made_insert(p, made_find(p, m->sym.start), m)) {
		free(m->shown);
		free(m);
		m = NULL;
	}
	sym = m ? &m->sym : NULL;
out:
	pthread_mutex_unlock(&p->made_lock);
	return sym;
}

void pp_symtab_free_made(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	size_t i;

	for (i = 0; i < p->nr_made; i++) {
		struct made_sym *m = (struct made_sym *)made_of(p->made[i]);

		free(m->shown);
		free(m);
	}
	free(p->made);
	free(p->secs);
	pp_plt_free(p->plt);
	p->made = NULL;
	p->secs = NULL;
	p->plt = NULL;
	p->nr_made = p->alloc_made = p->nr_secs = 0;
}
