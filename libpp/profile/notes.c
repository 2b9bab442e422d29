// SPDX-License-Identifier: GPL-2.0-or-later
/* The warning channel of the report libraries (see pp_notes.h). */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_notes.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"
#include "libutil/op_strbuf.h"

void pp_notes_init(struct pp_notes *n, void (*emit)(void *data, const char *msg),
		   void *data)
{
	memset(n, 0, sizeof(*n));
	n->emit = emit;
	n->data = data;
	op_hmap_init(&n->seen);
}

static int free_msg(void *val, void *data)
{
	(void)data;
	free(val);
	return 0;
}

void pp_notes_release(struct pp_notes *n)
{
	if (!n)
		return;
	op_hmap_for_each(&n->seen, free_msg, NULL);
	op_hmap_release(&n->seen);
	memset(n, 0, sizeof(*n));
}

/* has msg been given?  If not, remember it */
static bool seen_before(struct pp_notes *n, const char *msg)
{
	uint64_t h = op_hash_str(msg);
	struct op_hmap_iter it;
	const char *old;

	for (old = op_hmap_first(&n->seen, h, &it); old;
	     old = op_hmap_next(&n->seen, h, &it))
		if (!strcmp(old, msg))
			return true;
	if (op_hmap_insert(&n->seen, h, op_xstrdup(msg)))
		op_die(1, "out of memory");
	return false;
}

void pp_note(struct pp_notes *n, const char *fmt, ...)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	va_list ap;

	if (!n)
		return;
	va_start(ap, fmt);
	op_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (op_strbuf_failed(&sb))
		op_die(1, "out of memory");
	if (!seen_before(n, sb.buf)) {
		n->nr++;
		if (n->emit)
			n->emit(n->data, sb.buf);
	}
	op_strbuf_release(&sb);
}
