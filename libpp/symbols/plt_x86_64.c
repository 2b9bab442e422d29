// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PLT entries of an x86-64 binary, read with libelf: the names
 * libbfd's synthetic symbols give them ("memcmp@plt"), at a small part
 * of libbfd's cost.  libbfd reads every dynamic symbol and relocation of
 * the binary into its own structures and sorts them before it looks at
 * the PLT: 25 ms and 30 MB for libLLVM, whose .rela.dyn holds 350 k
 * relocations.  Here the PLT entries are decoded first, and each dynamic
 * relocation (those of .rela.plt, then, for the entries still without a
 * name, the others) is looked up among their few GOT slots.  symtab_plt.c
 * asks here first, and asks libbfd for other machines and for sections
 * laid out otherwise.
 *
 * Each PLT layout of the x86-64 psABI reaches its target through one
 * RIP-relative indirect jump through the GOT, ff 25 disp32, which may
 * carry a BND prefix (f2) and follow an endbr64 (f3 0f 1e fa):
 *
 *	.plt		entry 0 calls the lazy resolver (push, then a jump
 *			through a slot no relocation names: it has no name);
 *			lazy entries: the jump, push INDEX, jmp .plt; with
 *			IBT (a .plt.sec beside) the entries hold no such
 *			jump and have no name
 *	.plt.sec	the IBT (or BND) entries: endbr64, the jump
 *	.plt.got	entries of functions bound at load time: the jump
 *
 * The dynamic relocation at the jump's GOT slot names the entry: its
 * symbol, "+0xADDEND" when the addend is not 0, then "@plt"; without a
 * symbol (an ifunc's IRELATIVE slot, the addend is its resolver) the
 * symbol is "*ABS*", libbfd's absolute section symbol.
 */
#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_plt.h"
#include "libutil/op_alloc.h"

/* an entry's GOT slot, while the relocations are read */
struct slot {
	uint64_t got;		/* the slot's address */
	size_t entry;		/* index in the entries */
};

struct plt_read {
	Elf *elf;
	size_t dynsym;		/* section index of .dynsym, 0: none */
	struct slot *slots;
	size_t nr_slots, alloc_slots;
	struct pp_plt_entry *v;
	size_t nr, alloc;
	int err;
};

static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

/*
 * The GOT slot the entry at vma (len bytes at code) jumps through: false
 * when it holds no such jump at its start
 */
static bool entry_slot(const unsigned char *code, size_t len, uint64_t vma, uint64_t *got)
{
	size_t at = 0;
	uint32_t disp;

	if (len >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64)))
		at += sizeof(endbr64);
	if (at < len && code[at] == 0xf2)
		at++;		/* BND */
	if (at + 6 > len || code[at] != 0xff || code[at + 1] != 0x25)
		return false;
	disp = (uint32_t)code[at + 2] | (uint32_t)code[at + 3] << 8 |
	       (uint32_t)code[at + 4] << 16 | (uint32_t)code[at + 5] << 24;
	*got = vma + at + 6 + (uint64_t)(int64_t)(int32_t)disp;
	return true;
}

static void add_slot(struct plt_read *r, uint64_t vma, uint64_t got)
{
	if (r->err)
		return;
	if (r->nr == r->alloc) {
		size_t n = r->alloc ? 2 * r->alloc : 64;
		struct pp_plt_entry *v = op_reallocarray(r->v, n, sizeof(*v));
		struct slot *s = op_reallocarray(r->slots, n, sizeof(*s));

		if (v)
			r->v = v;
		if (s)
			r->slots = s;
		if (!v || !s) {
			r->err = -ENOMEM;
			return;
		}
		r->alloc = n;
	}
	r->v[r->nr] = (struct pp_plt_entry){ .vma = vma, .name = NULL };
	r->slots[r->nr_slots++] = (struct slot){ got, r->nr++ };
}

/*
 * The entries of one PLT section.  -ENOTSUP when its size is not a
 * multiple of its entries' or (but in .plt, where IBT entries and the
 * first have none) an entry has no jump through the GOT.
 */
static int read_section(struct plt_read *r, Elf_Scn *scn, const GElf_Shdr *sh,
			const char *name)
{
	bool lazy = !strcmp(name, ".plt");
	Elf_Data *d = elf_getdata(scn, NULL);
	const unsigned char *code;
	uint64_t size, off, entsize = sh->sh_entsize;

	if (!d || !d->d_buf || d->d_size != sh->sh_size)
		return -ENOTSUP;
	code = d->d_buf;
	size = d->d_size;
	if (!size)
		return 0;
	if (!entsize)	/* .plt.got's entries are 8 bytes without endbr64 */
		entsize = strcmp(name, ".plt.got") ||
			  (size >= sizeof(endbr64) && !memcmp(code, endbr64, sizeof(endbr64))) ?
			  16 : 8;
	if ((entsize != 8 && entsize != 16) || size % entsize)
		return -ENOTSUP;
	for (off = 0; off < size; off += entsize) {
		uint64_t got;

		if (entry_slot(code + off, entsize, sh->sh_addr + off, &got))
			add_slot(r, sh->sh_addr + off, got);
		else if (!lazy)
			return -ENOTSUP;
	}
	return r->err;
}

