// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=pprof, the writing half: the plain arrays of struct
 * pp_pprof (report_int.h) as a Perftools__Profiles__Profile message
 * (profile.proto, through the code protoc-c makes of it), packed and
 * gzip-compressed on the way out.  The only user of protobuf-c, and of
 * libdeflate's compressor: pprof.c decides what the profile holds.
 *
 * The message points into the arrays rather than copying them; only the
 * per-item message structs and their pointer arrays are made here, a
 * part of the profile at a time, so the packed profile is never held
 * whole in memory.
 *
 * Two threads, the caller and one more, take the parts in turn: each
 * packs a part and compresses it on its own into one gzip member
 * (libdeflate), and the members are written in part order.  A gzip file
 * is a series of members (RFC 1952, 2.2) that readers join into one
 * stream (gzip -d, go's compress/gzip, Python's gzip): the message read
 * back is the concatenation of the parts.  The bytes out do not depend on
 * the threads: without the second one they are the same.
 *
 * pp_pprof_encode_start() plans the parts the samples need (the sample
 * types, the samples) and starts the second thread on them while the
 * caller makes the locations, functions and mappings; finish plans the
 * rest, and both threads take it.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <protobuf-c/protobuf-c.h>

#include "libpp/report/profile.pb-c.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_error.h"

/*
 * The profile is packed in parts, each a Profile message with some of the
 * fields set, in field-number order: the wire form of a message is its
 * fields one after the other, each left out when empty (proto3), so the
 * parts concatenate into the bytes of the whole message.  Samples,
 * mappings, locations, functions and strings go PART at a time, through
 * message structs reused for each part rather than made for all at once.
 */
#define PART 4096

/* the message structs of a part, made once and reused for each */
struct part_structs {
	Perftools__Profiles__Sample samples[PART], *sample_ptrs[PART];
	Perftools__Profiles__Label labels[PART], *label_ptrs[PART];
	Perftools__Profiles__Location locations[PART], *location_ptrs[PART];
	Perftools__Profiles__Line lines[PART], *line_ptrs[PART];
	Perftools__Profiles__Mapping mappings[PART], *mapping_ptrs[PART];
	Perftools__Profiles__Function functions[PART], *function_ptrs[PART];
	/* the fields of one message each: grown to the profile's needs */
	Perftools__Profiles__ValueType *types, **type_ptrs, period_type;
	int64_t *comments;
};

/* the sample types (first and n unused) */
static void fill_types(Perftools__Profiles__Profile *part, struct part_structs *ps,
		       const struct pp_pprof *m, size_t first, size_t n)
{
	size_t i;

	(void)first;
	(void)n;
	ps->types = op_xreallocarray(ps->types, m->nr_types + 1, sizeof(*ps->types));
	ps->type_ptrs = op_xreallocarray(ps->type_ptrs, m->nr_types + 1,
					 sizeof(*ps->type_ptrs));
	for (i = 0; i < m->nr_types; i++) {
		perftools__profiles__value_type__init(&ps->types[i]);
		ps->types[i].type = (int64_t)m->types[i];
		ps->types[i].unit = (int64_t)m->units[i];
		ps->type_ptrs[i] = &ps->types[i];
	}
	part->n_sample_type = m->nr_types;
	part->sample_type = ps->type_ptrs;
}

/* samples [first, first + n) as part's, in ps */
static void fill_samples(Perftools__Profiles__Profile *part, struct part_structs *ps,
			 const struct pp_pprof *m, size_t first, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++) {
		Perftools__Profiles__Sample *s = &ps->samples[j];
		size_t i = first + j;

		perftools__profiles__sample__init(s);
		s->n_location_id = m->first[i + 1] - m->first[i];
		s->location_id = m->frames + m->first[i];
		s->n_value = m->nr_types;
		s->value = m->values + i * m->nr_types;
		if (m->label_key && m->labels[i]) {
			perftools__profiles__label__init(&ps->labels[j]);
			ps->labels[j].key = (int64_t)m->label_key;
			ps->labels[j].str = (int64_t)m->labels[i];
			ps->label_ptrs[j] = &ps->labels[j];
			s->n_label = 1;
			s->label = &ps->label_ptrs[j];
		}
		ps->sample_ptrs[j] = s;
	}
	part->n_sample = n;
	part->sample = ps->sample_ptrs;
}

/*
 * locations [first, first + n) as part's, in ps: one line each, the
 * function and, when known, the source line
 */
