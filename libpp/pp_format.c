// SPDX-License-Identifier: GPL-2.0-or-later
/* Column writing, percentages and other shared report helpers. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/pp_report_int.h"
#include "libutil/op_alloc.h"

void pp_format_percent(char *buf, size_t size, double value, bool showpos)
{
	if (value == 0.0) {
		snprintf(buf, size, "%7s", "0");
		return;
	}
	if (fabs(value) > 0.001)
		snprintf(buf, size, showpos ? "%+7.4f" : "%7.4f", value);
	else
		snprintf(buf, size, showpos ? "%+7.1e" : "%7.1e", value);
	/* 100.0000 is shown with three decimals, as OProfile does */
	if (!strncmp(buf, "100.", 4) || !strncmp(buf, "+100.", 5))
		buf[strlen(buf) - 1] = '\0';
}

void pp_line_start(struct pp_line *l, FILE *out, const char *prefix)
{
	l->out = out;
	l->pad = 0;
	if (prefix)
		fputs(prefix, out);
}

void pp_line_field(struct pp_line *l, const char *s, size_t width)
{
	size_t len = strlen(s);

	fprintf(l->out, "%*s%s", (int)l->pad, "", s);
	l->pad = len < width ? width - len : 1;
}

void pp_line_hidden(struct pp_line *l, size_t width)
{
	l->pad += width;
}

void pp_line_end(struct pp_line *l)
{
	fputc('\n', l->out);
}

bool pp_over_threshold(const struct pp_report_opts *o, const uint64_t *counts,
		       const uint64_t *totals, size_t nr_classes)
{
	size_t c;

	if (o->threshold <= 0)
		return true;
	for (c = 0; c < nr_classes; c++)
		if (pp_ratio(counts[c], totals[c]) >= o->threshold)
			return true;
	return false;
}

static bool in_list(const char *const *list, const char *raw, const char *shown)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcmp(list[i], raw) || (shown && !strcmp(list[i], shown)) ||
		    !fnmatch(list[i], shown ? shown : raw, 0))
			return true;
	return false;
}

bool pp_symbol_selected(const struct pp_report_opts *o, const char *raw,
			const char *shown)
{
	if (o->include_symbols && !in_list(o->include_symbols, raw, shown))
		return false;
	if (o->exclude_symbols && in_list(o->exclude_symbols, raw, shown))
		return false;
	return true;
}

char *pp_symbol_display(const struct pp_sym *sym, enum pp_demangle_mode mode)
{
	char *d = NULL;

	if (!(sym->flags & PP_SYM_ARTIFICIAL))
		d = pp_demangle(sym->name, mode);
	return d ? d : op_xstrdup(sym->name);
}

void pp_linenr(struct op_strbuf *sb, struct pp_profile *p, size_t image,
	       uint64_t key, bool long_names)
{
	struct pp_symtab *t = pp_image_symtab(p, image);
	const char *file, *why;
	unsigned line;

	if (pp_symtab_line(t, key, &file, &line, &why) || !file) {
		op_strbuf_addstr(sb, "(no location information)");
		return;
	}
	if (!long_names && strrchr(file, '/'))
		file = strrchr(file, '/') + 1;
	op_strbuf_addf(sb, "%s:%u", file, line);
}

void pp_note(const struct pp_notes *n, const char *fmt, ...)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	va_list ap;

	if (!n || !n->warn)
		return;
	va_start(ap, fmt);
	op_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	n->warn(n->data, sb.buf);
	op_strbuf_release(&sb);
}
