// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The debug sections that source lines and inline chains read, inflated
 * here into one ELF image in memory for libdw (pp_dwarf_view.h).
 *
 * A distribution's debug files have their sections compressed
 * (SHF_COMPRESSED, zlib).  dwarf_begin_elf() inflates every one of them
 * with zlib before the first look-up, location lists and all: 33 ms for
 * libc6-dbg's 10 MB, most of what its first line costs.  Here only the
 * sections that lines, ranges and inline chains need are inflated, with
 * libdeflate (about 2.7 times zlib's speed on them): 11 ms.  The image
 * is an ELF of the same class, byte order, type and machine holding just
 * those sections, uncompressed, at their addresses; libdw reads it as it
 * would the file.  A file this does not fit (another class or byte
 * order than the host's, another compression, a dwz link to a second
 * file, a relocatable object, a corrupt section) is left to libdw whole.
 *
 * pp_dwarf_view_sections() finds, in that image or the file libdw reads,
 * the line sections elf_linetab.c reads itself.
 */
#include "config.h"

#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <libdeflate.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_dwarf_view.h"
#include "libpp/symbols/pp_linetab.h"
#include "libutil/op_alloc.h"

/* the sections libdw reads for lines, ranges, names and inline chains */
static const char *const needed[] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_line_str",
	".debug_str", ".debug_str_offsets", ".debug_addr", ".debug_aranges",
	".debug_ranges", ".debug_rnglists",
};

#define NR_NEEDED (sizeof(needed) / sizeof(needed[0]))
/*
 * no section of a real file inflates to more; and deflate cannot shrink
 * data more than about 1032 to 1, so a bigger size is a lie (not memory
 * to allocate)
 */
#define MAX_SECTION ((uint64_t)1 << 32)
#define MAX_RATIO 1040u

struct pp_dwarf_view {
	Elf *elf;
	unsigned char *image;
};

/* a section of the image: where its bytes come from */
struct part {
	bool present;			/* the file has the section */
	Elf64_Shdr shdr;		/* the file's, its sh_size the inflated one */
	const unsigned char *src;	/* the file's bytes of it */
	size_t src_size;
	bool zlib;			/* src is an Elf64_Chdr and zlib data */
	uint64_t offset;		/* in the image */
};

static int needed_index(const char *name)
{
	size_t i;

	for (i = 0; i < NR_NEEDED; i++)
		if (!strcmp(name, needed[i]))
			return (int)i;
	return -1;
}

/*
 * The sections of elf (its header eh) to put in the image, in
 * parts[NR_NEEDED] by name; -ENOTSUP when the image would not do (or
 * would gain nothing: nothing compressed)
 */
static int pick(Elf *elf, const GElf_Ehdr *eh, struct part *parts)
{
	bool any_compressed = false;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (eh->e_ident[EI_DATA] != (BYTE_ORDER == LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB) ||
	    eh->e_type == ET_REL || elf_getshdrstrndx(elf, &shstrndx))
		return -ENOTSUP;
	while ((scn = elf_nextscn(elf, scn))) {
		/* a copy: a hostile file's headers may be misaligned in memory */
		GElf_Shdr shdr;
		const GElf_Shdr *sh = gelf_getshdr(scn, &shdr);
		const char *name = sh ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
		Elf_Data *raw;
		int k;

		if (!sh || !name)
			return -ENOTSUP;
		if (!strcmp(name, ".gnu_debugaltlink") || !strncmp(name, ".zdebug", 7) ||
		    (sh->sh_flags & SHF_GROUP))
			return -ENOTSUP;	/* libdw's own ways for these */
		k = needed_index(name);
		if (k < 0 || sh->sh_type == SHT_NOBITS)
			continue;
		if (parts[k].present)
			return -ENOTSUP;	/* twice: let libdw judge */
		raw = elf_rawdata(scn, NULL);
		if (!raw || (!raw->d_buf && raw->d_size))
			return -ENOTSUP;
		parts[k].present = true;
		parts[k].shdr = *sh;
		parts[k].src = raw->d_buf;
		parts[k].src_size = raw->d_size;
		if (sh->sh_flags & SHF_COMPRESSED) {
			Elf64_Chdr ch;

			if (raw->d_size < sizeof(ch))
				return -ENOTSUP;
			memcpy(&ch, raw->d_buf, sizeof(ch));
			if (ch.ch_type != ELFCOMPRESS_ZLIB || ch.ch_size > MAX_SECTION ||
			    ch.ch_size / MAX_RATIO > raw->d_size)
				return -ENOTSUP;
			parts[k].shdr.sh_size = ch.ch_size;
			parts[k].shdr.sh_addralign = ch.ch_addralign;
			parts[k].shdr.sh_flags &= ~(uint64_t)SHF_COMPRESSED;
			parts[k].zlib = true;
			any_compressed = true;
		} else if (raw->d_size != sh->sh_size) {
			return -ENOTSUP;
		}
	}
	return any_compressed && parts[0].present ? 0 : -ENOTSUP;
}

/* the bytes of part p at dst (its inflated size): 0 or -EINVAL */
static int fill(struct libdeflate_decompressor *d, const struct part *p, unsigned char *dst)
{
	if (!p->zlib) {
		if (p->src_size)
			memcpy(dst, p->src, p->src_size);
		return 0;
	}
	return libdeflate_zlib_decompress(d, p->src + sizeof(Elf64_Chdr),
					  p->src_size - sizeof(Elf64_Chdr), dst,
					  (size_t)p->shdr.sh_size, NULL) == LIBDEFLATE_SUCCESS ?
	       0 : -EINVAL;
}

