// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF files for the symbol tables (symbols_int.h): open and mmap a file with
 * libelf, note what it holds (symbol tables, DWARF, build-id, debuglink,
 * PT_LOAD segments), and read .symtab or .dynsym into candidates.
 *
 * The file is mapped with ELF_C_READ_MMAP and never copied: symbol
 * entries are read in place, by index (struct pp_elf_table), and names
 * point into the mapped string table, so a table of 100 000 symbols
 * costs no copy of its entries or names.  The descriptor is closed once
 * libelf has the mapping.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

static void note_build_id(struct pp_elf *e, Elf_Scn *scn)
{
	static const char hex[] = "0123456789abcdef";
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	if (!data)
		return;
	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;
		size_t i, n = nh.n_descsz;

		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((const char *)data->d_buf + name_off, "GNU", 4) || !n)
			continue;
		if (n > 20)
			n = 20;
		for (i = 0; i < n; i++) {
			e->build_id[2 * i] = hex[desc[i] >> 4];
			e->build_id[2 * i + 1] = hex[desc[i] & 15];
		}
		e->build_id[2 * n] = '\0';
		return;
	}
}

/* .gnu_debuglink: the file name, NUL, padding to 4, then a 4-byte CRC */
static void note_debuglink(struct pp_elf *e, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	const unsigned char *p;
	size_t len, crc_off;

	if (!data || !data->d_buf || data->d_size < 8)
		return;
	p = data->d_buf;
	len = strnlen((const char *)p, data->d_size);
	crc_off = (len + 4) & ~(size_t)3;
	if (!len || crc_off + 4 > data->d_size)
		return;
	if (elf_getident(e->elf, NULL)[EI_DATA] == ELFDATA2MSB)
		e->debuglink_crc = (uint32_t)p[crc_off] << 24 |
				   (uint32_t)p[crc_off + 1] << 16 |
				   (uint32_t)p[crc_off + 2] << 8 | p[crc_off + 3];
	else
		e->debuglink_crc = (uint32_t)p[crc_off + 3] << 24 |
				   (uint32_t)p[crc_off + 2] << 16 |
				   (uint32_t)p[crc_off + 1] << 8 | p[crc_off];
	e->debuglink = (const char *)p;
}

static int scan_sections(struct pp_elf *e)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return 0;	/* no section headers: no symbols, still usable */
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return -EIO;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB)
			e->has_symtab = true;
		else if (sh.sh_type == SHT_DYNSYM)
			e->has_dynsym = true;
		else if (sh.sh_type == SHT_NOTE && !e->build_id[0])
			note_build_id(e, scn);
		if (!name)
			continue;
		if (sh.sh_type != SHT_NOBITS &&
		    (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
			e->has_dwarf = true;
		else if (!strcmp(name, ".gnu_debuglink"))
			note_debuglink(e, scn);
	}
	return 0;
}

static int scan_loads(struct pp_elf *e)
{
	size_t i, n;

	if (elf_getphdrnum(e->elf, &n) || !n)
		return 0;
	e->loads = op_calloc(n, sizeof(*e->loads));
	if (!e->loads)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e->elf, (int)i, &ph))
			return -EIO;
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		e->loads[e->nr_loads].vaddr = ph.p_vaddr;
		e->loads[e->nr_loads].offset = ph.p_offset;
		e->loads[e->nr_loads].filesz = ph.p_filesz;
		e->nr_loads++;
	}
	return 0;
}

int pp_elf_open(const char *path, struct pp_elf **out)
{
	struct pp_elf *e;
	struct stat st;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -ENOEXEC;
		goto out_close;
	}
	ret = -ENOMEM;
	e = op_calloc(1, sizeof(*e));
	if (!e)
		goto out_close;
	e->path = op_strdup(path);
	if (!e->path)
		goto out_free;
	e->size = (uint64_t)st.st_size;
	e->mtime = st.st_mtime;
	ret = -ENOEXEC;
	if (elf_version(EV_CURRENT) == EV_NONE)
		goto out_free;
	e->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF)
		goto out_free;
	ret = -EIO;
	if (gelf_getclass(e->elf) == ELFCLASSNONE)
		goto out_free;
	e->addr_size = gelf_getclass(e->elf) == ELFCLASS64 ? 8 : 4;
	ret = scan_sections(e);
	if (!ret)
		ret = scan_loads(e);
	if (ret)
		goto out_free;
	/* everything is read through the mapping from here on */
	elf_cntl(e->elf, ELF_C_FDDONE);
	close(fd);
	*out = e;
	return 0;

out_free:
	pp_elf_close(e);
