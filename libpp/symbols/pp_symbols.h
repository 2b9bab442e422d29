/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Symbol tables of the images samples fall in, in the key space of their
 * sample files (oprofile-ng-formats(5), KEYS): file offsets for files, raw addresses
 * for no-vmlinux, offsets from the load address for modules and anon
 * regions, offsets from _text for a vmlinux.
 *
 * Where symbols come from, first found wins:
 *  - the image's .symtab;
 *  - else the .symtab of its separate debug file, found by build-id
 *    (/usr/lib/debug/.build-id/xx/yyyy.debug) or .gnu_debuglink (next to
 *    the image, in its .debug/, or under /usr/lib/debug); for an archive,
 *    its own usr/lib/debug is tried first (oparchive(1));
 *  - else its .dynsym (OProfile ignores .dynsym: stripped libraries then
 *    show as one symbol);
 *  - kernel images: the session's copy of /proc/kallsyms (or the running
 *    kernel's, but never for an archive, or a vmlinux's .symtab);
 *  - the [vdso]: the session's copy of the vdso image (or the running
 *    kernel's vdso, not for an archive);
 *  - other anonymous regions: the perf map file of their process (JIT
 *    code), the session's copy in opts->jit_dir, else /tmp/perf-PID.map
 *    (not for an archive);
 *  - else, for a binary that cannot be read, one artificial symbol named
 *    after the image, covering it all.
 * Samples between symbols are counted under gap symbols and PLT entries
 * made on demand (pp_symtab_hold()).
 * Which symbols count follows OProfile (opreport(1), SYMBOLS): symbols in
 * executable sections, not section/file symbols, not ".L" names or ARM
 * mapping symbols; of aliases at one address one survives (not "??",
 * global over local, not starting with '_', non-weak).  Extents: a symbol
 * with a size ends at its size; one without extends to the next symbol
 * (or the end of its section).
 *
 * Binaries are looked up in the archive, under --root, at their recorded
 * path, then in the --image-path directories (by basename), first found
 * wins.  A binary that is missing, unreadable or not ELF still gets its
 * one artificial symbol; the reason is kept for the caller to report once.
 *
 * libpp/symbols (this header, pp_demangle.h, pp_disasm.h) is the only user
 * of libelf, libdw, libbfd, libopcodes and libiberty.  Its functions
 * return 0 or a negative code (-errno, or PP_SYMBOLS_ERR_* below) and
 * never print or exit.  Memory: every function that allocates returns
 * -ENOMEM (or NULL where it returns a pointer, as documented) when memory
 * runs out; none dies.
 */
#ifndef PP_SYMBOLS_H
#define PP_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb_name.h"
#include "libpp/symbols/pp_demangle.h"
#include "libutil/op_error.h"

struct pp_sym {
	uint64_t start;		/* first key of the symbol */
	uint64_t end;		/* one past its last key */
	uint64_t vma;		/* address shown for start (link-time value) */
	const char *name;	/* raw (mangled) name; borrowed from the table */
	uint32_t flags;		/* PP_SYM_* */
};

enum pp_sym_flags {
	PP_SYM_ARTIFICIAL = 1 << 0,	/* the whole-image symbol */
	PP_SYM_GLOBAL = 1 << 1,
	PP_SYM_GAP = 1 << 2,		/* code between symbols (pp_symtab_hold()) */
	PP_SYM_PLT = 1 << 3,		/* a PLT entry, "name@plt" */
};

enum pp_sym_source {
	PP_SYMS_SYMTAB,		/* the image's own .symtab */
	PP_SYMS_DEBUG_FILE,	/* .symtab of a separate debug file */
	PP_SYMS_DYNSYM,		/* .dynsym only */
	PP_SYMS_KALLSYMS,	/* a kallsyms copy */
	PP_SYMS_PERFMAP,	/* a perf map file of JIT code (perf-PID.map) */
	PP_SYMS_JITDUMP,	/* the ELF image of a jitdump (jit/PID.jo) */
	PP_SYMS_NONE,		/* the artificial symbol only */
};

