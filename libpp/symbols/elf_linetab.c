// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A CU's line table from its .debug_line program (pp_linetab.h): the
 * header's directories and files, then the rows the program's state
 * machine emits, into one array sorted by address.  Every read is checked
 * against the end of the program; anything this reader does not handle
 * as libdw 0.188 does is -ENOTSUP, so that the caller asks libdw.
 */
#include "config.h"

#include <dwarf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_linetab.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

/* a row: the end-of-sequence flag in the top bit of file */
struct row {
	uint64_t addr;
	int32_t line;
	uint32_t file;
};

#define ROW_END 0x80000000u

struct pp_linetab {
	struct row *rows;		/* by address, as libdw sorts them */
	size_t nr_rows;
	const char **files;		/* as dwarf_linesrc() names them */
	size_t nr_files;
	char **owned;			/* the names composed here */
	size_t nr_owned;
};

/* bytes [p, end) of the program, read in order; bad once a read overran */
struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static bool have(struct rd *r, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n)
		r->bad = true;
	return !r->bad;
}

/* n bytes, little-endian (the caller checked the ELF's byte order) */
static uint64_t fixed(struct rd *r, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	if (!have(r, n))
		return 0;
	for (i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

/* ULEB128; over 64 bits is bad */
static uint64_t uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		unsigned char b;

		if (!have(r, 1))
			return 0;
		b = *r->p++;
		if (shift >= 64 || (shift == 63 && (b & 0x7e))) {
			r->bad = true;
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
}

/* SLEB128; what does not fit 64 bits is bad */
static int64_t sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (!have(r, 1))
			return 0;
		b = *r->p++;
		if (shift >= 63 && (b & 0x7f) != 0 && (b & 0x7f) != 0x7f) {
			r->bad = true;
			return 0;
		}
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* the NUL-terminated string at off of a section, or NULL */
static const char *section_string(const unsigned char *sec, size_t size, uint64_t off)
{
	if (!sec || off >= size || !memchr(sec + off, '\0', size - off))
		return NULL;
	return (const char *)sec + off;
}

/* an inline string, NUL-terminated before the end; NULL (and bad) if not */
static const char *inline_string(struct rd *r)
{
	const unsigned char *s = r->p, *nul;

	if (r->bad || !(nul = memchr(s, '\0', (size_t)(r->end - s)))) {
		r->bad = true;
		return NULL;
	}
	r->p = nul + 1;
	return (const char *)s;
}

/* a DWARF 5 entry format: which field is the path, which the directory */
struct entry_format {
	unsigned nr;
	uint64_t form[256];
	int path, dir;			/* field index, or -1 */
};

static int read_format(struct rd *r, struct entry_format *f)
{
	unsigned i;

	f->nr = (unsigned)fixed(r, 1);
	f->path = f->dir = -1;
	for (i = 0; i < f->nr; i++) {
		uint64_t type = uleb(r);

		f->form[i] = uleb(r);
		/* libdw keeps 16 bits of each */
		if (type > 0xffff || f->form[i] > 0xffff)
			return -ENOTSUP;
		if (type == DW_LNCT_path)
			f->path = (int)i;
		else if (type == DW_LNCT_directory_index)
			f->dir = (int)i;
	}
	return r->bad ? -ENOTSUP : 0;
}

/*
 * One field of an entry: a string (*s) for the path forms this reader
 * knows, a number (*v) for the constant forms, else -ENOTSUP
 */
static int read_field(struct rd *r, uint64_t form, const struct pp_linetab_sections *sec,
		      const char **s, uint64_t *v)
{
	*s = NULL;
	*v = 0;
	switch (form) {
	case DW_FORM_string:
		*s = inline_string(r);
		break;
	case DW_FORM_line_strp:
		*s = section_string(sec->line_str, sec->line_str_size, fixed(r, 4));
		break;
	case DW_FORM_strp:
		*s = section_string(sec->str, sec->str_size, fixed(r, 4));
		break;
	case DW_FORM_udata:
		*v = uleb(r);
		break;
	case DW_FORM_data1:
		*v = fixed(r, 1);
		break;
	case DW_FORM_data2:
		*v = fixed(r, 2);
		break;
	case DW_FORM_data4:
		*v = fixed(r, 4);
		break;
	case DW_FORM_data8:
		*v = fixed(r, 8);
		break;
	case DW_FORM_data16:
		if (have(r, 16))
			r->p += 16;
		break;
	default:
		return -ENOTSUP;
	}
	return r->bad ? -ENOTSUP : 0;
}

/* a form dwarf_formudata() reads as a number */
static bool is_constant(uint64_t form)
{
	return form == DW_FORM_udata || form == DW_FORM_data1 || form == DW_FORM_data2 ||
	       form == DW_FORM_data4 || form == DW_FORM_data8;
}

/* what the header gives the rows: the directories and the files */
struct header {
	const char **dirs;
	size_t nr_dirs;
	struct pp_linetab *t;		/* files go into t */
};

/* file name as libdw makes it: absolute as it is, else DIR/NAME */
static int add_file(struct pp_linetab *t, const char *name, const char *dir, size_t at)
{
	char *s;
	size_t dlen, nlen;

	if (name[0] == '/' || !dir) {
		t->files[at] = name;
		return 0;
	}
	dlen = strlen(dir);
	nlen = strlen(name);
	s = op_malloc(dlen + 1 + nlen + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, dir, dlen);
	s[dlen] = '/';
	memcpy(s + dlen + 1, name, nlen + 1);
	t->owned[t->nr_owned++] = s;
	t->files[at] = s;
	return 0;
}

static int alloc_files(struct pp_linetab *t, size_t n)
{
	t->files = op_calloc(n + 1, sizeof(*t->files));
	t->owned = op_calloc(n + 1, sizeof(*t->owned));
	if (!t->files || !t->owned)
		return -ENOMEM;
	t->nr_files = n;
	t->files[0] = "???";	/* libdw's file 0 until DWARF 5 names one */
	return 0;
}

/* DWARF 2-4: directory 0 is comp_dir, file 0 is "???" */
static int read_lists_v4(struct rd *r, const char *comp_dir, struct header *h)
{
	struct rd count = *r;
	size_t nr_files = 0, i;
	int ret;

	while (!count.bad && have(&count, 1) && *count.p) {
		inline_string(&count);
		h->nr_dirs++;
	}
	if (!have(&count, 1))
		return -ENOTSUP;
	count.p++;
	h->dirs = op_calloc(h->nr_dirs + 2, sizeof(*h->dirs));
	if (!h->dirs)
		return -ENOMEM;
	h->dirs[0] = comp_dir;
	for (i = 1; i <= h->nr_dirs; i++)
		h->dirs[i] = inline_string(r);
	h->nr_dirs++;
	r->p++;		/* the list's end, checked above */
	count = *r;
	while (!count.bad && have(&count, 1) && *count.p) {
		inline_string(&count);
		uleb(&count);
		uleb(&count);
		uleb(&count);
		nr_files++;
	}
	if (count.bad || !have(&count, 1))
		return -ENOTSUP;
	ret = alloc_files(h->t, nr_files + 1);
	for (i = 1; !ret && i <= nr_files; i++) {
		const char *name = inline_string(r);
		uint64_t dir = uleb(r);

		uleb(r);	/* time */
		uleb(r);	/* length */
		if (r->bad || dir >= h->nr_dirs)
			return -ENOTSUP;
		ret = add_file(h->t, name, h->dirs[dir], i);
	}
	r->p++;
	return ret;
}

/* DWARF 5: directory and file entries as their formats say */
static int read_lists_v5(struct rd *r, const struct pp_linetab_sections *sec,
			 struct header *h)
{
	struct entry_format *f = op_calloc(1, sizeof(*f));
	uint64_t n, i, k;
	int ret = -ENOMEM;

	if (!f)
		return -ENOMEM;
	ret = read_format(r, f);
	n = ret ? 0 : uleb(r);
	if (!ret && (r->bad || (f->nr && f->path < 0) || (!f->nr && n) ||
		     (f->nr && n > (uint64_t)(r->end - r->p) / f->nr)))
		ret = -ENOTSUP;
	if (!ret) {
		h->dirs = op_calloc(n + 1, sizeof(*h->dirs));
		h->nr_dirs = n;
		ret = h->dirs ? 0 : -ENOMEM;
	}
	for (i = 0; !ret && i < n; i++)
		for (k = 0; !ret && k < f->nr; k++) {
			const char *s;
			uint64_t v;

			ret = read_field(r, f->form[k], sec, &s, &v);
			if (!ret && (int)k == f->path) {
				if (!s)
					ret = -ENOTSUP;
				h->dirs[i] = s;
			}
		}
	if (!ret)
		ret = read_format(r, f);
	n = ret ? 0 : uleb(r);
	if (!ret && (r->bad || (f->nr && (f->path < 0 || f->dir < 0)) || (!f->nr && n) ||
		     (f->nr && n > (uint64_t)(r->end - r->p) / f->nr)))
		ret = -ENOTSUP;
	if (!ret)
		ret = alloc_files(h->t, n ? n : 1);
	for (i = 0; !ret && i < n; i++) {
		const char *name = NULL;
		uint64_t dir = UINT64_MAX;

		for (k = 0; !ret && k < f->nr; k++) {
			const char *s;
			uint64_t v;

			ret = read_field(r, f->form[k], sec, &s, &v);
			if ((int)k == f->path)
				name = s;
			else if ((int)k == f->dir)
				dir = is_constant(f->form[k]) ? v : UINT64_MAX;
		}
		if (!ret && (!name || dir >= h->nr_dirs))
			ret = -ENOTSUP;
		if (!ret)
			ret = add_file(h->t, name, h->dirs[dir], i);
	}
	free(f);
	return ret;
}

/* the standard opcodes' operand counts, 1 .. 12 */
static const unsigned char std_lengths[13] = { 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

/* the state machine's registers that reach a row */
struct state {
	uint64_t addr;
	uint64_t file;
	int64_t line;
	uint64_t column, isa, discriminator;
};

struct rows {
	struct row *v;
	size_t nr, alloc;
};

/* a row of s; -ENOTSUP for values libdw's row cannot hold */
static int emit(struct rows *v, const struct state *s, bool end)
{
	if (s->line < INT32_MIN || s->line > INT32_MAX || s->file >= ROW_END ||
	    s->column > 0xffff || s->isa > 0xff || s->discriminator > 0xffffff)
		return -ENOTSUP;
	if (v->nr == v->alloc) {
		size_t n = v->alloc ? 2 * v->alloc : 1024;
		struct row *p = op_reallocarray(v->v, n, sizeof(*p));

		if (!p)
			return -ENOMEM;
		v->v = p;
		v->alloc = n;
	}
	v->v[v->nr++] = (struct row){ s->addr, (int32_t)s->line,
				      (uint32_t)s->file | (end ? ROW_END : 0) };
	return 0;
}

struct program {
	unsigned min_len, line_range, opcode_base, address_size;
	int line_base;
	const unsigned char *lengths;	/* [opcode_base], [0] unused */
	unsigned default_is_stmt;
};

static void reset(struct state *s)
{
	memset(s, 0, sizeof(*s));
	s->file = 1;
	s->line = 1;
}

/* the program's rows into v */
static int run(struct rd *r, const struct program *pg, struct rows *v)
{
	struct state s;
	int ret = 0;

	reset(&s);
	while (!ret && r->p < r->end) {
		unsigned op = *r->p++;

		if (op >= pg->opcode_base) {
			op -= pg->opcode_base;
			s.line += pg->line_base + (int)(op % pg->line_range);
			s.addr += (uint64_t)pg->min_len * (op / pg->line_range);
			ret = emit(v, &s, false);
			s.discriminator = 0;
		} else if (op == 0) {
			unsigned len = (unsigned)fixed(r, 1), sub;
			const unsigned char *start;

			if (!len || !have(r, len))
				return -ENOTSUP;
			start = r->p;
			sub = *r->p++;
			switch (sub) {
			case DW_LNE_end_sequence:
				if (len != 1)
					return -ENOTSUP;
				ret = emit(v, &s, true);
				reset(&s);
				break;
			case DW_LNE_set_address:
				if (len != 1 + pg->address_size)
					return -ENOTSUP;
				s.addr = fixed(r, pg->address_size);
				break;
			case DW_LNE_set_discriminator:
				s.discriminator = uleb(r);
				if (r->p != start + len)
					return -ENOTSUP;
				break;
			case DW_LNE_define_file:
			case DW_LNE_NVIDIA_inlined_call:
			case DW_LNE_NVIDIA_set_function_name:
				return -ENOTSUP;
			default:
				r->p = start + len;
				break;
			}
		} else if (op <= 12) {
			switch (op) {
			case DW_LNS_copy:
				ret = emit(v, &s, false);
				s.discriminator = 0;
				break;
			case DW_LNS_advance_pc: {
				uint64_t n = uleb(r);

				if (n > UINT32_MAX)
					return -ENOTSUP;
				s.addr += (uint64_t)pg->min_len * n;
				break;
			}
			case DW_LNS_advance_line: {
				int64_t n = sleb(r);

				if (n < INT32_MIN || n > INT32_MAX)
					return -ENOTSUP;
				s.line += n;
				break;
			}
			case DW_LNS_set_file:
				s.file = uleb(r);
				if (s.file > UINT32_MAX)
					return -ENOTSUP;
				break;
			case DW_LNS_set_column:
				s.column = uleb(r);
				break;
			case DW_LNS_const_add_pc:
				s.addr += (uint64_t)pg->min_len *
					  ((255 - pg->opcode_base) / pg->line_range);
				break;
			case DW_LNS_fixed_advance_pc:
				s.addr += fixed(r, 2);
				break;
			case DW_LNS_set_isa:
				s.isa = uleb(r);
				break;
			default:	/* negate_stmt, basic_block, prologue and
					 * epilogue flags: no row field of ours */
				break;
			}
		} else {
			unsigned n;

			for (n = pg->lengths[op]; n > 0; n--)
				uleb(r);
		}
		if (r->bad)
			return -ENOTSUP;
	}
	return ret;
}

/* v sorted as libdw sorts: by address, an end before a row at its address */
static int sort_rows(struct rows *v)
{
	struct op_kv *kv = op_calloc(v->nr + 1, sizeof(*kv));
	struct op_kv *tmp = op_calloc(v->nr + 1, sizeof(*tmp));
	struct row *out = op_calloc(v->nr + 1, sizeof(*out));
	const struct op_kv *s;
	size_t i, j;

	if (!kv || !tmp || !out) {
		free(kv);
		free(tmp);
		free(out);
		return -ENOMEM;
	}
	for (i = 0; i < v->nr; i++)
		kv[i] = (struct op_kv){ v->v[i].addr, i };
	s = op_sort_kv(kv, tmp, v->nr);
	for (i = 0; i < v->nr; i = j) {
		size_t k = i;

		/* a run of one address: its ends first, each part in order */
		for (j = i; j < v->nr && s[j].key == s[i].key; j++)
			if (v->v[s[j].value].file & ROW_END)
				out[k++] = v->v[s[j].value];
		for (j = i; j < v->nr && s[j].key == s[i].key; j++)
			if (!(v->v[s[j].value].file & ROW_END))
				out[k++] = v->v[s[j].value];
	}
	if (v->nr)
		out[v->nr - 1].file |= ROW_END;
	free(kv);
	free(tmp);
	free(v->v);
	v->v = out;
	return 0;
}

/* the header up to the directory lists; the rest of the program in r */
static int read_header(struct rd *r, unsigned address_size, unsigned *version,
		       struct program *pg, const unsigned char **header_end)
{
	uint64_t len = fixed(r, 4), header_len;
	unsigned max_ops, i;

	if (r->bad || len >= 0xfffffff0u)	/* 64-bit DWARF: left to libdw */
		return -ENOTSUP;
	if (len > (uint64_t)(r->end - r->p))
		return -ENOTSUP;
	r->end = r->p + len;
	*version = (unsigned)fixed(r, 2);
	if (r->bad || *version < 2 || *version > 5)
		return -ENOTSUP;
	if (*version >= 5 && (fixed(r, 1) != address_size || fixed(r, 1) != 0))
		return -ENOTSUP;
	header_len = fixed(r, 4);
	if (r->bad || header_len > (uint64_t)(r->end - r->p))
		return -ENOTSUP;
	*header_end = r->p + header_len;
	pg->min_len = (unsigned)fixed(r, 1);
	max_ops = *version >= 4 ? (unsigned)fixed(r, 1) : 1;
	pg->default_is_stmt = (unsigned)fixed(r, 1);
	pg->line_base = (int8_t)fixed(r, 1);
	pg->line_range = (unsigned)fixed(r, 1);
	pg->opcode_base = (unsigned)fixed(r, 1);
	pg->address_size = address_size;
	/* one operation per instruction, a line range, the standard opcodes
	 * with their standard operands: else as libdw may see it, its call */
	if (r->bad || max_ops != 1 || !pg->line_range || pg->opcode_base < 10 ||
	    pg->default_is_stmt > 1 || !have(r, pg->opcode_base - 1))
		return -ENOTSUP;
	pg->lengths = r->p - 1;
	for (i = 1; i < pg->opcode_base && i <= 12; i++)
		if (pg->lengths[i] != std_lengths[i])
			return -ENOTSUP;
	r->p += pg->opcode_base - 1;
	return 0;
}

int pp_linetab_read(const struct pp_linetab_sections *s, uint64_t off, const char *comp_dir,
		    unsigned address_size, struct pp_linetab **out)
{
	struct pp_linetab *t;
	struct header h = { 0 };
	struct program pg = { 0 };
	struct rows v = { 0 };
	const unsigned char *header_end = NULL;
	struct rd r;
	unsigned version = 0;
	int ret;

	*out = NULL;
	if ((address_size != 4 && address_size != 8) || !s->line || off >= s->line_size)
		return -ENOTSUP;
	t = op_calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	h.t = t;
	r = (struct rd){ s->line + off, s->line + s->line_size, false };
	ret = read_header(&r, address_size, &version, &pg, &header_end);
	if (!ret)
		ret = version < 5 ? read_lists_v4(&r, comp_dir, &h) : read_lists_v5(&r, s, &h);
	if (!ret && (r.bad || r.p != header_end))
		ret = -ENOTSUP;
	if (!ret)
		ret = run(&r, &pg, &v);
	if (!ret)
		ret = sort_rows(&v);
	free(h.dirs);
	if (ret) {
		free(v.v);
		pp_linetab_free(t);
		return ret;
	}
	t->rows = v.v;
	t->nr_rows = v.nr;
	*out = t;
	return 0;
}

int pp_linetab_find(const struct pp_linetab *t, uint64_t addr, const char **file, int *line)
{
	size_t l = 0, u;
	const struct row *w;

	if (!t->nr_rows)
		return -ENOENT;
	/* dwarf_getsrc_die(): the last row at or below addr */
	u = t->nr_rows - 1;
	while (l < u) {
		size_t mid = u - (u - l) / 2;

		if (addr < t->rows[mid].addr)
			u = mid - 1;
		else
			l = mid;
	}
	w = &t->rows[l];
	if ((w->file & ROW_END) || w->addr > addr)
		return -ENOENT;
	if (w->file >= t->nr_files)
		return -ENOENT;
	*file = t->files[w->file];
	*line = w->line;
	return 0;
}

const char *pp_linetab_file(const struct pp_linetab *t, uint64_t idx)
{
	return idx < t->nr_files ? t->files[idx] : NULL;
}

size_t pp_linetab_rows(const struct pp_linetab *t)
{
	return t->nr_rows;
}

void pp_linetab_free(struct pp_linetab *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr_owned; i++)
		free(t->owned[i]);
	free(t->owned);
	free(t->files);
	free(t->rows);
	free(t);
}