static void fill_locations(Perftools__Profiles__Profile *part, struct part_structs *ps,
			   const struct pp_pprof *m, size_t first, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++) {
		const struct pp_pprof_location *in = &m->locations[first + j];
		Perftools__Profiles__Location *o = &ps->locations[j];
		Perftools__Profiles__Line *line = &ps->lines[j];

		perftools__profiles__location__init(o);
		perftools__profiles__line__init(line);
		o->id = first + j + 1;
		o->mapping_id = in->mapping;
		o->address = in->address;
		line->function_id = in->function;
		line->line = in->line;
		ps->line_ptrs[j] = line;
		o->n_line = 1;
		o->line = &ps->line_ptrs[j];
		ps->location_ptrs[j] = o;
	}
	part->n_location = n;
	part->location = ps->location_ptrs;
}

static void fill_mappings(Perftools__Profiles__Profile *part, struct part_structs *ps,
			  const struct pp_pprof *m, size_t first, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++) {
		const struct pp_pprof_mapping *in = &m->mappings[first + j];
		Perftools__Profiles__Mapping *o = &ps->mappings[j];

		perftools__profiles__mapping__init(o);
		o->id = first + j + 1;
		o->memory_start = in->start;
		o->memory_limit = in->limit;
		o->file_offset = in->offset;
		o->filename = (int64_t)in->file;
		o->build_id = (int64_t)in->build_id;
		o->has_functions = true;
		o->has_filenames = in->has_lines;
		o->has_line_numbers = in->has_lines;
		ps->mapping_ptrs[j] = o;
	}
	part->n_mapping = n;
	part->mapping = ps->mapping_ptrs;
}

static void fill_functions(Perftools__Profiles__Profile *part, struct part_structs *ps,
			   const struct pp_pprof *m, size_t first, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++) {
		const struct pp_pprof_function *in = &m->functions[first + j];
		Perftools__Profiles__Function *o = &ps->functions[j];

		perftools__profiles__function__init(o);
		o->id = first + j + 1;
		o->name = (int64_t)in->name;
		o->system_name = (int64_t)in->system_name;
		o->filename = (int64_t)in->file;
		o->start_line = in->start_line;
		ps->function_ptrs[j] = o;
	}
	part->n_function = n;
	part->function = ps->function_ptrs;
}


/* a part: items [first, first + n) of what fill puts in a message */
struct part {
	void (*fill)(Perftools__Profiles__Profile *part, struct part_structs *ps,
		     const struct pp_pprof *m, size_t first, size_t n);
	size_t first, n;
};

struct pp_pprof_encoder;

/* what one thread needs to pack and deflate a part, owned by that thread */
struct packer {
	struct pp_pprof_encoder *e;
	struct libdeflate_compressor *c;
	struct part_structs ps;
	uint8_t *packed;		/* the part packed */
	size_t packed_size;		/* bytes allocated there */
	size_t len;			/* packed bytes */
	unsigned char *deflated;	/* and compressed, as a gzip member */
	size_t deflated_size, deflated_len;
};

/* the parts, the threads taking them in turn, and the gzip stream out */
struct pp_pprof_encoder {
	const struct pp_pprof *m;
	/* under lock: the parts planned so far (a thread copies the one it
	 * takes: planning more may move them) */
	struct part *parts;
	size_t nr_parts, alloc_parts;
	bool planned;			/* every part is planned */
	pthread_mutex_t lock;
	pthread_cond_t written;		/* next_write moved on */
	pthread_cond_t more;		/* parts planned, or planning over */
	size_t next_claim;		/* the next part a thread takes */
	size_t next_write;		/* the part whose turn it is to be written */
	int err;			/* the first error: -EIO or -ENOMEM */
	/* below: only the thread whose turn it is touches them */
	FILE *out;
	bool wrote;			/* a member is out */
	struct packer packers[2];	/* [0] for the caller */
	pthread_t tid;
	bool threaded;			/* packers[1] is the second thread's */
};

/*
 * The most bytes a part of samples or locations packs to, or 0: to be
 * measured.  protobuf-c packs into a buffer of a size known beforehand,
 * and measuring a part exactly walks it all once more: for the big parts
 * a bound from the arrays does instead.  Each field is a one-byte tag
 * (field numbers below 16) and a varint of at most 10 bytes; a message or
 * packed field, a tag and a length of at most 5 bytes before its bytes.
 */
#define VARINT_MAX 10
#define LEN_MAX (1 + 5)
#define FIELD_MAX (1 + VARINT_MAX)

static size_t part_bound(const struct part *p, const struct pp_pprof *m)
{
	size_t bound = 0, i;

	if (p->fill == fill_samples) {
		for (i = p->first; i < p->first + p->n; i++)
			bound += LEN_MAX + LEN_MAX + VARINT_MAX * (m->first[i + 1] - m->first[i]) +
				 LEN_MAX + VARINT_MAX * m->nr_types +
				 LEN_MAX + 4 * FIELD_MAX;	/* a label */
	} else if (p->fill == fill_locations) {
		/* id, mapping, address; one line of function and line */
		bound = p->n * (LEN_MAX + 3 * FIELD_MAX + LEN_MAX + 2 * FIELD_MAX);
	}
	return bound;
}

