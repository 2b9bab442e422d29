// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the symbol tables of sampled images (pp_symbols.h): which
 * source to use for an image, keys from addresses, the artificial symbol.
 *
 * File images go through pp_elf (elf_symtab.c): .symtab, else the debug
 * file's .symtab, else .dynsym.  Their symbols' addresses become file
 * offsets through the binary's own PT_LOAD headers, also for symbols of a
 * debug file, whose sections are NOBITS.  Kernel images: no-vmlinux keys
 * are addresses, module keys offsets from the module's base, vmlinux keys
 * offsets from _text (symtab_kernel.c); the vdso and JIT code in
 * anonymous regions have loaders of their own (symtab_anon.c).  Anything
 * that cannot be read ends as one artificial symbol, with the reason in
 * t->missing.  Questions to a loaded table are answered in symtab_query.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_sort.h"
#include "libutil/op_strbuf.h"


/*
 * The key of candidate c, from its address: a file offset through the
 * PT_LOADs of segs (its limit cut at the end of its segment), else vma -
 * bias.  false when the candidate is outside the file (or below bias).
 * *hint: the segment of the previous candidate (symbols cluster).
 */
static bool map_key(struct pp_sym_cand *c, const struct pp_elf *segs, uint64_t bias,
		    const struct pp_elf_load **hint)
{
	uint64_t span = c->limit > c->vma ? c->limit - c->vma : 0;

	if (segs) {
		const struct pp_elf_load *l = pp_elf_find_load(segs, c->vma, *hint);

		if (!l)
			return false;
		*hint = l;
		c->start = c->vma - l->vaddr + l->offset;
		if (span > l->filesz - (c->vma - l->vaddr))
			span = l->filesz - (c->vma - l->vaddr);
		c->limit = c->start + span;
		return true;
	}
	if (c->vma < bias)
		return false;
	c->start = c->vma - bias;
	if (c->limit != UINT64_MAX)
		c->limit = c->start + span;
	return true;
}

/* keys for c->v[from..] (vma - bias); those below bias are dropped */
void symtab_map_keys(struct pp_cands *c, size_t from, uint64_t bias)
{
	const struct pp_elf_load *hint = NULL;
	size_t i, w = from;

	for (i = from; i < c->nr; i++) {
		if (!map_key(&c->v[i], NULL, bias, &hint))
			continue;
		/* in place: most candidates stay where they are */
		if (w != i)
			c->v[w] = c->v[i];
		w++;
	}
	c->nr = w;
}

/*
 * An ELF symbol table read in place: its keys (start, entry index) are
 * gathered, and the candidates read again by index when the table is
 * made, so no array of candidates is built (a fifth of the memory, and
 * of the page faults, of loading a table of 100 000 symbols).
 */
struct elf_src {
	struct pp_elf_table tab;
	const struct pp_elf *segs;	/* keys through its PT_LOADs, or */
	uint64_t bias;			/* vma - bias */
	const struct pp_elf_load *hint;	/* the last candidate's segment */
};

/* a key's value: the entry index, and the name's class above it */
#define CLASS_SHIFT 56
#define INDEX_MASK (((uint64_t)1 << CLASS_SHIFT) - 1)

static void elf_get(void *data, uint64_t value, struct pp_sym_cand *c)
{
	struct elf_src *es = data;

	/* listed entries are candidates inside the file: no check again */
	pp_elf_table_get(&es->tab, value & INDEX_MASK, c);
	c->name_class = (uint8_t)(value >> CLASS_SHIFT);
	map_key(c, es->segs, es->bias, &es->hint);
}

static void elf_prefetch(void *data, uint64_t value)
{
	const struct elf_src *es = data;

	__builtin_prefetch(pp_elf_table_entry(&es->tab, value & INDEX_MASK));
}

/* _text (else _stext, else the lowest address) among the table's candidates */
static int text_base(struct pp_elf_table *tab, uint64_t *base)
{
	uint64_t stext = 0, lowest = UINT64_MAX;
	struct pp_sym_cand c;
	size_t i;

	for (i = 1; i < tab->nr; i++) {
		int r = pp_elf_table_cand(tab, i, &c);

		if (r < 0)
			return r;
		if (!r)
			continue;
		if (c.name[0] == '_' && !strcmp(c.name, "_text")) {
			*base = c.vma;
			return 0;
		}
		if (c.name[0] == '_' && !strcmp(c.name, "_stext"))
			stext = c.vma;
		if (c.vma < lowest)
			lowest = c.vma;
	}
	*base = stext ? stext : lowest;
	return 0;
}

