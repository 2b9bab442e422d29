/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * C++ demangling for the reports (libiberty).  -D none keeps the raw
 * names; normal demangles with parameters; smart also shortens standard
 * library spellings (std::basic_string<char, std::char_traits<char>,
 * std::allocator<char> > -> std::string, and the like).
 */
#ifndef PP_DEMANGLE_H
#define PP_DEMANGLE_H

enum pp_demangle_mode {
	PP_DEMANGLE_NONE,
	PP_DEMANGLE_NORMAL,
	PP_DEMANGLE_SMART,
};

/* parse "none", "normal" or "smart"; 0 or -EINVAL */
int pp_demangle_mode_parse(const char *s, enum pp_demangle_mode *mode);

/*
 * The name to show for raw symbol name: a new string the caller frees, or
 * NULL when it is to be shown as it is (not mangled, or mode none).
 */
char *pp_demangle(const char *name, enum pp_demangle_mode mode);

/* --- names of symbols ---------------------------------------------------- */

struct pp_sym;

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

#endif
