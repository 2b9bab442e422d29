// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF files for the symbol tables (symbols_int.h): open and mmap a file with
 * libelf, note what it holds (symbol tables, DWARF, build-id, debuglink,
 * PT_LOAD segments), and read .symtab or .dynsym into candidates.
 *
 * The file is mapped with ELF_C_READ_MMAP and never copied: symbol
 * entries are read in place and names point into the mapped string
 * table, so a table of 100 000 symbols costs one pass and no string
 * copies.  The descriptor is closed once libelf has the mapping.
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

/* what a symbol needs to know about the section it is in */
struct sec_info {
	uint64_t addr;
	uint64_t size;
	const char *name;
	bool code;		/* executable, and not an ignored vma-0 section */
};

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

/* names that never become report symbols (formats.md §4.2) */
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

static const char *unnamed(struct pp_strpool *pool, const char *section)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "??%s", section);
	return pp_strpool_adopt(pool, op_strbuf_detach(&sb));
}

struct strtab {
	const char *buf;
	size_t size;
	bool terminated;	/* ends with a NUL: no per-name check needed */
};

static const char *strtab_name(const struct strtab *s, size_t off)
{
	if (off >= s->size)
		return NULL;
	if (!s->terminated && !memchr(s->buf + off, '\0', s->size - off))
		return NULL;
	return s->buf + off;
}

static int collect(const struct pp_elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
		   struct pp_cands *out, struct pp_strpool *pool)
{
	Elf_Data *data = elf_getdata(scn, NULL), *xdata, *sdata;
	size_t i, nr, nsec = 0, entsize = gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Scn *strscn = elf_getscn(e->elf, sh->sh_link);
	bool arm = false;
	struct sec_info *secs;
	struct strtab str;
	GElf_Ehdr eh;
	int ret = -EIO;

	if (!data || !strscn || !entsize || !(sdata = elf_getdata(strscn, NULL)))
		return -EIO;
	str.buf = sdata->d_buf;
	str.size = sdata->d_buf ? sdata->d_size : 0;
	str.terminated = str.size && str.buf[str.size - 1] == '\0';
	if (gelf_getehdr(e->elf, &eh))
		arm = eh.e_machine == EM_ARM;
	xdata = find_shndx(e->elf, elf_ndxscn(scn));
	nr = data->d_size / entsize;
	secs = section_table(e->elf, &nsec);
	if (!secs)
		return -ENOMEM;
	if (nr > 1 && pp_cands_reserve(out, nr - 1)) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (i = 1; i < nr; i++) {
		struct pp_sym_cand *c;
		const char *name;
		GElf_Word xndx = 0;
		size_t shndx;
		GElf_Sym sym;
		int type;

		if (!gelf_getsymshndx(data, xdata, (int)i, &sym, &xndx))
			goto out_free;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE || type == STT_TLS)
			continue;
		shndx = sym.st_shndx;
		if (shndx == SHN_XINDEX)
			shndx = xndx;
		else if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		if (shndx >= nsec || !secs[shndx].code)
			continue;
		name = strtab_name(&str, sym.st_name);
		if (!name || ignored_name(name))
			continue;
		if (!*name && !(name = unnamed(pool, secs[shndx].name))) {
			ret = -ENOMEM;
			goto out_free;
		}
		c = &out->v[out->nr++];
		c->vma = sym.st_value;
		if (arm && type == STT_FUNC)
			c->vma &= ~(uint64_t)1;	/* the Thumb bit */
		c->size = sym.st_size;
		c->limit = secs[shndx].addr + secs[shndx].size;
		c->start = 0;
		c->name = name;
		c->bind = GELF_ST_BIND(sym.st_info) == STB_LOCAL ? PP_BIND_LOCAL :
			  GELF_ST_BIND(sym.st_info) == STB_WEAK ? PP_BIND_WEAK :
			  PP_BIND_GLOBAL;
		c->boundary = false;
	}
	ret = 0;
out_free:
	free(secs);
	return ret;
}

int pp_elf_symbols(const struct pp_elf *e, bool dynsym, struct pp_cands *out,
		   struct pp_strpool *pool)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_table(e->elf, dynsym ? SHT_DYNSYM : SHT_SYMTAB, &sh);

	if (!scn)
		return 0;
	return collect(e, scn, &sh, out, pool);
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