/*
 * The keys of one table of symelf into *keys (scratch memory of *bytes,
 * *nr used), its source in es (open: the caller closes it).  A missing
 * or corrupt table gives none; 0 or -ENOMEM.
 */
static int collect(struct pp_symtab *t, const struct pp_elf *symelf, bool dynsym,
		   enum key_mode mode, struct elf_src *es, struct op_kv **keys,
		   size_t *bytes, size_t *nr)
{
	struct symtab_priv *p = t->priv;
	const struct pp_elf_load *hint = NULL;
	size_t i, need;
	int ret;

	*nr = 0;
	es->segs = mode == KEYS_SEGMENTS ? p->elf : NULL;
	es->bias = mode == KEYS_ANON ? p->bias : 0;
	ret = pp_elf_table_open(symelf, dynsym, &p->pool, &es->tab);
	if (!ret && mode == KEYS_TEXT)
		ret = text_base(&es->tab, &es->bias);
	if (ret == -ENOMEM)
		return ret;
	/* no table, or a corrupt one: no candidates, _text unknown */
	if (ret && mode == KEYS_TEXT)
		es->bias = UINT64_MAX;
	if (mode != KEYS_SEGMENTS)
		p->bias = es->bias;
	if (ret)
		return 0;
	if (!op_mul_size(es->tab.nr, sizeof(**keys), &need))
		return -ENOMEM;
	if (need > *bytes) {
		struct op_kv *k = op_scratch_realloc(*keys, *bytes, need);

		if (!k)
			return -ENOMEM;
		*keys = k;
		*bytes = need;
	}
	for (i = 1; i < es->tab.nr; i++) {
		struct pp_sym_cand c;

		ret = pp_elf_table_cand(&es->tab, i, &c);
		if (ret < 0) {
			*nr = 0;	/* a corrupt table adds none */
			return ret == -ENOMEM ? ret : 0;
		}
		if (!ret || !map_key(&c, es->segs, es->bias, &hint))
			continue;
		if (mode == KEYS_ANON && c.start >= p->anon_len)
			continue;	/* code of another region */
		(*keys)[*nr].key = c.start;
		(*keys)[(*nr)++].value = i | (uint64_t)c.name_class << CLASS_SHIFT;
	}
	return 0;
}

int pp_symtab_open_debugfile(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	int ret;

	if (p->dbg_tried)
		return 0;
	p->dbg_tried = true;
	ret = -ENOENT;
	if (p->archive_debug_root)
		ret = pp_debugfile_open(p->elf, p->archive_debug_root, &p->dbg);
	if (ret == -ENOENT)
		ret = pp_debugfile_open(p->elf, p->debug_root, &p->dbg);
	return ret == -ENOMEM ? ret : 0;
}

/* the symbols of p->elf: .symtab, the debug file's, .dynsym */
int symtab_load_elf(struct pp_symtab *t, enum key_mode mode)
{
	struct symtab_priv *p = t->priv;
	struct elf_src es;
	const struct pp_cand_src src = { elf_get, elf_prefetch, &es };
	struct op_kv *keys = NULL;
	size_t bytes = 0, nr = 0;
	int ret = 0;

	memset(&es, 0, sizeof(es));
	p->segments = mode == KEYS_SEGMENTS;
	if (p->elf->has_symtab &&
	    !(ret = collect(t, p->elf, false, mode, &es, &keys, &bytes, &nr)) && nr)
		t->source = PP_SYMS_SYMTAB;
	if (!ret && !nr && !(ret = pp_symtab_open_debugfile(t)) && p->dbg) {
		pp_elf_table_close(&es.tab);
		if (!(ret = collect(t, p->dbg, false, mode, &es, &keys, &bytes, &nr)) && nr)
			t->source = PP_SYMS_DEBUG_FILE;
	}
	if (!ret && !nr && p->elf->has_dynsym) {
		pp_elf_table_close(&es.tab);
		if (!(ret = collect(t, p->elf, true, mode, &es, &keys, &bytes, &nr)) && nr)
			t->source = PP_SYMS_DYNSYM;
	}
	if (!ret)
		ret = pp_syms_from_keys(keys, nr, &src, &t->syms, &t->nr);
	pp_elf_table_close(&es.tab);
	op_scratch_free(keys, bytes);
	if (ret)
		return ret;
	if (!t->nr)
		return pp_str_setf(&t->missing, "no symbols in '%s' (stripped, and no debug file found)",
				p->elf->path);
	return pp_str_set(&t->symfile, op_strdup(t->source == PP_SYMS_DEBUG_FILE ?
					     p->dbg->path : p->elf->path));
}

