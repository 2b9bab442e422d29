/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The GNU build-id of an ELF file (its NT_GNU_BUILD_ID note), which names
 * one build of a binary: operf records it for every profiled binary (the
 * session's buildids file), and the reports compare it with the binary
 * they find, so that a rebuilt binary is told from a touched one.
 */
#ifndef ODB_BUILDID_H
#define ODB_BUILDID_H

#include <stddef.h>

/* hex digits of the longest build-id kept (20 bytes: SHA-1), + NUL */
#define ODB_BUILD_ID_HEX 41

/*
 * The build-id of the ELF file at path in hex (lower case, at most 40
 * digits: a longer id is cut there, as the reports compare it).
 * Reads the ELF and program headers and the PT_NOTE segments, each
 * bounded by the file's size.  Returns 0, -ENOENT when the file has no
 * build-id note, -ENOEXEC when it is not ELF (or not a regular file), or
 * a negative errno from reading it.
 */
int odb_build_id(const char *path, char hex[ODB_BUILD_ID_HEX]);

#endif
