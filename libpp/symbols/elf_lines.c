// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Source lines from DWARF (symbols_int.h), for -g and opannotate.
 *
 * An address is found in its compile unit through .debug_aranges
 * (dwarf_addrdie); objects built without aranges (clang's default) are
 * looked up in a table of every CU's address ranges, built on the first
 * miss.  The line is the last row of the CU's line table at or before the
 * address, as dwarf_getsrc_die() finds it: the table read by
 * elf_linetab.c (pp_linetab.h: libdw's own reading allocates each row and
 * qsorts them, slow on big CUs), or by libdw for the programs that reader
 * leaves to it.  A file libdw names relative to a relative
 * directory entry is made absolute with the CU's DW_AT_comp_dir when that
 * is absolute, as binutils does, so that lines and call sites of one file
 * always carry the same name; a relative comp_dir (distributions build
 * with -fdebug-prefix-map, glibc's is "./elf") is joined and tidied, so
 * that the name is relative to the top of the source tree, where
 * opannotate --search-dirs finds it.
 *
 * Inline chains (opannotate asks for one per sampled address) come from a
 * table per CU, built on its first lookup: one walk of the CU's scopes
 * collects its DW_TAG_inlined_subroutine entries (name, call site,
 * enclosing entry) and their address ranges, which are then cut into
 * disjoint segments, each owned by the innermost entry covering it.  A
 * lookup is a binary search in the segments, then the chain of enclosing
 * entries: no DIE is read twice.
 */
#include "config.h"

#include <dwarf.h>
#include <errno.h>
#include <elfutils/libdw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_dwarf_view.h"
#include "libpp/symbols/pp_linetab.h"
#include "libpp/symbols/symbols_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_hmap.h"

struct cu_range {
	uint64_t low;
	uint64_t high;		/* one past the last address */
	Dwarf_Off cu;		/* offset of the CU DIE */
};

/* one DW_TAG_inlined_subroutine */
struct inl_entry {
	const char *function;	/* borrowed from libdw; "" when unnamed */
	const char *call_file;	/* borrowed from libdw; "" when not said */
	unsigned call_line;	/* 0 when not said */
	int32_t parent;		/* the inlined entry around it, or -1 */
	uint32_t depth;		/* inlined entries around it, itself included */
};

/* addresses [low, high) whose innermost inlined scope is entries[entry] */
struct inl_seg {
	uint64_t low;
	uint64_t high;
	uint32_t entry;
};

/* the inlined code of one CU */
struct cu_inlines {
	Dwarf_Off cu;		/* offset of the CU DIE */
	struct inl_entry *entries;
	struct inl_seg *segs;	/* sorted by low, disjoint */
	size_t nr_segs;
};

/* a relative file name of libdw's, and the one we give for it */
struct abs_name {
	const char *src;	/* libdw's, unique per file of a line table */
	const char *path;	/* buf, or src when comp_dir is not absolute */
	char buf[];		/* comp_dir/src */
};

struct pp_lines {
	Dwarf *dw;
	struct pp_dwarf_view *view;	/* what dw reads, when not the file */
	struct cu_range *ranges;	/* sorted by low; built on demand */
	size_t nr_ranges;
	bool ranges_built;
	struct op_hmap inlines;		/* CU offset -> struct cu_inlines */
	struct cu_inlines *last;	/* the one used last (lookups cluster) */
	struct op_hmap outer;		/* the same of outermost entries only */
	struct cu_inlines *last_outer;
	struct op_hmap paths;		/* libdw's name -> struct abs_name */
	struct pp_linetab_sections secs;	/* for pp_linetab_read(); line
						 * NULL: every table is libdw's */
	struct op_hmap tables;		/* .debug_line offset -> struct table */
	struct op_hmap cu_tables;	/* CU offset -> struct cu_table */
	struct cu_table *last_cu;	/* the one used last (lookups cluster) */
};

/* a line program's table, or a note that libdw reads it */
struct table {
	uint64_t off;
	struct pp_linetab *t;		/* NULL: libdw's */
};

/* the table of a CU, found once (reading the CU's attributes is slow) */
struct cu_table {
	Dwarf_Off cu;
	struct pp_linetab *t;		/* NULL: libdw's */
};

int pp_lines_open(const struct pp_elf *e, struct pp_lines **out)
{
	struct pp_lines *l;

	*out = NULL;
	if (!e->has_dwarf)
		return -ENOENT;
	l = op_calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	/* compressed sections: the ones lines need, inflated here, when it can */
	if (!pp_dwarf_view_make((Elf *)e->elf, &l->view)) {
		l->dw = dwarf_begin_elf(pp_dwarf_view_elf(l->view), DWARF_C_READ, NULL);
		if (!l->dw) {
			pp_dwarf_view_free(l->view);
			l->view = NULL;
		}
	}
	if (!l->dw)
		l->dw = dwarf_begin_elf((Elf *)e->elf, DWARF_C_READ, NULL);
	if (!l->dw) {
		free(l);
		return -ENOENT;
	}
	pp_dwarf_view_sections(dwarf_getelf(l->dw), &l->secs);
	*out = l;
	return 0;
}

static void cu_inlines_free(struct cu_inlines *c)
{
	if (!c)
		return;
	free(c->entries);
	free(c->segs);
	free(c);
}

static int free_cu_inlines(void *val, void *data)
{
	(void)data;
	cu_inlines_free(val);
	return 0;
}

static int free_value(void *val, void *data)
{
	(void)data;
	free(val);
	return 0;
}

static int free_table(void *val, void *data)
{
	struct table *t = val;

	(void)data;
	pp_linetab_free(t->t);
	free(t);
	return 0;
}

void pp_lines_close(struct pp_lines *l)
{
	if (!l)
		return;
	op_hmap_for_each(&l->tables, free_table, NULL);
	op_hmap_release(&l->tables);
	op_hmap_for_each(&l->cu_tables, free_value, NULL);
	op_hmap_release(&l->cu_tables);
	op_hmap_for_each(&l->inlines, free_cu_inlines, NULL);
	op_hmap_release(&l->inlines);
	op_hmap_for_each(&l->outer, free_cu_inlines, NULL);
	op_hmap_release(&l->outer);
	op_hmap_for_each(&l->paths, free_value, NULL);
	op_hmap_release(&l->paths);
	dwarf_end(l->dw);
	pp_dwarf_view_free(l->view);
	free(l->ranges);
	free(l);
}

static int by_low(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

static int add_range(struct pp_lines *l, size_t *alloc, uint64_t low,
		     uint64_t high, Dwarf_Off cu)
{
	if (l->nr_ranges == *alloc) {
		size_t n = *alloc ? *alloc * 2 : 64;
		struct cu_range *r = op_reallocarray(l->ranges, n, sizeof(*r));

		if (!r)
			return -ENOMEM;
		l->ranges = r;
		*alloc = n;
	}
	l->ranges[l->nr_ranges].low = low;
	l->ranges[l->nr_ranges].high = high;
	l->ranges[l->nr_ranges].cu = cu;
	l->nr_ranges++;
	return 0;
}

static int build_ranges(struct pp_lines *l)
{
	Dwarf_Off off = 0, next;
	size_t hsize, alloc = 0;

	while (!dwarf_nextcu(l->dw, off, &next, &hsize, NULL, NULL, NULL)) {
		Dwarf_Addr base, low, high;
		Dwarf_Die die;
		ptrdiff_t it = 0;

		if (dwarf_offdie(l->dw, off + hsize, &die)) {
			while ((it = dwarf_ranges(&die, it, &base, &low, &high)) > 0)
				if (high > low && add_range(l, &alloc, low, high,
							    dwarf_dieoffset(&die)))
					goto out_nomem;
		}
		off = next;
	}
	if (l->nr_ranges)
		qsort(l->ranges, l->nr_ranges, sizeof(*l->ranges), by_low);
	l->ranges_built = true;
	return 0;

out_nomem:
	/* not built: the next lookup tries again */
	free(l->ranges);
	l->ranges = NULL;
	l->nr_ranges = 0;
	return -ENOMEM;
}

/* the CU holding addr through the range table: 0, -ENOENT or -ENOMEM */
static int cu_from_ranges(struct pp_lines *l, uint64_t addr, Dwarf_Die *cu)
{
	size_t lo = 0, hi;

	if (!l->ranges_built && build_ranges(l))
		return -ENOMEM;
	hi = l->nr_ranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->ranges[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* CUs rarely overlap: look at the few that start at or before addr */
	for (hi = lo; lo > 0 && hi - lo < 8; lo--)
		if (addr < l->ranges[lo - 1].high)
			return dwarf_offdie(l->dw, l->ranges[lo - 1].cu, cu) ? 0 : -ENOENT;
	return -ENOENT;
}

/*
 * Lexically tidy a relative path in place: "." components go, and "d/.."
 * pairs cancel ("./elf/../sysdeps/x.h" is "sysdeps/x.h"); leading ".."
 * stay.  Symbolic links cannot matter: the path names no real directory
 * yet (it is relative to wherever the sources are searched for).
 */
static void tidy_relative(char *path)
{
	char *out = path, *p = path;
	size_t kept = 0;	/* components in out that ".." may cancel */

	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.')) {
			/* "" or ".": nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.' && kept) {
			/* drop the last kept component of out */
			out--;
			while (out > path && out[-1] != '/')
				out--;
			kept--;
		} else {
			memmove(out, p, len);
			out += len;
			*out++ = '/';
			if (!(len == 2 && p[0] == '.' && p[1] == '.'))
				kept++;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	if (out > path)
		out--;		/* the last '/' */
	*out = '\0';
}

/*
 * *out: src, a file name from the line table of cu, joined to the CU's
 * comp_dir (src itself when it is absolute or there is no comp_dir).
 * Borrowed until pp_lines_close().  0 or -ENOMEM.
 */
static int full_path(struct pp_lines *l, Dwarf_Die *cu, const char *src,
		     const char **out)
{
	uint64_t h = op_hash_u64((uintptr_t)src);
	struct op_hmap_iter it;
	struct abs_name *f;
	Dwarf_Attribute mem;
	const char *dir;
	size_t dir_len, len;

	*out = src;
	if (src[0] == '/')
		return 0;
	for (f = op_hmap_first(&l->paths, h, &it); f; f = op_hmap_next(&l->paths, h, &it))
		if (f->src == src) {
			*out = f->path;
			return 0;
		}
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &mem));
	dir_len = dir ? strlen(dir) : 0;
	while (dir_len > 1 && dir[dir_len - 1] == '/')
		dir_len--;
	len = dir_len ? dir_len + 1 + strlen(src) + 1 : 0;
	f = op_malloc(sizeof(*f) + len);
	if (!f)
		return -ENOMEM;
	f->src = f->path = src;
	if (len && dir[0] != '/' && !strncmp(src, dir, dir_len) && src[dir_len] == '/') {
		/* DWARF 5 names files of directory 0, the comp_dir, with it */
		snprintf(f->buf, len, "%s", src);
		tidy_relative(f->buf);
		f->path = f->buf;
	} else if (len) {
		snprintf(f->buf, len, "%.*s/%s", (int)dir_len, dir, src);
		/* a relative comp_dir ("./elf"): the name from the build's top */
		if (dir[0] != '/')
			tidy_relative(f->buf);
		f->path = f->buf;
	}
	if (op_hmap_insert(&l->paths, h, f)) {
		free(f);
		return -ENOMEM;
	}
	*out = f->path;
	return 0;
}

/* the CU holding addr: by .debug_aranges, else the range table; 0,
 * -ENOENT or -ENOMEM */
static int find_cu(struct pp_lines *l, uint64_t addr, Dwarf_Die *cu)
{
	return dwarf_addrdie(l->dw, addr, cu) ? 0 : cu_from_ranges(l, addr, cu);
}

/*
 * The table of a line program, read on its first use (by its .debug_line
 * offset, as libdw caches them, with the comp_dir of the first CU
 * asking); NULL when libdw reads it.  -ENOMEM.
 */
static int table_at(struct pp_lines *l, Dwarf_Die *cu, uint64_t off, unsigned address_size,
		    struct pp_linetab **out)
{
	uint64_t h = op_hash_u64(off);
	Dwarf_Attribute mem;
	struct op_hmap_iter it;
	struct table *e;
	int ret;

	for (e = op_hmap_first(&l->tables, h, &it); e; e = op_hmap_next(&l->tables, h, &it))
		if (e->off == off) {
			*out = e->t;
			return 0;
		}
	e = op_calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->off = off;
	ret = pp_linetab_read(&l->secs, off, dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &mem)),
			      address_size, &e->t);
	if (ret == -ENOMEM || op_hmap_insert(&l->tables, h, e)) {
		pp_linetab_free(e->t);
		free(e);
		return -ENOMEM;
	}
	*out = e->t;
	return 0;
}

