/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpp's internal interfaces, shared between its files and included by
 * nothing outside libpp/: first the symbol area's, then the report
 * modules'.
 */
#ifndef PP_INT_H
#define PP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "libpp/pp_annotate.h"
#include "libpp/pp_report.h"
#include "libutil/op_hmap.h"
#include "libutil/op_strbuf.h"

/* === symbols ============================================================ */

/*
 * The symbol area (pp_symbols.h): the files that read ELF files, debug
 * files, DWARF lines and kallsyms, and the one that builds tables from
 * what they read.
 *
 * Loading a table goes in three steps: a reader (elf_symtab.c for ELF
 * symbol tables, pp_kallsyms.c for kallsyms text) appends candidates with
 * their addresses; pp_symtab.c turns addresses into keys and drops those
 * outside the file; pp_cands_finish() (pp_symsel.c) sorts them, keeps one
 * symbol per key and computes the extents.  Names are borrowed from the
 * mapped string table or the kallsyms text, never copied; the few names
 * made up here ("??.text", the artificial symbol) live in a pp_strpool.
 */

/* the few strings a table owns itself */
struct pp_strpool {
	char **strs;
	size_t nr;
	size_t alloc;
};

/* adopt s (from op_malloc and friends); returns s, or NULL after freeing s
 * when the pool cannot grow (s may be NULL: a failed allocation) */
char *pp_strpool_adopt(struct pp_strpool *pool, char *s);
void pp_strpool_release(struct pp_strpool *pool);

enum pp_bind {
	PP_BIND_LOCAL,
	PP_BIND_GLOBAL,
	PP_BIND_WEAK,
};

struct pp_sym_cand {
	uint64_t vma;		/* link-time address (kallsyms: the address) */
	uint64_t size;		/* st_size; 0 when unknown */
	uint64_t limit;		/* one past the end of its section or region */
	uint64_t start;		/* key of vma, set by the caller of the reader */
	const char *name;	/* borrowed */
	uint8_t bind;		/* enum pp_bind */
	bool boundary;		/* only ends the symbol before it (kallsyms data) */
};

struct pp_cands {
	struct pp_sym_cand *v;
	size_t nr;
	size_t alloc;
};

/* room for extra more candidates; 0 or -ENOMEM */
int pp_cands_reserve(struct pp_cands *c, size_t extra);
void pp_cands_release(struct pp_cands *c);

/*
 * Sort c by start, keep one candidate per start (formats.md §4.2's
 * preference; of equal ones the first in c, so readers append in table
 * order), drop boundaries, compute extents and return the symbols in a
 * new array (*syms, caller frees; NULL when *nr is 0).  Starts and limits
 * must already be in key space.  c's order is kept, its sizes may change.
 * 0 or -ENOMEM.
 */
struct pp_sym;
int pp_cands_finish(struct pp_cands *c, struct pp_sym **syms, size_t *nr);

/* extent of a last symbol whose region end is unknown (kallsyms) */
#define PP_SYM_LAST_EXTENT 4096

/* elf_symtab.c: an ELF file mapped read-only */
struct Elf;

struct pp_elf_load {		/* a PT_LOAD with file contents */
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
};

struct pp_elf {
	struct Elf *elf;	/* libelf handle; the file is mmap'd */
	char *path;
	uint64_t size;		/* file bytes */
	int64_t mtime;		/* st_mtime */
	bool has_symtab;	/* a .symtab section */
	bool has_dynsym;	/* a .dynsym section */
	bool has_dwarf;		/* a .debug_info (or .zdebug_info) section */
	char build_id[41];	/* hex, "" when none */
	const char *debuglink;	/* .gnu_debuglink file name, or NULL */
	uint32_t debuglink_crc;
	struct pp_elf_load *loads;
	size_t nr_loads;
};

/*
 * Open path and map it.  Returns 0, a negative errno from open(), -ENOEXEC
 * when it is not an ELF file (or not a regular file: -EISDIR for a
 * directory), -EIO when libelf rejects it, or -ENOMEM.
 */
int pp_elf_open(const char *path, struct pp_elf **out);
void pp_elf_close(struct pp_elf *e);

/*
 * Append the symbols of e's .symtab (dynsym false) or .dynsym that may
 * become report symbols: defined, in an executable section, not a
 * section/file symbol, not ".L*", ARM "$a"-style or "gcc2_compiled.".
 * vma, size, limit (end of the section), name and bind are set;
 * start is left 0.  Unnamed symbols are named "??SECTION" in pool.
 * Returns 0, -EIO (a corrupt table) or -ENOMEM.
 */
int pp_elf_symbols(const struct pp_elf *e, bool dynsym, struct pp_cands *out,
		   struct pp_strpool *pool);

