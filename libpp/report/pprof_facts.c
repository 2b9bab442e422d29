// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the pprof export's locations say of their code (report_int.h,
 * struct pp_pprof_facts): each location's source line in its function's
 * own file (for inlined code, the call site of the outermost inlined
 * scope), and its function's shown name, file and first line.  These are
 * the slow part of making a location (line tables, inlined scopes,
 * demangling) and need nothing of the profile being built, so a thread
 * looks them up in chunks from the last while the caller makes the
 * locations from the first, taking chunks of its own.  A table's line
 * look-ups keep caches for one thread at a time: a chunk is of one image,
 * and two threads never work in one table at once.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"
#include "libutil/op_hash.h"

/* locations per chunk */
#define FACT_CHUNK 256

/* a chunk's state, under the lock */
enum { FREE, TAKEN, DONE };

struct pp_pprof_facts {
	struct pp_symtab *const *tabs;	/* per image */
	const struct pp_pprof_key *keys;
	const void *const *what;
	size_t nr, nr_images;
	struct pp_pprof_fact *v;
	/* chunks: locations [start[c], start[c + 1]) of one image (or of
	 * none), at most FACT_CHUNK of them */
	size_t *start, nr_chunks;
	unsigned char *state;		/* per chunk */
	bool *busy;			/* per image + 1: a thread is in its table */
	size_t ahead;			/* the helper's: chunks from here up are taken */
	size_t confirmed;		/* the caller's: chunks below are done */
	pthread_mutex_t lock;
	pthread_cond_t chunk_done;
	bool stop;
	pthread_t tid;
	bool threaded;
};

/*
 * file and line of key in t, or NULL and 0 (without the reason when there
 * is none: making it can read every dpkg file list, for each image)
 */
static const char *line_of(struct pp_symtab *t, uint64_t key, unsigned *line)
{
	const char *file;

	if (pp_symtab_line(t, key, &file, line, NULL) || !file || !*file) {
		*line = 0;
		return NULL;
	}
	return file;
}

/*
 * The line of key (at file:line) in the function's own file fn_file:
 * line itself, or, in code inlined from another file, the line of the
 * outermost call, the one in the function; 0 when neither is known.
 * (A pprof line has no file of its own, only its function's.)
 */
static unsigned own_line(struct pp_symtab *t, uint64_t key, const char *fn_file,
			 const char *file, unsigned line)
{
	const char *call_file;
	unsigned call_line;

	if (!strcmp(file, fn_file))
		return line;
	if (pp_symtab_call_site(t, key, &call_file, &call_line) != 1 ||
	    strcmp(call_file, fn_file))
		return 0;
	return call_line;
}

/* the facts of the location at key in t, of symbol sym */
static void fact_of(struct pp_symtab *t, const struct pp_sym *sym, uint64_t key,
		    struct pp_pprof_fact *f)
{
	unsigned line;
	const char *file;

	f->has_fn = true;
	f->fn_name = pp_symtab_shown_name(t, sym);
	f->fn_file = line_of(t, sym->start, &f->fn_line);
	/* for the string table, hashed here rather than by its maker */
	f->name_hash = f->fn_name ? op_hash_str(f->fn_name) : 0;
	f->file_hash = f->fn_file ? op_hash_str(f->fn_file) : 0;
	f->line = 0;
	file = line_of(t, key, &line);
	if (file && f->fn_file)
		f->line = own_line(t, key, f->fn_file, file, line);
}

/* the image of chunk c, or nr_images for locations without one */
static size_t chunk_image(const struct pp_pprof_facts *s, size_t c)
{
	size_t image = s->keys[s->start[c]].image;

	return image == SIZE_MAX ? s->nr_images : image;
}

/*
 * Take chunk c if it is free and no thread is in its table; call with
 * the lock held.  A table's line and inline look-ups keep caches that
 * one thread at a time may fill: two threads never work in one table.
 */
static bool take(struct pp_pprof_facts *s, size_t c)
{
	size_t image = chunk_image(s, c);

	if (s->state[c] != FREE || (image < s->nr_images && s->busy[image]))
		return false;
	s->state[c] = TAKEN;
	s->busy[image] = true;
	return true;
}

/*
 * The facts of chunk c, taken.  Within a run of locations of one symbol
 * the function's are looked up once: the others have no has_fn.
 */