/* the table of cu's line program (table_at()), found once per CU */
static int table_of(struct pp_lines *l, Dwarf_Die *cu, struct pp_linetab **out)
{
	Dwarf_Off at = dwarf_dieoffset(cu);
	uint64_t h = op_hash_u64(at);
	struct op_hmap_iter it;
	struct cu_table *c;
	Dwarf_Attribute mem;
	Dwarf_Word off;
	uint8_t address_size;
	int ret = 0;

	*out = NULL;
	if (!l->secs.line)
		return 0;
	if (l->last_cu && l->last_cu->cu == at) {
		*out = l->last_cu->t;
		return 0;
	}
	for (c = op_hmap_first(&l->cu_tables, h, &it); c; c = op_hmap_next(&l->cu_tables, h, &it))
		if (c->cu == at) {
			l->last_cu = c;
			*out = c->t;
			return 0;
		}
	c = op_calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cu = at;
	if (dwarf_tag(cu) == DW_TAG_compile_unit &&
	    !dwarf_formudata(dwarf_attr(cu, DW_AT_stmt_list, &mem), &off) &&
	    dwarf_diecu(cu, &(Dwarf_Die){ 0 }, &address_size, NULL))
		ret = table_at(l, cu, off, address_size, &c->t);
	if (ret || op_hmap_insert(&l->cu_tables, h, c)) {
		free(c);
		return -ENOMEM;
	}
	l->last_cu = c;
	*out = c->t;
	return 0;
}

