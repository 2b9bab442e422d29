// SPDX-License-Identifier: GPL-2.0-or-later
/* The ELF image of a jitdump's code (opd_jitelf.h). */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/opd_jitelf.h"
#include "libutil/op_alloc.h"

#define GAP_MAX 4096		/* code this close shares a segment */
#define BLOCKS_MAX 0xfe00	/* sections stay below SHN_LORESERVE */
#define ALIGN 16
#define IMAGE_MAX ((size_t)1 << 31)	/* code and the gaps between */
static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
enum { SH_TEXT = 1, SH_SYMTAB = 7, SH_STRTAB = 15, SH_SHSTRTAB = 23 };

struct piece {
	const struct opd_jit_code *c;
	size_t seq;			/* its place in the dump */
};

struct block {
	size_t first, nr;		/* kept pieces */
	uint64_t start, end;
	size_t offset;			/* of its bytes in the file */
};

struct out {
	unsigned char *buf;
	size_t pos;
	bool big, is64;
};

static int cmp_piece(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	if (x->c->addr != y->c->addr)
		return x->c->addr < y->c->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void put(struct out *o, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++) {
		unsigned shift = o->big ? 8 * (bytes - 1 - i) : 8 * i;

		o->buf[o->pos++] = (unsigned char)(v >> shift);
	}
}

/* an address or offset: the class's word */
static void word(struct out *o, uint64_t v)
{
	put(o, v, o->is64 ? 8 : 4);
}

static size_t align_up(size_t v)
{
	return (v + ALIGN - 1) & ~(size_t)(ALIGN - 1);
}

/*
 * The pieces with code, by address, with overlaps resolved in favour of
 * the later piece; returns how many are kept at the front of v.
 */
static size_t keep_pieces(struct piece *v, size_t nr)
{
	size_t i, kept = 0;

	qsort(v, nr, sizeof(*v), cmp_piece);
	for (i = 0; i < nr; i++) {
		bool lost = false;

		while (kept && v[i].c->addr < v[kept - 1].c->addr + v[kept - 1].c->size) {
			if (v[i].seq < v[kept - 1].seq) {
				lost = true;
				break;
			}
			kept--;
		}
		if (!lost)
			v[kept++] = v[i];
	}
	return kept;
}

/* the pieces grouped into regions; returns how many (at most BLOCKS_MAX + 1) */
static size_t make_blocks(const struct piece *v, size_t nr, struct block *b)
{
	size_t i, n = 0;

	for (i = 0; i < nr; i++) {
		const struct opd_jit_code *c = v[i].c;

		if (n && c->addr - b[n - 1].end <= GAP_MAX) {
			b[n - 1].nr++;
			b[n - 1].end = c->addr + c->size;
			continue;
		}
		if (n > BLOCKS_MAX)
			break;
		b[n].first = i;
		b[n].nr = 1;
		b[n].start = c->addr;
		b[n].end = c->addr + c->size;
		n++;
	}
	return n;
}

static bool class32(const struct opd_jitdump *d, const struct block *b, size_t nr)
{
	if (d->elf_mach != EM_386 && d->elf_mach != EM_ARM && d->elf_mach != EM_PPC)
		return false;
	return !nr || b[nr - 1].end <= UINT32_MAX;
}

static void write_ehdr(struct out *o, const struct opd_jitdump *d, size_t phnum,
		       size_t shoff, size_t shnum)
{
	memcpy(o->buf, ELFMAG, SELFMAG);
	o->buf[EI_CLASS] = o->is64 ? ELFCLASS64 : ELFCLASS32;
	o->buf[EI_DATA] = o->big ? ELFDATA2MSB : ELFDATA2LSB;
	o->buf[EI_VERSION] = EV_CURRENT;
	o->pos = EI_NIDENT;
	put(o, ET_EXEC, 2);
	put(o, d->elf_mach <= UINT16_MAX ? d->elf_mach : EM_NONE, 2);
	put(o, EV_CURRENT, 4);
	word(o, 0);					/* e_entry */
	word(o, o->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr));	/* e_phoff */
	word(o, shoff);
	put(o, 0, 4);					/* e_flags */
	put(o, o->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr), 2);
	put(o, o->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr), 2);
	put(o, phnum, 2);
	put(o, o->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr), 2);
	put(o, shnum, 2);
	put(o, shnum - 1, 2);				/* .shstrtab, last */
}

static void write_phdr(struct out *o, const struct block *b)
{
	uint64_t size = b->end - b->start;

	put(o, PT_LOAD, 4);
	if (o->is64)
		put(o, PF_R | PF_X, 4);
	word(o, b->offset);
	word(o, b->start);
	word(o, b->start);
	word(o, size);
	word(o, size);
	if (!o->is64)
		put(o, PF_R | PF_X, 4);
	word(o, 1);
}

struct shdr {
	uint32_t name, type;
	uint64_t flags, addr, offset, size;
	uint32_t link, info;
	uint64_t align, entsize;
};

static void write_shdr(struct out *o, const struct shdr *s)
{
	put(o, s->name, 4);
	put(o, s->type, 4);
	word(o, s->flags);
	word(o, s->addr);
	word(o, s->offset);
	word(o, s->size);
	put(o, s->link, 4);
	put(o, s->info, 4);
	word(o, s->align);
	word(o, s->entsize);
}

static void write_sym(struct out *o, uint32_t name, uint64_t value, uint64_t size,
		      size_t shndx)
{
	unsigned char info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);

	put(o, name, 4);
	if (!o->is64) {
		word(o, value);
		word(o, size);
	}
	put(o, info, 1);
	put(o, STV_DEFAULT, 1);
	put(o, shndx, 2);
	if (o->is64) {
		word(o, value);
		word(o, size);
	}
}

