// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol names for output (report_int.h): one at a time, or made ahead of
 * the writer.  The names themselves are the symbol tables' shown names
 * (pp_symtab_shown_name()), made once per symbol by whichever thread asks
 * first and kept in the table, so a name the loading thread already made
 * costs nothing here.
 *
 * Demangling is most of a big symbol report's time, so it runs on every
 * CPU and overlaps the output: helper threads claim chunks of names in
 * order, and the writer, asking for name i, takes the chunk itself when
 * nobody has claimed it yet, or waits for the helper that has.  The
 * writer thus prints early chunks while helpers make later ones.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

#define NAME_CHUNK 256		/* names claimed at once */
#define MAX_HELPERS 7
#define MIN_THREADED 2048	/* fewer names are not worth a thread */

const char *pp_shown_name(struct pp_profile *p, size_t image, const struct pp_sym *sym)
{
	return pp_symtab_shown_name(pp_image_symtab(p, image), sym);
}

struct pp_name_stream {
	const struct pp_sym **syms;
	struct pp_symtab **tabs;	/* each symbol's table */
	const char **names;
	size_t nr, nr_chunks;
	pthread_mutex_t lock;
	pthread_cond_t chunk_done;
	size_t next_chunk;		/* first unclaimed chunk; under lock */
	bool *done;			/* per chunk; under lock */
	size_t confirmed;		/* writer only: chunks below are done */
	pthread_t helpers[MAX_HELPERS];
	size_t nr_helpers;
};

static void run_chunk(struct pp_name_stream *s, size_t c)
{
	size_t i, end = (c + 1) * NAME_CHUNK < s->nr ? (c + 1) * NAME_CHUNK : s->nr;

	for (i = c * NAME_CHUNK; i < end; i++)
		s->names[i] = pp_symtab_shown_name(s->tabs[i], s->syms[i]);
	pthread_mutex_lock(&s->lock);
	s->done[c] = true;
	pthread_cond_broadcast(&s->chunk_done);
	pthread_mutex_unlock(&s->lock);
}

/* the next unclaimed chunk, or nr_chunks; call with the lock held */
static size_t claim(struct pp_name_stream *s)
{
	return s->next_chunk < s->nr_chunks ? s->next_chunk++ : s->nr_chunks;
}

static void *helper(void *arg)
{
	struct pp_name_stream *s = arg;

	for (;;) {
		size_t c;

		pthread_mutex_lock(&s->lock);
		c = claim(s);
		pthread_mutex_unlock(&s->lock);
		if (c == s->nr_chunks)
			return NULL;
		run_chunk(s, c);
	}
}

struct pp_name_stream *pp_name_stream_start(struct pp_profile *p,
					    const size_t *images,
					    const struct pp_sym *const *syms, size_t nr)
{
	struct pp_name_stream *s = op_xcalloc(1, sizeof(*s));
	size_t want = 0, i;
	long cpus;

	s->syms = op_xcalloc(nr + 1, sizeof(*s->syms));
	memcpy(s->syms, syms, nr * sizeof(*syms));
	/* the tables are found here, in the caller's thread: loading one is
	 * not for the helpers to do */
	s->tabs = op_xcalloc(nr + 1, sizeof(*s->tabs));
	for (i = 0; i < nr; i++)
		s->tabs[i] = pp_image_symtab(p, images[i]);
	s->names = op_xcalloc(nr + 1, sizeof(*s->names));
	s->nr = nr;
	s->nr_chunks = (nr + NAME_CHUNK - 1) / NAME_CHUNK;
	s->done = op_xcalloc(s->nr_chunks + 1, sizeof(*s->done));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->chunk_done, NULL);
	/* asking for the CPUs reads a file: not for every small stream */
	cpus = nr >= MIN_THREADED ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
	if (cpus > 1)
		want = cpus - 1 > MAX_HELPERS ? MAX_HELPERS : (size_t)cpus - 1;
	/* a helper that cannot start leaves its share to the writer */
	for (i = 0; i < want; i++) {
		if (pthread_create(&s->helpers[s->nr_helpers], NULL, helper, s))
			break;
		s->nr_helpers++;
	}
	return s;
}

const char *pp_name_stream_get(struct pp_name_stream *s, size_t i)
{
	size_t c = i / NAME_CHUNK;

	if (c < s->confirmed)
		return s->names[i];
	pthread_mutex_lock(&s->lock);
	while (!s->done[c]) {
		size_t k = claim(s);

		if (k == s->nr_chunks) {
			pthread_cond_wait(&s->chunk_done, &s->lock);
			continue;
		}
		pthread_mutex_unlock(&s->lock);
		run_chunk(s, k);
		pthread_mutex_lock(&s->lock);
	}
	while (s->confirmed < s->nr_chunks && s->done[s->confirmed])
		s->confirmed++;
	pthread_mutex_unlock(&s->lock);
	return s->names[i];
}

void pp_name_stream_end(struct pp_name_stream *s)
{
	size_t i;

	if (!s)
		return;
	/* stop the helpers: no chunk is claimed after this */
	pthread_mutex_lock(&s->lock);
	s->next_chunk = s->nr_chunks;
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < s->nr_helpers; i++)
		pthread_join(s->helpers[i], NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->chunk_done);
	free(s->done);
	free(s->names);
	free(s->tabs);
	free(s->syms);
	free(s);
}

void pp_shown_names(struct pp_profile *p, const size_t *images,
		    const struct pp_sym *const *syms, size_t nr, const char **names)
{
	struct pp_name_stream *s = pp_name_stream_start(p, images, syms, nr);
	size_t i;

	for (i = 0; i < nr; i++)
		names[i] = pp_name_stream_get(s, i);
	pp_name_stream_end(s);
}