/*
 * elf_debugfile.c: open the separate debug file of e: by build-id under
 * debug_root (NULL: /usr/lib/debug), then by .gnu_debuglink next to
 * e->path, in its .debug/ directory and under debug_root + its directory,
 * checking the CRC.  0, -ENOENT when there is none, or -ENOMEM.
 */
int pp_debugfile_open(const struct pp_elf *e, const char *debug_root,
		      struct pp_elf **out);

/* the CRC-32 .gnu_debuglink uses (zlib's), continued from crc */
uint32_t pp_debuglink_crc32(uint32_t crc, const void *data, size_t len);

#define PP_DEBUG_ROOT "/usr/lib/debug"
#define PP_DPKG_INFO "/var/lib/dpkg/info"

/*
 * Append where the debug file of build_id (hex) is looked for to sb:
 * DEBUG_ROOT/.build-id/xx/yyyy.debug, debug_root NULL meaning
 * /usr/lib/debug.  0, -ENOENT (no build-id) or -ENOMEM.
 */
int pp_build_id_path(struct op_strbuf *sb, const char *debug_root,
		     const char *build_id);

/*
 * The dpkg package that installed the file at path, from the file lists
 * in info_dir (NULL: /var/lib/dpkg/info), trying the path, the file its
 * links resolve to, and both across the /usr merge (/bin/x is
 * /usr/bin/x).  Stops at the first list naming one of them.  Returns 0
 * with *pkg the package name without architecture (caller frees),
 * -ENOENT when no list names it (or there are no lists), or -ENOMEM.
 */
int pp_dpkg_package(const char *info_dir, const char *path, char **pkg);

/* elf_lines.c: source lines from the DWARF of an ELF file */
struct pp_lines;

/* 0, -ENOENT (no usable DWARF) or -ENOMEM; e must outlive *out */
int pp_lines_open(const struct pp_elf *e, struct pp_lines **out);
/* file and line of the instruction at addr: 0, -ENOENT or -ENOMEM; file
 * is borrowed until pp_lines_close(), absolute when the CU's comp_dir is */
int pp_lines_find(struct pp_lines *l, uint64_t addr, const char **file,
		  unsigned *line);
void pp_lines_close(struct pp_lines *l);

/*
 * The inlined scopes holding addr, innermost first, into v[0..max) as
 * pp_symtab_inlines() describes them; strings are borrowed until
 * pp_lines_close().  Returns how many there are (0: none, or addr is in
 * no CU), or -ENOMEM.  The first lookup in a CU reads all of its inlined
 * scopes; later ones in it cost a binary search.
 */
struct pp_inline;
int pp_lines_inlines(struct pp_lines *l, uint64_t addr, struct pp_inline *v,
		     size_t max);

/* pp_kallsyms.c: kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines) */
struct pp_kallsyms_info {
	uint64_t text;		/* _text (else _stext) of the core kernel, or 0 */
	uint64_t lowest;	/* lowest address of the wanted module's lines */
};

/*
 * Append the text symbols of module (NULL: the core kernel) as candidates
 * (vma = address, limit UINT64_MAX), and its other symbols as boundaries.
 * Lines are cut in place: names point into text, which must outlive the
 * candidates.  0 or -ENOMEM.
 */
int pp_kallsyms_symbols(char *text, const char *module, struct pp_cands *out,
			struct pp_kallsyms_info *info);

/* true when text has a line with a non-zero address (kptr_restrict) */
bool pp_kallsyms_usable(const char *text);

/* base address and size of module in /proc/modules text: 0 or -ENOENT */
int pp_modules_find(const char *text, const char *module, uint64_t *base,
		    uint64_t *size);

/* === reports ============================================================ */

/* OProfile's column widths (format_output.cpp) */
#define W_VMA 9
#define W_SAMPLES 9
#define W_CUM_SAMPLES 14
#define W_PERCENT 9
#define W_CUM_PERCENT 11
#define W_DIFF 10
#define W_LINENR 28
#define W_IMAGE 25
#define W_APP 25
#define W_SYMBOL 30

/*
 * A line of columns: each field is written after the padding the previous
 * one left (its width minus its length, at least one space).  Hidden
 * fields only add their width, so a line never ends in blanks.
 */
struct pp_line {
	FILE *out;
	size_t pad;
	size_t len;		/* bytes in buf */
	char buf[1024];		/* the line, written out at pp_line_end() */
};

void pp_line_start(struct pp_line *l, FILE *out, const char *prefix);
void pp_line_field(struct pp_line *l, const char *s, size_t width);
void pp_line_hidden(struct pp_line *l, size_t width);
void pp_line_end(struct pp_line *l);