/* where to look for binaries and kernel symbols */
struct pp_sym_opts {
	const char *root;		/* --root: prefix for every path, or NULL */
	const char *const *image_path;	/* --image-path directories, NULL-ended */
	const char *archive;		/* archive root, or NULL */
	const char *debug_root;		/* instead of /usr/lib/debug (tests), or NULL */
	const char *kallsyms;		/* the session's kernel/kallsyms, or NULL */
	const char *modules;		/* the session's kernel/modules, or NULL */
	const char *vdso;		/* the session's kernel/vdso.so, or NULL */
	const char *jit_dir;		/* the session's jit/ (perf-PID.map,
					 * PID.jo), or NULL */
	const char *vmlinux;		/* --vmlinux for no-vmlinux samples, or NULL */
	enum pp_demangle_mode demangle;	/* how symbol names are shown (-D) */
	/*
	 * The build-id (hex) recorded for the binary at path when it was
	 * profiled, or NULL when none was: a binary found with another
	 * build-id is not used (the next place is tried; none found: the
	 * table says so in missing).  NULL function: no check.
	 */
	const char *(*profiled_build_id)(const void *data, const char *path);
	const void *build_id_data;
};

struct pp_symtab {
	struct pp_sym *syms;	/* sorted by start; no two overlap */
	size_t nr;
	enum pp_sym_source source;
	char *file;		/* the binary read, NULL when none was found */
	char *symfile;		/* where the symbols came from, or NULL */
	char *missing;		/* why there are no real symbols (one line), or NULL */
	int64_t mtime;		/* st_mtime of file, -1 when unknown */
	uint64_t file_size;
	unsigned addr_size;	/* bytes of an address in file: 4 or 8, 0
				 * when no binary was read */
	char build_id[41];	/* hex, "" when none */
	bool build_id_checked;	/* it is the build-id recorded when profiled */
	void *priv;		/* ELF handles and name storage */
};

/*
 * Load the symbols of image for keys in [0, key_limit) (key_limit bounds
 * the artificial symbol of images that cannot be read; pass the largest
 * key seen + 1).  Always returns a usable table (at worst the artificial
 * symbol) or -ENOMEM; *t is freed with pp_symtab_free().
 */
int pp_symtab_load(const struct odb_image_id *image, bool is_kernel,
		   uint64_t key_limit, const struct pp_sym_opts *opts,
		   struct pp_symtab **t);
void pp_symtab_free(struct pp_symtab *t);

/*
 * The name shown for sym, a symbol of t: demangled as the table's
 * options said (opts->demangle when it was loaded), or raw for the
 * artificial symbol and for names that are not mangled.  Made once and
 * kept in the table; any thread may ask at any time (a name another
 * thread is making is waited for).  Borrowed until pp_symtab_free().
 * Never NULL: a name that cannot be demangled (out of memory included)
 * is shown raw.
 */
const char *pp_symtab_shown_name(struct pp_symtab *t, const struct pp_sym *sym);

/*
 * pp_symtab_load(image, is_kernel, 0, opts) in a thread of its own, while
 * the caller goes on (image is copied; opts is borrowed, unchanged, until
 * the table is taken): for the kernel's table, most of a report's table
 * loading, read while the sample files are listed.  NULL when no thread
 * could be started.  pp_symtab_ahead_take() waits for the thread and
 * returns the table (the caller's to free; NULL when it could not be
 * made), and frees a (NULL is let be).
 */
struct pp_symtab_ahead;
struct pp_symtab_ahead *pp_symtab_ahead_start(const struct odb_image_id *image, bool is_kernel,
					      const struct pp_sym_opts *opts);
struct pp_symtab *pp_symtab_ahead_take(struct pp_symtab_ahead *a);

/* the symbol containing key, or NULL (before the first, in a gap) */
const struct pp_sym *pp_symtab_lookup(const struct pp_symtab *t, uint64_t key);

/*
 * The symbol a sample at key is counted under, so that no sample is left
 * out of a report: the table's symbol holding key; else, in a .plt
 * section, its PLT entry named as objdump names it ("memcmp@plt",
 * PP_SYM_PLT); else the gap holding key (PP_SYM_GAP): the widest range
 * around key that crosses no symbol, no section and no segment boundary
 * of the binary, named "[IMAGE 0xSTART-0xEND]" after the image's base
 * name and the addresses of its first and last byte + 1.  Symbols made
 * here are kept in the table (their pointers lie outside t->syms) and the
 * same one is given for every key in it; any thread may ask.  NULL only
 * when memory runs out.
 */