/* part (of p) packed whole into w->packed, with its size */
static void pack(struct packer *w, const struct part *p, const Perftools__Profiles__Profile *part)
{
	size_t bound = part_bound(p, w->e->m);
	size_t len = bound ? bound : perftools__profiles__profile__get_packed_size(part);

	if (len > w->packed_size) {
		w->packed = op_xrealloc(w->packed, len);
		w->packed_size = len;
	}
	w->len = perftools__profiles__profile__pack(part, w->packed);
	if (w->len > len)
		OP_BUG("pprof part bound %zu < %zu packed bytes", len, w->len);
}

/* w->packed as a gzip member in w->deflated (nothing when it is empty) */
static int deflate_packed(struct packer *w)
{
	size_t bound = libdeflate_gzip_compress_bound(w->c, w->len);

	w->deflated_len = 0;
	if (!w->len)
		return 0;
	if (bound > w->deflated_size) {
		w->deflated = op_xrealloc(w->deflated, bound);
		w->deflated_size = bound;
	}
	w->deflated_len = libdeflate_gzip_compress(w->c, w->packed, w->len, w->deflated,
						   w->deflated_size);
	return w->deflated_len ? 0 : -EIO;
}

static void fill_strings(Perftools__Profiles__Profile *part, struct part_structs *ps,
			 const struct pp_pprof *m, size_t first, size_t n)
{
	(void)ps;
	part->n_string_table = n;
	part->string_table = m->strings + first;
}

/*
 * the fields after the string table (first and n unused): time, period,
 * comments, default type
 */
static void fill_rest(Perftools__Profiles__Profile *part, struct part_structs *ps,
		      const struct pp_pprof *m, size_t first, size_t n)
{
	size_t i;

	(void)first;
	(void)n;
	part->time_nanos = m->time_nanos;
	if (m->period_type) {
		perftools__profiles__value_type__init(&ps->period_type);
		ps->period_type.type = (int64_t)m->period_type;
		ps->period_type.unit = (int64_t)m->period_unit;
		part->period_type = &ps->period_type;
		part->period = m->period;
	}
	ps->comments = op_xreallocarray(ps->comments, m->nr_comments + 1,
					sizeof(*ps->comments));
	for (i = 0; i < m->nr_comments; i++)
		ps->comments[i] = (int64_t)m->comments[i];
	part->n_comment = m->nr_comments;
	part->comment = ps->comments;
	part->default_sample_type = (int64_t)m->default_type;
}

/* part p packed into w->packed */
static void put_part(struct packer *w, const struct part *p)
{
	Perftools__Profiles__Profile part = PERFTOOLS__PROFILES__PROFILE__INIT;

	p->fill(&part, &w->ps, w->e->m, p->first, p->n);
	pack(w, p, &part);
}

/* nr items that fill puts in messages, PART at a time, as e's next parts */
static void plan_parts(struct pp_pprof_encoder *e, size_t nr,
		       void (*fill)(Perftools__Profiles__Profile *part,
				    struct part_structs *ps, const struct pp_pprof *m,
				    size_t first, size_t n))
{
	size_t i;

	for (i = 0; i < nr; i += PART) {
		struct part *p;

		if (e->nr_parts == e->alloc_parts) {
			e->alloc_parts = e->alloc_parts ? 2 * e->alloc_parts : 64;
			e->parts = op_xreallocarray(e->parts, e->alloc_parts, sizeof(*e->parts));
		}
		p = &e->parts[e->nr_parts++];

		p->fill = fill;
		p->first = i;
		p->n = nr - i < PART ? nr - i : PART;
	}
}

/*
 * The parts, in field-number order: first what the samples need (the
 * sample types, the samples), which are final before the rest is made,
 * then the others; under e->lock
 */
static void plan_first(struct pp_pprof_encoder *e, const struct pp_pprof *m)
{
	plan_parts(e, 1, fill_types);
	plan_parts(e, m->nr_samples, fill_samples);
}

static void plan_rest(struct pp_pprof_encoder *e, const struct pp_pprof *m)
{
	plan_parts(e, m->nr_mappings, fill_mappings);
	plan_parts(e, m->nr_locations, fill_locations);
	plan_parts(e, m->nr_functions, fill_functions);
	plan_parts(e, m->nr_strings, fill_strings);
	plan_parts(e, 1, fill_rest);
	e->planned = true;
}

static int write_bytes(struct pp_pprof_encoder *e, const void *data, size_t len)
{
	return fwrite(data, 1, len, e->out) == len ? 0 : -EIO;
}

/* w's part written out, its turn come */
static int write_part(struct pp_pprof_encoder *e, const struct packer *w)
{
	if (!w->deflated_len)
		return 0;
	e->wrote = true;
	return write_bytes(e, w->deflated, w->deflated_len);
}

