// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Symbol names for output (report_int.h): one at a time, or demangled
 * ahead of the writer.
 *
 * Demangling is most of a big symbol report's time, so it runs on every
 * CPU and overlaps the output: helper threads claim chunks of names in
 * order, and the writer, asking for name i, takes the chunk itself when
 * nobody has claimed it yet, or waits for the helper that has.  The
 * writer thus prints early chunks while helpers demangle later ones.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

char *pp_symbol_display(const struct pp_sym *sym, enum pp_demangle_mode mode)
{
	char *d = NULL;

	if (!(sym->flags & PP_SYM_ARTIFICIAL))
		d = pp_demangle(sym->name, mode);
	return d ? d : op_xstrdup(sym->name);
}

#define NAME_CHUNK 256		/* names claimed at once */
#define MAX_HELPERS 7
#define MIN_THREADED 2048	/* fewer names are not worth a thread */

struct pp_name_stream {
	const struct pp_sym **syms;
	char **names;
	size_t nr, nr_chunks;
	enum pp_demangle_mode mode;
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

	/* NULL: shown as it is (most C names): nothing to copy */
	for (i = c * NAME_CHUNK; i < end; i++)
		if (!(s->syms[i]->flags & PP_SYM_ARTIFICIAL))
			s->names[i] = pp_demangle(s->syms[i]->name, s->mode);
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

struct pp_name_stream *pp_name_stream_start(const struct pp_sym *const *syms,
					    size_t nr, enum pp_demangle_mode mode)
{
	struct pp_name_stream *s = op_xcalloc(1, sizeof(*s));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = 0, i;

	s->syms = op_xcalloc(nr + 1, sizeof(*s->syms));
	memcpy(s->syms, syms, nr * sizeof(*syms));
	s->names = op_xcalloc(nr + 1, sizeof(*s->names));
	s->nr = nr;
	s->nr_chunks = (nr + NAME_CHUNK - 1) / NAME_CHUNK;
	s->done = op_xcalloc(s->nr_chunks + 1, sizeof(*s->done));
	s->mode = mode;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->chunk_done, NULL);
	if (mode != PP_DEMANGLE_NONE && nr >= MIN_THREADED && cpus > 1)
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
		return s->names[i] ? s->names[i] : s->syms[i]->name;
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
	return s->names[i] ? s->names[i] : s->syms[i]->name;
}

/* stop the helpers: no chunk is claimed after this */
static void stop(struct pp_name_stream *s)
{
	size_t i;

	pthread_mutex_lock(&s->lock);
	s->next_chunk = s->nr_chunks;
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < s->nr_helpers; i++)
		pthread_join(s->helpers[i], NULL);
	s->nr_helpers = 0;
}

static void release(struct pp_name_stream *s, bool names_too)
{
	size_t i;

	if (names_too) {
		for (i = 0; i < s->nr; i++)
			free(s->names[i]);
		free(s->names);
	}
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->chunk_done);
	free(s->done);
	free(s->syms);
	free(s);
}

void pp_name_stream_end(struct pp_name_stream *s)
{
	if (!s)
		return;
	stop(s);
	release(s, true);
}

char **pp_display_sym_names(const struct pp_sym *const *syms, size_t nr,
			    enum pp_demangle_mode mode)
{
	struct pp_name_stream *s = pp_name_stream_start(syms, nr, mode);
	char **names;
	size_t c;

	for (c = 0; c < s->nr_chunks; c++)
		pp_name_stream_get(s, c * NAME_CHUNK);
	stop(s);
	names = s->names;
	for (c = 0; c < nr; c++)
		if (!names[c])
			names[c] = op_xstrdup(syms[c]->name);
	release(s, false);
	return names;
}
