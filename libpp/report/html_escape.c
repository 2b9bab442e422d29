// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text into the HTML report: names as HTML text or attribute values,
 * and as JSON strings inside a <script> element.  Symbol names carry
 * '<', '>' and '&' (C++ templates, operators), and any name may hold
 * "</script>" or bytes below 0x20; neither may end an element or a
 * string early.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "libpp/report/report_int.h"

/* the entity of an HTML special character c */
static const char *html_entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	default: return "&#39;";
	}
}

void pp_html_put(FILE *out, const char *s)
{
	size_t run;

	/* the runs between the characters to escape, each in one write */
	for (;;) {
		run = strcspn(s, "&<>\"'");
		fwrite(s, 1, run, out);
		if (!s[run])
			return;
		fputs(html_entity(s[run]), out);
		s += run + 1;
	}
}

void pp_html_put_len(FILE *out, const char *s, size_t len)
{
	size_t at = 0, i;

	/* the text may hold NUL bytes (a source file): copy runs between
	 * the characters to escape */
	for (i = 0; i < len; i++) {
		const char *rep = s[i] == '&' ? "&amp;" : s[i] == '<' ? "&lt;" :
				  s[i] == '>' ? "&gt;" : s[i] == '\0' ? " " : NULL;

		if (!rep)
			continue;
		fwrite(s + at, 1, i - at, out);
		fputs(rep, out);
		at = i + 1;
	}
	fwrite(s + at, 1, len - at, out);
}

/* does byte c need an escape in a JSON string inside <script>? */
static bool json_special(unsigned char c)
{
	/* '<' so that no "</script>" or "<!--" ends the element */
	return c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&';
}

void pp_json_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;

	fputc('"', out);
	for (;;) {
		for (run = p; *p && !json_special(*p); p++)
			;
		fwrite(run, 1, (size_t)(p - run), out);
		if (!*p)
			break;
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else
			fprintf(out, "\\u%04x", *p);
		p++;
	}
	fputc('"', out);
}
