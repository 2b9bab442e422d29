/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpp/symbols' internal interfaces, shared between its files and
 * included by nothing outside libpp/symbols/ (its tests excepted).
 */
#ifndef SYMBOLS_INT_H
#define SYMBOLS_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libpp/symbols/pp_demangle.h"
#include "libpp/symbols/pp_plt.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_strbuf.h"

/*
 * The files that read ELF files, debug files, DWARF lines and kallsyms,
 * and the ones that build tables from what they read (pp_symbols.h).
 *
 * Loading a table goes in three steps: a reader gives candidates with
 * their addresses (elf_symtab.c reads an ELF symbol table in place, by
 * index; kallsyms.c appends kallsyms lines to a pp_cands array);
 * symtab_load.c turns addresses into keys and drops those outside the
 * file, keeping (key, candidate index) pairs; pp_syms_from_keys()
 * (symtab_select.c) sorts them, keeps one symbol per key and computes the
 * extents, reading each candidate again by its index.  No array of all
 * candidates is built for an ELF table: for 100 000 symbols that saved
 * 5 MB and a fifth of the load's time, most of it page faults.  Names are
 * borrowed from the mapped string table or the kallsyms text, never
 * copied; the few names made up here ("??.text", the artificial symbol)
 * live in a pp_strpool.
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
	uint8_t name_class;	/* pp_name_class(name) */
	bool boundary;		/* only ends the symbol before it (kallsyms data) */
};

/*
 * What alias selection asks of a name, worked out by the reader, which
 * has the name at hand, so that choosing among aliases reads no name.
 */
enum pp_name_class {
	PP_NAME_LETEXT = 1 << 0,	/* "Letext" */
	PP_NAME_UNNAMED = 1 << 1,	/* "??..." */
	PP_NAME_UNDERSCORE = 1 << 2,	/* starts with '_' */
};

uint8_t pp_name_class(const char *name);

struct pp_cands {
	struct pp_sym_cand *v;
	size_t nr;
	size_t alloc;
};

/* room for extra more candidates; 0 or -ENOMEM */
int pp_cands_reserve(struct pp_cands *c, size_t extra);
void pp_cands_release(struct pp_cands *c);

/*
 * Where the candidates of one table are read from, by the index a reader
 * gave them: a pp_cands array, or an ELF symbol table in place (no copy
 * of 100 000 entries).  get() sets *c, start included (it may keep state
 * in data, such as the segment of the previous candidate); prefetch() (may
 * be NULL) says that index will be read soon.
 */
struct pp_cand_src {
	void (*get)(void *data, uint64_t idx, struct pp_sym_cand *c);
	void (*prefetch)(void *data, uint64_t idx);
	void *data;
};

/*
 * The symbols of a table from keys[0 .. nr) = (start, candidate index) in
 * table order: sorted by start (keys is reordered), one candidate kept
 * per start (the preference opreport(1), SYMBOLS states; of equal ones the first in
 * table order), boundaries dropped, extents computed.  Starts and limits
 * must be in key space.  *syms is a new array (caller frees; NULL when
 * *nr_syms is 0).  0 or -ENOMEM.
 */
struct pp_sym;
struct op_kv;
int pp_syms_from_keys(struct op_kv *keys, size_t nr, const struct pp_cand_src *src,
		      struct pp_sym **syms, size_t *nr_syms);

/* pp_syms_from_keys() of every candidate of c, in c's order */
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
	unsigned addr_size;	/* bytes of an address: 4 or 8 (ELF class) */
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

/* the PT_LOAD of e with file bytes at vma, or NULL; hint (may be NULL) is
 * tried first, as symbols cluster */
const struct pp_elf_load *pp_elf_find_load(const struct pp_elf *e, uint64_t vma,
					   const struct pp_elf_load *hint);

/* what a symbol needs to know about the section it is in */
struct sec_info {
	uint64_t addr;
	uint64_t size;
	const char *name;
	bool code;		/* executable, and not an ignored vma-0 section */
};

