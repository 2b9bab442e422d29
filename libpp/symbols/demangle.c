// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C++ demangling (pp_demangle.h) with libiberty's cplus_demangle(), and
 * the rewrite rules of --demangle=smart.
 *
 * Smart demangling is data: each rule below is a pattern and its
 * replacement.  In a pattern "$A".."$Z" stands for one template argument
 * (balanced <>, (), [], no top-level comma); a letter used twice must
 * match the same text both times, and the replacement repeats what it
 * matched.  A rule matches only where a name starts (not after a letter,
 * digit, '_' or ':'), and rules are applied until none matches, so
 * std::vector<std::__cxx11::basic_string<char, ...> > becomes
 * std::vector<std::string> over two passes, and then, as OProfile 1.4's
 * smart names go, vector<string>: "std::" is dropped where a name
 * starts.  The space libiberty puts between two closing '>' goes when
 * the first one is rewritten away.
 * OProfile kept such rules in a data file (libregex/stl.pat.in); these
 * are the spellings g++ and libiberty produce today.
 *
 * Only names that are printed are demangled, by the caller.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBIBERTY_DEMANGLE_H
#include <libiberty/demangle.h>
#else
#include <demangle.h>
#endif

#include "libpp/symbols/pp_demangle.h"
#include "libutil/op_alloc.h"
#include "libutil/op_strbuf.h"

#define TRAITS(c) "std::char_traits<" c "> >"

struct smart_rule {
	const char *pattern;
	const char *replacement;
};

static const struct smart_rule smart_rules[] = {
	/* the C++11 ABI's inline namespace tells a reader nothing */
	{ "std::__cxx11::", "std::" },
	{ "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
	  "std::string" },
	{ "std::basic_string<wchar_t, std::char_traits<wchar_t>, std::allocator<wchar_t> >",
	  "std::wstring" },
	{ "std::basic_string_view<char, " TRAITS("char"), "std::string_view" },
	{ "std::basic_ostream<char, " TRAITS("char"), "std::ostream" },
	{ "std::basic_istream<char, " TRAITS("char"), "std::istream" },
	{ "std::basic_iostream<char, " TRAITS("char"), "std::iostream" },
	{ "std::basic_ios<char, " TRAITS("char"), "std::ios" },
	{ "std::basic_streambuf<char, " TRAITS("char"), "std::streambuf" },
	{ "std::basic_filebuf<char, " TRAITS("char"), "std::filebuf" },
	{ "std::basic_ifstream<char, " TRAITS("char"), "std::ifstream" },
	{ "std::basic_ofstream<char, " TRAITS("char"), "std::ofstream" },
	{ "std::basic_fstream<char, " TRAITS("char"), "std::fstream" },
	{ "std::basic_stringbuf<char, std::char_traits<char>, std::allocator<char> >",
	  "std::stringbuf" },
	{ "std::basic_stringstream<char, std::char_traits<char>, std::allocator<char> >",
	  "std::stringstream" },
	{ "std::basic_istringstream<char, std::char_traits<char>, std::allocator<char> >",
	  "std::istringstream" },
	{ "std::basic_ostringstream<char, std::char_traits<char>, std::allocator<char> >",
	  "std::ostringstream" },
	/* containers with the default allocator, comparator and hash */
	{ "std::vector<$T, std::allocator<$T> >", "std::vector<$T>" },
	{ "std::list<$T, std::allocator<$T> >", "std::list<$T>" },
	{ "std::deque<$T, std::allocator<$T> >", "std::deque<$T>" },
	{ "std::forward_list<$T, std::allocator<$T> >", "std::forward_list<$T>" },
	{ "std::set<$T, std::less<$T>, std::allocator<$T> >", "std::set<$T>" },
	{ "std::multiset<$T, std::less<$T>, std::allocator<$T> >", "std::multiset<$T>" },
	{ "std::map<$K, $V, std::less<$K>, std::allocator<std::pair<$K const, $V> > >",
	  "std::map<$K, $V>" },
	{ "std::multimap<$K, $V, std::less<$K>, std::allocator<std::pair<$K const, $V> > >",
	  "std::multimap<$K, $V>" },
	{ "std::unordered_map<$K, $V, std::hash<$K>, std::equal_to<$K>, "
	  "std::allocator<std::pair<$K const, $V> > >",
	  "std::unordered_map<$K, $V>" },
	{ "std::unordered_set<$T, std::hash<$T>, std::equal_to<$T>, std::allocator<$T> >",
	  "std::unordered_set<$T>" },
	{ "std::stack<$T, std::deque<$T> >", "std::stack<$T>" },
	{ "std::queue<$T, std::deque<$T> >", "std::queue<$T>" },
	{ "std::unique_ptr<$T, std::default_delete<$T> >", "std::unique_ptr<$T>" },
};

#define MAX_PASSES 16

struct bindings {
	const char *text[26];
	size_t len[26];
};

static bool is_var(const char *p)
{
	return p[0] == '$' && p[1] >= 'A' && p[1] <= 'Z';
}

/* past one balanced unit of a template argument at s, or s at its end */
static const char *arg_step(const char *s)
{
	int depth = 0;

	do {
		switch (*s) {
		case '\0':
			return s;
		case '<': case '(': case '[':
			depth++;
			break;
		case '>': case ')': case ']':
			if (!depth)
				return s;
			depth--;
			break;
		case ',':
			if (!depth)
				return s;
			break;
		}
		s++;
	} while (depth);
	return s;
}

