// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=html: the report as one self-contained page.  The
 * run's header and notes, a flame graph (html_flame.c), the symbol
 * table and the image summary (html_tables.c), and the annotated
 * assembly with source of the hottest symbols, as opannotate -a -s
 * writes it.  The style sheet and the scripts are the files of html/,
 * built into this program (html_assets.c): the page loads nothing from
 * anywhere.  Every name is escaped (html_escape.c).  -t selects the rows
 * of the tables; the flame graph keeps every stack, its shares of every
 * sample.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

/* how many of the hottest symbols are annotated */
#define NR_ANNOTATED 5

/*
 * What fn writes to a stream, as escaped HTML text; without a comment
 * block it starts with when skip_comment (the annotation's title block,
 * which the page has once)
 */
static void put_captured(FILE *out, void (*fn)(FILE *f, void *data), void *data,
			 bool skip_comment)
{
	char *buf = NULL, *end;
	size_t len = 0, at = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		op_die(1, "out of memory");
	fn(f, data);
	if (fclose(f))
		op_die(1, "out of memory");
	if (skip_comment && len > 3 && !strncmp(buf, "/* ", 3)) {
		end = strstr(buf, "\n */\n");
		at = end ? (size_t)(end - buf) + 5 : 0;
	}
	pp_html_put_len(out, buf + at, len - at);
	free(buf);
}

static void put_head(FILE *out, const struct pp_report *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", out);
	pp_html_put(out, r->o->command_line ? r->o->command_line : "opreport");
	fputs("</title>\n<style>\n", out);
	fputs(pp_html_css, out);
	fputs("</style>\n<script>\n", out);
	fputs(pp_html_guard_js, out);
	fputs("</script>\n</head>\n<body>\n"
	      "<div id=\"errors\" class=\"errors\" hidden></div>\n"
	      "<nav><a href=\"#flame\">Flame graph</a> <a href=\"#symbols\">Symbols</a> "
	      "<a href=\"#images\">Images</a> <a href=\"#annotation\">Annotation</a> "
	      "<a href=\"#notes\">Notes</a></nav>\n", out);
}

static void header_text(FILE *f, void *data)
{
	struct pp_report *r = data;
	struct pp_side *s = &r->sides[0];

	pp_report_header(f, s->p, r->info, r->o);
	pp_confidence_header(f, r, s);
	pp_outside_header(f, r, s);
}

/* what the recorder lost: samples, call-graph arcs, throttled events */
static void put_lost(FILE *out, const struct pp_session_info *info)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	uint64_t arcs = odb_stats_lost_arcs(&info->stats);
	size_t i;

	if (odb_stats_describe_lost(&info->stats, &sb))
		op_die(1, "out of memory");
	if (sb.len)
		op_strbuf_addch(&sb, '\n');
	if (arcs)
		op_strbuf_addf(&sb, "%" PRIu64 " call-graph arc%s not recorded: %s "
			       "caller was in no known mapping (%s samples were "
			       "recorded)\n", arcs, arcs == 1 ? " was" : "s were",
			       arcs == 1 ? "its" : "their", arcs == 1 ? "its" : "their");
	for (i = 0; i < info->stats.nr_throttled; i++)
		op_strbuf_addf(&sb, "the kernel throttled event '%s': fewer samples "
			       "than its rate asks for\n", info->stats.throttled[i]);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	if (sb.len) {
		fputs("<pre class=\"warn\" id=\"lost\">", out);
		pp_html_put(out, sb.buf);
		fputs("</pre>\n", out);
	}
	op_strbuf_release(&sb);
}

static void put_header(FILE *out, struct pp_report *r)
{

	fputs("<header>\n<h1>Profile</h1>\n", out);
	if (r->o->command_line) {
		fputs("<p class=\"cmd\"><code>", out);
		pp_html_put(out, r->o->command_line);
		fputs("</code></p>\n", out);
	}
	fputs("<pre id=\"run-header\">", out);
	put_captured(out, header_text, r, false);
	fputs("</pre>\n", out);
	if (r->info)
		put_lost(out, r->info);
	fputs("</header>\n", out);
}

/* the flame graph's data, made before the page is written */
struct flame_data {
	char *buf;
	size_t len;
	int ret;		/* pp_html_flame()'s */
};

static void make_flame(struct pp_report *r, struct flame_data *fd)
{
	FILE *f = open_memstream(&fd->buf, &fd->len);

	if (!f)
		op_die(1, "out of memory");
	fd->ret = pp_html_flame(f, &r->sides[0]);
	if (fclose(f))
		op_die(1, "out of memory");
}

static void put_flame(FILE *out, struct pp_report *r, struct flame_data *fd)
{
	struct pp_side *s = &r->sides[0];
	int ret = fd->ret;

	fputs("<section id=\"flame\">\n<h2>Flame graph</h2>\n<p id=\"flame-source\">", out);
	if (!ret)
		fputs("Built from whole call stacks (the session's stack file).", out);
	else
		fprintf(out, "Built from call-graph arcs only: %s, so each function's own "
			"samples are split between its callers in proportion to the calls "
			"(one level of callers; without call-graph arcs, each function "
			"alone).", pp_stacks_why(ret));
	fputs(" Samples of ", out);
	pp_html_put(out, s->p->classes[0].name);
	fputs("; widths are shares of every sample.</p>\n", out);
	fputs("<div class=\"controls\"><input id=\"flame-search\" type=\"search\" "
	      "placeholder=\"Search functions (regular expression)\" size=\"40\"> "
	      "<button id=\"flame-reset\" type=\"button\">Reset zoom</button> "
	      "<span id=\"flame-match\"></span></div>\n"
	      "<div id=\"flame-path\" class=\"path\"></div>\n"
	      "<div id=\"flame-box\"><canvas id=\"flame-canvas\" width=\"1000\" "
	      "height=\"200\" role=\"img\" aria-label=\"Flame graph\"></canvas><div id=\"flame-tip\" hidden></div></div>\n"
	      "<div id=\"flame-state\" hidden></div>\n"
	      "<script type=\"application/json\" id=\"flame-data\">", out);
	fwrite(fd->buf, 1, fd->len, out);
	fputs("</script>\n</section>\n", out);
	free(fd->buf);
}