static const char *open_reason(int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return "permission denied";
	case -ENOEXEC:
	case -EISDIR:
		return "not an ELF file";
	case -EIO:
		return "not a valid ELF file";
	default:
		return NULL;
	}
}

/*
 * The i-th place to look for path: the archive, --root, the path itself,
 * then each --image-path directory by basename.  Returns false past the
 * last; cand is left empty for a place that does not apply.
 */
static bool candidate(const char *path, const struct pp_sym_opts *o, size_t i,
		      struct op_strbuf *cand)
{
	const char *slash = strrchr(path, '/');
	size_t k, nr_dirs = 0;

	while (o->image_path && o->image_path[nr_dirs])
		nr_dirs++;
	if (i >= 3 + nr_dirs)
		return false;
	op_strbuf_reset(cand);
	if (i == 0 && o->archive)
		op_strbuf_addf(cand, "%s%s", o->archive, path);
	else if (i == 1 && o->root)
		op_strbuf_addf(cand, "%s%s", o->root, path);
	else if (i == 2)
		op_strbuf_addstr(cand, path);
	else if (i >= 3 && (k = i - 3) < nr_dirs)
		op_strbuf_addf(cand, "%s/%s", o->image_path[k], slash ? slash + 1 : path);
	return true;
}

/* a file was found at path but cannot be read as ELF: say why */
static int note_unusable(struct pp_symtab *t, const char *path, int err)
{
	const char *why = open_reason(err);
	struct stat st;

	if (!stat(path, &st) && S_ISREG(st.st_mode)) {
		t->mtime = st.st_mtime;
		t->file_size = (uint64_t)st.st_size;
	}
	if (why)
		return pp_str_setf(&t->missing, "%s", why);
	return pp_str_setf(&t->missing, "cannot open: %s", op_strerror(err));
}

/*
 * Is the binary just opened (p->elf) the build that was profiled?  true
 * when it is, or when nothing was recorded to compare; else the first
 * such binary is remembered (why in *other, its path in *other_path) and
 * p->elf is closed, so that the next place is tried.
 */
static bool profiled_build(struct pp_symtab *t, const char *path, const char *cand,
			   const struct pp_sym_opts *o, struct op_strbuf *other,
			   struct op_strbuf *other_path)
{
	struct symtab_priv *p = t->priv;
	const char *want = o->profiled_build_id ?
			   o->profiled_build_id(o->build_id_data, path) : NULL;

	if (!want || !p->elf->build_id[0])
		return true;
	if (!strcmp(want, p->elf->build_id)) {
		t->build_id_checked = true;
		return true;
	}
	if (!other->len) {
		op_strbuf_addf(other, "'%s' is not the binary that was profiled (build-id "
			       "%.12s... then, %.12s... now): it was rebuilt or replaced; give "
			       "the profiled build with --image-path or --root", cand, want,
			       p->elf->build_id);
		op_strbuf_addstr(other_path, cand);
	}
	pp_elf_close(p->elf);
	p->elf = NULL;
	return false;
}

