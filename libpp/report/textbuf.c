// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stream whose text is kept in memory for writing out later, as
 * blocks: what pp_write_ordered() formats ahead of the writer.  Unlike
 * open_memstream()'s one buffer, which grows by copying and clears each
 * new part, a block once filled is never moved or cleared, and the
 * stream is unbuffered, so a line is copied once, into its block.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

#define BLOCK (64 * 1024)

struct pp_text_block {
	struct pp_text_block *next;
	size_t len;
	char data[BLOCK];
};

static ssize_t append(void *cookie, const char *buf, size_t size)
{
	struct pp_textbuf *t = cookie;
	size_t done = 0;

	while (done < size) {
		struct pp_text_block *b = t->tail;
		size_t n;

		if (!b || b->len == BLOCK) {
			b = op_xmalloc(sizeof(*b));
			b->next = NULL;
			b->len = 0;
			if (t->tail)
				t->tail->next = b;
			else
				t->head = b;
			t->tail = b;
		}
		n = BLOCK - b->len < size - done ? BLOCK - b->len : size - done;
		memcpy(b->data + b->len, buf + done, n);
		b->len += n;
		done += n;
	}
	return (ssize_t)size;
}

FILE *pp_textbuf_open(struct pp_textbuf *t)
{
	cookie_io_functions_t io = { .write = append };
	FILE *f;

	t->head = t->tail = NULL;
	f = fopencookie(t, "w", io);
	if (!f)
		op_die(1, "out of memory");
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}

void pp_textbuf_write(struct pp_textbuf *t, FILE *out)
{
	const struct pp_text_block *b;

	for (b = t->head; b; b = b->next)
		fwrite(b->data, 1, b->len, out);
}

void pp_textbuf_release(struct pp_textbuf *t)
{
	while (t->head) {
		struct pp_text_block *b = t->head;

		t->head = b->next;
		free(b);
	}
	t->tail = NULL;
}