/* display strings, computed once */
struct pp_names {
	struct pp_profile *p;
	const struct pp_report_opts *o;
	char **app_display;		/* per app */
	char **image_display;		/* per image */
};

void pp_names_init(struct pp_names *nm, struct pp_profile *p,
		   const struct pp_report_opts *o);
void pp_names_release(struct pp_names *nm);
const char *pp_names_app(struct pp_names *nm, size_t app);
const char *pp_names_image(struct pp_names *nm, size_t image);

/*
 * The name shown for a symbol: demangled per the options.  Returns a
 * string the caller frees.
 */
char *pp_symbol_display(const struct pp_sym *sym, enum pp_demangle_mode mode);

/*
 * The shown names of syms[0..nr), in that order, demangled ahead of the
 * caller by helper threads when there are many (demangling is most of a
 * big symbol report's time).  pp_name_stream_get(s, i) returns name i
 * (valid until the stream ends), waiting for it or making it; asking in
 * increasing i lets the helpers stay ahead.
 */
struct pp_name_stream;
struct pp_name_stream *pp_name_stream_start(const struct pp_sym *const *syms,
					    size_t nr, enum pp_demangle_mode mode);
const char *pp_name_stream_get(struct pp_name_stream *s, size_t i);
void pp_name_stream_end(struct pp_name_stream *s);

/* every name at once: the caller frees each name and the array */
char **pp_display_sym_names(const struct pp_sym *const *syms, size_t nr,
			    enum pp_demangle_mode mode);

/* does the symbol pass --include-symbols / --exclude-symbols? */
bool pp_symbol_selected(const struct pp_report_opts *o, const char *raw,
			const char *shown);
/* the same for sym, shown as mode shows it: include, exclude NULL-ended or NULL */
bool pp_sym_passes(const char *const *include, const char *const *exclude,
		   const struct pp_sym *sym, enum pp_demangle_mode mode);

/* "file:line" of key in image i (basename unless long names), or the
 * "(no location information)" text; into sb */
void pp_linenr(struct op_strbuf *sb, struct pp_profile *p, size_t image,
	       uint64_t key, bool long_names);

/* decimal digits of v into buf */
void pp_format_count(char *buf, size_t size, uint64_t v);