/* one symbol's annotation, as opannotate -a -s writes it, into f */
struct one_sym {
	struct pp_ann *a;
	size_t i;
};

static void annotate_one(FILE *f, void *data)
{
	struct one_sym *o = data;
	struct pp_ann one = *o->a;

	one.syms = &o->a->syms[o->i];
	one.nr_syms = 1;
	one.alloc_syms = 1;
	pp_annotate_asm(&one, f, NULL);
}

/* the header's notes on images (pp_outside_explain()), for a thread */
static void explain(void *arg)
{
	struct pp_report *r = arg;

	pp_outside_explain(r, &r->sides[0]);
}

/*
 * The line information of the images of the symbols put_annotation()
 * annotates, opened by a thread while the page's other parts are written;
 * the thread first makes the header's notes (explain())
 */
static struct pp_lines_ahead *annotated_ahead(const struct pp_ann *a, struct pp_report *r)
{
	size_t images[NR_ANNOTATED], i, k, n = 0, named = 0;

	for (i = 0; i < a->nr_syms && named < NR_ANNOTATED; i++) {
		if (a->syms[i].sym->flags & PP_SYM_GAP)
			continue;
		named++;
		for (k = 0; k < n && images[k] != a->syms[i].image; k++)
			;
		if (k == n)
			images[n++] = a->syms[i].image;
	}
	return pp_lines_ahead_start_after(a->p, images, n, false, explain, r);
}

/* the NR_ANNOTATED hottest named symbols of a, as opannotate shows them */
static void put_annotation(FILE *out, struct pp_ann *a)
{
	struct one_sym o = { .a = a };
	char pct[32];
	int shown = 0;

	a->assembly = a->source = true;
	fprintf(out, "<section id=\"annotation\">\n<h2>Annotation</h2>\n<p>The %d "
		"named symbols with the most samples, as <code>opannotate --assembly "
		"--source</code> shows them (code between symbols, a row "
		"<code>[image 0x...]</code> of the tables, is left to opannotate: "
		"it can be a whole stripped program).</p>\n", NR_ANNOTATED);
	for (o.i = 0; o.i < a->nr_syms && shown < NR_ANNOTATED; o.i++) {
		const struct pp_ann_sym *sym = &a->syms[o.i];

		if (sym->sym->flags & PP_SYM_GAP)
			continue;
		pp_format_percent(pct, sizeof(pct), pp_ratio(sym->counts[0], a->totals[0]),
				  false);
		fprintf(out, "<details%s><summary><span class=\"sym\">",
			shown++ ? "" : " open");
		pp_html_put(out, sym->name);
		fputs("</span> (", out);
		pp_html_put(out, pp_names_image(&a->s->names, sym->image));
		fprintf(out, "): %" PRIu64 " samples, %s%%</summary>\n<pre>",
			sym->counts[0], pct + strspn(pct, " "));
		put_captured(out, annotate_one, &o, true);
		fputs("</pre></details>\n", out);
	}
	fputs("</section>\n", out);
}

struct note_list {
	const char **v;
	size_t nr;
};

static int collect_note(void *val, void *data)
{
	struct note_list *l = data;

	l->v = op_xreallocarray(l->v, l->nr + 1, sizeof(*l->v));
	l->v[l->nr++] = val;
	return 0;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the notes the report's layers gave (the tool printed them too) */
static void put_notes(FILE *out, const struct pp_report *r)
{
	struct note_list l = { 0 };
	size_t i;

	op_hmap_for_each(&r->notes->seen, collect_note, &l);
	if (l.nr)
		qsort(l.v, l.nr, sizeof(*l.v), by_text);
	fputs("<section id=\"notes\">\n<h2>Notes</h2>\n<ul id=\"notes-list\">\n", out);
	for (i = 0; i < l.nr; i++) {
		fputs("<li>", out);
		pp_html_put(out, l.v[i]);
		fputs("</li>\n", out);
	}
	if (!l.nr)
		fputs("<li>none</li>\n", out);
	fputs("</ul>\n</section>\n", out);
	free(l.v);
}

int pp_write_html(struct pp_report *r, FILE *out, struct op_err *err)
{
	struct pp_side *s = &r->sides[0];
	struct pp_lines_ahead *ahead;
	struct flame_data fd = { 0 };
	struct pp_ann a;

	(void)err;
	pp_ann_build(&a, r);
	/* the header's DWARF and dpkg look-ups beside the flame graph's build */
	ahead = annotated_ahead(&a, r);
	make_flame(r, &fd);
	pp_lines_ahead_first_done(ahead);	/* without a thread, the header makes them */
	put_head(out, r);
	put_header(out, r);
	put_flame(out, r, &fd);
	pp_html_symbols(out, r, s);
	pp_html_images(out, r, s);
	put_annotation(out, &a);
	pp_lines_ahead_end(ahead);
	pp_ann_release(&a);
	put_notes(out, r);
	fputs("<script>\n", out);
	fputs(pp_html_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return 0;
}
