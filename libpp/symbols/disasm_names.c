// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Naming the addresses a disassembled instruction refers to from the
 * binary's own symbols, as objdump -d names them (symbols_int.h, "disassembly").
 * libbfd reads the tables on the first address to name; the handle
 * borrows the bfd, descriptor and disassemble_info of its pp_disasm.
 */
#include "config.h"

#include <bfd.h>
#include <dis-asm.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/symbols/pp_demangle.h"
#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

/* a symbol objdump could name an address with */
struct name_sym {
	uint64_t vma;			/* bfd_asymbol_value() */
	asymbol *sym;			/* libbfd's, or in synth */
	uint64_t size;			/* ELF st_size; 0 when not known */
	unsigned order;			/* enum name_order bits */
	bool valid;			/* the target's symbol_is_valid() */
};

/* the binary's symbols for naming addresses, read on first use */
struct pp_disasm_names {
	bfd *abfd;			/* borrowed, as are fd and info */
	int fd;				/* for the ELF symbol sizes, or -1 */
	struct disassemble_info *info;	/* its symbol_is_valid, octets */
	uint64_t addr_mask;		/* what of an address is printed */
	enum pp_demangle_mode demangle;	/* of the names shown */
	bool loaded;
	int err;			/* -ENOMEM once loading ran out of memory */
	asymbol **syms;			/* static table (NULL-terminated) */
	asymbol **dynsyms;		/* dynamic table */
	asymbol *synth;			/* synthetic ("name@plt"), one block */
	arelent **relocs;		/* dynamic relocations, by address */
	size_t nr_relocs;
	struct name_sym *sorted;	/* by vma, then objdump's preference */
	size_t nr_sorted;
	asection *sec;			/* of the last instruction named from */
};

/*
 * What the caller's symbolizer leaves unnamed is named as objdump -d
 * (binutils 2.40) names it, so that calls into the PLT ("printf@plt"),
 * data ("# 404028 <sink>"), GOT slots ("<free@GLIBC_2.2.5>") and any
 * code the symbolizer does not know read as objdump prints them:
 *
 * - the candidates: the static symbol table, or the dynamic one when the
 *   binary has no static one, less symbols without a name, undefined and
 *   common ones, and section and debugging symbols (but those whose name
 *   starts with .plt or .got); plus libbfd's synthetic symbols, the PLT
 *   entries.
 * - the candidate with the greatest address at or below the target, or
 *   the lowest one when all lie above ("<first-0x10>").  Of several at
 *   that address, the first in the section being disassembled (here: the
 *   one holding the instruction); else the first by objdump's order:
 *   compiler marks (gcc2_compiled.) last, then file names, debugging and
 *   section symbols; functions first, then objects; local ones last,
 *   global ones first; larger ELF st_size first; names starting with '.'
 *   last; then by name.
 * - the target's symbol_is_valid() may refuse symbols (ARM's mapping
 *   symbols): then the first valid one at the greatest lower address,
 *   else the first above.  In a file with relocations (HAS_RELOC: .o,
 *   .ko, a vmlinux linked with --emit-relocs) a target inside the
 *   instruction's section only takes symbols of that section.
 * - unless the symbol is synthetic, or found in the instruction's section
 *   at once, an address some dynamic relocation patches (a GOT slot) is
 *   named by that relocation's symbol, if it has one that is not
 *   absolute.
 * - printed "name", "name+0x10" or "name-0x10", with "@VERSION" (hidden
 *   or undefined) or "@@VERSION" for versioned symbols and no offset on
 *   undefined ones; no symbol at all: "<.text+0x10>" of the instruction's
 *   section.  When the binary has no candidate at all objdump prints
 *   "0x401136", and so do we.
 */

/* objdump's preferences among symbols at one address: a set bit sorts later */
enum name_order {
	NAME_NOT_GLOBAL = 1 << 0,
	NAME_LOCAL = 1 << 1,
	NAME_NOT_OBJECT = 1 << 2,
	NAME_NOT_FUNCTION = 1 << 3,
	NAME_SECTION = 1 << 4,
	NAME_DEBUGGING = 1 << 5,
	NAME_FILE = 1 << 6,
	NAME_COMPILER_MARK = 1 << 7,
};