/* find and open the binary of path: sets p->elf, or t->missing */
static int find_binary(struct pp_symtab *t, const char *path,
		       const struct pp_sym_opts *o)
{
	struct symtab_priv *p = t->priv;
	struct op_strbuf cand = OP_STRBUF_INIT, tried = OP_STRBUF_INIT;
	struct op_strbuf other = OP_STRBUF_INIT, other_path = OP_STRBUF_INIT;
	size_t i;
	int ret = 0, err;

	for (i = 0; candidate(path, o, i, &cand); i++) {
		if (op_strbuf_failed(&cand)) {
			ret = -ENOMEM;
			break;
		}
		if (!cand.len)
			continue;
		err = pp_elf_open(cand.buf, &p->elf);
		if (err == -ENOENT || err == -ENOTDIR) {
			if (strcmp(cand.buf, path))
				op_strbuf_addf(&tried, "%s%s", tried.len ? ", " : "", cand.buf);
			continue;
		}
		if (!err && !profiled_build(t, path, cand.buf, o, &other, &other_path))
			continue;
		ret = err == -ENOMEM ? err : pp_str_set(&t->file, op_strdup(cand.buf));
		if (!ret && err) {
			ret = note_unusable(t, cand.buf, err);
		} else if (!ret) {
			t->mtime = p->elf->mtime;
			t->file_size = p->elf->size;
	t->addr_size = p->elf->addr_size;
			memcpy(t->build_id, p->elf->build_id, sizeof(t->build_id));
		}
		break;
	}
	if (!ret && !t->file && other.len) {
		/* the binary found, named: it is there, only not the one */
		ret = pp_str_set(&t->missing, op_strdup(other.buf));
		if (!ret)
			ret = pp_str_set(&t->file, op_strdup(other_path.buf));
	}
	else if (!ret && !t->file)
		ret = tried.len ? pp_str_setf(&t->missing, "cannot find '%s' (also tried: %s)",
					   path, tried.buf) :
				  pp_str_setf(&t->missing, "cannot find '%s'", path);
	if (!ret && (op_strbuf_failed(&tried) || op_strbuf_failed(&other) ||
		     op_strbuf_failed(&other_path)))
		ret = -ENOMEM;
	op_strbuf_release(&cand);
	op_strbuf_release(&tried);
	op_strbuf_release(&other);
	op_strbuf_release(&other_path);
	return ret;
}

int symtab_load_file(struct pp_symtab *t, const char *path,
		     const struct pp_sym_opts *o, enum key_mode mode)
{
	struct symtab_priv *p = t->priv;
	int ret = find_binary(t, path, o);

	if (ret || !p->elf)
		return ret;
	return symtab_load_elf(t, mode);
}

/* back to the state before find_binary(), to try another source */
void symtab_forget_binary(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;

	pp_elf_close(p->dbg);
	pp_elf_close(p->elf);
	p->dbg = p->elf = NULL;
	p->dbg_tried = p->segments = false;
	p->bias = 0;
	pp_strpool_release(&p->pool);
	free(t->file);
	free(t->symfile);
	free(t->missing);
	t->file = t->symfile = t->missing = NULL;
	t->mtime = -1;
	t->file_size = 0;
	t->addr_size = 0;
	t->build_id[0] = '\0';
	t->source = PP_SYMS_NONE;
}

/* "NAME (tgid:T range:0xS-0xE)", as oprofile-ng-formats(5) shows
 * anon regions */
static char *anon_name(const struct odb_image_id *image)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s (tgid:%" PRIu32 " range:0x%" PRIx64 "-0x%" PRIx64 ")",
		       image->name, image->anon_tgid, image->anon_start,
		       image->anon_end);
	return op_strbuf_detach(&sb);
}

/* the one symbol of an image without symbols, named as OProfile does */
static int add_artificial(struct pp_symtab *t, const struct odb_image_id *image,
			  uint64_t key_limit)
{
	struct symtab_priv *p = t->priv;
	uint64_t end = t->file_size > key_limit ? t->file_size : key_limit;
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *name;

	if (image->kind == ODB_IMAGE_ANON) {
		uint64_t len = image->anon_end - image->anon_start + 1;

		name = anon_name(image);
		if (image->anon_end >= image->anon_start && len > end)
			end = len;
	} else {
		/* OProfile shows {kern}/no-vmlinux as "/no-vmlinux" */
		op_strbuf_addf(&sb, "%s%s", image->kind == ODB_IMAGE_KERNEL ? "/" : "",
			       image->name);
		name = op_strbuf_detach(&sb);
	}
	name = pp_strpool_adopt(&p->pool, name);
	t->syms = op_calloc(1, sizeof(*t->syms));
	if (!name || !t->syms)
		return -ENOMEM;
	t->syms[0].start = 0;
	t->syms[0].end = end ? end : 1;
	t->syms[0].name = name;
	t->syms[0].flags = PP_SYM_ARTIFICIAL;
	t->nr = 1;
	t->source = PP_SYMS_NONE;
	t->syms[0].vma = pp_symtab_vma(t, 0);
	return 0;
}