int pp_lines_find(struct pp_lines *l, uint64_t addr, const char **file,
		  unsigned *line)
{
	struct pp_linetab *t;
	Dwarf_Die cu;
	Dwarf_Line *row;
	const char *src;
	int lineno = 0, ret = find_cu(l, addr, &cu);

	if (ret)
		return ret;
	ret = table_of(l, &cu, &t);
	if (ret)
		return ret;
	if (t) {
		if (pp_linetab_find(t, addr, &src, &lineno) || lineno <= 0)
			return -ENOENT;
	} else {
		row = dwarf_getsrc_die(&cu, addr);
		if (!row || dwarf_lineno(row, &lineno) || lineno <= 0)
			return -ENOENT;
		src = dwarf_linesrc(row, NULL, NULL);
		if (!src)
			return -ENOENT;
	}
	if (full_path(l, &cu, src, file))
		return -ENOMEM;
	*line = (unsigned)lineno;
	return 0;
}

/* a CU's inlined entries and their raw ranges, while its table is built */
struct inl_builder {
	struct pp_lines *l;
	bool outer;		/* the outermost entries only, without names */
	Dwarf_Die *cu;
	struct pp_linetab *tab;	/* the CU's line table when read here, */
	Dwarf_Files *files;	/* else its file table, NULL when it has none */
	size_t nr_files;
	struct inl_entry *entries;
	size_t nr_entries, alloc_entries;
	struct inl_seg *ranges;	/* as DWARF gives them: nested, unsorted */
	size_t nr_ranges, alloc_ranges;
};

