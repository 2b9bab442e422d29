/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opannotate: where inside functions the samples fall, as annotated
 * source files (every line of each file with samples, a count column per
 * class on the lines that have them, per-function totals, and a summary
 * of inlined code at its call sites) or annotated disassembly (one line
 * per instruction, per symbol), or both interleaved.  Formats follow
 * OProfile 1.4's opannotate (count width 6, opreport's percent format,
 * the comment blocks); see doc/opannotate.1.
 *
 * Samples of every application using an image are summed: an image is
 * annotated once.  Percentages are of all samples in symbols.
 */
#ifndef PP_ANNOTATE_H
#define PP_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>

#include "libpp/symbols/pp_demangle.h"
#include "libpp/profile/pp_profile.h"
#include "libpp/report/pp_report.h"
#include "libpp/profile/pp_session.h"

struct pp_annotate_opts {
	bool source;			/* -s: annotated source */
	bool assembly;			/* -a: annotated assembly (with -s: mixed) */
	bool by_address;		/* --sort=vma: symbols in address order */
	bool exclude_dependent;		/* -x */
	double threshold;		/* -t, percent; 0 = none */
	enum pp_demangle_mode demangle;
	const char *const *include_symbols;	/* -i, NULL-ended, or NULL */
	const char *const *exclude_symbols;	/* -e */
	const char *const *include_files;	/* --include-file globs */
	const char *const *exclude_files;	/* --exclude-file globs */
	const char *const *search_dirs;		/* -d: where to look for sources */
	const char *const *base_dirs;		/* -b: prefixes to strip first */
	const char *output_dir;		/* -o: one annotated file per source */
	const char *disasm_options;	/* objdump -M style, or NULL */
	const char *command_line;	/* for the header comment */
};

/*
 * Write the annotation of p to out (with output_dir, out only gets what
 * is not per file).  Warnings (missing debug information, sources not
 * found, binaries that changed) go through n, once each.  Returns 0, or 1
 * when nothing could be annotated (no symbol passed the filters, no
 * source or code could be read, the output directory is refused or
 * cannot be written); the reason was given through n or err.  Returns
 * 2, before writing anything, when the disassembler options are not
 * known for the machine of an image to disassemble (err says which).
 */
int pp_annotate(FILE *out, struct pp_profile *p,
		const struct pp_session_info *info,
		const struct pp_annotate_opts *o, struct pp_notes *n,
		struct op_err *err);

#endif
