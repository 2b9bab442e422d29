// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opannotate --source (annotate.c): every source file with samples,
 * most samples first, each under a comment with its totals and then
 * line by line with a count column on the lines that have samples.  The
 * line where a function starts also shows the function's total; the line
 * where a function was inlined also shows, per inlined function, the
 * samples of that inlined code (which are themselves shown at the
 * inlined function's own lines).  With --output-dir each file goes to a
 * copy under the directory, its path mirrored, the comments at its end.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_hash.h"

#define MAX_INLINE_DEPTH 16

/* samples of code inlined at a call site, per inlined function */
struct inl_note {
	const char *function;
	uint64_t *counts;
};

struct line_data {
	unsigned line;
	uint64_t *counts;		/* NULL while it has no samples */
	size_t *syms;			/* symbols whose first line this is */
	size_t nr_syms;
	struct inl_note *inl;
	size_t nr_inl;
};

struct file_data {
	const char *name;		/* borrowed from a symbol table */
	uint64_t *total;		/* per class */
	struct line_data *lines;
	size_t nr, alloc;
	struct op_hmap index;		/* line -> position + 1 */
	struct pp_srcfile *src;
};

struct src_ctx {
	struct pp_ann *a;
	struct op_hmap index;		/* file name -> file_data */
	struct file_data **files;
	size_t nr_files;
	struct pp_symtab *t;		/* of the symbol being read */
	uint64_t *unlined;		/* per image: samples without a line */
	const char *quiet_why;		/* why kernel or anonymous code has no
					 * lines: said only if nothing is shown */
	struct pp_srcfiles srcs;
	FILE *out;
};

static struct file_data *file_of(struct src_ctx *s, const char *name)
{
	uint64_t h = op_hash_str(name);
	struct op_hmap_iter it;
	struct file_data *f;

	for (f = op_hmap_first(&s->index, h, &it); f; f = op_hmap_next(&s->index, h, &it))
		if (!strcmp(f->name, name))
			return f;
	f = op_xcalloc(1, sizeof(*f));
	f->name = name;
	f->total = op_xcalloc(s->a->nr_classes, sizeof(*f->total));
	op_hmap_init(&f->index);
	s->files = op_xreallocarray(s->files, s->nr_files + 1, sizeof(*s->files));
	s->files[s->nr_files++] = f;
	if (op_hmap_insert(&s->index, h, f))
		op_die(1, "out of memory");
	return f;
}

static struct line_data *line_of(struct file_data *f, unsigned line)
{
	uint64_t h = op_hash_u64(line);
	struct op_hmap_iter it;
	void *v;

	for (v = op_hmap_first(&f->index, h, &it); v; v = op_hmap_next(&f->index, h, &it))
		if (f->lines[(uintptr_t)v - 1].line == line)
			return &f->lines[(uintptr_t)v - 1];
	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 32;
		f->lines = op_xreallocarray(f->lines, f->alloc, sizeof(*f->lines));
	}
	memset(&f->lines[f->nr], 0, sizeof(f->lines[0]));
	f->lines[f->nr].line = line;
	if (op_hmap_insert(&f->index, h, (void *)(uintptr_t)(f->nr + 1)))
		op_die(1, "out of memory");
	return &f->lines[f->nr++];
}

static void add_counts(uint64_t **dst, const uint64_t *counts, size_t nr)
{
	size_t c;

	if (!*dst)
		*dst = op_xcalloc(nr, sizeof(**dst));
	for (c = 0; c < nr; c++)
		(*dst)[c] += counts[c];
}

static void add_inline(struct src_ctx *s, const struct pp_inline *in, const uint64_t *counts)
{
	struct line_data *l = line_of(file_of(s, in->call_file), in->call_line);
	size_t i;

	for (i = 0; i < l->nr_inl; i++)
		if (!strcmp(l->inl[i].function, in->function))
			break;
	if (i == l->nr_inl) {
		l->inl = op_xreallocarray(l->inl, l->nr_inl + 1, sizeof(*l->inl));
		l->inl[i].function = in->function;
		l->inl[i].counts = NULL;
		l->nr_inl++;
	}
	add_counts(&l->inl[i].counts, counts, s->a->nr_classes);
}

struct key_walk {
	struct src_ctx *s;
	size_t image;
};