/* deeper DIE nesting than this is not walked (a corrupt file's) */
#define MAX_SCOPE_NESTING 256

/* v (alloc items of size bytes) with room for item nr, or NULL */
static void *grow(void *v, size_t *alloc, size_t nr, size_t size)
{
	size_t n;

	if (nr < *alloc)
		return v;
	n = *alloc ? *alloc * 2 : 16;
	v = op_reallocarray(v, n, size);
	if (v)
		*alloc = n;
	return v;
}

/* an attribute of the DIE itself as a number, 0 when absent */
static Dwarf_Word die_udata(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute mem;
	Dwarf_Word v = 0;

	if (dwarf_formudata(dwarf_attr(die, name, &mem), &v))
		return 0;
	return v;
}

/* the inlined function's name: its abstract origin has it */
static const char *inline_name(Dwarf_Die *die)
{
	Dwarf_Attribute mem;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &mem));

	return name ? name : "";
}

static int add_inline_range(struct inl_builder *b, uint64_t low,
			    uint64_t high, uint32_t entry)
{
	struct inl_seg *r = grow(b->ranges, &b->alloc_ranges, b->nr_ranges,
				 sizeof(*r));

	if (!r)
		return -ENOMEM;
	b->ranges = r;
	r[b->nr_ranges].low = low;
	r[b->nr_ranges].high = high;
	r[b->nr_ranges].entry = entry;
	b->nr_ranges++;
	return 0;
}

