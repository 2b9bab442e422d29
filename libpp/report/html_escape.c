// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text into the HTML report: names as HTML text or attribute values,
 * and as JSON strings inside a <script> element.  Symbol names carry
 * '<', '>' and '&' (C++ templates, operators), and any name may hold
 * "</script>" or bytes below 0x20; neither may end an element or a
 * string early.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "libpp/report/report_int.h"

void pp_html_put(FILE *out, const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*p, out); break;
		}
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

void pp_json_put(FILE *out, const char *s)
{
	const unsigned char *p;

	fputc('"', out);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			/* '<' so that no "</script>" or "<!--" ends the element */
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}