/* the .symtab or .dynsym of an ELF file, read in place by index */
struct pp_elf_table {
	const struct pp_elf *e;
	const void *entries;		/* Elf64_Sym or Elf32_Sym (libelf's memory form) */
	size_t nr;			/* entries, 0 the null symbol */
	const uint32_t *xndx;		/* SHT_SYMTAB_SHNDX entries, or NULL */
	size_t nr_x;
	bool has_xndx;			/* there is such a section */
	bool is64, arm;
	const char *str;		/* the string table */
	size_t str_size;
	bool str_terminated;		/* ends with a NUL: no per-name check */
	struct sec_info *secs;
	size_t nr_secs;
	const char **unnamed;		/* "??SECTION" per section, made once */
	struct pp_strpool *pool;	/* where those live */
};

/*
 * Open e's .symtab (dynsym false) or .dynsym for reading by index.
 * Returns 0, -ENOENT when there is no such table, -EIO (corrupt) or
 * -ENOMEM; close with pp_elf_table_close() (also after a failure).
 */
int pp_elf_table_open(const struct pp_elf *e, bool dynsym,
		      struct pp_strpool *pool, struct pp_elf_table *t);
void pp_elf_table_close(struct pp_elf_table *t);

/*
 * Entry i (1 .. t->nr - 1) as a candidate that may become a report
 * symbol: defined, in an executable section, not a section/file symbol,
 * not ".L*", ARM "$a"-style or "gcc2_compiled.".  Sets vma, size, limit
 * (end of the section), name and bind, start 0; unnamed symbols are named
 * "??SECTION" in t->pool (once per section).  Returns 1, 0 when the entry
 * is no candidate, -EIO (the table is corrupt) or -ENOMEM.  An entry that
 * gave 1 once gives the same again, without failing.
 */
int pp_elf_table_cand(struct pp_elf_table *t, size_t i, struct pp_sym_cand *c);

/*
 * Entry i again, once pp_elf_table_cand() gave 1 for it: the same fields
 * but name_class (left 0), without the checks, so the name is not read
 * (a table's names are megabytes, read here in address order, not in
 * table order).
 */
void pp_elf_table_get(const struct pp_elf_table *t, size_t i, struct pp_sym_cand *c);

/* the address of entry i, to prefetch it */
const void *pp_elf_table_entry(const struct pp_elf_table *t, size_t i);

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
/*
 * The same for the files at paths[0..n) at once, reading each list once:
 * pkgs[i] the package of paths[i] (caller frees, also on failure), NULL
 * when no list names it.  Returns 0, -ENOENT when info_dir cannot be read (every pkgs[i]
 * NULL), or -ENOMEM.
 */
int pp_dpkg_packages(const char *info_dir, const char *const *paths, size_t n,
		     char **pkgs);

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
/*
 * Where the code at addr was inlined into its own function: the call
 * site (file and line) of the outermost inlined scope holding addr, as
 * the last of pp_lines_inlines() gives, from a table of those scopes
 * only (nested ones are not walked).  1, 0 when addr is in no inlined
 * code, or -ENOMEM.
 */
int pp_lines_call_site(struct pp_lines *l, uint64_t addr, const char **file, unsigned *line);

/* kallsyms.c: kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines) */
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

/*
 * perfmap.c: perf map files of JIT code.  Append the entries of text
 * ("START SIZE NAME" lines, cut in place: names point into text) that
 * start in [lo, hi) as candidates (vma = START, limit hi), the later
 * line first.  0 or -ENOMEM.
 */
int pp_perfmap_symbols(char *text, uint64_t lo, uint64_t hi, struct pp_cands *out);
/*
 * Read a perf map file: not through a symlink, a regular file owned by
 * this user or root, at most 256 MiB.  0 with *text (caller frees), or a
 * negative errno (-EPERM: another user's).
 */
int pp_perfmap_read(const char *path, char **text);

/* true when text has a line with a non-zero address (kptr_restrict) */
bool pp_kallsyms_usable(const char *text);