/* note the inlined_subroutine die, inside entry parent: its index in *idx */
static int add_inline(struct inl_builder *b, Dwarf_Die *die, int32_t parent,
		      uint32_t depth, int32_t *idx)
{
	struct inl_entry *e;
	Dwarf_Addr base, low, high;
	Dwarf_Word file, line;
	ptrdiff_t it = 0;
	int ret = 0;

	if (b->nr_entries >= INT32_MAX)
		return -ENOMEM;
	e = grow(b->entries, &b->alloc_entries, b->nr_entries, sizeof(*e));
	if (!e)
		return -ENOMEM;
	b->entries = e;
	*idx = (int32_t)b->nr_entries;
	e += b->nr_entries++;
	e->function = b->outer ? "" : inline_name(die);
	file = die_udata(die, DW_AT_call_file);
	e->call_file = NULL;
	if (b->tab)
		e->call_file = pp_linetab_file(b->tab, file);
	else if (b->files && file < b->nr_files)
		e->call_file = dwarf_filesrc(b->files, file, NULL, NULL);
	if (!e->call_file)
		e->call_file = "";
	else if (full_path(b->l, b->cu, e->call_file, &e->call_file))
		return -ENOMEM;
	line = die_udata(die, DW_AT_call_line);
	e->call_line = line > UINT_MAX ? 0 : (unsigned)line;
	e->parent = parent;
	e->depth = depth;
	while (!ret && (it = dwarf_ranges(die, it, &base, &low, &high)) > 0)
		if (high > low)
			ret = add_inline_range(b, low, high, (uint32_t)*idx);
	return ret;
}

/* tags whose children may hold code (types and variables never do) */
static bool holds_code(int tag)
{
	switch (tag) {
	case DW_TAG_lexical_block:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
		return true;
	default:
		return false;
	}
}