out_close:
	close(fd);
	return ret;
}

void pp_elf_close(struct pp_elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	free(e->loads);
	free(e->path);
	free(e);
}

static Elf_Scn *find_table(Elf *elf, Elf64_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/* the SHT_SYMTAB_SHNDX data that goes with table index symndx, if any */
static Elf_Data *find_shndx(Elf *elf, size_t symndx)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == symndx)
			return elf_getdata(scn, NULL);
	return NULL;
}

/* per section: is it code, and where does it end */
static struct sec_info *section_table(Elf *elf, size_t *nr)
{
	struct sec_info *secs;
	size_t i, n, shstrndx;

	if (elf_getshdrnum(elf, &n) || elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	secs = op_calloc(n ? n : 1, sizeof(*secs));
	if (!secs)
		return NULL;
	for (i = 1; i < n; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		secs[i].addr = sh.sh_addr;
		secs[i].size = sh.sh_size;
		secs[i].name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!secs[i].name)
			secs[i].name = "";
		/* a debug file's sections are NOBITS but keep their flags */
		secs[i].code = (sh.sh_flags & SHF_EXECINSTR) &&
			       (sh.sh_addr || !strcmp(secs[i].name, ".text"));
	}
	*nr = n;
	return secs;
}

/* names that never become report symbols (opreport(1), SYMBOLS) */
static bool ignored_name(const char *name)
{
	switch (name[0]) {
	case '.':
		return name[1] == 'L';
	case '$':	/* ARM mapping symbols, also "$x.123" */
		return (name[1] == 'a' || name[1] == 't' || name[1] == 'd' ||
			name[1] == 'x') && (name[2] == '\0' || name[2] == '.');
	case 'g':
		return !strcmp(name, "gcc2_compiled.");
	default:
		return false;
	}
}

/* "??SECTION", the name of unnamed symbols in section i, made once */
static const char *unnamed(struct pp_elf_table *t, size_t i)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	if (t->unnamed[i])
		return t->unnamed[i];
	op_strbuf_addf(&sb, "??%s", t->secs[i].name);
	t->unnamed[i] = pp_strpool_adopt(t->pool, op_strbuf_detach(&sb));
	return t->unnamed[i];
}

static const char *strtab_name(const struct pp_elf_table *t, size_t off)
{
	if (off >= t->str_size)
		return NULL;
	if (!t->str_terminated && !memchr(t->str + off, '\0', t->str_size - off))
		return NULL;
	return t->str + off;
}

int pp_elf_table_open(const struct pp_elf *e, bool dynsym,
		      struct pp_strpool *pool, struct pp_elf_table *t)
{
	size_t entsize = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *data, *sdata, *xdata;
	Elf_Scn *scn, *strscn;
	GElf_Shdr sh;
	GElf_Ehdr eh;

	memset(t, 0, sizeof(*t));
	t->e = e;
	t->pool = pool;
	scn = find_table(e->elf, dynsym ? SHT_DYNSYM : SHT_SYMTAB, &sh);
	if (!scn)
		return -ENOENT;
	data = elf_getdata(scn, NULL);
	strscn = elf_getscn(e->elf, sh.sh_link);
	if (!data || !strscn || !entsize || !(sdata = elf_getdata(strscn, NULL)))
		return -EIO;
	if (data->d_type != ELF_T_SYM || !data->d_buf)
		return -EIO;
	t->entries = data->d_buf;
	t->str = sdata->d_buf;
	t->str_size = sdata->d_buf ? sdata->d_size : 0;
	t->str_terminated = t->str_size && t->str[t->str_size - 1] == '\0';
	t->is64 = gelf_getclass(e->elf) == ELFCLASS64;
	if (gelf_getehdr(e->elf, &eh))
		t->arm = eh.e_machine == EM_ARM;
	xdata = find_shndx(e->elf, elf_ndxscn(scn));
	if (xdata && xdata->d_buf) {
		t->xndx = xdata->d_buf;
		t->nr_x = xdata->d_size / sizeof(Elf32_Word);
		t->has_xndx = true;
	} else if (xdata) {
		t->has_xndx = true;	/* an empty index: every entry is past it */
	}
	t->nr = data->d_size / entsize;
	t->secs = section_table(e->elf, &t->nr_secs);
	if (!t->secs)
		return -ENOMEM;
	t->unnamed = op_calloc(t->nr_secs + 1, sizeof(*t->unnamed));
	if (!t->unnamed) {
		pp_elf_table_close(t);
		return -ENOMEM;
	}
	return 0;
}

