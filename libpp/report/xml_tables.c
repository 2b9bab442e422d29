// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables at the end of opreport --xml (xml.c): <symboltable> (every
 * symbol mentioned, by id), and with --details <detailtable> (per-address
 * counts) and <bytestable> (each symbol's machine code).
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

void pp_xml_put_symboltable(struct pp_xml *x)
{
	size_t id;

	pp_out_str(x->out, "<symboltable>\n");
	for (id = 0; id < x->nr_syms; id++) {
		const struct pp_xsym *xs = &x->syms[id];
		bool streamed = x->s->name_pos[xs->row->index] != SIZE_MAX;
		const char *name = streamed ? pp_side_sym_name(x->s, xs->row) :
				   pp_shown_name(x->p, xs->image, xs->sym);

		pp_out_str(x->out, "<symboldata ");
		pp_xml_attr_u64(x->out, "id", id);
		pp_out_ch(x->out, ' ');
		pp_xml_attr_str(x->out, "name", name);
		if (x->o->debug_info) {
			struct pp_symtab *t = pp_image_symtab(x->p, xs->image);
			const char *file, *why;
			unsigned line;

			if (!pp_symtab_line(t, xs->sym->start, &file, &line, &why) && file) {
				pp_xml_attr_str(x->out, "file", file);
				pp_xml_attr_u64(x->out, "line", line);
			}
		}
		/* OProfile gives no address to "??" symbols */
		if (xs->sym->name[0] != '?') {
			char vma[32];

			pp_xml_vma_text(x, vma, sizeof(vma), xs->sym->vma);
			pp_out_ch(x->out, ' ');
			pp_xml_attr_str(x->out, "startingaddr", vma);
			if (x->o->details)
				pp_xml_attr_u64(x->out, "codelength", xs->sym->end - xs->sym->start);
		}
		pp_out_str(x->out, "/>\n");
	}
	pp_out_str(x->out, "</symboltable>\n");
}

void pp_xml_put_detailtable(struct pp_xml *x)
{
	size_t id;

	pp_out_str(x->out, "<detailtable>\n");
	for (id = 0; id < x->nr_syms; id++) {
		const struct pp_xsym *xs = &x->syms[id];

		if (!xs->nr_details)
			continue;
		pp_out_fmt(x->out, "<symboldetails  id=\"%zu\">\n", id);
		pp_out_str(x->out, xs->details.buf);
		pp_out_str(x->out, "</symboldetails>\n");
	}
	pp_out_str(x->out, "</detailtable>\n");
}

/* the largest symbol whose code we copy into the XML */
#define XML_MAX_CODE (16u << 20)

/*
 * The code of a symbol, read from its binary: the keys of a file image
 * are file offsets (pp_symbols.h), so [start, end) are the symbol's
 * bytes.  fds: per image, -2 before the first try.  Returns a buffer the
 * caller frees, or NULL (no file, a kernel image, unreadable).
 */
static unsigned char *read_code(struct pp_xml *x, const struct pp_xsym *xs, int *fds,
				size_t *len)
{
	const struct pp_image *im = &x->p->images[xs->image];
	const struct pp_sym *sym = xs->sym;
	unsigned char *code;
	ssize_t n;

	if ((sym->flags & PP_SYM_ARTIFICIAL) || sym->name[0] == '?' ||
	    im->id.kind != ODB_IMAGE_FILE || im->is_kernel || !im->symtab ||
	    !im->symtab->file || sym->end <= sym->start ||
	    sym->end - sym->start > XML_MAX_CODE)
		return NULL;
	if (fds[xs->image] == -2)
		fds[xs->image] = open(im->symtab->file, O_RDONLY | O_CLOEXEC);
	if (fds[xs->image] < 0)
		return NULL;
	*len = sym->end - sym->start;
	code = op_xmalloc(*len);
	n = pread(fds[xs->image], code, *len, (off_t)sym->start);
	if (n < 0 || (size_t)n != *len) {
		free(code);
		return NULL;
	}
	return code;
}

/* <bytestable>: each symbol's machine code in upper-case hex */
void pp_xml_put_bytestable(struct pp_xml *x)
{
	static const char hex[] = "0123456789ABCDEF";
	int *fds = op_xcalloc(x->p->nr_images + 1, sizeof(*fds));
	size_t id, i;

	for (i = 0; i < x->p->nr_images; i++)
		fds[i] = -2;
	pp_out_str(x->out, "<bytestable>\n");
	for (id = 0; id < x->nr_syms; id++) {
		size_t len = 0;
		unsigned char *code = read_code(x, &x->syms[id], fds, &len);

		if (!code)
			continue;
		pp_out_fmt(x->out, "<bytes  id=\"%zu\">\n", id);
		for (i = 0; i < len; i++) {
			pp_out_ch(x->out, hex[code[i] >> 4]);
			pp_out_ch(x->out, hex[code[i] & 0xf]);
		}
		pp_out_str(x->out, "</bytes>\n");
		free(code);
	}
	pp_out_str(x->out, "</bytestable>\n");
	for (i = 0; i < x->p->nr_images; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}
