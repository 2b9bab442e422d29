/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sample-file names: the one owner of their grammar (oprofile-ng-formats(5),
 * "SAMPLE FILE NAMES").  The daemon builds names here; the report tools
 * parse them here.  Relative to a session's samples/NAME directory:
 *
 *	APP/{dep}/IMAGE[/{cg}/CALLEE]/EVENT.COUNT.UNITMASK.TGID.TID.CPU
 *
 * where APP, IMAGE and CALLEE are each one of
 *	{root}/ABSPATH			a file (escaped, below)
 *	{kern}/NAME			a kernel image without a path
 *	{anon:NAME}/TGID.0xSTART.0xEND	anonymous memory of a process
 * COUNT is a signed decimal, UNITMASK an unsigned decimal, and TGID, TID,
 * CPU unsigned decimals or "all" (not separated).
 *
 * Escaping, so that no image path can escape the session directory or
 * make a name that parses two ways.  In an image path:
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
 * OProfile 1.4 writes them.
 *
 * Memory: functions that allocate return -ENOMEM when they cannot; none
 * prints or exits.
 */
#ifndef ODB_NAME_H
#define ODB_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"

/* the longest image part we write, so three of them fit in PATH_MAX */
#define ODB_NAME_IMAGE_MAX 1024

/* "all" in a parsed TGID, TID or CPU field (and in odb_name_add_spec()) */
#define ODB_ALL (-1)

enum odb_image_kind {
	ODB_IMAGE_FILE,		/* {root}PATH: a file (or vmlinux, /proc/kallsyms) */
	ODB_IMAGE_KERNEL,	/* {kern}/NAME: no-vmlinux or a kernel module */
	ODB_IMAGE_ANON,		/* {anon:NAME}/TGID.0xSTART.0xEND */
};

/* one image of a name, unescaped */
struct odb_image_id {
	enum odb_image_kind kind;
	char *name;		/* FILE: absolute path; KERNEL: the name; ANON: NAME */
	uint32_t anon_tgid;	/* ANON only */
	uint64_t anon_start;	/* ANON: first byte */
	uint64_t anon_end;	/* ANON: last byte */
};

/* a sample-file name parsed into its fields */
struct odb_name {
	struct odb_image_id app;	/* the main executable */
	struct odb_image_id image;	/* the sampled image (the caller for {cg}) */
	bool is_cg;			/* a call-graph file */
	struct odb_image_id cg;		/* the callee image, when is_cg */
	char *event;			/* EVENT as written */
	int count;			/* COUNT */
	uint32_t unit_mask;		/* UNITMASK (decimal in the name) */
	int64_t tgid, tid, cpu;		/* ODB_ALL or the number */
};

/* --- building (the daemon) ---------------------------------------------- */

/*
 * Append the image part of a file at path to sb: "{root}" and the escaped
 * path.  A path not starting with '/' (never seen from the kernel, but
 * possible in a recorded stream) is kept as one escaped word under the
 * root.  0 or -ENOMEM.
 */
int odb_name_add_file(struct op_strbuf *sb, const char *path);

/*
 * Append the image part of a kernel image: "{kern}/NAME" for a bare name
 * (no-vmlinux, a module), as a file for an absolute path (a vmlinux).
 * 0 or -ENOMEM.
 */
int odb_name_add_kernel(struct op_strbuf *sb, const char *name);

/* Append "{anon:NAME}/TGID.0xSTART.0xEND" (end: last byte).  0 or -ENOMEM. */
int odb_name_add_anon(struct op_strbuf *sb, const char *name, uint32_t tgid,
		      uint64_t start, uint64_t end);

/*
 * Append "APP/{dep}/IMAGE[/{cg}/CALLEE]" from image parts made by the
 * functions above (callee NULL: no {cg} part).  0 or -ENOMEM.
 */
int odb_name_add_images(struct op_strbuf *sb, const char *app, const char *image,
			const char *callee);

/*
 * Append "/EVENT.COUNT.UNITMASK.TGID.TID.CPU"; tgid, tid and cpu are
 * ODB_ALL or 0..UINT32_MAX - 1.  0 or -ENOMEM.
 */
int odb_name_add_spec(struct op_strbuf *sb, const char *event, int count,
		      uint32_t unit_mask, int64_t tgid, int64_t tid, int64_t cpu);

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

/* --- parsing (the report tools) ----------------------------------------- */

/*
 * Parse rel, a path relative to samples/SESSION (no leading '/').  The
 * parser is strict: every component must be where the grammar puts it,
 * so a name that parses means one thing.  Returns 0, or ODB_ERR_NAME_*
 * (or -ENOMEM) with the reason in err (optional; one line naming the bad
 * part, quoted printable); *name is then empty.  The caller frees the
 * fields with odb_name_release().
 */
int odb_name_parse(const char *rel, struct odb_name *name, struct op_err *err);
void odb_name_release(struct odb_name *name);

/* a copy of src into dst: 0 or -ENOMEM (dst is then empty) */
int odb_image_id_copy(struct odb_image_id *dst, const struct odb_image_id *src);
void odb_image_id_release(struct odb_image_id *id);

/* equal kinds and fields */
bool odb_image_id_equal(const struct odb_image_id *a, const struct odb_image_id *b);

/*
 * How reports name an image, appended to sb: the path (FILE), the name
 * (KERNEL; "/NAME" with long_names), or "NAME (tgid:T range:0xS-0xE)"
 * (ANON), as OProfile 1.4 names them.  long_names: whole paths, else the
 * basename of paths.
 * 0 or -ENOMEM.
 */
int odb_image_id_format(struct op_strbuf *sb, const struct odb_image_id *id,
			bool long_names);

#endif