/* where each part goes */
struct layout {
	size_t phnum, nr_syms, symtab, sym_size, strtab, str_size, shstr, shoff, shnum,
		total;
};

/* 0, or -EFBIG for an image over IMAGE_MAX */
static int plan(struct out *o, struct block *b, size_t nr_blocks, const struct piece *v,
		 size_t nr, struct layout *l)
{
	size_t pos, i, add;

	l->phnum = nr_blocks;
	l->nr_syms = nr + 1;
	pos = (o->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)) +
	      nr_blocks * (o->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr));
	for (i = 0; i < nr_blocks; i++) {
		b[i].offset = align_up(pos);
		if (b[i].end - b[i].start > IMAGE_MAX ||
		    !op_add_size(b[i].offset, (size_t)(b[i].end - b[i].start), &pos) ||
		    pos > IMAGE_MAX)
			return -EFBIG;
	}
	l->symtab = align_up(pos);
	l->sym_size = l->nr_syms * (o->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym));
	l->strtab = l->symtab + l->sym_size;
	l->str_size = 1;
	for (i = 0; i < nr; i++) {
		add = strlen(v[i].c->name) + 1;
		if (!op_add_size(l->str_size, add, &l->str_size))
			return -EFBIG;
	}
	if (!op_add_size(l->strtab, l->str_size, &l->shstr) || l->shstr > IMAGE_MAX)
		return -EFBIG;
	l->shoff = align_up(l->shstr + sizeof(shstrtab));
	l->shnum = nr_blocks + 4;
	l->total = l->shoff + l->shnum * (o->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr));
	return 0;
}

static void write_all(struct out *o, const struct opd_jitdump *d, const struct block *b,
		      size_t nr_blocks, const struct piece *v, const struct layout *l)
{
	struct shdr s;
	size_t i, k, str = 1;

	write_ehdr(o, d, l->phnum, l->shoff, l->shnum);
	for (i = 0; i < nr_blocks; i++)
		write_phdr(o, &b[i]);
	for (i = 0; i < nr_blocks; i++)
		for (k = b[i].first; k < b[i].first + b[i].nr; k++)
			memcpy(o->buf + b[i].offset + (v[k].c->addr - b[i].start),
			       v[k].c->code, (size_t)v[k].c->size);
	o->pos = l->symtab + (o->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym));
	for (i = 0; i < nr_blocks; i++)
		for (k = b[i].first; k < b[i].first + b[i].nr; k++) {
			size_t len = strlen(v[k].c->name) + 1;

			write_sym(o, (uint32_t)str, v[k].c->addr, v[k].c->size, i + 1);
			memcpy(o->buf + l->strtab + str, v[k].c->name, len);
			str += len;
		}
	memcpy(o->buf + l->shstr, shstrtab, sizeof(shstrtab));
	o->pos = l->shoff;
	memset(&s, 0, sizeof(s));
	write_shdr(o, &s);
	for (i = 0; i < nr_blocks; i++) {
		s = (struct shdr){ SH_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
				   b[i].start, b[i].offset, b[i].end - b[i].start,
				   0, 0, 1, 0 };
		write_shdr(o, &s);
	}
	s = (struct shdr){ SH_SYMTAB, SHT_SYMTAB, 0, 0, l->symtab, l->sym_size,
			   (uint32_t)nr_blocks + 2, 1, 8,
			   o->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym) };
	write_shdr(o, &s);
	s = (struct shdr){ SH_STRTAB, SHT_STRTAB, 0, 0, l->strtab, l->str_size, 0, 0, 1, 0 };
	write_shdr(o, &s);
	s = (struct shdr){ SH_SHSTRTAB, SHT_STRTAB, 0, 0, l->shstr, sizeof(shstrtab),
			   0, 0, 1, 0 };
	write_shdr(o, &s);
}

int opd_jitelf_build(const struct opd_jitdump *d, unsigned char **image, size_t *len,
		     size_t *nr_syms)
{
	struct out o = { 0 };
	struct piece *v;
	struct block *b = NULL;
	struct layout l;
	size_t i, nr = 0, nr_blocks;
	int ret = 0;

	*image = NULL;
	v = op_calloc(d->nr_codes ? d->nr_codes : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < d->nr_codes; i++)
		if (d->codes[i].size && d->codes[i].addr + d->codes[i].size > d->codes[i].addr)
			v[nr++] = (struct piece){ &d->codes[i], i };
	nr = keep_pieces(v, nr);
	if (!nr) {
		ret = OPD_JITDUMP_ERR_EMPTY;
		goto out;
	}
	b = op_calloc(nr < BLOCKS_MAX + 1 ? nr : BLOCKS_MAX + 1, sizeof(*b));
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	nr_blocks = make_blocks(v, nr, b);
	if (nr_blocks > BLOCKS_MAX) {
		ret = OPD_JITDUMP_ERR_REGIONS;
		goto out;
	}
	o.is64 = !class32(d, b, nr_blocks);
	o.big = (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) != d->swapped;
	ret = plan(&o, b, nr_blocks, v, nr, &l);
	if (ret)
		goto out;
	o.buf = op_calloc(1, l.total);
	if (!o.buf) {
		ret = -ENOMEM;
		goto out;
	}
	write_all(&o, d, b, nr_blocks, v, &l);
	*image = o.buf;
	*len = l.total;
	*nr_syms = nr;
out:
	free(b);
	free(v);
	return ret;
}
