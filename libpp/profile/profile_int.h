/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of libpp/profile share and nothing outside it uses.
 */
#ifndef PROFILE_INT_H
#define PROFILE_INT_H

#include <stddef.h>

#include "libpp/profile/pp_profile.h"
#include "libpp/profile/pp_session.h"
#include "libpp/profile/pp_spec.h"
#include "libutil/op_error.h"

/*
 * Append the sample files of the session directory dir (resolved) that
 * spec keeps (NULL: every one) to list, whose files array has *alloc
 * slots, as pp_session_list() says (session_walk.c).  session: the
 * session's name as the spec gives it.  Returns 0, or -errno of a
 * directory that cannot be read (err names it); list then holds what was
 * found before, for the caller to release.
 */
int pp_walk_session(const char *dir, const char *session, const struct pp_spec *spec,
		    struct pp_file_list *list, size_t *alloc, struct op_err *err);

/*
 * Apply spec's time: to the files list[first ..] of session dir (see
 * pp_session_list()): 0 or an error, err saying it (time.c)
 */
int pp_time_apply(const char *dir, const char *session, const struct pp_spec *spec,
		  struct pp_file_list *list, size_t first, struct op_err *err);
void pp_time_free(struct pp_time *t);

/*
 * Each line of the session text file dir/name (at most max bytes; read
 * only when a regular file of this user or root, not through a symlink)
 * to fn, cut in place; a file that cannot be read has no lines.  Dies
 * only when memory runs out.
 */
void pp_session_lines(const char *dir, const char *name, size_t max,
		      void (*fn)(void *data, char *line), void *data);

/*
 * The table of pp_profile_symtab_ahead(), waited for and put in its
 * image (load.c); nothing when none is pending
 */
void pp_profile_take_ahead(struct pp_profile *p);

#endif
