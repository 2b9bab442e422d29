// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report's escaping: names with '<', '>', '&' and quotes (C++
 * templates and operators) as HTML text and attribute values, as the
 * text of a <pre> (bytes, NULs included), and as JSON strings inside a
 * <script> element, where "</script>" must not end the element; and
 * the built-in style sheet and scripts, which must not end their own
 * elements either.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_assets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
