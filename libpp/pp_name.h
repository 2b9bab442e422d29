/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sample-file names parsed back into their fields (formats.md §2):
 *	APP/{dep}/IMAGE[/{cg}/CALLEE]/EVENT.COUNT.UNITMASK.TGID.TID.CPU
 * relative to a session's samples/NAME directory.  Image paths are
 * unescaped (libdb/odb_name.h).  Nothing here touches the file system.
 */
#ifndef PP_NAME_H
#define PP_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libutil/op_error.h"

#define PP_ALL (-1)		/* "all" in a tgid, tid or cpu field */

enum pp_image_kind {
	PP_IMAGE_FILE,		/* {root}PATH: a file (or vmlinux, /proc/kallsyms) */
	PP_IMAGE_KERNEL,	/* {kern}/NAME: no-vmlinux or a kernel module */
	PP_IMAGE_ANON,		/* {anon:NAME}/TGID.0xSTART.0xEND */
};

struct pp_image_id {
	enum pp_image_kind kind;
	char *name;		/* FILE: absolute path; KERNEL: the name; ANON: NAME */
	uint32_t anon_tgid;	/* ANON only */
	uint64_t anon_start;	/* ANON: first byte */
	uint64_t anon_end;	/* ANON: last byte */
};

struct pp_name {
	struct pp_image_id app;		/* the main executable */
	struct pp_image_id image;	/* the sampled image (the caller for {cg}) */
	bool is_cg;			/* a call-graph file */
	struct pp_image_id cg;		/* the callee image, when is_cg */
	char *event;			/* EVENT as written */
	int count;			/* COUNT */
	uint32_t unit_mask;		/* UNITMASK (decimal in the name) */
	int64_t tgid, tid, cpu;		/* PP_ALL or the number */
};

/*
 * Parse rel, a path relative to samples/SESSION (no leading '/').  Returns
 * 0, or PP_NAME_ERR_* with the reason in err; *name is then empty.  The
 * caller frees the fields with pp_name_release().
 */
int pp_name_parse(const char *rel, struct pp_name *name, struct op_err *err);
void pp_name_release(struct pp_name *name);

/* a copy of id; dies on allocation failure */
void pp_image_id_copy(struct pp_image_id *dst, const struct pp_image_id *src);
void pp_image_id_release(struct pp_image_id *id);

/* equal kinds and fields */
bool pp_image_id_equal(const struct pp_image_id *a, const struct pp_image_id *b);

/*
 * How reports name an image: the path (FILE), the name (KERNEL), or
 * "NAME (tgid:T range:0xS-0xE)" (ANON, formats.md §2.3).  long_names:
 * whole paths, else the basename of paths.  Caller frees.
 */
char *pp_image_id_display(const struct pp_image_id *id, bool long_names);

/*
 * s as printable text on one line, for messages: bytes outside ' '..'~'
 * are written %XX (as in sample file names) and text longer than buf is
 * cut with "...".  Returns buf, which needs at least 8 bytes.
 */
const char *pp_quote(char *buf, size_t size, const char *s);

#define PP_NAME_ERRORS							\
	PP_NAME_ERROR(NO_SPEC, "the last component is not EVENT.COUNT.UNITMASK.TGID.TID.CPU") \
	PP_NAME_ERROR(BAD_FIELD, "bad number in the event specification") \
	PP_NAME_ERROR(NO_APP, "no {root}, {kern} or {anon:...} application part") \
	PP_NAME_ERROR(NO_DEP, "no {dep} part")				\
	PP_NAME_ERROR(BAD_IMAGE, "malformed image part")			\
	PP_NAME_ERROR(BAD_ANON, "malformed anonymous region (TGID.0xSTART.0xEND)")

enum pp_name_error {
	PP_NAME_ERR_BASE = -7000,
#define PP_NAME_ERROR(name, text) PP_NAME_ERR_##name,
	PP_NAME_ERRORS
#undef PP_NAME_ERROR
	PP_NAME_ERR_END
};

const char *pp_name_strerror(int err);

#endif