const struct pp_sym *pp_symtab_hold(struct pp_symtab *t, uint64_t key);

/* the address a key stands for (shown in -d, -w and XML) */
uint64_t pp_symtab_vma(const struct pp_symtab *t, uint64_t key);

/*
 * Source file and line of the instruction at key, from the DWARF of the
 * binary or its debug file.  *file is the line table's name joined to
 * its directory, and to the CU's DW_AT_comp_dir when that is absolute and
 * the rest is not (as addr2line names it).  Returns 0, or -ENOENT when
 * there is no line information (missing debug info: *why is
 * pp_symtab_no_lines(); or none at key).  *file and *why are borrowed
 * from the table.  why may be NULL: then the reason is not made (making
 * it can read dpkg's file lists, for the package to name).
 */
int pp_symtab_line(struct pp_symtab *t, uint64_t key, const char **file,
		   unsigned *line, const char **why);

/* one level of inlining at a key */
struct pp_inline {
	const char *function;	/* the inlined function's DW_AT_name (C++: not
				 * qualified), "" if unnamed */
	const char *call_file;	/* where it was inlined into its caller, named
				 * as pp_symtab_line() names files; "" when
				 * the DWARF does not say */
	unsigned call_line;	/* 0 when the DWARF does not say */
};

/*
 * The functions inlined at key, innermost first (DW_TAG_inlined_subroutine
 * scopes with their DW_AT_call_file / DW_AT_call_line): at most max of
 * them into v (v may be NULL when max is 0).  v[0] is the function whose
 * code key is in (pp_symtab_line() gives its line), called at v[0]'s call
 * site from v[1]'s function, and so on; the last is called from the
 * symbol's own function.  Returns how many there are (0: key is not in
 * inlined code; more than max: only max were stored), -ENOENT when there
 * is no line information (*why says why, as for pp_symtab_line()), or
 * -ENOMEM (*why says so).  Strings are borrowed from the table.  The
 * first lookup in a compile unit reads all its inlined scopes; later
 * ones cost a binary search.
 */
int pp_symtab_inlines(struct pp_symtab *t, uint64_t key, struct pp_inline *v,
		      size_t max, const char **why);

/*
 * Where the code at key was inlined into the symbol's own function: the
 * call site (*file, as pp_symtab_line() names files, "" when the DWARF
 * does not say; *line, 0 when it does not) of the outermost inlined
 * scope holding key, the last that pp_symtab_inlines() gives.  Returns
 * 1, 0 when key is in no inlined code, -ENOENT without line information,
 * or -ENOMEM.  Cheaper than pp_symtab_inlines() when only that is asked:
 * the first lookup in a compile unit reads its outermost inlined scopes
 * only.  Strings are borrowed from the table.
 */
int pp_symtab_call_site(struct pp_symtab *t, uint64_t key, const char **file, unsigned *line);

/*
 * The code at keys [key, key + len): the binary's bytes at those file
 * offsets (a vmlinux's: at the file offset of the key's address), read
 * from t->file, never from a debug file.  Returns the bytes read (fewer
 * at the end of the file or of a vmlinux segment, 0 past them), or
 * -ENOENT when the table has no code to read, with *why (borrowed from
 * the table) saying so in one line: "kernel symbols come from kallsyms:
 * disassembly needs the vmlinux (operf --vmlinux=FILE)", a missing or
 * non-ELF binary, one changed since the table was loaded, anonymous
 * memory.  The binary is opened on the first call and stays open until
 * pp_symtab_free().
 */
long pp_symtab_code(struct pp_symtab *t, uint64_t key, unsigned char *buf,
		    size_t len, const char **why);

/*
 * Why the table has no line information, with what would give it, in one
 * line: for a binary without DWARF (nor a debug file with some), "no
 * debug information in 'PATH': install the debug symbols of package PKG
 * (PKG-dbgsym or PKG-dbg), or a debug file at DEBUG_ROOT/.build-id/xx/
 * yyyy.debug", the package from dpkg's file lists (when dpkg does not
 * know the file: "build it with -g, or install a debug file at ..."),
 * the path by build-id (else by its .gnu_debuglink, else none); for
 * kallsyms, anonymous memory and missing binaries, what pp_symtab_line()
 * says.  NULL when the table has line information.  Opens the DWARF if
 * no lookup has yet.  Borrowed from the table.
 */