/*
 * An archive keeps the debug files of its binaries under its own debug
 * root (oparchive(1)): looked in before the local one.  0 or -ENOMEM.
 */
static int archive_debug_root(struct symtab_priv *p, const struct pp_sym_opts *o)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s%s", o->archive, o->debug_root ? o->debug_root : PP_DEBUG_ROOT);
	p->archive_debug_root = op_strbuf_detach(&sb);
	return p->archive_debug_root ? 0 : -ENOMEM;
}

int pp_symtab_load(const struct odb_image_id *image, bool is_kernel,
		   uint64_t key_limit, const struct pp_sym_opts *opts,
		   struct pp_symtab **out)
{
	static const struct pp_sym_opts none;
	const struct pp_sym_opts *o = opts ? opts : &none;
	struct symtab_priv *p;
	struct pp_symtab *t;
	int ret = 0;

	*out = NULL;
	t = op_calloc(1, sizeof(*t));
	p = op_calloc(1, sizeof(*p));
	if (!t || !p) {
		free(t);
		free(p);
		return -ENOMEM;
	}
	t->priv = p;
	pthread_mutex_init(&p->made_lock, NULL);
	pthread_mutex_init(&p->lines_lock, NULL);
	p->fd = -1;
	t->mtime = -1;
	t->source = PP_SYMS_NONE;
	if (o->debug_root && !(p->debug_root = op_strdup(o->debug_root)))
		ret = -ENOMEM;
	else if (o->archive)
		ret = archive_debug_root(p, o);
	if (ret) {
		/* nothing to load */
	} else if (image->kind == ODB_IMAGE_ANON && !strcmp(image->name, "[vdso]") &&
		   (ret = symtab_load_vdso(t, o)) == 0 && p->elf) {
		/* symbols of the vdso image, or gaps */
	} else if (!ret && image->kind == ODB_IMAGE_ANON) {
		p->no_lines = "anonymous memory has no line information";
		ret = symtab_load_jitelf(t, image, o);
		if (!ret && !t->nr) {
			p->no_code = "anonymous memory has no file to read code from";
			ret = symtab_load_perfmap(t, image, o);
		}
	} else if (is_kernel || image->kind == ODB_IMAGE_KERNEL) {
		ret = symtab_load_kernel(t, image, o);
	} else {
		ret = symtab_load_file(t, image->name, o, KEYS_SEGMENTS);
	}
	/* a binary read without symbols has gaps (pp_symtab_hold()) instead */
	if (!ret && !t->nr && !p->elf)
		ret = add_artificial(t, image, key_limit);
	if (!ret && !(p->label = pp_strpool_adopt(&p->pool, op_strdup(image->name))))
		ret = -ENOMEM;
	p->demangle = o->demangle;
	if (!ret && (!(p->shown = op_calloc(t->nr + 1, sizeof(*p->shown))) ||
		     !(p->shown_state = op_calloc(t->nr + 1, sizeof(*p->shown_state)))))
		ret = -ENOMEM;
	if (!ret)
		ret = symtab_index(t);
	if (ret) {
		pp_symtab_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

void pp_symtab_free(struct pp_symtab *t)
{
	struct symtab_priv *p;

	if (!t)
		return;
	p = t->priv;
	if (p) {
		pp_lines_close(p->lines);
		free(p->hits);
		if (p->fd >= 0)
			close(p->fd);
		pp_elf_close(p->dbg);
		pp_elf_close(p->elf);
		pp_strpool_release(&p->pool);
		free(p->text);
		free(p->debug_root);
		free(p->archive_debug_root);
		free(p->lines_why);
		free(p->code_why);
		free(p->index);
		pp_symtab_free_shown(t);
		pp_symtab_free_made(t);
		pthread_mutex_destroy(&p->made_lock);
		pthread_mutex_destroy(&p->lines_lock);
		free(p);
	}
	free(t->syms);
	free(t->file);
	free(t->symfile);
	free(t->missing);
	free(t);
}