/*
 * Collect the inlined entries below die.  parent: the innermost inlined
 * entry around die (-1: none), depth its depth (0: none).  A subprogram
 * starts afresh: its code is its own, even when it is nested in another.
 */
static int walk_scope(struct inl_builder *b, Dwarf_Die *die, int32_t parent,
		      uint32_t depth, unsigned nesting)
{
	Dwarf_Die child;
	int32_t idx;
	int ret = 0, more;

	if (nesting > MAX_SCOPE_NESTING)
		return 0;
	for (more = dwarf_child(die, &child); !ret && !more;
	     more = dwarf_siblingof(&child, &child)) {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_inlined_subroutine) {
			ret = add_inline(b, &child, parent, depth + 1, &idx);
			/* what is inlined into it is inside its ranges */
			if (!ret && !b->outer)
				ret = walk_scope(b, &child, idx, depth + 1, nesting + 1);
		} else if (tag == DW_TAG_subprogram) {
			ret = walk_scope(b, &child, -1, 0, nesting + 1);
		} else if (holds_code(tag)) {
			ret = walk_scope(b, &child, parent, depth, nesting + 1);
		}
	}
	return ret;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the sorted distinct ends of b's ranges into *out (caller frees) */
static int range_bounds(const struct inl_builder *b, uint64_t **out, size_t *nr)
{
	uint64_t *v = op_reallocarray(NULL, b->nr_ranges, 2 * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < b->nr_ranges; i++) {
		v[2 * i] = b->ranges[i].low;
		v[2 * i + 1] = b->ranges[i].high;
	}
	qsort(v, 2 * b->nr_ranges, sizeof(*v), by_value);
	for (i = 0; i < 2 * b->nr_ranges; i++)
		if (!n || v[n - 1] != v[i])
			v[n++] = v[i];
	*out = v;
	*nr = n;
	return 0;
}

/* the index of the first of v[0..n) not below x */
static size_t lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Cut the ranges at every range end and give each piece to the deepest
 * entry covering it (the first of equals), then merge neighbours of one
 * owner.  A piece is visited once per range covering it, so the cost is
 * the number of pieces times the inlining depth.
 */
static int make_segments(const struct inl_builder *b, struct cu_inlines *c)
{
	uint64_t *bounds;
	int32_t *owner;
	size_t i, k, nr_bounds;
	int ret = range_bounds(b, &bounds, &nr_bounds);

	if (ret)
		return ret;
	owner = op_reallocarray(NULL, nr_bounds, sizeof(*owner));
	c->segs = op_reallocarray(NULL, nr_bounds, sizeof(*c->segs));
	if (!owner || !c->segs) {
		ret = -ENOMEM;
		goto out_free;
	}
	for (k = 0; k < nr_bounds; k++)
		owner[k] = -1;
	for (i = 0; i < b->nr_ranges; i++) {
		const struct inl_seg *r = &b->ranges[i];
		uint32_t depth = b->entries[r->entry].depth;

		for (k = lower_bound(bounds, nr_bounds, r->low);
		     k + 1 < nr_bounds && bounds[k] < r->high; k++)
			if (owner[k] < 0 || b->entries[owner[k]].depth < depth)
				owner[k] = (int32_t)r->entry;
	}
	for (k = 0; k + 1 < nr_bounds; k++) {
		struct inl_seg *last = c->nr_segs ? &c->segs[c->nr_segs - 1] : NULL;

		if (owner[k] < 0)
			continue;
		if (last && last->entry == (uint32_t)owner[k] && last->high == bounds[k]) {
			last->high = bounds[k + 1];
			continue;
		}
		c->segs[c->nr_segs].low = bounds[k];
		c->segs[c->nr_segs].high = bounds[k + 1];
		c->segs[c->nr_segs].entry = (uint32_t)owner[k];
		c->nr_segs++;
	}
out_free:
	free(owner);
	free(bounds);
	return ret;
}