static unsigned name_order(const asymbol *sym)
{
	const char *name = bfd_asymbol_name(sym);
	size_t len = strlen(name);
	flagword f = sym->flags;
	unsigned order = 0;

	if (strstr(name, "gnu_compiled") || strstr(name, "gcc2_compiled"))
		order |= NAME_COMPILER_MARK;
	if ((f & BSF_FILE) || (len > 2 && name[len - 2] == '.' &&
			       (name[len - 1] == 'o' || name[len - 1] == 'a')))
		order |= NAME_FILE;
	if (f & BSF_DEBUGGING)
		order |= NAME_DEBUGGING;
	if (f & BSF_SECTION_SYM)
		order |= NAME_SECTION;
	if (!(f & BSF_FUNCTION))
		order |= NAME_NOT_FUNCTION;
	if (!(f & BSF_OBJECT))
		order |= NAME_NOT_OBJECT;
	if (f & BSF_LOCAL)
		order |= NAME_LOCAL;
	if (!(f & BSF_GLOBAL))
		order |= NAME_NOT_GLOBAL;
	return order;
}

static int by_vma_and_preference(const void *a, const void *b)
{
	const struct name_sym *x = a, *y = b;
	const char *xn = bfd_asymbol_name(x->sym), *yn = bfd_asymbol_name(y->sym);

	if (x->vma != y->vma)
		return x->vma < y->vma ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if ((xn[0] == '.') != (yn[0] == '.'))
		return xn[0] == '.' ? 1 : -1;
	return strcmp(xn, yn);
}

/* a symbol objdump leaves out of its candidates */
static bool name_useless(const asymbol *sym)
{
	const char *name = bfd_asymbol_name(sym);

	if (!name || !name[0])
		return true;
	if ((sym->flags & (BSF_DEBUGGING | BSF_SECTION_SYM)) &&
	    strncmp(name, ".plt", 4) && strncmp(name, ".got", 4))
		return true;
	return bfd_is_und_section(sym->section) || bfd_is_com_section(sym->section);
}

/* the static (dynamic) symbol table: its length, the table in *out; -1
 * when there was no memory for it */
static long read_symtab(bfd *abfd, bool dynamic, asymbol ***out)
{
	long size, nr;

	*out = NULL;
	if (!dynamic && !(bfd_get_file_flags(abfd) & HAS_SYMS))
		return 0;
	size = dynamic ? bfd_get_dynamic_symtab_upper_bound(abfd) :
			 bfd_get_symtab_upper_bound(abfd);
	if (size <= 0)
		return 0;
	*out = op_malloc((size_t)size);
	if (!*out)
		return -1;
	nr = dynamic ? bfd_canonicalize_dynamic_symtab(abfd, *out) :
		       bfd_canonicalize_symtab(abfd, *out);
	if (nr <= 0) {
		free(*out);
		*out = NULL;
		return 0;
	}
	return nr;
}

static bool pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	return off <= INT64_MAX && pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

/* an ELF field of width 2, 4 or 8 bytes at p, in the file's byte order */
static uint64_t elf_field(bfd *abfd, const unsigned char *p, size_t width)
{
	if (width == 8)
		return bfd_get_64(abfd, p);
	if (width == 4)
		return bfd_get_32(abfd, p);
	return bfd_get_16(abfd, p);
}