/* base address and size of module in /proc/modules text: 0 or -ENOENT */
int pp_modules_find(const char *text, const char *module, uint64_t *base,
		    uint64_t *size);

/* --- disassembly: naming addresses from the binary (disasm_names.c) --- */

/*
 * What disasm.c asks when the caller's symbolizer leaves an address
 * unnamed.  The handle borrows abfd, fd (-1: no ELF symbol sizes) and
 * info from its pp_disasm, which frees it before closing them; the
 * symbol tables are read on the first pp_disasm_name().  NULL when out of
 * memory; when reading the tables runs out, pp_disasm_name() puts sb in
 * the failed state (op_strbuf_failed()).
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

/*
 * Replace *dst (freed) by s, a string from op_malloc and friends (NULL: a
 * failed allocation); 0 or -ENOMEM.  pp_str_setf() formats the string.
 */
int pp_str_set(char **dst, char *s);
int pp_str_setf(char **dst, const char *fmt, ...) OP_PRINTF(2, 3);

/*
 * Open the separate debug file of t's binary once (pp_debugfile_open());
 * none is not an error.  0 or -ENOMEM.
 */
struct pp_symtab;
int pp_symtab_open_debugfile(struct pp_symtab *t);

/* --- loading a table (symtab_load.c, symtab_kernel.c, symtab_anon.c) --- */

#define PROC_KALLSYMS "/proc/kallsyms"
#define PROC_MODULES "/proc/modules"
#define KALLSYMS_MAX (256u << 20)

/* how addresses become keys */
enum key_mode {
	KEYS_SEGMENTS,		/* file offsets through PT_LOAD */
	KEYS_RAW,		/* the address itself (no-vmlinux) */
	KEYS_TEXT,		/* offset from _text (vmlinux) */
	KEYS_ANON,		/* offset from p->bias up to p->anon_len
				 * (an anonymous region's JIT image) */
};

struct pp_cands;
struct pp_sym_opts;
struct odb_image_id;

/* keys for c->v[from..] (vma - bias); those below bias are dropped */
void symtab_map_keys(struct pp_cands *c, size_t from, uint64_t bias);
/* t's symbols from the ELF file (and debug file) already open in t */
int symtab_load_elf(struct pp_symtab *t, enum key_mode mode);
/* find the binary of path as the options say, then symtab_load_elf() */
int symtab_load_file(struct pp_symtab *t, const char *path,
		     const struct pp_sym_opts *o, enum key_mode mode);
/* back to the state before a binary was looked for, to try another source */
void symtab_forget_binary(struct pp_symtab *t);
/* the bucket index of t's final symbols (symtab_query.c): 0 or -ENOMEM */
int symtab_index(struct pp_symtab *t);
/* a kernel image: --vmlinux, else kallsyms (core kernel, modules) */
int symtab_load_kernel(struct pp_symtab *t, const struct odb_image_id *image,
		       const struct pp_sym_opts *o);
/* the vdso: the session's copy, else the running kernel's */
int symtab_load_vdso(struct pp_symtab *t, const struct pp_sym_opts *o);
/*
 * JIT code in an anonymous region: the session's jit/TGID.jo (0 with
 * the table as it was when there is none, or none of its code in the
 * region), or the perf map file
 */
int symtab_load_jitelf(struct pp_symtab *t, const struct odb_image_id *image,
		       const struct pp_sym_opts *o);
int symtab_load_perfmap(struct pp_symtab *t, const struct odb_image_id *image,
			const struct pp_sym_opts *o);

/* free the shown names of t (symtab_names.c) */
void pp_symtab_free_shown(struct pp_symtab *t);

/* --- symbols made on demand (symtab_gaps.c, symtab_plt.c) --- */

/* a section of the binary with bytes in the file */
struct pp_gap_sec {
	uint64_t addr;
	uint64_t size;
	const char *name;	/* borrowed from the mapped binary */
};