/* the inline table of the CU cudie; a CU whose DWARF is bad gets none */
static int build_cu_inlines(struct pp_lines *l, Dwarf_Die *cudie, bool outer,
			    struct cu_inlines **out)
{
	struct inl_builder b = { .l = l, .cu = cudie, .outer = outer };
	struct cu_inlines *c = op_calloc(1, sizeof(*c));
	int ret;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->cu = dwarf_dieoffset(cudie);
	/* the file table of the line table read here, or libdw's (which
	 * reads the whole line table again) */
	ret = table_of(l, cudie, &b.tab);
	if (!ret && !b.tab && dwarf_getsrcfiles(cudie, &b.files, &b.nr_files))
		b.files = NULL;
	if (!ret)
		ret = walk_scope(&b, cudie, -1, 0, 0);
	if (!ret && b.nr_ranges)
		ret = make_segments(&b, c);
	free(b.ranges);
	c->entries = b.entries;
	if (ret) {
		cu_inlines_free(c);
		return ret;
	}
	*out = c;
	return 0;
}

/*
 * The inline table of the CU holding addr (NULL: no CU has it); outer:
 * the table of its outermost entries only
 */
static int get_cu_inlines(struct pp_lines *l, uint64_t addr, bool outer,
			  struct cu_inlines **out)
{
	struct op_hmap *map = outer ? &l->outer : &l->inlines;
	struct cu_inlines **last = outer ? &l->last_outer : &l->last;
	struct op_hmap_iter it;
	struct cu_inlines *c;
	Dwarf_Die cudie;
	Dwarf_Off off;
	uint64_t h;
	int ret = find_cu(l, addr, &cudie);

	*out = NULL;
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	off = dwarf_dieoffset(&cudie);
	if (*last && (*last)->cu == off) {
		*out = *last;
		return 0;
	}
	h = op_hash_u64(off);
	for (c = op_hmap_first(map, h, &it); c; c = op_hmap_next(map, h, &it))
		if (c->cu == off)
			break;
	if (!c) {
		ret = build_cu_inlines(l, &cudie, outer, &c);
		if (!ret && op_hmap_insert(map, h, c)) {
			cu_inlines_free(c);
			ret = -ENOMEM;
		}
		if (ret)
			return ret;
	}
	*out = *last = c;
	return 0;
}

/* the segment of c holding addr, or NULL */
static const struct inl_seg *find_segment(const struct cu_inlines *c,
					  uint64_t addr)
{
	size_t lo = 0, hi = c->nr_segs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->segs[mid].high <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nr_segs && c->segs[lo].low <= addr)
		return &c->segs[lo];
	return NULL;
}

int pp_lines_inlines(struct pp_lines *l, uint64_t addr, struct pp_inline *v,
		     size_t max)
{
	const struct inl_seg *seg;
	struct cu_inlines *c;
	int32_t k;
	int n = 0, ret = get_cu_inlines(l, addr, false, &c);

	if (ret || !c || !(seg = find_segment(c, addr)))
		return ret;
	/* a parent is noted before its children: k only goes down */
	for (k = (int32_t)seg->entry; k >= 0; k = c->entries[k].parent) {
		const struct inl_entry *e = &c->entries[k];

		if ((size_t)n < max) {
			v[n].function = e->function;
			v[n].call_file = e->call_file;
			v[n].call_line = e->call_line;
		}
		n++;
	}
	return n;
}

int pp_lines_call_site(struct pp_lines *l, uint64_t addr, const char **file, unsigned *line)
{
	const struct inl_seg *seg;
	struct cu_inlines *c;
	int ret = get_cu_inlines(l, addr, true, &c);

	if (ret || !c || !(seg = find_segment(c, addr)))
		return ret;
	*file = c->entries[seg->entry].call_file;
	*line = c->entries[seg->entry].call_line;
	return 1;
}
