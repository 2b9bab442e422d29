/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Profile specifications, shared by every report tool (opreport(1),
 * PROFILE SPECIFICATIONS):
 *	session:LIST  session-exclude:LIST  image:LIST  image-exclude:LIST
 *	lib-image:LIST  lib-image-exclude:LIST  event:LIST  count:LIST
 *	unit-mask:LIST  cpu:LIST  tgid:LIST  tid:LIST  time:LIST  archive:PATH
 * LIST is comma-separated, "\," is a literal comma; image lists take
 * globs (fnmatch); a bare argument is image:ARG, one image (not split at
 * commas).  A tag given twice adds to its list.  An unknown tag is an
 * error naming the valid tags (OProfile took it as an image name).
 * Differential profiles: SHARED { SPEC } { SPEC } (braces are separate
 * arguments, "{}" is an empty side, and inside braces an argument ending
 * in a glued '}' is an error): the shared part applies to both sides, and
 * a tag given inside braces replaces the shared one there.
 *
 * image: matches the application (APP) of a sample file, lib-image: the
 * sampled image (IMAGE): opreport(1), PROFILE SPECIFICATIONS.  A pattern with a '/' is
 * matched against the whole path, one without against the basename (a
 * kernel or anonymous image's name); a name also matches itself
 * literally, so lib-image:[heap] works.  image-exclude: rejects by APP and
 * lib-image-exclude: by IMAGE (OProfile applied image-exclude: to both
 * and never implemented lib-image-exclude:).  cpu:, tgid: and tid: never
 * match a file whose field is "all" (not separated), as in OProfile 1.x;
 * an "all" item in the list matches every file.
 *
 * time: takes ranges of seconds from the session's start, START-END
 * (either end may be left out), and keeps the samples of the time slices
 * that overlap one of them (libpp/profile/time.c); it matches every name.
 */
#ifndef PP_SPEC_H
#define PP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libdb/odb_name.h"
#include "libpp/profile/pp_errors.h"
#include "libutil/op_error.h"

/* a list of values given for one tag; NULL/0 when the tag is absent */
struct pp_spec_list {
	char **items;
	size_t nr;
};

struct pp_spec {
	struct pp_spec_list session;		/* default: "current" */
	struct pp_spec_list session_exclude;
	struct pp_spec_list image;		/* globs or paths */
	struct pp_spec_list image_exclude;
	struct pp_spec_list lib_image;
	struct pp_spec_list lib_image_exclude;
	struct pp_spec_list event;
	struct pp_spec_list count;		/* decimal numbers */
	struct pp_spec_list unit_mask;		/* decimal or 0x numbers */
	struct pp_spec_list cpu;		/* decimal numbers */
	struct pp_spec_list tgid;
	struct pp_spec_list tid;
	struct pp_spec_list time;		/* START-END items */
	char *archive;				/* archive:PATH, or NULL */
};

struct pp_spec_set {
	struct pp_spec first;		/* the whole spec, or the first side */
	struct pp_spec second;		/* the second side of a differential */
	bool differential;
};

/*
 * Parse the non-option arguments of a report tool.  Image and archive
 * paths with a '/' are made absolute against the current directory and
 * normalized, except image patterns that start with a glob character
 * ('*', '?', '['); one that exists and holds no glob is resolved with
 * realpath(), as the sample files record real paths.  Returns 0
 * or PP_PROFILE_ERR_* with the detail in err (e.g. "unknown tag 'imgae' in
 * 'imgae:foo' (valid tags: archive, session, ...)"); set is then empty.
 * Free with pp_spec_set_release().
 */
int pp_spec_parse(int argc, const char *const *argv, struct pp_spec_set *set,
		  struct op_err *err);
void pp_spec_set_release(struct pp_spec_set *set);

/*
 * Which tag of spec rejects the sample file name from session (NULL when
 * it matches), trying the tags in the order of pp_spec_valid_tags().  The
 * returned tag ("image", "event", ...) is static.  session may be NULL:
 * session: and session-exclude: are then not checked (listing has).
 */
const char *pp_spec_reject(const struct pp_spec *spec, const char *session,
			   const struct odb_name *name);

/* the sessions spec selects, in order (default "current") */
const struct pp_spec_list *pp_spec_sessions(const struct pp_spec *spec);

/* a time: item: [start_ns, end_ns), end_ns UINT64_MAX when open */
struct pp_time_range {
	uint64_t start_ns;
	uint64_t end_ns;
};

/* parse "2-3", "2.5-", "-10" into *r, or "4" (the slice holding that
 * instant: [4 s, 4 s + 1 ns)): 0, or -EINVAL (also when END is not after
 * START) */
int pp_spec_time_parse(const char *item, struct pp_time_range *r);

/* "archive, session, session-exclude, image, ..." (static) */
const char *pp_spec_valid_tags(void);


#endif
