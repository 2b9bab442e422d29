// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing a report's items in order while every CPU formats them
 * (report_int.h, pp_write_ordered()).
 *
 * The items are cut into chunks.  Helper threads claim chunks in order
 * and format each into a memory buffer; the caller writes the chunks out
 * in order, formatting a chunk itself, straight to the stream, when no
 * helper has claimed it yet.  While a helper still formats the chunk to
 * write next, the caller formats a later one into a buffer, as a helper
 * does, rather than wait.  Nobody formats more than AHEAD chunks ahead
 * of the one written, so memory stays bounded whatever the report's
 * size.  The running totals a chunk starts from
 * are summed when it is claimed: chunks are claimed in order.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

#define CHUNK 1024		/* items per chunk */
#define AHEAD 64		/* chunks a helper may format ahead of the writer */
#define MIN_PARALLEL 512	/* fewer items are not worth a thread */
#define MAX_HELPERS 7

enum chunk_state { CHUNK_FREE, CHUNK_CLAIMED, CHUNK_DONE };

struct chunk {
	enum chunk_state state;
	struct pp_textbuf text;		/* the formatted text, once done */
	uint64_t *before;		/* running totals before its first item */
};

struct ordered {
	const struct pp_ordered *w;
	size_t nr, nr_chunks;
	struct chunk *chunks;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	size_t next;			/* first unclaimed chunk; under lock */
	size_t written;			/* chunks written out; under lock */
	uint64_t *sum;			/* totals before chunk next; under lock */
};

static size_t chunk_end(const struct ordered *o, size_t c)
{
	return (c + 1) * CHUNK < o->nr ? (c + 1) * CHUNK : o->nr;
}

/* claim chunk o->next, with the totals before it; call with the lock held */
static size_t claim(struct ordered *o)
{
	size_t c = o->next++, i, k;
	struct chunk *ch = &o->chunks[c];

	ch->state = CHUNK_CLAIMED;
	ch->before = op_xcalloc(o->w->nr_classes + 1, sizeof(*ch->before));
	memcpy(ch->before, o->sum, o->w->nr_classes * sizeof(*o->sum));
	for (i = c * CHUNK; o->w->counts && i < chunk_end(o, c); i++) {
		const uint64_t *counts = o->w->counts(o->w->ctx, i);

		for (k = 0; k < o->w->nr_classes; k++)
			o->sum[k] += counts[k];
	}
	return c;
}

static void format(struct ordered *o, void *local, size_t c, FILE *out)
{
	size_t i;

	o->w->chunk(o->w->ctx, local, o->chunks[c].before);
	for (i = c * CHUNK; i < chunk_end(o, c); i++)
		o->w->item(o->w->ctx, local, i, out);
}

/* may a chunk be claimed to format into a buffer?  (lock held) */
static bool may_claim(const struct ordered *o)
{
	return o->next < o->nr_chunks && o->next < o->written + AHEAD;
}

/* format claimed chunk c into its buffer; takes and leaves the lock */
static void format_buffered(struct ordered *o, void *local, size_t c)
{
	struct chunk *ch = &o->chunks[c];
	FILE *mem;

	pthread_mutex_unlock(&o->lock);
	mem = pp_textbuf_open(&ch->text);
	format(o, local, c, mem);
	if (fclose(mem))
		op_die(1, "out of memory");
	pthread_mutex_lock(&o->lock);
	ch->state = CHUNK_DONE;
	pthread_cond_broadcast(&o->changed);
}

static void *helper(void *arg)
{
	struct ordered *o = arg;
	void *local = o->w->local_new(o->w->ctx);

	pthread_mutex_lock(&o->lock);
	for (;;) {
		while (o->next < o->nr_chunks && !may_claim(o))
			pthread_cond_wait(&o->changed, &o->lock);
		if (o->next >= o->nr_chunks)
			break;
		format_buffered(o, local, claim(o));
	}
	pthread_mutex_unlock(&o->lock);
	o->w->local_free(local);
	return NULL;
}

/* the chunks, in order, to out; helpers may be formatting ahead */
static void write_chunks(struct ordered *o, FILE *out)
{
	void *local = o->w->local_new(o->w->ctx);
	size_t c;

	for (c = 0; c < o->nr_chunks; c++) {
		struct chunk *ch = &o->chunks[c];

		pthread_mutex_lock(&o->lock);
		while (ch->state == CHUNK_CLAIMED) {
			/* a helper has it: format a later one meanwhile */
			if (may_claim(o))
				format_buffered(o, local, claim(o));
			else
				pthread_cond_wait(&o->changed, &o->lock);
		}
		if (ch->state == CHUNK_FREE) {
			/* nobody has it: straight to the stream */
			claim(o);
			pthread_mutex_unlock(&o->lock);
			format(o, local, c, out);
		} else {
			pthread_mutex_unlock(&o->lock);
			pp_textbuf_write(&ch->text, out);
			pp_textbuf_release(&ch->text);
		}
		free(ch->before);
		pthread_mutex_lock(&o->lock);
		o->written = c + 1;
		pthread_cond_broadcast(&o->changed);
		pthread_mutex_unlock(&o->lock);
	}
	o->w->local_free(local);
}

void pp_write_ordered(FILE *out, size_t nr, const struct pp_ordered *w, bool parallel)
{
	struct ordered o = { .w = w, .nr = nr };
	pthread_t helpers[MAX_HELPERS];
	size_t nr_helpers = 0, want = 0, i;

	if (parallel && nr >= MIN_PARALLEL) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		if (cpus > 1)
			want = cpus - 1 > MAX_HELPERS ? MAX_HELPERS : (size_t)cpus - 1;
	}
	o.nr_chunks = (nr + CHUNK - 1) / CHUNK;
	o.chunks = op_xcalloc(o.nr_chunks + 1, sizeof(*o.chunks));
	o.sum = op_xcalloc(w->nr_classes + 1, sizeof(*o.sum));
	pthread_mutex_init(&o.lock, NULL);
	pthread_cond_init(&o.changed, NULL);
	/* a helper that cannot start leaves its share to the writer */
	for (i = 0; i < want; i++) {
		if (pthread_create(&helpers[nr_helpers], NULL, helper, &o))
			break;
		nr_helpers++;
	}
	write_chunks(&o, out);
	for (i = 0; i < nr_helpers; i++)
		pthread_join(helpers[i], NULL);
	pthread_mutex_destroy(&o.lock);
	pthread_cond_destroy(&o.changed);
	free(o.sum);
	free(o.chunks);
}
