// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opannotate --assembly (annotate.c): per image, its symbols (most
 * samples first, or by address), each as objdump shows it -- a line
 * "ADDRESS <name>:" with the symbol's total, then one line per
 * instruction -- with a count column on the instructions that have
 * samples.  With --source, the source line of an instruction is shown
 * above it whenever it changes.  The code is read from the binary and
 * decoded by libopcodes (pp_disasm.h).
 *
 * A symbol larger than ASM_MAX_WHOLE (the artificial symbol of a binary
 * without symbols spans the whole file) shows its sampled instructions
 * only, each decoded on its own: samples are taken at instruction starts.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_disasm.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_sort.h"

#define ASM_MAX_WHOLE (1u << 20)	/* bytes of a symbol decoded in full */
#define ASM_MAX_INSN 16			/* the longest instruction (x86: 15) */

struct asm_ctx {
	struct pp_ann *a;
	FILE *out;
	struct pp_srcfiles srcs;
	/* the image being written */
	size_t image;
	struct pp_symtab *t;
	struct pp_disasm *d;
	unsigned digits;		/* address width of symbol lines */
	/* the symbol being written: its keys with samples */
	struct op_kv *keys;		/* key, index into counts / nr_classes */
	uint64_t *counts;
	size_t nr_keys, alloc_keys;
	const char *last_file;		/* -s: the last source line shown */
	unsigned last_line;
};

/* --- branch targets: "name+0x4" ------------------------------------------- */

/* the symbol of t whose vma range holds vma, or NULL */
static const struct pp_sym *sym_at_vma(const struct pp_symtab *t, uint64_t vma,
				       size_t *index)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].vma <= vma)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	if (vma - t->syms[lo].vma >= t->syms[lo].end - t->syms[lo].start)
		return NULL;
	*index = lo;
	return &t->syms[lo];
}

static void symbolize(void *data, uint64_t vma, struct op_strbuf *sb)
{
	struct asm_ctx *c = data;
	const struct pp_sym *s;
	size_t i;

	s = sym_at_vma(c->t, vma, &i);
	if (!s || (s->flags & PP_SYM_ARTIFICIAL))
		return;
	op_strbuf_addstr(sb, pp_symtab_shown_name(c->t, s));
	if (vma != s->vma)
		op_strbuf_addf(sb, "+0x%" PRIx64, vma - s->vma);
}

/* --- samples of the symbol being written ---------------------------------- */

static void collect(void *data, uint64_t key, const uint64_t *counts)
{
	struct asm_ctx *c = data;
	size_t nr = c->a->nr_classes;

	if (c->nr_keys == c->alloc_keys) {
		c->alloc_keys = c->alloc_keys ? c->alloc_keys * 2 : 64;
		c->keys = op_xreallocarray(c->keys, c->alloc_keys, sizeof(*c->keys));
		c->counts = op_xreallocarray(c->counts, c->alloc_keys * nr, sizeof(*c->counts));
	}
	c->keys[c->nr_keys].key = key;
	c->keys[c->nr_keys].value = c->nr_keys;
	memcpy(&c->counts[c->nr_keys * nr], counts, nr * sizeof(*counts));
	c->nr_keys++;
}

/* the samples of keys [from, to) into sum; *k walks the sorted keys */
static bool samples_in(struct asm_ctx *c, size_t *k, uint64_t from, uint64_t to,
		       uint64_t *sum)
{
	size_t nr = c->a->nr_classes, i;
	bool any = false;

	memset(sum, 0, nr * sizeof(*sum));
	while (*k < c->nr_keys && c->keys[*k].key < from)
		(*k)++;
	for (; *k < c->nr_keys && c->keys[*k].key < to; (*k)++) {
		for (i = 0; i < nr; i++)
			sum[i] += c->counts[c->keys[*k].value * nr + i];
		any = true;
	}
	return any;
}

/* --- writing -------------------------------------------------------------- */

static void put(struct asm_ctx *c, struct op_strbuf *sb)
{
	if (op_strbuf_failed(sb))
		op_die(1, "out of memory");
	fwrite(sb->buf, 1, sb->len, c->out);
	op_strbuf_reset(sb);
}

/* a line with blank columns: text after them */
static void plain_line(struct asm_ctx *c, struct op_strbuf *sb, const char *text)
{
	pp_ann_columns(sb, c->a, NULL);
	op_strbuf_addstr(sb, text);
	op_strbuf_addch(sb, '\n');
	put(c, sb);
}

/* -s: the source line of key, when it is not the one shown last */
static void source_line(struct asm_ctx *c, struct op_strbuf *sb, uint64_t key)
{
	const char *file, *why, *text;
	struct pp_srcfile *f;
	unsigned line;

	if (pp_symtab_line(c->t, key, &file, &line, &why))
		return;
	if (c->last_file == file && c->last_line == line)
		return;
	c->last_file = file;
	c->last_line = line;
	f = pp_srcfiles_get(&c->srcs, file);
	text = pp_srcfile_line(f, line);
	pp_ann_columns(sb, c->a, NULL);
	if (text)
		op_strbuf_addstr(sb, text);
	else
		op_strbuf_addf(sb, "%s:%u", file, line);
	op_strbuf_addch(sb, '\n');
	put(c, sb);
}