/* the section holding vma, or NULL (none, or no binary, or no memory) */
const struct pp_gap_sec *pp_symtab_section(struct pp_symtab *t, uint64_t vma);

/* is sym one of the symbols pp_symtab_hold() made (not in t->syms)? */
bool pp_symtab_is_made(const struct pp_symtab *t, const struct pp_sym *sym);
/* the shown name of a made symbol */
const char *pp_symtab_made_shown(const struct pp_sym *sym);
/* free the made symbols, sections and PLT entries of t */
void pp_symtab_free_made(struct pp_symtab *t);


/*
 * The PLT entry holding vma in sec (a .plt section), entries read once
 * (plt_x86_64.c for x86-64, else libbfd); *end is where it ends (the next entry, or
 * the section's end).  NULL when vma is before the section's first entry
 * or the binary has none (*end: the first entry above vma, or the
 * section's end), or when memory runs out (*err -ENOMEM).
 */
struct pp_plt;
const struct pp_plt_entry *pp_plt_find(struct pp_symtab *t, uint64_t vma,
				       const struct pp_gap_sec *sec, uint64_t *end,
				       int *err);
/* "name@plt" with name demangled per mode, or NULL: shown raw */
char *pp_plt_shown(const char *name, enum pp_demangle_mode mode);
void pp_plt_free(struct pp_plt *plt);

/* open path with libbfd as an object file (disasm.c): 0 or an error */
int pp_bfd_open(const char *path, struct bfd **out);

/* what a pp_symtab keeps beside its symbols (t->priv): symtab_load.c
 * fills it, symtab_query.c answers from it */
struct symtab_priv {
	struct pp_elf *elf;		/* the binary, when one was read */
	struct pp_elf *dbg;		/* its debug file, once opened */
	bool dbg_tried;
	bool segments;			/* keys are file offsets of elf */
	uint64_t bias;			/* else vma = key + bias */
	uint64_t anon_len;		/* of the region of a JIT image's keys */
	char *debug_root;		/* opts->debug_root, for lines */
	char *archive_debug_root;	/* the archive's debug root, tried
					 * first (oparchive(1)), or NULL */
	char *text;			/* kallsyms text that names point into */
	struct pp_strpool pool;		/* names made up here */
	const char *no_lines;		/* why a table has no lines, if known */
	/* opening the lines (pp_symtab_lines_ahead() may do it in another
	 * thread): under lines_lock until lines_opened, which is then set
	 * with release order; what the opening sets is read after it */
	pthread_mutex_t lines_lock;
	bool lines_opened;
	struct pp_lines *lines;		/* opened on the first line lookup */
	struct line_hit *hits;		/* the lines of the keys looked up
					 * ahead, by key (symtab_query.c) */
	size_t nr_hits;
	bool lines_tried;
	bool lines_why_due;		/* lines_why is to be made when asked */
	char *lines_why;
	int fd;				/* t->file for code, -1 until opened */
	enum pp_demangle_mode demangle;	/* of the shown names */
	char **shown;			/* per symbol: its demangled name, once
					 * made (NULL: shown raw) */
	unsigned char *shown_state;	/* per symbol: SHOWN_* (symtab_names.c) */
	const char *no_code;		/* why a table has no code, if known */
	char *code_why;			/* why reading code failed */
	const char *label;		/* the image's name, for gap names */
	/* where a key's symbol is searched (symtab_query.c): the keys from
	 * index_base cut into 2^index_shift wide buckets; bucket b's
	 * symbols start at index[b], before index[b + 1] */
	uint32_t *index;
	size_t nr_buckets;
	uint64_t index_base;
	unsigned index_shift;
	pthread_mutex_t made_lock;	/* guards what follows */
	struct pp_sym **made;		/* made symbols, sorted by start */
	size_t nr_made, alloc_made;
	struct pp_gap_sec *secs;	/* of elf, once read */
	size_t nr_secs;
	bool secs_read;
	struct pp_plt *plt;		/* PLT entries, once read */
	bool plt_read;
};

#endif