/* the end of pat matched at s, or NULL */
static const char *match(const char *pat, const char *s, struct bindings *b)
{
	while (*pat && !is_var(pat)) {
		/* libiberty writes "> >": a variable may end in '>' */
		if (*pat == '>' && s[0] == ' ' && s[1] == '>' && s[-1] == '>')
			s++;
		if (*pat++ != *s++)
			return NULL;
	}
	if (!*pat)
		return s;
	{
		int v = pat[1] - 'A';
		const char *end, *next, *r;

		if (b->text[v]) {
			if (strncmp(s, b->text[v], b->len[v]))
				return NULL;
			return match(pat + 2, s + b->len[v], b);
		}
		/* the shortest argument after which the rest matches */
		for (end = s; (next = arg_step(end)) > end; end = next) {
			b->text[v] = s;
			b->len[v] = (size_t)(next - s);
			r = match(pat + 2, next, b);
			if (r)
				return r;
		}
		b->text[v] = NULL;
		return NULL;
	}
}

/* the replacement, in libiberty's style: "> >", never ">>" */
static void substitute(struct op_strbuf *sb, const char *rep,
		       const struct bindings *b)
{
	for (; *rep; rep++) {
		if (is_var(rep) && b->text[rep[1] - 'A']) {
			op_strbuf_add(sb, b->text[rep[1] - 'A'], b->len[rep[1] - 'A']);
			rep++;
			continue;
		}
		if (*rep == '>' && sb->len && sb->buf[sb->len - 1] == '>')
			op_strbuf_addch(sb, ' ');
		op_strbuf_addch(sb, *rep);
	}
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == ':';
}

/*
 * One pass of every rule over in; true when something was rewritten.
 * Every pattern starts with RULE_START, so the text between two of its
 * occurrences is copied as it is.
 */
#define RULE_START "std::"

static bool smart_pass(const char *in, struct op_strbuf *out)
{
	const char *p = in;
	bool changed = false;
	size_t i;

	while (*p) {
		const char *end = NULL, *next = strstr(p, RULE_START);

		if (!next) {
			op_strbuf_addstr(out, p);
			break;
		}
		op_strbuf_add(out, p, (size_t)(next - p));
		p = next;
		/* a rule matches only where a name starts */
		for (i = 0; !(p > in && name_char(p[-1])) &&
			    i < sizeof(smart_rules) / sizeof(smart_rules[0]); i++) {
			struct bindings b;

			memset(b.text, 0, sizeof(b.text));
			end = match(smart_rules[i].pattern, p, &b);
			if (end) {
				substitute(out, smart_rules[i].replacement, &b);
				break;
			}
		}
		if (end) {
			/* "<std::string >": the space only kept '>' from a '>' */
			if (end[0] == ' ' && end[1] == '>' && out->len &&
			    out->buf[out->len - 1] != '>')
				end++;
			p = end;
			changed = true;
		} else {
			op_strbuf_addch(out, *p++);
		}
	}
	return changed;
}

/*
 * The last step, as OProfile 1.4's smart names go: "std::" dropped
 * where a name starts (vector<long> for std::vector<long>); "mystd::"
 * and "a::std::" stay
 */
static void drop_std(const char *in, struct op_strbuf *out)
{
	const char *p = in, *hit;

	while ((hit = strstr(p, RULE_START))) {
		op_strbuf_add(out, p, (size_t)(hit - p));
		if (hit == in || !name_char(hit[-1]))
			p = hit + strlen(RULE_START);
		else {
			op_strbuf_add(out, hit, strlen(RULE_START));
			p = hit + strlen(RULE_START);
		}
	}
	op_strbuf_addstr(out, p);
}

char *pp_demangle_smart(const char *name)
{
	struct op_strbuf a = OP_STRBUF_INIT, b = OP_STRBUF_INIT;
	int pass;

	op_strbuf_addstr(&a, name);
	for (pass = 0; pass < MAX_PASSES; pass++) {
		bool changed;

		op_strbuf_reset(&b);
		changed = smart_pass(a.buf, &b);
		if (!changed || op_strbuf_failed(&b))
			break;
		op_strbuf_reset(&a);
		op_strbuf_add(&a, b.buf, b.len);
	}
	op_strbuf_reset(&b);
	drop_std(a.buf ? a.buf : "", &b);
	op_strbuf_reset(&a);
	op_strbuf_add(&a, b.buf ? b.buf : "", b.len);
	if (op_strbuf_failed(&a) || op_strbuf_failed(&b)) {
		op_strbuf_release(&b);
		op_strbuf_release(&a);
		return op_strdup(name);	/* demangled but not shortened, or NULL */
	}
	op_strbuf_release(&b);
	return op_strbuf_detach(&a);
}

int pp_demangle_mode_parse(const char *s, enum pp_demangle_mode *mode)
{
	if (!strcmp(s, "none"))
		*mode = PP_DEMANGLE_NONE;
	else if (!strcmp(s, "normal"))
		*mode = PP_DEMANGLE_NORMAL;
	else if (!strcmp(s, "smart"))
		*mode = PP_DEMANGLE_SMART;
	else
		return -EINVAL;
	return 0;
}

char *pp_demangle(const char *name, enum pp_demangle_mode mode)
{
	char *d, *r;

	if (mode == PP_DEMANGLE_NONE || name[0] != '_')
		return NULL;
	/*
	 * Itanium C++ names go straight to the v3 demangler: cplus_demangle()
	 * would also try other languages' schemes on every name it fails.
	 */
	if (name[1] == 'Z')
		d = cplus_demangle_v3(name, DMGL_PARAMS | DMGL_ANSI);
	else
		d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
	if (!d || mode != PP_DEMANGLE_SMART || !strstr(d, RULE_START))
		return d;	/* malloc()ed by libiberty: the caller free()s it */
	r = pp_demangle_smart(d);
	free(d);
	return r;
}
