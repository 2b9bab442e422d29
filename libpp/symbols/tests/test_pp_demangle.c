// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pp_demangle: mode names, and rows of (mode, raw name, shown name) for
 * none, normal and smart, including names that are not mangled.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/symbols/pp_demangle.h"

#define MAP_STRING "std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, int, std::less<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >, std::allocator<std::pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const, int> > >"

struct row {
	int line;
	enum pp_demangle_mode mode;
	const char *raw;
	const char *shown;	/* NULL: shown as it is */
};

static const struct row rows[] = {
	/* none never demangles */
	{ .line = __LINE__, .mode = PP_DEMANGLE_NONE, .raw = "_Z3fooi", .shown = NULL },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NONE, .raw = "main", .shown = NULL },
	/* normal: parameters, const, as libiberty spells them */
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "_Z3fooi", .shown = "foo(int)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "main", .shown = NULL },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "_Zfoo", .shown = NULL },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "", .shown = NULL },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "_start", .shown = NULL },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "_ZNSt6vectorIiSaIiEE9push_backERKi",
	  .shown = "std::vector<int, std::allocator<int> >::push_back(int const&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL,
	  .raw = "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv",
	  .shown = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::size() const" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL,
	  .raw = "_Z2f1RSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiSt4lessIS5_ESaISt4pairIKS5_iEEE",
	  .shown = "f1(" MAP_STRING "&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_NORMAL, .raw = "_ZN2v88internal3Foo3barEv.cold",
	  .shown = "v8::internal::Foo::bar() [clone .cold]" },
	/* smart: the standard library's long spellings shortened, and std::
	 * dropped where a name starts, as OProfile 1.4 shows them */
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "main", .shown = NULL },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "_Z3fooi", .shown = "foo(int)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "_ZNSt6vectorIiSaIiEE9push_backERKi",
	  .shown = "vector<int>::push_back(int const&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART,
	  .raw = "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv",
	  .shown = "string::size() const" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART,
	  .raw = "_Z2f1RSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiSt4lessIS5_ESaISt4pairIKS5_iEEE",
	  .shown = "f1(map<string, int>&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART,
	  .raw = "_Z2f2RSt6vectorINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESaIS5_EE",
	  .shown = "f2(vector<string>&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART,
	  .raw = "_Z2f3RSt13unordered_mapIiSt6vectorIiSaIiEESt4hashIiESt8equal_toIiESaISt4pairIKiS2_EEE",
	  .shown = "f3(unordered_map<int, vector<int> >&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART,
	  .raw = "_Z2f4RSt10unique_ptrISt3mapIiiSt4lessIiESaISt4pairIKiiEEESt14default_deleteIS7_EE",
	  .shown = "f4(unique_ptr<map<int, int> >&)" },
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "_Z2f5RSo", .shown = "f5(ostream&)" },
	/* a vector with a non-default allocator keeps it */
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "_Z1gRSt6vectorIi5AllocE",
	  .shown = "g(vector<int, Alloc>&)" },
	/* nested: the inner vector first, then the outer one sees it */
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "_Z1hRSt6vectorIS_IiSaIiEESaIS1_EE",
	  .shown = "h(vector<vector<int> >&)" },
	/* only whole names: a namespace ending in "std" is left alone */
	{ .line = __LINE__, .mode = PP_DEMANGLE_SMART, .raw = "_ZN5mystd6vectorIiSaIiEE3fooEv",
	  .shown = "mystd::vector<int, allocator<int> >::foo()" },
};

static void test_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		char *got = pp_demangle(r->raw, r->mode);

		if (!r->shown && got)
			fail_msg("row at line %d: '%s' shown as '%s', expected as it is",
				 r->line, r->raw, got);
		if (r->shown && (!got || strcmp(got, r->shown)))
			fail_msg("row at line %d: '%s' shown as '%s', expected '%s'",
				 r->line, r->raw, got ? got : "(as it is)", r->shown);
		free(got);
	}
}

static void test_mode_parse(void **state)
{
	static const struct {
		int line;
		const char *s;
		int ret;
		enum pp_demangle_mode mode;
	} cases[] = {
		{ .line = __LINE__, .s = "none", .ret = 0, .mode = PP_DEMANGLE_NONE },
		{ .line = __LINE__, .s = "normal", .ret = 0, .mode = PP_DEMANGLE_NORMAL },
		{ .line = __LINE__, .s = "smart", .ret = 0, .mode = PP_DEMANGLE_SMART },
		{ .line = __LINE__, .s = "Smart", .ret = -EINVAL },
		{ .line = __LINE__, .s = "", .ret = -EINVAL },
		{ .line = __LINE__, .s = "normal ", .ret = -EINVAL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum pp_demangle_mode mode = PP_DEMANGLE_SMART;
		int ret = pp_demangle_mode_parse(cases[i].s, &mode);

		if (ret != cases[i].ret || (!ret && mode != cases[i].mode))
			fail_msg("row at line %d: '%s' gave %d, mode %d", cases[i].line,
				 cases[i].s, ret, (int)mode);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_mode_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