/* percent of part in whole (0 when whole is 0) */
static inline double pp_ratio(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

/* does a row pass -t in any class? totals: per class */
bool pp_over_threshold(const struct pp_report_opts *o, const uint64_t *counts,
		       const uint64_t *totals, size_t nr_classes);

/* sort rows by the options' keys (default: samples of class 0) */
void pp_rows_sort(struct pp_row **rows, size_t nr, struct pp_profile *p,
		  struct pp_names *nm, const struct pp_report_opts *o);

/* pass a warning to the tool (which prints each distinct one once) */
void pp_note(const struct pp_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* report missing or changed binaries of the images used, once each */
void pp_check_images(struct pp_profile *p, const struct pp_notes *n);

/*
 * Call-graph arcs between rows (pp_arcs.c), for --callgraph and its XML.
 * Rows are addressed by index; an arc end without samples gets a row with
 * zero counts.
 */
struct pp_arc {
	size_t caller, callee;	/* row indexes */
	uint64_t *counts;	/* per class */
};

struct pp_arcs {
	struct pp_arc *v;
	size_t nr, alloc;
	struct op_hmap index;	/* (caller, callee) -> index into v */
	uint64_t dropped;	/* arc counts outside every symbol */
	/* row r's arcs by callee (in) and by caller (out):
	 * list[first[r] .. first[r + 1]) */
	size_t *in_first, *in_list;
	size_t *out_first, *out_list;
};

/*
 * Load p's {cg} groups (an unreadable file is noted through n) and sum
 * them into arcs between rows of r, adding the rows arc ends need.  After
 * this, r gets no more rows.  Dies only on allocation failure.
 */
void pp_arcs_build(struct pp_arcs *a, struct pp_profile *p, struct pp_rows *r,
		   const struct pp_notes *n);
void pp_arcs_release(struct pp_arcs *a);

/* one entry of a caller or callee list */
struct pp_arc_entry {
	const struct pp_row *row;
	const uint64_t *counts;	/* the arc's, or the row's own for self */
	bool self;		/* the row itself, in its callee list */
};

/*
 * The callers of row (callees false), or its callees preceded by the row
 * itself as the self entry, most calls (class 0) first, fewest first with
 * reverse; ties in row order.  buf has room for a->nr + 1 entries.
 * Returns the number of entries.
 */
size_t pp_arcs_list(const struct pp_arcs *a, const struct pp_rows *r,
		    const struct pp_row *row, bool callees, bool reverse,
		    struct pp_arc_entry *buf);

/* === annotation (opannotate) ============================================== */

/* a symbol to annotate: its samples over the applications using its image */
struct pp_ann_sym {
	size_t image;
	const struct pp_sym *sym;
	uint64_t *counts;		/* per class */
	size_t *rows;			/* its rows, one per application */
	size_t nr_rows;
	char *name;			/* the shown (demangled) name */
};

struct pp_ann {
	struct pp_profile *p;
	const struct pp_annotate_opts *o;
	const struct pp_notes *n;
	const struct pp_session_info *info;
	struct pp_rows rows;
	struct pp_ann_sym *syms;	/* most samples first, or by address */
	size_t nr_syms, alloc_syms;
	uint64_t *totals;		/* per class: every sample in a symbol */
	size_t nr_classes;
};

/*
 * The symbols with samples that pass -i/-e (and -t, for assembly), -x
 * applied; percentages are of totals.
 */
void pp_ann_build(struct pp_ann *a, struct pp_profile *p,
		  const struct pp_annotate_opts *o, const struct pp_notes *n);
void pp_ann_release(struct pp_ann *a);

/* the addresses with samples of symbol i, in key order, summed over apps */
void pp_ann_for_each_key(struct pp_ann *a, size_t i,
			 void (*fn)(void *data, uint64_t key, const uint64_t *counts),
			 void *data);

/* "  1000 54.5256" per class (count width 6, opreport's percent) */
void pp_ann_counts(struct op_strbuf *sb, const struct pp_ann *a,
		   const uint64_t *counts);
/* the columns in front of a line: counts, or blanks when none; then " :" */
void pp_ann_columns(struct op_strbuf *sb, const struct pp_ann *a,
		    const uint64_t *counts);
/* " / * NAME total:   1000 54.5256 * /" (without the blanks) for symbol i */
void pp_ann_symbol_total(struct op_strbuf *sb, const struct pp_ann *a, size_t i);
/* the comment block at the top: command line, what is shown, the header */
void pp_ann_info(FILE *out, const struct pp_ann *a,
		 const struct pp_session_info *info);

/* pp_srcfile.c: source files, found (pp_srcfile.c says where) and read once */
struct pp_srcfile {
	char *name;			/* as the debug information names it */
	char *path;			/* where it was found; NULL: not found */
	char *text;			/* its bytes, each line NUL-ended */
	size_t len;
	char **lines;
	size_t nr_lines;
};

struct pp_srcfiles {
	const struct pp_annotate_opts *o;
	const struct pp_notes *n;
	struct op_hmap index;		/* name -> file */
	struct pp_srcfile **v;
	size_t nr;
};

void pp_srcfiles_init(struct pp_srcfiles *s, const struct pp_annotate_opts *o,
		      const struct pp_notes *n);
void pp_srcfiles_release(struct pp_srcfiles *s);
/* the file of that name, looked for on first use (a miss is warned once) */
struct pp_srcfile *pp_srcfiles_get(struct pp_srcfiles *s, const char *name);
/* the text of line (from 1), or NULL when not found or past the end */
const char *pp_srcfile_line(const struct pp_srcfile *f, unsigned line);

/* the two annotations (pp_annotate_src.c, pp_annotate_asm.c) */
int pp_annotate_src(struct pp_ann *a, FILE *out, struct op_err *err);
int pp_annotate_asm(struct pp_ann *a, FILE *out, struct op_err *err);

/* === disassembly: naming addresses from the binary (disasm_names.c) ===== */

/*
 * What disasm.c asks when the caller's symbolizer leaves an address
 * unnamed.  The handle borrows abfd, fd (-1: no ELF symbol sizes) and
 * info from its pp_disasm, which frees it before closing them; the
 * symbol tables are read on the first pp_disasm_name().
 */
struct bfd;
struct disassemble_info;
struct pp_disasm_names;
struct pp_disasm_names *pp_disasm_names_new(struct bfd *abfd, int fd,
					    struct disassemble_info *info,
					    uint64_t addr_mask);
void pp_disasm_names_free(struct pp_disasm_names *t);
void pp_disasm_names_set_demangle(struct pp_disasm_names *t,
				  enum pp_demangle_mode mode);
/* vma, referred to by the instruction at insn_vma, as objdump prints it */
void pp_disasm_name(struct pp_disasm_names *t, uint64_t vma, uint64_t insn_vma,
		    struct op_strbuf *sb);
/* prefix, then v in lower-case hex without leading zeros */
void pp_disasm_add_hex(struct op_strbuf *sb, const char *prefix, uint64_t v);

#endif
