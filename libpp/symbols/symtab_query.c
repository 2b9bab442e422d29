// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Questions to a loaded symbol table (pp_symbols.h): which symbol holds a
 * key, the address a key stands for, source lines and inline chains from
 * the DWARF of the binary or its debug file (opened on the first
 * question), and code bytes from the binary itself (a debug file's
 * sections are NOBITS), through a descriptor opened on the first read.
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

/* a key's line, looked up ahead */
struct line_hit {
	uint64_t key;
	const char *file;	/* NULL: no line at the key */
	unsigned line;
};

/* --- the strings a table keeps ----------------------------------------- */

int pp_str_set(char **dst, char *s)
{
	free(*dst);
	*dst = s;
	return s ? 0 : -ENOMEM;
}

int pp_str_setf(char **dst, const char *fmt, ...)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	op_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return pp_str_set(dst, op_strbuf_detach(&sb));
}

/*
 * The bucket index: about one bucket per symbol over the keys from the
 * first symbol's start to the last one's end, so that a look-up bisects
 * a bucket's few symbols instead of the whole table (the kernel's has
 * over a hundred thousand).  Symbols are sorted by start and do not
 * overlap.
 */
int symtab_index(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	uint64_t span;
	unsigned shift = 0;
	size_t b, i;

	if (t->nr < 64 || t->nr >= UINT32_MAX)
		return 0;		/* bisecting is as fast */
	p->index_base = t->syms[0].start;
	span = t->syms[t->nr - 1].end - p->index_base;
	while (shift < 63 && (span >> shift) > t->nr)
		shift++;
	p->index_shift = shift;
	p->nr_buckets = (size_t)(span >> shift) + 1;
	p->index = op_calloc(p->nr_buckets + 1, sizeof(*p->index));
	if (!p->index)
		return -ENOMEM;
	/* index[b]: the first symbol starting at or after bucket b's start */
	for (b = 0, i = 0; b <= p->nr_buckets; b++) {
		while (i < t->nr && (t->syms[i].start - p->index_base) >> shift < b)
			i++;
		p->index[b] = (uint32_t)i;
	}
	return 0;
}

