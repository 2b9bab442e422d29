/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ELF image of a jitdump's code (opd_jitdump.h), as operf stores it
 * as the session's jit/TGID.jo and opjitconv writes it
 * (oprofile-ng-session(5), JIT CODE): one PT_LOAD segment and one .text
 * section per region of nearby code, at the addresses where the code
 * ran, holding its bytes; one FUNC symbol per piece of code; in the byte
 * order of the dump, ELF32 for 32-bit machines (i386, ARM, PowerPC) whose
 * addresses fit, else ELF64.  Where pieces of code overlap (the runtime
 * reused the memory), the later one is kept.  Written by hand, as the
 * daemon does not link libelf; the report tools read it with libelf.
 */
#ifndef OPD_JITELF_H
#define OPD_JITELF_H

#include <stddef.h>

#include "daemon/opd_jitdump.h"

/*
 * Build the image of d's code.  Returns 0 with *image (caller frees) of
 * *len bytes and *nr_syms its symbols, or -ENOMEM, -EFBIG (an image
 * over 2 GiB: code spread thinly), OPD_JITDUMP_ERR_EMPTY (no code),
 * OPD_JITDUMP_ERR_REGIONS (too many regions for the ELF section count).
 */
int opd_jitelf_build(const struct opd_jitdump *d, unsigned char **image, size_t *len,
		     size_t *nr_syms);

#endif