void pp_elf_table_close(struct pp_elf_table *t)
{
	if (!t)
		return;
	free(t->secs);
	free(t->unnamed);
	t->secs = NULL;
	t->unnamed = NULL;
}

/* one symbol table entry, read from either class */
struct sym_entry {
	uint64_t value, size;
	uint32_t name;
	unsigned char info;
	uint16_t shndx;
};

/*
 * Entry i of the table in libelf's memory form (an array of Elf64_Sym or
 * Elf32_Sym): read in place, without a library call per entry.
 */
static void sym_entry(const struct pp_elf_table *t, size_t i, struct sym_entry *s)
{
	if (t->is64) {
		const Elf64_Sym *y = (const Elf64_Sym *)t->entries + i;

		s->value = y->st_value;
		s->size = y->st_size;
		s->name = y->st_name;
		s->info = y->st_info;
		s->shndx = y->st_shndx;
	} else {
		const Elf32_Sym *y = (const Elf32_Sym *)t->entries + i;

		s->value = y->st_value;
		s->size = y->st_size;
		s->name = y->st_name;
		s->info = y->st_info;
		s->shndx = y->st_shndx;
	}
}

const void *pp_elf_table_entry(const struct pp_elf_table *t, size_t i)
{
	return t->is64 ? (const void *)((const Elf64_Sym *)t->entries + i) :
			 (const void *)((const Elf32_Sym *)t->entries + i);
}

/* the section index of entry sym (i), SHN_XINDEX resolved */
static size_t entry_shndx(const struct pp_elf_table *t, size_t i,
			  const struct sym_entry *sym)
{
	if (sym->shndx == SHN_XINDEX)
		return t->has_xndx ? t->xndx[i] : 0;
	return sym->shndx;
}

/* the fields of a candidate from its entry, name and section */
static void fill_cand(const struct pp_elf_table *t, const struct sym_entry *sym,
		      size_t shndx, const char *name, struct pp_sym_cand *c)
{
	int bind = GELF_ST_BIND(sym->info);

	c->vma = sym->value;
	if (t->arm && GELF_ST_TYPE(sym->info) == STT_FUNC)
		c->vma &= ~(uint64_t)1;	/* the Thumb bit */
	c->size = sym->size;
	c->limit = t->secs[shndx].addr + t->secs[shndx].size;
	c->start = 0;
	c->name = name;
	c->bind = bind == STB_LOCAL ? PP_BIND_LOCAL :
		  bind == STB_WEAK ? PP_BIND_WEAK : PP_BIND_GLOBAL;
	c->boundary = false;
}

int pp_elf_table_cand(struct pp_elf_table *t, size_t i, struct pp_sym_cand *c)
{
	struct sym_entry sym;
	const char *name;
	size_t shndx;
	int type;

	sym_entry(t, i, &sym);
	/* a section-index table shorter than the symbols: corrupt */
	if (t->has_xndx && i >= t->nr_x)
		return -EIO;
	type = GELF_ST_TYPE(sym.info);
	if (type == STT_SECTION || type == STT_FILE || type == STT_TLS)
		return 0;
	if (sym.shndx != SHN_XINDEX &&
	    (sym.shndx == SHN_UNDEF || sym.shndx >= SHN_LORESERVE))
		return 0;
	shndx = entry_shndx(t, i, &sym);
	if (shndx >= t->nr_secs || !t->secs[shndx].code)
		return 0;
	name = strtab_name(t, sym.name);
	if (!name || ignored_name(name))
		return 0;
	if (!*name && !(name = unnamed(t, shndx)))
		return -ENOMEM;
	fill_cand(t, &sym, shndx, name, c);
	c->name_class = pp_name_class(name);
	return 1;
}

void pp_elf_table_get(const struct pp_elf_table *t, size_t i, struct pp_sym_cand *c)
{
	struct sym_entry sym;
	size_t shndx;

	sym_entry(t, i, &sym);
	shndx = entry_shndx(t, i, &sym);
	/* an empty name was given its section's "??SECTION" by the check */
	fill_cand(t, &sym, shndx, t->unnamed[shndx] && !t->str[sym.name] ?
		  t->unnamed[shndx] : t->str + sym.name, c);
}

const struct pp_elf_load *pp_elf_find_load(const struct pp_elf *e, uint64_t vma,
					   const struct pp_elf_load *hint)
{
	size_t k;

	if (hint && vma >= hint->vaddr && vma - hint->vaddr < hint->filesz)
		return hint;
	for (k = 0; k < e->nr_loads; k++)
		if (vma >= e->loads[k].vaddr && vma - e->loads[k].vaddr < e->loads[k].filesz)
			return &e->loads[k];
	return NULL;
}
