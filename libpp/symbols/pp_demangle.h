/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * C++ demangling for the reports (libiberty).  -D none keeps the raw
 * names; normal demangles with parameters; smart also shortens standard
 * library spellings (std::basic_string<char, std::char_traits<char>,
 * std::allocator<char> > -> std::string, and the like) and, as OProfile
 * 1.4 does, drops "std::" where a name starts (vector<long>).
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
 * NULL when it is to be shown as it is (not mangled, mode none, or no
 * memory to demangle it: the raw name is then shown, never a wrong one).
 */
char *pp_demangle(const char *name, enum pp_demangle_mode mode);

/*
 * The smart rules applied to name, a name as normal demangling gives it:
 * a new string the caller frees (a copy of name when no rule applies),
 * or NULL when out of memory.
 */
char *pp_demangle_smart(const char *name);

#endif