static void run_chunk(struct pp_pprof_facts *s, size_t c)
{
	const struct pp_sym *last = NULL;
	const struct pp_pprof_fact *run = NULL;	/* the run's first */
	size_t i;

	for (i = s->start[c]; i < s->start[c + 1]; i++) {
		const struct pp_pprof_key *k = &s->keys[i];
		const struct pp_sym *sym = s->what[i];
		struct pp_pprof_fact *f = &s->v[i];
		struct pp_symtab *t;

		memset(f, 0, sizeof(*f));
		if (k->image == SIZE_MAX)
			continue;
		t = s->tabs[k->image];
		if (run && sym == last) {
			unsigned line;
			const char *file = line_of(t, k->at, &line);

			if (file && run->fn_file)
				f->line = own_line(t, k->at, run->fn_file, file, line);
			continue;
		}
		fact_of(t, sym, k->at, f);
		run = f;
		last = sym;
	}
	pthread_mutex_lock(&s->lock);
	s->state[c] = DONE;
	s->busy[chunk_image(s, c)] = false;
	pthread_cond_broadcast(&s->chunk_done);
	pthread_mutex_unlock(&s->lock);
}

/*
 * The helper: chunks from the last one down, while the caller goes up
 * from the first; where they meet, it skips a chunk of the caller's
 * table for the next one down, and stops at the first done
 */
static void *helper(void *arg)
{
	struct pp_pprof_facts *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop && s->ahead > 0) {
		size_t c = s->ahead;

		while (c-- > 0 && s->state[c] != DONE)
			if (take(s, c))
				break;
		if (c == SIZE_MAX || s->state[c] == DONE)
			break;
		if (c + 1 == s->ahead)
			s->ahead = c;
		pthread_mutex_unlock(&s->lock);
		run_chunk(s, c);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

struct pp_pprof_facts *pp_pprof_facts_start(struct pp_symtab *const *tabs, size_t nr_images,
					    const struct pp_pprof_key *keys,
					    const void *const *what, size_t nr)
{
	struct pp_pprof_facts *s = op_xcalloc(1, sizeof(*s));
	size_t i;

	s->tabs = tabs;
	s->nr_images = nr_images;
	s->keys = keys;
	s->what = what;
	s->nr = nr;
	s->v = op_xcalloc(nr + 1, sizeof(*s->v));
	s->start = op_xcalloc(nr + 2, sizeof(*s->start));
	for (i = 0; i < nr; i++)
		if (i == s->start[s->nr_chunks] + FACT_CHUNK ||
		    (i && keys[i].image != keys[i - 1].image))
			s->start[++s->nr_chunks] = i;
	if (nr)
		s->start[++s->nr_chunks] = nr;
	s->state = op_xcalloc(s->nr_chunks + 1, sizeof(*s->state));
	s->busy = op_xcalloc(nr_images + 1, sizeof(*s->busy));
	s->ahead = s->nr_chunks;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->chunk_done, NULL);
	if (s->nr_chunks > 1 && sysconf(_SC_NPROCESSORS_ONLN) > 1)
		s->threaded = !pthread_create(&s->tid, NULL, helper, s);
	return s;
}

/* the chunk of location i, not below confirmed: i not in a chunk below */
static size_t chunk_of(const struct pp_pprof_facts *s, size_t i)
{
	size_t c = s->confirmed;

	while (s->start[c + 1] <= i)
		c++;
	return c;
}

const struct pp_pprof_fact *pp_pprof_facts_get(struct pp_pprof_facts *s, size_t i)
{
	size_t c;

	if (i < s->start[s->confirmed])
		return &s->v[i];	/* in a chunk known done */
	c = chunk_of(s, i);
	while (s->confirmed <= c) {
		size_t k = s->confirmed;
		bool mine;

		pthread_mutex_lock(&s->lock);
		if (s->state[k] == DONE) {
			s->confirmed++;
			pthread_mutex_unlock(&s->lock);
			continue;
		}
		/* the next one, unless the helper holds it or is in its table */
		mine = take(s, k);
		if (!mine)
			pthread_cond_wait(&s->chunk_done, &s->lock);
		pthread_mutex_unlock(&s->lock);
		if (mine)
			run_chunk(s, k);
	}
	return &s->v[i];
}

void pp_pprof_facts_end(struct pp_pprof_facts *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;			/* the helper takes no more */
	pthread_mutex_unlock(&s->lock);
	if (s->threaded)
		pthread_join(s->tid, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->chunk_done);
	free(s->v);
	free(s->start);
	free(s->state);
	free(s->busy);
	free(s);
}