const struct pp_sym *pp_symtab_lookup(const struct pp_symtab *t, uint64_t key)
{
	const struct symtab_priv *p = t->priv;
	size_t lo = 0, hi = t->nr;

	/* indexed: the holder starts in key's bucket, or is the last one before */
	if (p && p->index) {
		size_t b;

		if (key < p->index_base)
			return NULL;
		b = (size_t)((key - p->index_base) >> p->index_shift);
		if (b >= p->nr_buckets)
			return NULL;	/* past the buckets: past every symbol */
		lo = p->index[b];
		hi = p->index[b + 1];
	}
	/* the first symbol starting after key; the one before may hold it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && key < t->syms[lo - 1].end)
		return &t->syms[lo - 1];
	return NULL;
}

uint64_t pp_symtab_vma(const struct pp_symtab *t, uint64_t key)
{
	const struct symtab_priv *p = t->priv;
	size_t i;

	if (p->segments && p->elf)
		for (i = 0; i < p->elf->nr_loads; i++) {
			const struct pp_elf_load *l = &p->elf->loads[i];

			if (key >= l->offset && key - l->offset < l->filesz)
				return l->vaddr + (key - l->offset);
		}
	return key + p->bias;
}

/*
 * Where a debug file of the binary would be found: by build-id, else
 * under the debug root by its .gnu_debuglink name; empty when neither.
 */
static int debug_file_place(const struct pp_symtab *t, struct op_strbuf *sb)
{
	const struct symtab_priv *p = t->priv;
	const char *root = p->debug_root ? p->debug_root : PP_DEBUG_ROOT;
	const char *path = p->elf->path, *slash = strrchr(path, '/');
	int ret = pp_build_id_path(sb, p->debug_root, t->build_id);

	if (ret != -ENOENT || !p->elf->debuglink)
		return ret == -ENOENT ? 0 : ret;
	op_strbuf_addf(sb, "%s%s%.*s/%s", root, path[0] == '/' ? "" : "/",
		       slash ? (int)(slash - path) : 0, path, p->elf->debuglink);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

/*
 * The binary has no DWARF, nor a debug file with some: say so in one
 * line, with its debug package pkg when dpkg installed it (NULL: build
 * it with -g) and the place a debug file would be found.
 */
static int no_debug_info(struct pp_symtab *t, const char *pkg)
{
	struct symtab_priv *p = t->priv;
	struct op_strbuf sb = OP_STRBUF_INIT, place = OP_STRBUF_INIT;
	int ret = debug_file_place(t, &place);

	if (ret)
		goto out;
	op_strbuf_addf(&sb, "no debug information in '%s'", p->elf->path);
	if (pkg)
		op_strbuf_addf(&sb, ": install the debug symbols of package %s (%s-dbgsym or %s-dbg)",
			       pkg, pkg, pkg);
	else
		op_strbuf_addstr(&sb, ": build it with -g");
	if (place.len)
		op_strbuf_addf(&sb, ", or %sa debug file at %s", pkg ? "" : "install ",
			       place.buf);
	ret = pp_str_set(&p->lines_why, op_strbuf_detach(&sb));
out:
	op_strbuf_release(&place);
	op_strbuf_release(&sb);
	return ret;
}

/* no_debug_info() with the package dpkg's lists give */
static int no_debug_info_pkg(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	char *pkg = NULL;
	int ret = pp_dpkg_package(NULL, p->elf->path, &pkg);

	ret = ret == -ENOMEM ? ret : no_debug_info(t, pkg);
	free(pkg);
	return ret;
}

static int open_lines(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	const struct pp_elf *e = p->elf;
	int ret;

	p->lines_tried = true;
	if (!e)
		return pp_str_setf(&p->lines_why, "%s", p->no_lines ? p->no_lines :
			        t->missing ? t->missing : "no binary");
	if (!e->has_dwarf) {
		ret = pp_symtab_open_debugfile(t);
		if (ret)
			return ret;
		if (p->dbg && p->dbg->has_dwarf)
			e = p->dbg;
	}
	ret = pp_lines_open(e, &p->lines);
	if (ret != -ENOENT)
		return ret;
	/* no_debug_info() reads dpkg's file lists: only when asked (have_lines) */
	p->lines_why_due = true;
	return 0;
}

/*
 * The lines of keys[0..nr) into p->hits, each distinct key once, in key
 * order (a lookup that runs out of memory is left out, to be tried
 * again when asked).  Without memory for them, nothing is kept.
 */
static void look_ahead(struct pp_symtab *t, const uint64_t *keys, size_t nr)
{
	struct symtab_priv *p = t->priv;
	struct op_kv *v = op_calloc(nr + 1, sizeof(*v)), *tmp = op_calloc(nr + 1, sizeof(*tmp));
	struct line_hit *hits = op_calloc(nr + 1, sizeof(*hits));
	const struct op_kv *s = v;
	size_t i, n = 0;

	if (!v || !tmp || !hits) {
		free(hits);
		hits = NULL;
		nr = 0;
	}
	for (i = 0; i < nr; i++)
		v[i].key = keys[i];
	if (nr)
		s = op_sort_kv(v, tmp, nr);
	for (i = 0; i < nr; i++) {
		struct line_hit *h = &hits[n];
		int ret;

		if (i && s[i].key == s[i - 1].key)
			continue;
		h->key = s[i].key;
		ret = pp_lines_find(p->lines, pp_symtab_vma(t, h->key), &h->file, &h->line);
		if (ret == -ENOMEM)
			continue;
		if (ret || !h->file) {
			h->file = NULL;
			h->line = 0;
		}
		n++;
	}
	p->hits = hits;
	p->nr_hits = n;
	free(v);
	free(tmp);
}

/*
 * Open the DWARF once, and look up the lines of keys (for whoever asks
 * next), under the lock; another thread asking meanwhile waits for both
 */
void pp_symtab_lines_ahead(struct pp_symtab *t, const uint64_t *keys, size_t nr)
{
	struct symtab_priv *p = t->priv;

	if (__atomic_load_n(&p->lines_opened, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&p->lines_lock);
	if (!p->lines_opened) {
		if (!p->lines_tried && open_lines(t) && !p->lines_why)
			p->no_lines = "out of memory";
		if (p->lines && nr)
			look_ahead(t, keys, nr);
		__atomic_store_n(&p->lines_opened, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->lines_lock);
}

static int hit_cmp(const void *key, const void *hit)
{
	uint64_t k = *(const uint64_t *)key, h = ((const struct line_hit *)hit)->key;

	return k < h ? -1 : k > h;
}

/* the line of key looked up ahead, or NULL */
static const struct line_hit *hit_of(const struct symtab_priv *p, uint64_t key)
{
	return p->nr_hits ? bsearch(&key, p->hits, p->nr_hits, sizeof(*p->hits), hit_cmp) : NULL;
}

static bool have_lines(struct pp_symtab *t, const char **why)
{
	struct symtab_priv *p = t->priv;

	pp_symtab_lines_ahead(t, NULL, 0);
	if (p->lines)
		return true;
	if (!why)
		return false;
	if (p->lines_why_due) {
		p->lines_why_due = false;
		if (no_debug_info_pkg(t) && !p->lines_why)
			p->no_lines = "out of memory";
	}
	*why = p->lines_why ? p->lines_why : p->no_lines;
	return false;
}

int pp_symtab_line(struct pp_symtab *t, uint64_t key, const char **file,
		   unsigned *line, const char **why)
{
	struct symtab_priv *p = t->priv;
	const struct line_hit *hit;
	int ret;

	if (!have_lines(t, why))
		return -ENOENT;
	hit = hit_of(p, key);
	if (hit && !hit->file) {
		if (why)
			*why = "no line information at this address";
		return -ENOENT;
	}
	if (hit) {
		*file = hit->file;
		*line = hit->line;
		return 0;
	}
	ret = pp_lines_find(p->lines, pp_symtab_vma(t, key), file, line);
	if (ret) {
		if (why)
			*why = ret == -ENOMEM ? "out of memory" : "no line information at this address";
		return -ENOENT;
	}
	return 0;
}

int pp_symtab_inlines(struct pp_symtab *t, uint64_t key, struct pp_inline *v,
		      size_t max, const char **why)
{
	struct symtab_priv *p = t->priv;
	int ret;

	if (!have_lines(t, why))
		return -ENOENT;
	ret = pp_lines_inlines(p->lines, pp_symtab_vma(t, key), v, max);
	if (ret == -ENOMEM && why)
		*why = "out of memory";
	return ret;
}

int pp_symtab_call_site(struct pp_symtab *t, uint64_t key, const char **file, unsigned *line)
{
	struct symtab_priv *p = t->priv;

	if (!have_lines(t, NULL))
		return -ENOENT;
	return pp_lines_call_site(p->lines, pp_symtab_vma(t, key), file, line);
}

const char *pp_symtab_no_lines(struct pp_symtab *t)
{
	const char *why = NULL;

	return have_lines(t, &why) ? NULL : why;
}

int pp_symtabs_explain_no_lines(struct pp_symtab *const *tabs, size_t n)
{
	struct pp_symtab **due = op_calloc(n + 1, sizeof(*due));
	const char **paths = op_calloc(n + 1, sizeof(*paths));
	char **pkgs = op_calloc(n + 1, sizeof(*pkgs));
	size_t i, nr = 0;
	int ret = due && paths && pkgs ? 0 : -ENOMEM;

	for (i = 0; !ret && i < n; i++) {
		struct symtab_priv *p = tabs[i]->priv;

		if (have_lines(tabs[i], NULL) || !p->lines_why_due)
			continue;
		due[nr] = tabs[i];
		paths[nr++] = p->elf->path;
	}
	if (!ret && nr) {
		ret = pp_dpkg_packages(NULL, paths, nr, pkgs);
		ret = ret == -ENOENT ? 0 : ret;	/* no lists: no package */
	}
	for (i = 0; !ret && i < nr; i++) {
		struct symtab_priv *p = due[i]->priv;

		p->lines_why_due = false;
		if (no_debug_info(due[i], pkgs[i]) && !p->lines_why)
			p->no_lines = "out of memory";
	}
	for (i = 0; pkgs && i < nr; i++)
		free(pkgs[i]);
	free(pkgs);
	free(paths);
	free(due);
	return ret;
}

/* why code cannot be read from a table without an ELF binary */
static const char *no_code_reason(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;

	if (p->no_code)
		return p->no_code;
	if (p->code_why)
		return p->code_why;
	if (!t->file)
		pp_str_setf(&p->code_why, "%s: --image-path or --root can say where it is",
			 t->missing ? t->missing : "no binary");
	else
		pp_str_setf(&p->code_why, "cannot read code from '%s': %s", t->file,
			 t->missing ? t->missing : "not an ELF file");
	return p->code_why ? p->code_why : "out of memory";
}

/* t->file, opened once and checked to be the file the symbols came from */
static int open_code(struct pp_symtab *t, const char **why)
{
	struct symtab_priv *p = t->priv;
	struct stat st;
	int fd;

	if (p->fd >= 0)
		return 0;
	if (p->code_why) {
		*why = p->code_why;
		return -ENOENT;
	}
	fd = open(t->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		pp_str_setf(&p->code_why, "cannot read code from '%s': %s", t->file,
			 op_strerror(-errno));
	} else if ((int64_t)st.st_mtime != t->mtime ||
		   (uint64_t)st.st_size != t->file_size) {
		pp_str_setf(&p->code_why, "'%s' changed since its symbols were read",
			 t->file);
	} else {
		p->fd = fd;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	*why = p->code_why ? p->code_why : "out of memory";
	return -ENOENT;
}

/*
 * The file offset of key and how many bytes from there belong to it: keys
 * of file images are offsets; a vmlinux's are addresses, found in its
 * PT_LOADs.  Returns false for a key outside them.
 */
static bool code_offset(const struct pp_symtab *t, uint64_t key, uint64_t *off,
			uint64_t *avail)
{
	const struct symtab_priv *p = t->priv;
	const struct pp_elf_load *l;
	uint64_t vma;

	if (p->segments) {
		*off = key;
		*avail = key < t->file_size ? t->file_size - key : 0;
		return true;
	}
	vma = pp_symtab_vma(t, key);
	l = pp_elf_find_load(p->elf, vma, NULL);
	if (!l)
		return false;
	*off = l->offset + (vma - l->vaddr);
	*avail = l->filesz - (vma - l->vaddr);
	return true;
}

long pp_symtab_code(struct pp_symtab *t, uint64_t key, unsigned char *buf,
		    size_t len, const char **why)
{
	struct symtab_priv *p = t->priv;
	uint64_t off, avail;
	size_t done = 0;
	int ret;

	if (!p->elf) {
		*why = no_code_reason(t);
		return -ENOENT;
	}
	ret = open_code(t, why);
	if (ret)
		return ret;
	if (!code_offset(t, key, &off, &avail))
		return 0;
	if (len > avail)
		len = (size_t)avail;
	if (len > LONG_MAX)
		len = LONG_MAX;
	while (done < len) {
		ssize_t n = pread(p->fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pp_str_setf(&p->code_why, "cannot read code from '%s': %s",
				 t->file, op_strerror(-errno));
			*why = p->code_why ? p->code_why : "out of memory";
			return -ENOENT;
		}
		if (!n)
			break;
		done += (size_t)n;
	}
	return (long)done;
}