static void insn_line(struct asm_ctx *c, struct op_strbuf *sb, uint64_t vma,
		      const uint64_t *counts, const char *text)
{
	static const char hex[] = "0123456789abcdef";
	char addr[20];
	size_t i = sizeof(addr);

	/* "  401136:\tTEXT", without printf (a line per instruction) */
	addr[--i] = '\t';
	addr[--i] = ':';
	do {
		addr[--i] = hex[vma & 15];
		vma >>= 4;
	} while (vma);
	pp_ann_columns(sb, c->a, counts);
	op_strbuf_add(sb, "  ", 2);
	op_strbuf_add(sb, addr + i, sizeof(addr) - i);
	op_strbuf_addstr(sb, text);
	op_strbuf_addch(sb, '\n');
	put(c, sb);
}

/* decode [key, key + len) of code (at most), one instruction: its length */
static size_t decode(struct asm_ctx *c, const unsigned char *code, size_t len,
		     uint64_t key, struct op_strbuf *text)
{
	int n;

	op_strbuf_reset(text);
	n = pp_disasm_insn(c->d, code, len, pp_symtab_vma(c->t, key), text);
	return n > 0 ? (size_t)n : 1;
}

/* every instruction of [start, end), whose bytes are code */
static void whole_symbol(struct asm_ctx *c, struct op_strbuf *sb,
			 const unsigned char *code, uint64_t start, uint64_t end)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	uint64_t *sum = op_xcalloc(c->a->nr_classes, sizeof(*sum));
	uint64_t off = start;
	size_t k = 0;

	while (off < end) {
		size_t n = decode(c, code + (off - start), end - off, off, &text);
		bool any = samples_in(c, &k, off, off + n, sum);

		if (c->a->source)
			source_line(c, sb, off);
		insn_line(c, sb, pp_symtab_vma(c->t, off), any ? sum : NULL,
			  text.len ? text.buf : "(bad)");
		off += n;
	}
	free(sum);
	op_strbuf_release(&text);
}

/* the instructions with samples only, each decoded at its key */
static void sampled_only(struct asm_ctx *c, struct op_strbuf *sb)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	unsigned char code[ASM_MAX_INSN];
	size_t k;

	plain_line(c, sb, "\t... (a large region: its sampled instructions only)");
	for (k = 0; k < c->nr_keys; k++) {
		uint64_t key = c->keys[k].key;
		const char *why;
		long got = pp_symtab_code(c->t, key, code, sizeof(code), &why);

		if (c->a->source)
			source_line(c, sb, key);
		op_strbuf_reset(&text);
		if (got > 0)
			decode(c, code, (size_t)got, key, &text);
		insn_line(c, sb, pp_symtab_vma(c->t, key),
			  &c->counts[c->keys[k].value * c->a->nr_classes],
			  text.len ? text.buf : "(no code)");
	}
	op_strbuf_release(&text);
}

/* the samples of a symbol whose code cannot be read: address by address */
static void no_code(struct asm_ctx *c, struct op_strbuf *sb)
{
	size_t k;

	for (k = 0; k < c->nr_keys; k++) {
		if (c->a->source)
			source_line(c, sb, c->keys[k].key);
		insn_line(c, sb, pp_symtab_vma(c->t, c->keys[k].key),
			  &c->counts[c->keys[k].value * c->a->nr_classes], "(no code)");
	}
}

static void put_symbol(struct asm_ctx *c, size_t i)
{
	const struct pp_ann_sym *s = &c->a->syms[i];
	struct op_strbuf sb = OP_STRBUF_INIT;
	uint64_t start = s->sym->start, end = s->sym->end;
	struct op_kv *tmp;
	const struct op_kv *sorted;
	const char *why;

	c->nr_keys = 0;
	pp_ann_for_each_key(c->a, i, collect, c);
	tmp = op_xcalloc(c->nr_keys + 1, sizeof(*tmp));
	sorted = op_sort_kv(c->keys, tmp, c->nr_keys);
	if (sorted != c->keys)
		memcpy(c->keys, sorted, c->nr_keys * sizeof(*c->keys));
	free(tmp);
	c->last_file = NULL;

	plain_line(c, &sb, "");
	op_strbuf_addf(&sb, "%0*" PRIx64 " <%s>:", (int)c->digits, s->sym->vma, s->name);
	pp_ann_symbol_total(&sb, c->a, i);
	op_strbuf_addch(&sb, '\n');
	put(c, &sb);
	if (!c->d) {
		no_code(c, &sb);
	} else if (end - start > ASM_MAX_WHOLE || (s->sym->flags & PP_SYM_ARTIFICIAL)) {
		sampled_only(c, &sb);
	} else {
		unsigned char *code = op_xmalloc(end - start);
		long got = pp_symtab_code(c->t, start, code, end - start, &why);

		if (got <= 0) {
			pp_note(c->a->r->notes, "cannot read the code of %s: %s", s->name, why);
			no_code(c, &sb);
		} else {
			whole_symbol(c, &sb, code, start, start + (uint64_t)got);
		}
		free(code);
	}
	op_strbuf_release(&sb);
}

