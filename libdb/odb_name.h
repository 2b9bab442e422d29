/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sample-file names (formats.md §2): the image parts of
 *	SESSION/samples/current/APP/{dep}/IMG[/{cg}/CGIMG]/EV.COUNT.UM.TGID.TID.CPU
 * and the rule that keeps any image path from escaping the session
 * directory or making a name that parses ambiguously.
 *
 * The rule (also in doc/operf.1, "SAMPLE FILE NAMES").  In an image path:
 *  - empty components (doubled slashes) are dropped;
 *  - in each component, '%' becomes %25, '\' %5C, and bytes below 0x20
 *    and 0x7f become %XX (upper-case hex): no tokenizer escape, no newline;
 *  - a component that is "." or ".." has its dots written %2E, so the
 *    name never climbs out of the directory it is in;
 *  - a component starting with '{' has that brace written %7B, so no
 *    image component can read as {root}, {kern}, {dep}, {cg} or {anon;
 *  - an anonymous region's name and a kernel image name are one component:
 *    '/' in them is written %2F as well;
 *  - a path whose escaped form is longer than ODB_NAME_IMAGE_MAX, or with
 *    a component longer than 255 bytes, is recorded as
 *    "/#long/<16 hex digits of its FNV-1a hash>/<start of its last
 *    component>", so every name fits the file system's limits.
 * Paths without any of these characters are written unchanged, as
 * OProfile 1.4 writes them.  odb_name_unescape() reverses the escapes.
 */
#ifndef ODB_NAME_H
#define ODB_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "libutil/op_strbuf.h"

/* the longest image part we write, so three of them fit in PATH_MAX */
#define ODB_NAME_IMAGE_MAX 1024

/*
 * Append the escaped form of absolute path (it must start with '/') to
 * sb, as the ABSPATH after "{root}".  Returns 0, -EINVAL for a path not
 * starting with '/', or -ENOMEM.
 */
int odb_name_escape_path(struct op_strbuf *sb, const char *path);

/* Append the escaped form of a one-component name (anon or kernel name). */
int odb_name_escape_word(struct op_strbuf *sb, const char *name);

/*
 * Undo the escapes of a path or word in place.  A '%' not followed by two
 * hex digits is kept as it is.  Returns the new length.
 */
size_t odb_name_unescape(char *s);

#endif