const char *pp_symtab_no_lines(struct pp_symtab *t);
/*
 * Open t's line information now (the DWARF of the binary or of its debug
 * file), as its first line lookup would, and look up the lines of
 * keys[0..nr) (in any order, repeats allowed), which pp_symtab_line()
 * then answers from a sorted array without asking libdw again, unless
 * the table's lines were opened before.  The one call on a table that may run in
 * another thread than the one using it: for a thread that readies ahead
 * the tables a report will need (pp_lines_ahead_start()), while the
 * caller does other work on them (symbols, gaps, names; a line lookup
 * waits for this call to end).
 */
void pp_symtab_lines_ahead(struct pp_symtab *t, const uint64_t *keys, size_t nr);
/*
 * Make the reasons pp_symtab_no_lines() gives for tabs[0..n) at once,
 * reading dpkg's file lists once for all the tables without line
 * information rather than once for each (opening their DWARF as
 * pp_symtab_no_lines() does).  Returns 0, or -ENOMEM (the reasons not
 * made then are made when asked).
 */
int pp_symtabs_explain_no_lines(struct pp_symtab *const *tabs, size_t n);

/*
 * Does the ELF file of the image at path say it runs in user space: a
 * program that asks for an interpreter (PT_INTERP), or a binary that
 * needs shared libraries (DT_NEEDED)?  No kernel image does either.  The
 * file is looked for under opts' archive, else its --root, else at path
 * (opts may be NULL).  false when it is not found, not a regular file
 * (a FIFO is not waited on) or not ELF, or says neither.
 */
bool pp_image_is_user_binary(const char *path, const struct pp_sym_opts *opts);

/* how pp_binary_identify() found a debug file */
enum pp_debug_how {
	PP_DEBUG_NONE,		/* there is none */
	PP_DEBUG_BY_BUILD_ID,	/* DEBUG_ROOT/.build-id/xx/yyyy.debug */
	PP_DEBUG_BY_LINK,	/* its .gnu_debuglink name, CRC checked */
};

/* what oparchive(1) needs to know of a binary on disk */
struct pp_binary_id {
	char build_id[41];	/* hex, "" when it has none */
	enum pp_debug_how how;
	char *debug_file;	/* the separate debug file the symbol loader
				 * takes for it, NULL when none */
	const char *debuglink;	/* .gnu_debuglink name when how is BY_LINK
				 * (the base name of debug_file) */
};

/*
 * Identify the ELF binary at path and find its separate debug file as
 * pp_symtab_load() does (debug_root NULL: /usr/lib/debug).  Returns 0,
 * a negative errno from open(), -ENOEXEC when it is not ELF, -EIO when
 * libelf rejects it, or -ENOMEM; id is then empty.  Release with
 * pp_binary_id_release().
 */
int pp_binary_identify(const char *path, const char *debug_root,
		       struct pp_binary_id *id);
void pp_binary_id_release(struct pp_binary_id *id);

/*
 * Errors of libpp/symbols: negative errno values, or one of these (from
 * the disassembler), all below -4096.  pp_symbols_strerror() gives the
 * text of either kind.
 */
#define PP_SYMBOLS_ERRORS						\
	PP_SYMBOLS_ERROR(NOT_OBJECT, "not an object file libbfd knows")	\
	PP_SYMBOLS_ERROR(NO_ARCH, "libopcodes has no disassembler for its machine") \
	PP_SYMBOLS_ERROR(BAD_OPTIONS, "disassembler options not understood") \
	PP_SYMBOLS_ERROR(BAD_INSN, "cannot decode the bytes as an instruction")

enum pp_symbols_error {
	PP_SYMBOLS_ERR_BASE = -7400,
#define PP_SYMBOLS_ERROR(name, text) PP_SYMBOLS_ERR_##name,
	PP_SYMBOLS_ERRORS
#undef PP_SYMBOLS_ERROR
	PP_SYMBOLS_ERR_END
};

/* the text of a code of this library or a negative errno; never NULL */
const char *pp_symbols_strerror(int err);

#endif