static uint64_t align8(uint64_t x)
{
	return (x + 7) & ~(uint64_t)7;
}

int pp_dwarf_view_make(Elf *elf, struct pp_dwarf_view **out)
{
	struct part parts[NR_NEEDED] = { { 0 } };
	GElf_Ehdr eh;
	struct libdeflate_decompressor *d;
	struct pp_dwarf_view *v;
	uint64_t at = sizeof(Elf64_Ehdr), names = 1, shoff;
	size_t i, n = 0, name_at = 1;
	Elf64_Ehdr *neh;
	Elf64_Shdr *sh;
	int ret;

	*out = NULL;
	if (elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) != ELFCLASS64 ||
	    !gelf_getehdr(elf, &eh))
		return -ENOTSUP;
	ret = pick(elf, &eh, parts);
	if (ret)
		return ret;
	for (i = 0; i < NR_NEEDED; i++) {
		if (!parts[i].present)
			continue;
		parts[i].offset = at;
		at = align8(at + parts[i].shdr.sh_size);
		names += strlen(needed[i]) + 1;
		n++;
	}
	names += strlen(".shstrtab") + 1;
	shoff = align8(at + names);
	if (shoff > SIZE_MAX - (n + 2) * sizeof(Elf64_Shdr))
		return -ENOTSUP;
	v = op_calloc(1, sizeof(*v));
	d = libdeflate_alloc_decompressor();
	if (v)
		v->image = op_calloc(1, (size_t)shoff + (n + 2) * sizeof(Elf64_Shdr));
	if (!v || !d || !v->image) {
		ret = -ENOMEM;
		goto fail;
	}
	neh = (Elf64_Ehdr *)v->image;
	memcpy(neh->e_ident, eh.e_ident, EI_NIDENT);
	neh->e_type = eh.e_type;
	neh->e_machine = eh.e_machine;
	neh->e_version = EV_CURRENT;
	neh->e_flags = eh.e_flags;
	neh->e_ehsize = sizeof(Elf64_Ehdr);
	neh->e_shentsize = sizeof(Elf64_Shdr);
	neh->e_shoff = shoff;
	neh->e_shnum = (Elf64_Half)(n + 2);
	neh->e_shstrndx = (Elf64_Half)(n + 1);
	sh = (Elf64_Shdr *)(v->image + shoff);
	for (i = 0, n = 0; i < NR_NEEDED; i++) {
		Elf64_Shdr *s;

		if (!parts[i].present)
			continue;
		ret = fill(d, &parts[i], v->image + parts[i].offset);
		if (ret)
			goto fail;
		s = &sh[++n];
		*s = parts[i].shdr;
		s->sh_name = (Elf64_Word)name_at;
		s->sh_offset = parts[i].offset;
		s->sh_link = 0;
		s->sh_info = 0;
		memcpy(v->image + at + name_at, needed[i], strlen(needed[i]) + 1);
		name_at += strlen(needed[i]) + 1;
	}
	sh[n + 1].sh_name = (Elf64_Word)name_at;
	sh[n + 1].sh_type = SHT_STRTAB;
	sh[n + 1].sh_offset = at;
	sh[n + 1].sh_size = names;
	sh[n + 1].sh_addralign = 1;
	memcpy(v->image + at + name_at, ".shstrtab", sizeof(".shstrtab"));
	v->elf = elf_memory((char *)v->image, (size_t)shoff + (n + 2) * sizeof(Elf64_Shdr));
	if (!v->elf) {
		ret = -ENOTSUP;
		goto fail;
	}
	libdeflate_free_decompressor(d);
	*out = v;
	return 0;
fail:
	libdeflate_free_decompressor(d);
	if (v)
		free(v->image);
	free(v);
	return ret;
}

Elf *pp_dwarf_view_elf(const struct pp_dwarf_view *v)
{
	return v->elf;
}

void pp_dwarf_view_free(struct pp_dwarf_view *v)
{
	if (!v)
		return;
	elf_end(v->elf);
	free(v->image);
	free(v);
}

void pp_dwarf_view_sections(Elf *elf, struct pp_linetab_sections *out)
{
	static const union { uint16_t v; unsigned char b[2]; } host = { 1 };
	struct pp_linetab_sections s = { 0 };
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || !gelf_getehdr(elf, &eh) || (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    eh.e_ident[EI_DATA] != (host.b[0] ? ELFDATA2LSB : ELFDATA2MSB) ||
	    elf_getshdrstrndx(elf, &shstrndx)) {
		*out = s;
		return;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".debug_line") && strcmp(name, ".debug_line_str") &&
		    strcmp(name, ".debug_str"))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf) {
			*out = (struct pp_linetab_sections){ 0 };
			return;
		}
		if (!strcmp(name, ".debug_line")) {
			s.line = d->d_buf;
			s.line_size = d->d_size;
		} else if (!strcmp(name, ".debug_line_str")) {
			s.line_str = d->d_buf;
			s.line_str_size = d->d_size;
		} else {
			s.str = d->d_buf;
			s.str_size = d->d_size;
		}
	}
	*out = s;
}