static void add_key(void *data, uint64_t key, const uint64_t *counts)
{
	struct key_walk *w = data;
	struct src_ctx *s = w->s;
	struct pp_inline in[MAX_INLINE_DEPTH];
	const char *file, *why;
	unsigned line;
	int n, i;
	size_t c;

	if (pp_symtab_line(s->t, key, &file, &line, &why)) {
		for (c = 0; c < s->a->nr_classes; c++)
			s->unlined[w->image] += counts[c];
		return;
	}
	{
		struct file_data *f = file_of(s, file);
		struct line_data *l = line_of(f, line);

		add_counts(&l->counts, counts, s->a->nr_classes);
		for (c = 0; c < s->a->nr_classes; c++)
			f->total[c] += counts[c];
	}
	n = pp_symtab_inlines(s->t, key, in, MAX_INLINE_DEPTH, &why);
	for (i = 0; i < n && i < MAX_INLINE_DEPTH; i++)
		if (in[i].call_file && in[i].call_line)
			add_inline(s, &in[i], counts);
}

/* every sample of every symbol to its file and line */
static void gather(struct src_ctx *s)
{
	struct pp_ann *a = s->a;
	size_t i;

	for (i = 0; i < a->nr_syms; i++) {
		const struct pp_ann_sym *sym = &a->syms[i];
		struct key_walk w = { s, sym->image };
		const char *file, *why, *no_lines;
		unsigned line;

		s->t = pp_image_symtab(a->p, sym->image);
		no_lines = pp_symtab_no_lines(s->t);
		if (no_lines) {
			size_t c;

			/* a binary not found was named by the preparation
			 * (prepare.c); kernel symbols never have lines (and
			 * anonymous memory neither): no warning on every run */
			if (s->t->source == PP_SYMS_KALLSYMS ||
			    a->p->images[sym->image].id.kind == ODB_IMAGE_ANON)
				s->quiet_why = no_lines;
			else if (s->t->file || !s->t->missing)
				pp_note(a->r->notes, "%s", no_lines);
			for (c = 0; c < a->nr_classes; c++)
				s->unlined[sym->image] += sym->counts[c];
			continue;
		}
		if (!pp_symtab_line(s->t, sym->sym->start, &file, &line, &why)) {
			struct line_data *l = line_of(file_of(s, file), line);

			l->syms = op_xreallocarray(l->syms, l->nr_syms + 1, sizeof(*l->syms));
			l->syms[l->nr_syms++] = i;
		}
		pp_ann_for_each_key(a, i, add_key, &w);
	}
}

static bool file_over_threshold(const struct pp_ann *a, const struct file_data *f)
{
	return pp_over_threshold(a->o, f->total, a->totals, a->nr_classes);
}

static bool glob_matches(const char *const *globs, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i;

	for (i = 0; globs && globs[i]; i++)
		if (!fnmatch(globs[i], path, 0) || (base && !fnmatch(globs[i], base + 1, 0)))
			return true;
	return false;
}

/* --include-file / --exclude-file, on where the file was found (or its name) */
static bool file_selected(const struct pp_annotate_opts *o, const char *path)
{
	if (o->include_files && !glob_matches(o->include_files, path))
		return false;
	return !(o->exclude_files && glob_matches(o->exclude_files, path));
}

static int by_total(const void *pa, const void *pb)
{
	const struct file_data *x = *(struct file_data *const *)pa;
	const struct file_data *y = *(struct file_data *const *)pb;

	if (x->total[0] != y->total[0])
		return x->total[0] < y->total[0] ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int by_line(const void *pa, const void *pb)
{
	const struct line_data *x = pa, *y = pb;

	return x->line < y->line ? -1 : x->line > y->line;
}

/* the annotations after a line's text: function totals, inlined code */
static void line_notes(struct op_strbuf *sb, const struct pp_ann *a,
		       const struct line_data *l)
{
	size_t i;

	for (i = 0; l && i < l->nr_syms; i++)
		pp_ann_symbol_total(sb, a, l->syms[i]);
	for (i = 0; l && i < l->nr_inl; i++) {
		op_strbuf_addf(sb, " /* %s inlined here: ", l->inl[i].function);
		pp_ann_counts(sb, a, l->inl[i].counts);
		op_strbuf_addstr(sb, " */");
	}
}

static void put_line(FILE *out, const struct pp_ann *a, const struct line_data *l,
		     const char *text)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	pp_ann_columns(&sb, a, l ? l->counts : NULL);
	op_strbuf_addstr(&sb, text);
	line_notes(&sb, a, l);
	op_strbuf_addch(&sb, '\n');
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	fwrite(sb.buf, 1, sb.len, out);
	op_strbuf_release(&sb);
}

