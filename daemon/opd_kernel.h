/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where kernel samples go.  The kernel layout (the core kernel's text
 * range and each module's load range) is read from /proc/kallsyms and
 * /proc/modules when profiling starts, kept as a small text block that
 * also travels in recorded streams, and turned into {kern} images:
 *
 *  - with --vmlinux PATH, core kernel samples (in [_text, _etext) of the
 *    running kernel) go to {root}PATH with key ip - _text, which reports
 *    add to the vmlinux file's own _text; kernel samples in neither that
 *    range nor a module are lost (lost_kernel), as OProfile 1.4 does;
 *  - otherwise, and with --vmlinux when kallsyms hides _text, to
 *    {kern}/no-vmlinux with the raw address as key, as OProfile 1.4 does
 *    (reports resolve it with the session's copy of /proc/kallsyms);
 *  - module samples go to {kern}/MODULE with key ip - module start.
 *
 * The daemon never resolves symbols: only ranges are kept here.
 */
#ifndef OPD_KERNEL_H
#define OPD_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/opd_image.h"
#include "libutil/op_strbuf.h"

struct opd_kernel_module {
	char name[64];
	uint64_t start, end;	/* [start, end) */
	uint32_t cookie;
};

struct opd_kernel {
	uint64_t text_start;	/* _text, 0 when unknown */
	uint64_t text_end;	/* _etext, 0 when unknown */
	uint32_t core_cookie;	/* vmlinux or no-vmlinux */
	uint64_t core_base;	/* subtracted from core kernel addresses */
	uint64_t core_end;	/* vmlinux: _etext; no-vmlinux: UINT64_MAX */
	struct opd_kernel_module *modules;	/* sorted by start */
	size_t nr_modules;
};

/*
 * Append the layout of a kernel to sb as text:
 *	text START END
 *	module NAME START SIZE
 * from the contents of its kallsyms and modules files (either may be
 * NULL).  Hidden (zero) addresses give an empty or partial layout, not an
 * error.  Returns 0 or -ENOMEM.
 */
int opd_kernel_layout(struct op_strbuf *sb, const char *kallsyms,
		      const char *modules);

/*
 * Set up the kernel images from a layout text (as read above, possibly
 * from a recorded stream: malformed lines are skipped).  vmlinux may be
 * NULL; it is not used when the layout has no text range.
 */
void opd_kernel_init(struct opd_kernel *k, struct opd_images *images,
		     const char *layout, const char *vmlinux);

/* the layout has the core kernel's text range, which a vmlinux needs */
bool opd_kernel_layout_has_text(const char *layout);
void opd_kernel_release(struct opd_kernel *k);

/* the image of kernel address ip and its key */
uint32_t opd_kernel_find(const struct opd_kernel *k, uint64_t ip,
			 uint64_t *key);

#endif