#define ELF_FIELD(abfd, is64, p, type, field)					\
	((is64) ? elf_field(abfd, (p) + offsetof(Elf64_##type, field),		\
			    sizeof(((Elf64_##type *)0)->field))			\
		: elf_field(abfd, (p) + offsetof(Elf32_##type, field),		\
			    sizeof(((Elf32_##type *)0)->field)))

/* the file offset of the ELF section of type (SHT_SYMTAB, SHT_DYNSYM) with nr entries */
static bool elf_table(const struct pp_disasm_names *t, bool is64, unsigned type,
		      size_t nr, uint64_t *off)
{
	unsigned char eh[sizeof(Elf64_Ehdr)], sh[sizeof(Elf64_Shdr)];
	size_t sh_len = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	size_t ent_len = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	uint64_t shoff, shnum, i;

	if (!pread_all(t->fd, eh, is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr), 0))
		return false;
	shoff = ELF_FIELD(t->abfd, is64, eh, Ehdr, e_shoff);
	shnum = ELF_FIELD(t->abfd, is64, eh, Ehdr, e_shnum);
	if (ELF_FIELD(t->abfd, is64, eh, Ehdr, e_shentsize) != sh_len || !shoff)
		return false;
	if (!shnum) {	/* more than SHN_LORESERVE: the count is in section 0 */
		if (!pread_all(t->fd, sh, sh_len, shoff))
			return false;
		shnum = ELF_FIELD(t->abfd, is64, sh, Shdr, sh_size);
	}
	for (i = 0; i < shnum && i < UINT32_MAX; i++) {
		if (!pread_all(t->fd, sh, sh_len, shoff + i * sh_len))
			return false;
		if (ELF_FIELD(t->abfd, is64, sh, Shdr, sh_type) != type ||
		    ELF_FIELD(t->abfd, is64, sh, Shdr, sh_entsize) != ent_len ||
		    ELF_FIELD(t->abfd, is64, sh, Shdr, sh_size) / ent_len != nr + 1)
			continue;
		*off = ELF_FIELD(t->abfd, is64, sh, Shdr, sh_offset);
		return true;
	}
	return false;
}

/*
 * The ELF st_size of each of the nr symbols libbfd read from the table of
 * type, which libbfd keeps to itself: it returns entries 1.. in order
 * (entry 0 is the null symbol).  NULL when not ELF, or the table is not
 * found with nr + 1 entries (or memory ran out: t->err); the caller
 * frees the array.
 */
static uint64_t *elf_sym_sizes(struct pp_disasm_names *t, unsigned type, size_t nr)
{
	bool is64 = bfd_get_arch_size(t->abfd) == 64;
	size_t ent_len = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	unsigned char *buf;
	uint64_t *sizes = NULL, off;
	size_t len, i;

	if (t->fd < 0 || !nr || bfd_get_flavour(t->abfd) != bfd_target_elf_flavour ||
	    !elf_table(t, is64, type, nr, &off) || !op_mul_size(nr, ent_len, &len))
		return NULL;
	buf = op_malloc(len);
	if (!buf) {
		t->err = -ENOMEM;
		return NULL;
	}
	if (pread_all(t->fd, buf, len, off + ent_len)) {
		sizes = op_reallocarray(NULL, nr, sizeof(*sizes));
		if (!sizes)
			t->err = -ENOMEM;
		for (i = 0; sizes && i < nr; i++)
			sizes[i] = ELF_FIELD(t->abfd, is64, buf + i * ent_len, Sym, st_size);
	}
	free(buf);
	return sizes;
}

static void add_candidates(struct pp_disasm_names *t, asymbol **syms, size_t nr,
			   const uint64_t *sizes)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		asymbol *sym = syms[i];
		struct name_sym *e;

		if (name_useless(sym))
			continue;
		e = &t->sorted[t->nr_sorted++];
		e->vma = bfd_asymbol_value(sym);
		e->sym = sym;
		e->size = sizes && !(sym->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC)) ?
			  sizes[i] : 0;
		e->order = name_order(sym);
		e->valid = !t->info->symbol_is_valid || t->info->symbol_is_valid(sym, t->info);
	}
}

static int by_address(const void *a, const void *b)
{
	const arelent *x = *(const arelent *const *)a, *y = *(const arelent *const *)b;

	if (x->address != y->address)
		return x->address < y->address ? -1 : 1;
	return x < y ? -1 : x > y;	/* libbfd's order at one address */
}

static void read_dynamic_relocs(struct pp_disasm_names *t)
{
	long size = bfd_get_dynamic_reloc_upper_bound(t->abfd);
	long nr;

	if (size <= 0)
		return;
	t->relocs = op_malloc((size_t)size);
	if (!t->relocs) {
		t->err = -ENOMEM;
		return;
	}
	nr = bfd_canonicalize_dynamic_reloc(t->abfd, t->relocs, t->dynsyms);
	if (nr <= 0) {
		free(t->relocs);
		t->relocs = NULL;
		return;
	}
	t->nr_relocs = (size_t)nr;
	qsort(t->relocs, t->nr_relocs, sizeof(*t->relocs), by_address);
}

/*
 * t->sorted in by_vma_and_preference() order: radix-sorted by address,
 * then each run at one address by the comparison (a big program's
 * tens of thousands of symbols cost a qsort() about 10 ms); qsort() alone
 * when memory runs out
 */
static void sort_candidates(struct pp_disasm_names *t)
{
	size_t n = t->nr_sorted, i, j;
	struct op_kv *kv = op_calloc(n + 1, sizeof(*kv)), *tmp = op_calloc(n + 1, sizeof(*tmp));
	struct name_sym *out = op_calloc(n + 1, sizeof(*out));
	const struct op_kv *s;

	if (!kv || !tmp || !out) {
		free(kv);
		free(tmp);
		free(out);
		qsort(t->sorted, n, sizeof(*t->sorted), by_vma_and_preference);
		return;
	}
	for (i = 0; i < n; i++)
		kv[i] = (struct op_kv){ t->sorted[i].vma, i };
	s = op_sort_kv(kv, tmp, n);
	for (i = 0; i < n; i++)
		out[i] = t->sorted[s[i].value];
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && out[j].vma == out[i].vma; j++)
			;
		if (j - i > 1)
			qsort(out + i, j - i, sizeof(*out), by_vma_and_preference);
	}
	free(kv);
	free(tmp);
	free(t->sorted);
	t->sorted = out;
}

/*
 * The candidates, as objdump reads them: the static table (or the
 * dynamic one), the synthetic symbols made from the dynamic table and
 * relocations, and those relocations.  What libbfd cannot read is left
 * out, as objdump leaves it out.  Running out of memory leaves t->err.
 */
static void names_load(struct pp_disasm_names *t)
{
	long nr_static, nr_dynamic, nr_synth;
	asymbol **main_syms, **synth_ptrs = NULL;
	uint64_t *sizes;
	size_t nr_main, i;

	t->loaded = true;
	nr_static = read_symtab(t->abfd, false, &t->syms);
	nr_dynamic = read_symtab(t->abfd, true, &t->dynsyms);
	if (nr_static < 0 || nr_dynamic < 0) {
		t->err = -ENOMEM;
		return;
	}
	nr_synth = bfd_get_synthetic_symtab(t->abfd, nr_static, t->syms, nr_dynamic,
					    t->dynsyms, &t->synth);
	if (nr_synth <= 0) {
		nr_synth = 0;
		t->synth = NULL;
	}
	read_dynamic_relocs(t);
	if (t->err)
		return;

	main_syms = nr_static ? t->syms : t->dynsyms;
	nr_main = (size_t)(nr_static ? nr_static : nr_dynamic);
	t->sorted = op_reallocarray(NULL, nr_main + (size_t)nr_synth + 1,
				    sizeof(*t->sorted));
	if (!t->sorted) {
		t->err = -ENOMEM;
		return;
	}
	sizes = elf_sym_sizes(t, nr_static ? SHT_SYMTAB : SHT_DYNSYM, nr_main);
	if (t->err)
		return;
	add_candidates(t, main_syms, nr_main, sizes);
	free(sizes);
	if (nr_synth) {
		synth_ptrs = op_reallocarray(NULL, (size_t)nr_synth, sizeof(*synth_ptrs));
		if (!synth_ptrs) {
			t->err = -ENOMEM;
			return;
		}
		for (i = 0; i < (size_t)nr_synth; i++)
			synth_ptrs[i] = &t->synth[i];
		add_candidates(t, synth_ptrs, (size_t)nr_synth, NULL);
		free(synth_ptrs);
	}
	sort_candidates(t);
}

void pp_disasm_names_free(struct pp_disasm_names *t)
{
	if (!t)
		return;
	free(t->sorted);
	free(t->relocs);
	free(t->synth);
	free(t->dynsyms);
	free(t->syms);
	free(t);
}

/* the bytes of s, in addresses */
static uint64_t section_span(const struct pp_disasm_names *t, const asection *s)
{
	unsigned opb = t->info->octets_per_byte;

	return opb > 1 ? bfd_section_size(s) / opb : bfd_section_size(s);
}

static bool section_holds(const struct pp_disasm_names *t, const asection *s, uint64_t vma)
{
	return vma >= bfd_section_vma(s) && vma - bfd_section_vma(s) < section_span(t, s);
}

/*
 * The section objdump would be disassembling at vma: the first with code
 * that holds it.  Only the sections of a relocatable file overlap: in
 * others the last one found is asked first.
 */
static asection *insn_section(struct pp_disasm_names *t, uint64_t vma)
{
	asection *s, *other = NULL;

	if (t->sec && section_holds(t, t->sec, vma))
		return t->sec;
	for (s = t->abfd->sections; s; s = s->next) {
		if (!(bfd_section_flags(s) & SEC_HAS_CONTENTS) || !section_holds(t, s, vma))
			continue;
		if (!(bfd_section_flags(s) & SEC_CODE)) {
			if (!other)
				other = s;
			continue;
		}
		if (bfd_get_file_flags(t->abfd) & (EXEC_P | DYNAMIC))
			t->sec = s;
		return s;
	}
	return other;
}

/* the first candidate above vma */
static size_t first_above(const struct pp_disasm_names *t, uint64_t vma)
{
	size_t lo = 0, hi = t->nr_sorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->sorted[mid].vma <= vma)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* the first candidate at or above vma */
static size_t first_from(const struct pp_disasm_names *t, uint64_t vma)
{
	return vma ? first_above(t, vma - 1) : 0;
}

/* may e name an address; need: the section it must be in, or NULL */
static bool name_ok(const struct name_sym *e, const asection *need)
{
	return e->valid && (!need || e->sym->section == need);
}

/*
 * Nothing at [first, end) will do: the first that does at the greatest
 * address below end, else the first one after first; nr_sorted if none.
 */
static size_t other_candidate(const struct pp_disasm_names *t, size_t first, size_t end,
			      const asection *need)
{
	size_t i, pick = t->nr_sorted;

	for (i = end; i-- > 0;) {
		if (!name_ok(&t->sorted[i], need))
			continue;
		if (pick != t->nr_sorted && t->sorted[i].vma != t->sorted[pick].vma)
			break;
		pick = i;
	}
	if (pick != t->nr_sorted)
		return pick;
	for (i = first + 1; i < t->nr_sorted; i++)
		if (name_ok(&t->sorted[i], need))
			return i;
	return t->nr_sorted;
}

/* the symbol of a dynamic relocation of vma (not an absolute one), or NULL */
static asymbol *reloc_symbol(const struct pp_disasm_names *t, uint64_t vma)
{
	size_t lo = 0, hi = t->nr_relocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->relocs[mid]->address < vma)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nr_relocs && t->relocs[lo]->address == vma; lo++) {
		asymbol **sym = t->relocs[lo]->sym_ptr_ptr;

		if (sym && *sym && !bfd_is_abs_section((*sym)->section))
			return *sym;
	}
	return NULL;
}

/* objdump's symbol for vma from an instruction in sec (or NULL), or NULL */
static asymbol *find_name(const struct pp_disasm_names *t, uint64_t vma, const asection *sec)
{
	const asection *need = NULL;
	size_t below = first_above(t, vma), first, end, pick;
	uint64_t at = t->sorted[below ? below - 1 : 0].vma;
	asymbol *sym;

	first = first_from(t, at);
	end = first_above(t, at);
	for (pick = first; sec && pick < end; pick++)
		if (name_ok(&t->sorted[pick], sec))
			return t->sorted[pick].sym;
	if (sec && (bfd_get_file_flags(t->abfd) & HAS_RELOC) && section_holds(t, sec, vma))
		need = sec;
	pick = first;
	if (!name_ok(&t->sorted[pick], need)) {
		pick = other_candidate(t, first, end, need);
		if (pick == t->nr_sorted)
			return NULL;
	}
	sym = t->sorted[pick].sym;
	/* sym->value: objdump compares the section-relative value here */
	if (!need && sym->value != vma && !(sym->flags & BSF_SYNTHETIC)) {
		asymbol *by_reloc = reloc_symbol(t, vma);

		if (by_reloc)
			return by_reloc;
	}
	return sym;
}

/* prefix, then v in hex without leading zeros (no vsnprintf: it is slow) */
void pp_disasm_add_hex(struct op_strbuf *sb, const char *prefix, uint64_t v)
{
	char digits[16];
	size_t i = sizeof(digits);

	do
		digits[--i] = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	op_strbuf_addstr(sb, prefix);
	op_strbuf_add(sb, digits + i, sizeof(digits) - i);
}

/* "+0x10" or "-0x10" from base to vma, nothing when equal */
static void add_offset(const struct pp_disasm_names *t, uint64_t base, uint64_t vma,
		       struct op_strbuf *sb)
{
	if (vma > base)
		pp_disasm_add_hex(sb, "+0x", (vma - base) & t->addr_mask);
	else if (vma < base)
		pp_disasm_add_hex(sb, "-0x", (base - vma) & t->addr_mask);
}

/* a name as set by pp_disasm_set_demangle(), a suffix from '@' on kept */
static void add_name(const struct pp_disasm_names *t, const char *name, struct op_strbuf *sb)
{
	const char *at = strchr(name, '@');
	char *base = NULL, *shown;

	if (t->demangle == PP_DEMANGLE_NONE) {
		op_strbuf_addstr(sb, name);
		return;
	}
	if (at && !(base = op_strndup(name, (size_t)(at - name)))) {
		op_strbuf_set_failed(sb);
		return;
	}
	shown = pp_demangle(base ? base : name, t->demangle);
	if (shown) {
		op_strbuf_addstr(sb, shown);
		op_strbuf_addstr(sb, at ? at : "");
	} else {
		op_strbuf_addstr(sb, name);
	}
	free(shown);
	free(base);
}

/* "name@@VERSION+0x10" */
static void add_symbol(const struct pp_disasm_names *t, asymbol *sym, uint64_t vma,
		       struct op_strbuf *sb)
{
	bool undefined = bfd_is_und_section(bfd_asymbol_section(sym));

	add_name(t, bfd_asymbol_name(sym), sb);
	if (!(sym->flags & (BSF_SECTION_SYM | BSF_SYNTHETIC))) {
		bool hidden = false;
		const char *version = bfd_get_symbol_version_string(t->abfd, sym, true,
								     &hidden);

		if (version && version[0]) {
			op_strbuf_addstr(sb, hidden || undefined ? "@" : "@@");
			op_strbuf_addstr(sb, version);
		}
	}
	/* an undefined symbol of a linked file has no address to count from */
	if (undefined && (bfd_get_file_flags(t->abfd) & (EXEC_P | DYNAMIC)))
		return;
	add_offset(t, bfd_asymbol_value(sym), vma, sb);
}

void pp_disasm_name(struct pp_disasm_names *t, uint64_t vma, uint64_t insn_vma,
		    struct op_strbuf *sb)
{
	asection *sec;
	asymbol *sym;

	if (!t->loaded)
		names_load(t);
	if (t->err) {
		op_strbuf_set_failed(sb);
		return;
	}
	if (!t->nr_sorted) {
		pp_disasm_add_hex(sb, "0x", vma);
		return;
	}
	pp_disasm_add_hex(sb, "", vma);
	sec = insn_section(t, insn_vma);
	sym = find_name(t, vma, sec);
	if (!sym && !sec)
		return;
	op_strbuf_addstr(sb, " <");
	if (sym) {
		add_symbol(t, sym, vma, sb);
	} else {
		op_strbuf_addstr(sb, bfd_section_name(sec));
		add_offset(t, bfd_section_vma(sec), vma, sb);
	}
	op_strbuf_addch(sb, '>');
}

struct pp_disasm_names *pp_disasm_names_new(struct bfd *abfd, int fd,
					    struct disassemble_info *info,
					    uint64_t addr_mask)
{
	struct pp_disasm_names *t = op_calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->abfd = abfd;
	t->fd = fd;
	t->info = info;
	t->addr_mask = addr_mask;
	return t;
}

void pp_disasm_names_set_demangle(struct pp_disasm_names *t,
				  enum pp_demangle_mode mode)
{
	t->demangle = mode;
}