/* the comment with a file's totals */
static void file_header(FILE *out, const struct pp_ann *a, const struct file_data *f)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	pp_ann_counts(&sb, a, f->total);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	/* the empty line after it stands for OProfile's "credited to line zero" */
	fprintf(out, "/* \n * Total samples for file : \"%s\"\n * \n * %s\n */\n\n\n",
		f->name, sb.buf);
	op_strbuf_release(&sb);
}

/* the lines of f, annotated; the lines with samples when its text is missing */
static void file_body(FILE *out, const struct pp_ann *a, struct file_data *f)
{
	const struct pp_srcfile *src = f->src;
	bool found = src && src->path;	/* (an empty file is found too) */
	unsigned n = found ? (unsigned)src->nr_lines : 0, line;
	size_t k = 0;

	if (f->nr)
		qsort(f->lines, f->nr, sizeof(*f->lines), by_line);
	if (!found)
		fprintf(out, "(source not found: the lines with samples follow)\n");
	for (line = 1; line <= n; line++) {
		const struct line_data *l = NULL;

		while (k < f->nr && f->lines[k].line < line)
			k++;
		if (k < f->nr && f->lines[k].line == line)
			l = &f->lines[k];
		put_line(out, a, l, src->lines[line - 1]);
	}
	/* lines the text does not have (no text, or a changed file) */
	for (; k < f->nr; k++) {
		char label[32];

		if (f->lines[k].line <= n)
			continue;
		snprintf(label, sizeof(label), "<line %u>", f->lines[k].line);
		put_line(out, a, &f->lines[k], label);
	}
	if (found && f->nr && f->lines[f->nr - 1].line > n)
		pp_note(a->r->notes, "the source file '%s' has %u lines but the debug information "
			"names line %u: it changed since the binary was built", src->path, n,
			f->lines[f->nr - 1].line);
}

/* the files to show, most samples first */
static size_t chosen_files(struct src_ctx *s, struct file_data ***out)
{
	struct file_data **v = op_xcalloc(s->nr_files + 1, sizeof(*v));
	size_t i, n = 0;

	if (s->nr_files)	/* (files may be NULL: qsort wants an array) */
		qsort(s->files, s->nr_files, sizeof(*s->files), by_total);
	for (i = 0; i < s->nr_files; i++) {
		struct file_data *f = s->files[i];

		/*
		 * A file is shown when its lines have samples, or code inlined
		 * at its lines has (split.c's callers of burn.h's loop, whose
		 * own lines may have none), or a function with samples starts
		 * in it: each of these made a line of it.
		 */
		if (!f->nr || !file_over_threshold(s->a, f))
			continue;
		f->src = pp_srcfiles_get(&s->srcs, f->name);
		if (!file_selected(&s->a->o->annotate, f->src->path ? f->src->path : f->name))
			continue;
		v[n++] = f;
	}
	*out = v;
	return n;
}

/* one message per image for the samples that have no line */
static void report_unlined(struct src_ctx *s)
{
	struct pp_ann *a = s->a;
	uint64_t all = 0;
	size_t i, c;

	for (c = 0; c < a->nr_classes; c++)
		all += a->totals[c];
	for (i = 0; i < a->p->nr_images; i++) {
		struct pp_symtab *t;

		if (!s->unlined[i])
			continue;
		t = pp_image_symtab(a->p, i);
		if (pp_symtab_no_lines(t))
			continue;	/* said already */
		pp_note(a->r->notes, "%" PRIu64 " samples (%.2f%%) in '%s' are at addresses without "
			"line information", s->unlined[i], pp_ratio(s->unlined[i], all),
			t->file ? t->file : a->p->images[i].id.name);
	}
}

/* --- --output-dir ---------------------------------------------------------- */

/* the copy of source path under dir */
static char *out_path(const char *dir, const char *path)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	op_strbuf_addf(&sb, "%s%s%s", dir, path[0] == '/' ? "" : "/", path);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	return op_strbuf_detach(&sb);
}

/*
 * The directory, made and resolved; refused when a source would be written
 * over (a source below it, or the same file).
 */
static int output_dir_ready(struct src_ctx *s, struct file_data **files, size_t nr,
			    char **real_dir, struct op_err *err)
{
	const char *dir = s->a->o->annotate.output_dir;
	char *real;
	size_t i, len;
	int ret = op_mkdir_p(dir, 0755);

	if (ret) {
		op_err_set(err, "cannot create the output directory '%s': %s", dir,
			   op_strerror(ret));
		return ret;
	}
	real = realpath(dir, NULL);
	if (!real) {
		ret = -errno;
		op_err_set(err, "cannot use the output directory '%s': %s", dir,
			   op_strerror(ret));
		return ret;
	}
	len = strlen(real);
	for (i = 0; i < nr; i++) {
		char *src;
		bool inside;

		if (!files[i]->src->path)
			continue;
		src = realpath(files[i]->src->path, NULL);
		if (!src)
			continue;
		inside = !strncmp(src, real, len) && (src[len] == '/' || len == 1);
		if (inside) {
			op_err_set(err, "refusing the output directory '%s': it contains "
				   "the source file '%s' (the annotated copies are kept "
				   "apart from the sources)", dir, src);
			free(src);
			free(real);
			return PP_REPORT_ERR_OUTPUT_DIR;
		}
		free(src);
	}
	*real_dir = real;
	return 0;
}

