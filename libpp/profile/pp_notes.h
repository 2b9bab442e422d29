/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one warning channel of the report libraries.  Loading a profile,
 * building rows and writing outputs meet things the user should hear of
 * (an unreadable sample file, a missing binary, arcs that fell outside
 * every symbol) without stopping; they say so here.  The tool gives the
 * function that prints; each distinct message is passed on once, as a
 * library used by every application would otherwise be reported for each
 * of them.  Nothing here prints by itself.
 *
 * Memory: dies with "out of memory" (libutil's op_x* forms), as all of
 * libpp/profile does.
 */
#ifndef PP_NOTES_H
#define PP_NOTES_H

#include <stddef.h>

#include "libutil/op_error.h"
#include "libutil/op_hmap.h"

struct pp_notes {
	void (*emit)(void *data, const char *msg);	/* NULL: kept silent */
	void *data;
	struct op_hmap seen;		/* hash -> message, for each given */
	size_t nr;			/* distinct messages given */
};

/*
 * emit(data, msg) receives each distinct message once; msg is borrowed
 * for the call.  emit NULL: notes are only counted.
 */
void pp_notes_init(struct pp_notes *n, void (*emit)(void *data, const char *msg),
		   void *data);
void pp_notes_release(struct pp_notes *n);

/* a note (printf format, one line, no trailing newline); n NULL: none */
void pp_note(struct pp_notes *n, const char *fmt, ...) OP_PRINTF(2, 3);

#endif
