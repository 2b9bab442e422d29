// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing XML as OProfile 1.4's opreport writes it (xml.c): escaping,
 * attributes with OProfile's spacing, counts.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "libpp/report/report_int.h"

/*
 * What stands for byte c in an attribute value or text, or NULL when c is
 * written as it is.  XML 1.0 cannot carry the other control characters,
 * even as references: they become '?'.
 */
static const char *entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\t':
		return "&#9;";
	case '\n':
		return "&#10;";
	case '\r':
		return "&#13;";
	default:
		return c < 0x20 || c == 0x7f ? "?" : NULL;
	}
}

/* the bytes that entity() rewrites (ASCII; the rest are 0) */
static const unsigned char special[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
};

void pp_xml_add_escaped(struct op_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		const char *e = entity((unsigned char)*s);

		if (e)
			op_strbuf_addstr(sb, e);
		else
			op_strbuf_addch(sb, *s);
	}
}

void pp_xml_put_escaped(FILE *out, const char *s)
{
	const char *run = s;

	/* plain runs in one write: names are long and rarely need escapes */
	for (; *s; s++) {
		if (!special[(unsigned char)*s])
			continue;
		fwrite(run, 1, (size_t)(s - run), out);
		fputs(entity((unsigned char)*s), out);
		run = s + 1;
	}
	fwrite(run, 1, (size_t)(s - run), out);
}

/* ' name="' */
void pp_xml_attr_start(FILE *out, const char *name)
{
	fputc(' ', out);
	fputs(name, out);
	fputs("=\"", out);
}

/* ' name="value"', value escaped */
void pp_xml_attr_str(FILE *out, const char *name, const char *value)
{
	pp_xml_attr_start(out, name);
	pp_xml_put_escaped(out, value);
	fputc('"', out);
}

/* value in decimal, without printf: reports write hundreds of thousands */
void pp_xml_put_u64(FILE *out, uint64_t value)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	fwrite(buf + i, 1, sizeof(buf) - i, out);
}

void pp_xml_attr_u64(FILE *out, const char *name, uint64_t value)
{
	pp_xml_attr_start(out, name);
	pp_xml_put_u64(out, value);
	fputc('"', out);
}

void pp_xml_vma_text(const struct pp_xml *x, char *buf, size_t size, uint64_t vma)
{
	snprintf(buf, size, x->vma64 ? "%016" PRIx64 : "%08" PRIx64, vma);
}

/*
 * The <count> elements of counts over classes lo..hi, one per class with
 * samples (OProfile leaves zero counts out).
 */
void pp_xml_put_counts(struct pp_xml *x, const uint64_t *counts, size_t lo, size_t hi)
{
	size_t c;

	for (c = lo; c <= hi; c++) {
		if (!counts[c])
			continue;
		if (x->class_names) {
			fputs("<count  class=\"", x->out);
			fputs(x->class_names[c], x->out);
			fputs("\">\n", x->out);
		} else {
			fputs("<count>\n", x->out);
		}
		pp_xml_put_u64(x->out, counts[c]);
		fputs("</count>\n", x->out);
	}
}