/* set up image: its table, a disassembler for its binary (or a message) */
static void open_image(struct asm_ctx *c, size_t image)
{
	struct op_err err = { "" };
	unsigned char probe;
	const char *why;
	int ret;

	c->image = image;
	c->t = pp_image_symtab(c->a->p, image);
	c->d = NULL;
	c->digits = 16;
	/* -s -a: say why there will be no source lines (a binary not found
	 * was named by the preparation already, prepare.c) */
	if (c->a->source && (c->t->file || !c->t->missing)) {
		const char *no_lines = pp_symtab_no_lines(c->t);

		if (no_lines)
			pp_note(c->a->r->notes, "%s", no_lines);
	}
	if (pp_symtab_code(c->t, c->t->nr ? c->t->syms[0].start : 0, &probe, 1, &why) < 0) {
		pp_note(c->a->r->notes, "no disassembly for '%s': %s",
			c->a->p->images[image].id.name, why);
		return;
	}
	ret = pp_disasm_open(c->t->file, c->a->o->annotate.disasm_options, &c->d, &err);
	if (ret) {
		if (err.msg[0])
			pp_note(c->a->r->notes, "%s", err.msg);
		else
			pp_note(c->a->r->notes, "cannot disassemble '%s': %s", c->t->file,
				pp_symbols_strerror(ret));
		c->d = NULL;
		return;
	}
	c->digits = pp_disasm_addr_digits(c->d);
	pp_disasm_set_symbolizer(c->d, symbolize, c);
	pp_disasm_set_demangle(c->d, pp_profile_demangle(c->a->p));
}

/*
 * Disassembler options are checked against the machine of each image with
 * code before anything is written: an option no image's machine knows is
 * an error (PP_SYMBOLS_ERR_BAD_OPTIONS, the message in err; the tool
 * calls it a usage error), not an empty listing.
 */
static int check_options(struct pp_ann *a, struct op_err *err)
{
	bool *seen;
	size_t i;
	int ret = 0;

	if (!a->o->annotate.disasm_options)
		return 0;
	seen = op_xcalloc(a->p->nr_images + 1, sizeof(*seen));
	for (i = 0; i < a->nr_syms && !ret; i++) {
		size_t image = a->syms[i].image;
		struct pp_symtab *t = pp_image_symtab(a->p, image);
		struct pp_disasm *d = NULL;
		unsigned char probe;
		const char *why;

		if (seen[image])
			continue;
		seen[image] = true;
		if (pp_symtab_code(t, t->nr ? t->syms[0].start : 0, &probe, 1, &why) < 0)
			continue;	/* no code: nothing to decode with them */
		if (pp_disasm_open(t->file, a->o->annotate.disasm_options, &d, err) ==
		    PP_SYMBOLS_ERR_BAD_OPTIONS)
			ret = PP_SYMBOLS_ERR_BAD_OPTIONS;
		pp_disasm_close(d);
	}
	free(seen);
	if (!ret && err)
		err->msg[0] = '\0';	/* other failures are told per image */
	return ret;
}

static void close_image(struct asm_ctx *c)
{
	pp_disasm_close(c->d);
	c->d = NULL;
}

int pp_annotate_asm(struct pp_ann *a, FILE *out, struct op_err *err)
{
	struct asm_ctx c = { .a = a, .out = out };
	bool *done = op_xcalloc(a->p->nr_images + 1, sizeof(*done));
	struct op_strbuf sb = OP_STRBUF_INIT, title = OP_STRBUF_INIT;
	size_t i, k;
	int ret;

	ret = check_options(a, err);
	if (ret) {
		free(done);
		return ret;
	}
	pp_srcfiles_init(&c.srcs, &a->o->annotate, a->r->notes);
	c.counts = NULL;
	pp_ann_info(out, a);
	/* images in the order of their first symbol; symbols in model order */
	for (i = 0; i < a->nr_syms; i++) {
		size_t image = a->syms[i].image;

		if (done[image])
			continue;
		done[image] = true;
		open_image(&c, image);
		op_strbuf_reset(&title);
		op_strbuf_addf(&title, "Disassembly of %s:",
			       c.t->file ? c.t->file : a->p->images[image].id.name);
		if (op_strbuf_failed(&title))
			op_die(1, "out of memory");
		plain_line(&c, &sb, "");
		plain_line(&c, &sb, title.buf);
		for (k = i; k < a->nr_syms; k++)
			if (a->syms[k].image == image)
				put_symbol(&c, k);
		close_image(&c);
	}
	op_strbuf_release(&sb);
	op_strbuf_release(&title);
	free(c.keys);
	free(c.counts);
	free(done);
	pp_srcfiles_release(&c.srcs);
	return 0;
}
