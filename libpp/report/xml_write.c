// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing XML as OProfile 1.4's opreport writes it (xml.c): escaping,
 * attributes with OProfile's spacing, counts.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_stats.h"

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

/*
 * Does the 8-byte word w hold a byte that needs escaping (below 0x20, 0x7f,
 * '"', '&', '<', '>')?  Bit tricks on the whole word: a byte b
 * is flagged by (b - c) & ~b & 0x80 for the bytes equal to c (the
 * classic zero-byte test on w ^ c), and by (b - 0x20) & ~b & 0x80 for b
 * below 0x20.  False positives are possible, misses are not.
 */
static bool word_special(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t hit = (w - 0x20 * ones) & ~w;

	hit |= ((w ^ 0x7f * ones) - ones) & ~(w ^ 0x7f * ones);
	hit |= ((w ^ 0x22 * ones) - ones) & ~(w ^ 0x22 * ones);
	hit |= ((w ^ 0x26 * ones) - ones) & ~(w ^ 0x26 * ones);
	hit |= ((w ^ 0x3c * ones) - ones) & ~(w ^ 0x3c * ones);
	hit |= ((w ^ 0x3e * ones) - ones) & ~(w ^ 0x3e * ones);
	return (hit & highs) != 0;
}

void pp_xml_put_escaped(struct pp_out *out, const char *s)
{
	const char *run = s, *end = s + strlen(s);

	/* plain runs in one write: names are long and rarely need escapes */
	while (end - s >= 8) {
		uint64_t w;

		memcpy(&w, s, sizeof(w));
		if (word_special(w))
			break;
		s += sizeof(w);
	}
	for (; *s; s++) {
		if (!special[(unsigned char)*s])
			continue;
		pp_out_add(out, run, (size_t)(s - run));
		pp_out_str(out, entity((unsigned char)*s));
		run = s + 1;
	}
	pp_out_add(out, run, (size_t)(s - run));
}

/* ' name="' */
void pp_xml_attr_start(struct pp_out *out, const char *name)
{
	pp_out_ch(out, ' ');
	pp_out_str(out, name);
	pp_out_str(out, "=\"");
}

/* ' name="value"', value escaped */
void pp_xml_attr_str(struct pp_out *out, const char *name, const char *value)
{
	pp_xml_attr_start(out, name);
	pp_xml_put_escaped(out, value);
	pp_out_ch(out, '"');
}

void pp_xml_attr_u64(struct pp_out *out, const char *name, uint64_t value)
{
	pp_xml_attr_start(out, name);
	pp_out_u64(out, value);
	pp_out_ch(out, '"');
}

void pp_xml_vma_text(const struct pp_xml *x, char *buf, size_t size, uint64_t vma)
{
	pp_format_vma(buf, size, vma, x->vma64);
}

/* a then b at buf + at, within size; the new length */
static size_t put_attr(char *buf, size_t size, size_t at, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (at + la + lb + 1 > size)
		return at;
	memcpy(buf + at, a, la);
	memcpy(buf + at + la, b, lb);
	buf[at + la + lb] = '\0';
	return at + la + lb;
}

void pp_xml_interval_attrs(char *buf, size_t size, const struct pp_xml *x,
			   uint64_t count, size_t c)
{
	char l[32], h[32];
	double lo, hi;
	size_t n;

	if (!(x->o->confidence > 0)) {
		if (size)
			buf[0] = '\0';
		return;
	}
	op_wilson(count, x->s->totals[c], x->o->z, &lo, &hi);
	/* as the text report prints them, without its padding; no printf:
	 * a report may have a million counts */
	pp_format_percent(l, sizeof(l), lo * 100.0, false);
	pp_format_percent(h, sizeof(h), hi * 100.0, false);
	if (!size)
		return;
	buf[0] = '\0';
	n = put_attr(buf, size, 0, " low=\"", l + strspn(l, " "));
	put_attr(buf, size, n, "\" high=\"", h + strspn(h, " "));
	n = strlen(buf);
	if (n + 1 < size) {
		buf[n] = '"';
		buf[n + 1] = '\0';
	}
}

/* each metric's opening tags, precise and imprecise, made once */
static void make_metric_tags(struct pp_xml *x)
{
	const struct pp_metrics *ms = &x->s->metrics;
	size_t k;

	x->metric_tags = op_xcalloc(2 * ms->nr, sizeof(*x->metric_tags));
	for (k = 0; k < 2 * ms->nr; k++) {
		struct op_strbuf *sb = &x->metric_tags[k];

		op_strbuf_init(sb);
		op_strbuf_addstr(sb, "<metric name=\"");
		pp_xml_add_escaped(sb, ms->m[k / 2].name);
		op_strbuf_addstr(sb, k % 2 ? "\" imprecise=\"true\">" : "\">");
		if (op_strbuf_failed(sb))
			op_die(1, "out of memory");
	}
}

void pp_xml_release_metric_tags(struct pp_xml *x)
{
	size_t k;

	for (k = 0; x->metric_tags && k < 2 * x->s->metrics.nr; k++)
		op_strbuf_release(&x->metric_tags[k]);
	free(x->metric_tags);
	x->metric_tags = NULL;
}

/*
 * --metric's <metric name="CPI">1.234</metric> of an element's counts,
 * imprecise="true" when an event has few samples; none for an undefined
 * one (a division by zero)
 */
static void put_metrics(struct pp_xml *x, const uint64_t *counts)
{
	static const char end[] = "</metric>\n";
	const struct pp_metrics *ms = &x->s->metrics;
	char buf[64];
	size_t k;

	if (!x->metric_tags)
		make_metric_tags(x);
	for (k = 0; k < ms->nr; k++) {
		const struct op_strbuf *tag;
		bool imprecise;
		double v = pp_metric_value(ms, k, counts, &imprecise);

		if (isnan(v) || isinf(v))
			continue;
		tag = &x->metric_tags[2 * k + (imprecise ? 1 : 0)];
		pp_out_add(x->out, tag->buf, tag->len);
		pp_out_add(x->out, buf, pp_metric_g6(buf, sizeof(buf), v));
		pp_out_add(x->out, end, sizeof(end) - 1);
	}
}

/*
 * The <count> elements of counts over classes lo..hi, one per class with
 * samples (OProfile leaves zero counts out); with --confidence each with
 * its share's interval.
 */
void pp_xml_put_counts(struct pp_xml *x, const uint64_t *counts, size_t lo, size_t hi)
{
	char iv[96];
	size_t c;

	for (c = lo; c <= hi; c++) {
		if (!counts[c])
			continue;
		pp_xml_interval_attrs(iv, sizeof(iv), x, counts[c], c);
		if (x->class_names) {
			pp_out_str(x->out, "<count  class=\"");
			pp_out_str(x->out, x->class_names[c]);
			pp_out_str(x->out, "\"");
			pp_out_str(x->out, iv);
			pp_out_str(x->out, ">\n");
		} else {
			pp_out_str(x->out, "<count");
			pp_out_str(x->out, iv);
			pp_out_str(x->out, ">\n");
		}
		pp_out_u64(x->out, counts[c]);
		pp_out_str(x->out, "</count>\n");
	}
	if (!x->s->metrics.nr)
		return;
	if (lo == 0 && hi + 1 == x->p->nr_classes) {
		put_metrics(x, counts);
	} else {
		/* a process's or thread's own classes: the others count 0 */
		uint64_t *own = op_xcalloc(x->p->nr_classes + 1, sizeof(*own));

		memcpy(own + lo, counts + lo, (hi - lo + 1) * sizeof(*own));
		put_metrics(x, own);
		free(own);
	}
}