static int write_copy(struct src_ctx *s, const char *dir, struct file_data *f,
		      struct op_err *err)
{
	/*
	 * The copy mirrors the source's canonical path: one found through a
	 * relative or ".." path (-d ../src) would otherwise lead out of dir,
	 * even onto the source itself.
	 */
	char *real = realpath(f->src->path, NULL), *path;
	FILE *out;
	int ret;

	if (!real) {
		ret = -errno;
		op_err_set(err, "cannot resolve the source file '%s': %s", f->src->path,
			   op_strerror(ret));
		return ret;
	}
	path = out_path(dir, real);
	free(real);
	ret = op_mkdir_parents(path, 0755);
	if (ret) {
		op_err_set(err, "cannot create the directory of '%s': %s", path,
			   op_strerror(ret));
		free(path);
		return ret;
	}
	out = fopen(path, "we");
	if (!out) {
		ret = -errno;
		op_err_set(err, "cannot write '%s': %s", path, op_strerror(ret));
		free(path);
		return ret;
	}
	file_body(out, s->a, f);
	file_header(out, s->a, f);
	pp_ann_info(out, s->a);
	ret = ferror(out) ? -EIO : 0;
	if (fclose(out) && !ret)
		ret = -errno;
	if (ret) {
		op_err_set(err, "cannot write '%s': %s", path, op_strerror(ret));
		free(path);
		return ret;
	}
	free(path);
	return 0;
}

static int write_copies(struct src_ctx *s, struct file_data **files, size_t nr,
			struct op_err *err)
{
	char *dir = NULL;
	size_t i, written = 0;
	int ret = output_dir_ready(s, files, nr, &dir, err);

	for (i = 0; i < nr && !ret; i++) {
		if (!files[i]->src->path)
			continue;	/* noted when looked for */
		ret = write_copy(s, dir, files[i], err);
		written++;
	}
	free(dir);
	if (!ret && !written) {
		op_err_set(err, "no source file found to annotate");
		ret = PP_REPORT_ERR_NOTHING;
	}
	return ret;
}

static void release(struct src_ctx *s)
{
	size_t i, k, j;

	for (i = 0; i < s->nr_files; i++) {
		struct file_data *f = s->files[i];

		for (k = 0; k < f->nr; k++) {
			free(f->lines[k].counts);
			free(f->lines[k].syms);
			for (j = 0; j < f->lines[k].nr_inl; j++)
				free(f->lines[k].inl[j].counts);
			free(f->lines[k].inl);
		}
		free(f->lines);
		free(f->total);
		op_hmap_release(&f->index);
		free(f);
	}
	free(s->files);
	free(s->unlined);
	op_hmap_release(&s->index);
	pp_srcfiles_release(&s->srcs);
}

int pp_annotate_src(struct pp_ann *a, FILE *out, struct op_err *err)
{
	struct src_ctx s = { .a = a, .out = out };
	struct file_data **files;
	size_t nr, i;
	int ret = 0;

	op_hmap_init(&s.index);
	s.unlined = op_xcalloc(a->p->nr_images + 1, sizeof(*s.unlined));
	pp_srcfiles_init(&s.srcs, &a->o->annotate, a->r->notes);
	gather(&s);
	report_unlined(&s);
	nr = chosen_files(&s, &files);
	if (!nr) {
		if (!s.nr_files && s.quiet_why)
			pp_note(a->r->notes, "%s", s.quiet_why);
		op_err_set(err, s.nr_files ? "no source file passes the threshold and "
			   "file filters" : "no sample has source line information");
		ret = PP_REPORT_ERR_NOTHING;
	} else if (a->o->annotate.output_dir) {
		ret = write_copies(&s, files, nr, err);
	} else {
		pp_ann_info(out, a);
		for (i = 0; i < nr; i++) {
			file_header(out, a, files[i]);
			file_body(out, a, files[i]);
		}
	}
	free(files);
	release(&s);
	return ret;
}
