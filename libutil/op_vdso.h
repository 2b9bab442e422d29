/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The vdso the kernel maps into this process: the same image it maps
 * into every process of its ABI, so operf stores a copy in the session
 * and the report tools fall back on their own for sessions without one.
 */
#ifndef OP_VDSO_H
#define OP_VDSO_H

#include <stddef.h>

/*
 * Where this process's vdso is and how long its mapping is (the "[vdso]"
 * line of /proc/self/maps, checked against getauxval(AT_SYSINFO_EHDR)).
 * Returns 0, -ENOENT when the kernel maps none, or another negative errno
 * from reading the maps.
 */
int op_vdso_image(const void **data, size_t *len);

#endif