static int by_got(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->got != y->got)
		return x->got < y->got ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static int slot_at(const void *key, const void *elem)
{
	uint64_t got = *(const uint64_t *)key;
	const struct slot *s = elem;

	return got < s->got ? -1 : got > s->got;
}

/* the first slot at got, or NULL */
static const struct slot *find_slot(const struct plt_read *r, uint64_t got)
{
	const struct slot *s = r->nr_slots ?
			       bsearch(&got, r->slots, r->nr_slots, sizeof(*s), slot_at) : NULL;

	while (s && s > r->slots && s[-1].got == got)
		s--;
	return s;
}

/* "SYM[+0xADDEND]@plt" */
static char *entry_name(struct plt_read *r, Elf_Scn *dynsym, const GElf_Shdr *dsh,
			const GElf_Rela *rel)
{
	size_t sym = GELF_R_SYM(rel->r_info);
	const char *base = "*ABS*";
	char addend[24] = "";
	char *name;
	GElf_Sym s;

	if (sym) {
		Elf_Data *d = elf_getdata(dynsym, NULL);

		if (!d || !gelf_getsym(d, (int)sym, &s) ||
		    !(base = elf_strptr(r->elf, dsh->sh_link, s.st_name)))
			return NULL;	/* a broken symbol: the entry stays unnamed */
	}
	if (rel->r_addend)
		snprintf(addend, sizeof(addend), "+0x%" PRIx64, (uint64_t)rel->r_addend);
	if (asprintf(&name, "%s%s@plt", base, addend) < 0) {
		r->err = -ENOMEM;
		return NULL;
	}
	return name;
}

/* name each entry whose slot a relocation of rela section scn is at */
static void name_entries(struct plt_read *r, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Scn *dynsym = elf_getscn(r->elf, r->dynsym);
	Elf_Data *d = elf_getdata(scn, NULL);
	GElf_Shdr dsh;
	size_t i, n;

	if (!d || !dynsym || !gelf_getshdr(dynsym, &dsh) || !sh->sh_entsize)
		return;
	n = d->d_size / sh->sh_entsize;
	for (i = 0; i < n && !r->err; i++) {
		const struct slot *s;
		GElf_Rela rel;

		if (!gelf_getrela(d, (int)i, &rel) || !(s = find_slot(r, rel.r_offset)))
			continue;
		for (; s < r->slots + r->nr_slots && s->got == rel.r_offset; s++)
			if (!r->v[s->entry].name)
				r->v[s->entry].name = entry_name(r, dynsym, &dsh, &rel);
	}
}

static int by_vma(const void *a, const void *b)
{
	const struct pp_plt_entry *x = a, *y = b;

	return x->vma < y->vma ? -1 : x->vma > y->vma;
}

/* the named entries only (the others have no name to free), by address */
static void keep_named(struct plt_read *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nr; i++)
		if (r->v[i].name)
			r->v[n++] = r->v[i];
	r->nr = n;
	if (n)
		qsort(r->v, n, sizeof(*r->v), by_vma);
}

/*
 * name the entries from the dynamic relocation sections that apply to
 * one section (SHF_INFO_LINK: .rela.plt, whose slots the PLT entries
 * mostly are) or from the others (.rela.dyn, which in a big library is
 * most of the file, read only for the entries still without a name)
 */
static void name_from(struct plt_read *r, bool info_link)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while (!r->err && (scn = elf_nextscn(r->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA &&
		    sh.sh_link == r->dynsym && !(sh.sh_flags & SHF_INFO_LINK) == !info_link)
			name_entries(r, scn, &sh);
}

static bool all_named(const struct plt_read *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!r->v[i].name)
			return false;
	return true;
}

static int read_all(struct plt_read *r)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	int ret = 0;

	if (elf_getshdrstrndx(r->elf, &shstrndx))
		return -ENOTSUP;
	while (!ret && (scn = elf_nextscn(r->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -ENOTSUP;
		/* libbfd names nothing without a dynamic symbol (a static PIE) */
		if (sh.sh_type == SHT_DYNSYM && sh.sh_entsize && sh.sh_size / sh.sh_entsize > 1)
			r->dynsym = elf_ndxscn(scn);
		name = elf_strptr(r->elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_PROGBITS && name && !strncmp(name, ".plt", 4))
			ret = read_section(r, scn, &sh, name);
	}
	if (ret || !r->nr_slots || !r->dynsym)
		return ret;
	qsort(r->slots, r->nr_slots, sizeof(*r->slots), by_got);
	name_from(r, true);
	if (!all_named(r))
		name_from(r, false);
	return r->err;
}

int pp_plt_x86_64(struct Elf *elf, struct pp_plt_entry **out, size_t *nr)
{
	struct plt_read r = { .elf = elf };
	GElf_Ehdr eh;
	size_t i;
	int ret;

	*out = NULL;
	*nr = 0;
	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return -ENOTSUP;
	ret = read_all(&r);
	if (!ret) {
		keep_named(&r);
		*out = r.v;
		*nr = r.nr;
		r.v = NULL;
		r.nr = 0;
	}
	for (i = 0; i < r.nr; i++)
		free((char *)r.v[i].name);
	free(r.v);
	free(r.slots);
	return ret;
}
