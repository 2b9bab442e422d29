// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report's escaping: names with '<', '>', '&' and quotes (C++
 * templates and operators) as HTML text and attribute values, as the
 * text of a <pre> (bytes, NULs included), and as JSON strings inside a
 * <script> element, where "</script>" must not end the element; and
 * the built-in style sheet and scripts, which must not end their own
 * elements either; and the page of a fixture session: its flame graph's
 * data from the call-graph arcs, exactly, and its symbol table's rows.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/report/report_int.h"
#include "libpp/report/tests/pp_test_report.h"

struct escape_case {
	int line;
	const char *in;
	size_t in_len;		/* for the <pre> text; 0: strlen(in) */
	const char *html;	/* pp_html_put() */
	const char *pre;	/* pp_html_put_len() */
	const char *json;	/* pp_json_put() */
};

static const struct escape_case cases[] = {
	{ .line = __LINE__, .in = "main", .html = "main", .pre = "main",
	  .json = "\"main\"" },
	{ .line = __LINE__, .in = "",
	  .html = "", .pre = "", .json = "\"\"" },
	{ .line = __LINE__, .in = "std::vector<int, std::allocator<int> >::push_back",
	  .html = "std::vector&lt;int, std::allocator&lt;int&gt; &gt;::push_back",
	  .pre = "std::vector&lt;int, std::allocator&lt;int&gt; &gt;::push_back",
	  .json = "\"std::vector\\u003cint, std::allocator\\u003cint\\u003e "
		  "\\u003e::push_back\"" },
	{ .line = __LINE__, .in = "operator&&(a, b)",
	  .html = "operator&amp;&amp;(a, b)", .pre = "operator&amp;&amp;(a, b)",
	  .json = "\"operator\\u0026\\u0026(a, b)\"" },
	{ .line = __LINE__, .in = "x</script><script>alert(1)</script>",
	  .html = "x&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
	  .pre = "x&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
	  .json = "\"x\\u003c/script\\u003e\\u003cscript\\u003ealert(1)"
		  "\\u003c/script\\u003e\"" },
	{ .line = __LINE__, .in = "say \"hi\" 'x'",
	  .html = "say &quot;hi&quot; &#39;x&#39;", .pre = "say \"hi\" 'x'",
	  .json = "\"say \\\"hi\\\" 'x'\"" },
	{ .line = __LINE__, .in = "a\\b\tc\nd",
	  .html = "a\\b\tc\nd", .pre = "a\\b\tc\nd",
	  .json = "\"a\\\\b\\u0009c\\u000ad\"" },
	{ .line = __LINE__, .in = "\xc3\xa9t\xc3\xa9",		/* UTF-8 kept */
	  .html = "\xc3\xa9t\xc3\xa9", .pre = "\xc3\xa9t\xc3\xa9",
	  .json = "\"\xc3\xa9t\xc3\xa9\"" },
	{ .line = __LINE__, .in = "a\0<b", .in_len = 4,		/* a NUL in a file */
	  .html = "a", .pre = "a &lt;b", .json = "\"a\"" },
	{ .line = __LINE__, .in = "<!--",
	  .html = "&lt;!--", .pre = "&lt;!--", .json = "\"\\u003c!--\"" },
};

/* what fn wrote for c, NUL-ended; the caller frees it */
static char *written(const struct escape_case *c, int which)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (which == 0)
		pp_html_put(f, c->in);
	else if (which == 1)
		pp_html_put_len(f, c->in, c->in_len ? c->in_len : strlen(c->in));
	else
		pp_json_put(f, c->in);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_escapes(void **state)
{
	size_t i;
	int w;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct escape_case *c = &cases[i];
		const char *want[] = { c->html, c->pre, c->json };
		static const char *const what[] = { "html", "pre", "json" };

		for (w = 0; w < 3; w++) {
			char *got = written(c, w);

			if (strcmp(got, want[w]))
				fail_msg("line %d, %s: got '%s', want '%s'", c->line,
					 what[w], got, want[w]);
			free(got);
		}
	}
}

/* no asset may end its element early, and each is there */
static void test_assets(void **state)
{
	static const struct {
		const char *name;
		const char *text;
		const char *end;	/* what must not occur in it */
		const char *has;	/* what it must hold */
	} assets[] = {
		{ "report.css", pp_html_css, "</style", "#flame-canvas" },
		{ "guard.js", pp_html_guard_js, "</script", "unhandledrejection" },
		{ "report.js", pp_html_js, "</script", "flame-state" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(assets) / sizeof(assets[0]); i++) {
		if (strlen(assets[i].text) < 100)
			fail_msg("%s is empty", assets[i].name);
		if (strstr(assets[i].text, assets[i].end) ||
		    strstr(assets[i].text, "<!--"))
			fail_msg("%s ends its element early", assets[i].name);
		if (!strstr(assets[i].text, assets[i].has))
			fail_msg("%s lacks '%s'", assets[i].name, assets[i].has);
	}
}

/*
 * The page of session "s"'s kernel samples (alpha 500, beta 200, delta
 * 50; calls delta -> alpha 20, delta -> beta 10, alpha -> beta 30): no
 * stack file, so the flame graph comes from the arcs, each function's
 * own samples under its callers (beta's 200 split 30:10 between alpha
 * and delta: 150 and 50); the symbol table's rows are -l's.
 */
static void test_page(void **state)
{
	static const char *const spec[] = { PP_TEST_K_ONLY, NULL };
	static const char *const want[] = {
		"<!DOCTYPE html>",
		"Built from call-graph arcs only: the session has no stack file",
		"\"source\":\"arcs\",\"total\":750,",
		"<td class=\"n\">500</td><td class=\"n\">66.6667</td>"
		"<td>no-vmlinux</td><td class=\"sym\">alpha</td>",
		"<td class=\"n\">50</td><td class=\"n\"> 6.6667</td>"
		"<td>no-vmlinux</td><td class=\"sym\">delta</td>",
		"<div id=\"flame-state\" hidden></div>",
		"</html>\n",
	};
	struct pp_test_fixture *f = *state;
	struct pp_test_profile t;
	struct pp_test_profile *tp = &t;
	struct pp_report_opts o = { 0 };
	struct op_err err = { 0 };
	char *text = NULL;
	size_t i;

	pp_test_fixture_profile(&t, f, "s", spec, 0);
	assert_int_equal(pp_test_report_run("html", &tp, 1, &o, &text, &err), 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(text, want[i]))
			fail_msg("the page lacks '%s'", want[i]);
	/*
	 * names in the order first met; nodes (name, parent, self): all,
	 * no-vmlinux, delta 50 under it, alpha 500 under delta (its one
	 * caller), alpha as beta's caller, beta 150 under alpha and 50
	 * under delta
	 */
	if (!strstr(text, "\"names\":[\"all\",\"no-vmlinux\",\"delta\",\"alpha\","
		    "\"beta\"],\n\"nodes\":[" "0,-1,0," "1,0,0," "2,1,50," "3,2,500,"
		    "3,1,0," "4,4,150," "4,2,50" "]}"))
		fail_msg("the flame graph's data is not as expected: %s",
			 strstr(text, "\"names\":"));
	free(text);
	pp_test_profile_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_assets),
	};
	const struct CMUnitTest page_tests[] = {
		cmocka_unit_test(test_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) |
	       cmocka_run_group_tests(page_tests, pp_test_fixture_setup,
				      pp_test_fixture_teardown);
}