/*
 * Parts taken in turn until none is left, each packed and deflated in w
 * and written when all parts before it have been: the loop of both threads
 */
static void encode_parts(struct pp_pprof_encoder *e, struct packer *w)
{
	for (;;) {
		struct part p;
		size_t k;
		int err;

		pthread_mutex_lock(&e->lock);
		while (!e->err && e->next_claim == e->nr_parts && !e->planned)
			pthread_cond_wait(&e->more, &e->lock);
		if (e->err || e->next_claim == e->nr_parts) {
			pthread_mutex_unlock(&e->lock);
			return;
		}
		k = e->next_claim++;
		p = e->parts[k];
		pthread_mutex_unlock(&e->lock);
		put_part(w, &p);
		err = deflate_packed(w);
		pthread_mutex_lock(&e->lock);
		while (e->next_write != k)
			pthread_cond_wait(&e->written, &e->lock);
		pthread_mutex_unlock(&e->lock);
		/* our turn: the writing and the sums are ours until next_write moves */
		if (!err && !e->err)
			err = write_part(e, w);
		pthread_mutex_lock(&e->lock);
		if (err && !e->err)
			e->err = err;
		e->next_write++;
		pthread_cond_broadcast(&e->written);
		pthread_mutex_unlock(&e->lock);
	}
}

static void *encode_in_thread(void *arg)
{
	struct packer *w = arg;

	encode_parts(w->e, w);
	return NULL;
}

/*
 * The fastest level: on 100k distinct stacks, libdeflate's level 1 takes
 * half of zlib's level 1 time for a file 4 % smaller, and zlib's level 1
 * took a third off the export's time for a file 7 % larger than zlib's
 * default level's.
 */
static int packer_init(struct packer *w, struct pp_pprof_encoder *e)
{
	w->e = e;
	w->c = libdeflate_alloc_compressor(1);
	return w->c ? 0 : -ENOMEM;
}

static void packer_release(struct packer *w)
{
	if (w->c)
		libdeflate_free_compressor(w->c);
	free(w->packed);
	free(w->deflated);
	free(w->ps.types);
	free(w->ps.type_ptrs);
	free(w->ps.comments);
}

/* a profile of nothing at all: one empty member, so the file is gzip */
static int write_empty(struct pp_pprof_encoder *e)
{
	struct packer *w = &e->packers[0];

	w->len = 0;
	if (!w->deflated_size) {
		w->deflated_size = libdeflate_gzip_compress_bound(w->c, 0);
		w->deflated = op_xrealloc(w->deflated, w->deflated_size);
	}
	w->deflated_len = libdeflate_gzip_compress(w->c, "", 0, w->deflated, w->deflated_size);
	if (!w->deflated_len)
		return -EIO;
	return write_bytes(e, w->deflated, w->deflated_len);
}

int pp_pprof_encode_start(const struct pp_pprof *m, FILE *out, struct pp_pprof_encoder **ep,
			  struct op_err *err)
{
	struct pp_pprof_encoder *e = op_xcalloc(1, sizeof(*e));
	int ret;

	*ep = NULL;
	e->m = m;
	e->out = out;
	ret = packer_init(&e->packers[0], e);
	if (ret) {
		op_err_set(err, "cannot start the gzip compression: out of memory");
		free(e);
		return ret;
	}
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->written, NULL);
	pthread_cond_init(&e->more, NULL);
	plan_first(e, m);
	/* the second thread's own stream; without it the caller does it all */
	e->threaded = !packer_init(&e->packers[1], e) &&
		      !pthread_create(&e->tid, NULL, encode_in_thread, &e->packers[1]);
	*ep = e;
	return 0;
}

int pp_pprof_encode_finish(struct pp_pprof_encoder *e, struct op_err *err)
{
	int ret;

	pthread_mutex_lock(&e->lock);
	plan_rest(e, e->m);
	pthread_cond_broadcast(&e->more);
	pthread_mutex_unlock(&e->lock);
	encode_parts(e, &e->packers[0]);
	if (e->threaded)
		pthread_join(e->tid, NULL);
	if (!e->err && !e->wrote)
		e->err = write_empty(e);
	ret = e->err;
	if (ret)
		op_err_set(err, "cannot write the profile");
	pthread_cond_destroy(&e->more);
	pthread_cond_destroy(&e->written);
	pthread_mutex_destroy(&e->lock);
	packer_release(&e->packers[0]);
	packer_release(&e->packers[1]);
	free(e->parts);
	free(e);
	return ret;
}

int pp_pprof_encode(struct pp_pprof *m, FILE *out, struct op_err *err)
{
	struct pp_pprof_encoder *e;
	int ret = pp_pprof_encode_start(m, out, &e, err);

	return ret ? ret : pp_pprof_encode_finish(e, err);
}
