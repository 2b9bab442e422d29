// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=pprof, the writing half: the plain arrays of struct
 * pp_pprof (report_int.h) as a Perftools__Profiles__Profile message
 * (profile.proto, through the code protoc-c makes of it), packed and
 * gzip-compressed on the way out.  The only user of protobuf-c and of
 * zlib: pprof.c decides what the profile holds.
 *
 * The message points into the arrays rather than copying them; only the
 * per-item message structs and their pointer arrays are made here, a
 * part of the profile at a time, and each part is packed into one
 * buffer that deflate() then reads, so the packed profile is never held
 * whole in memory.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <protobuf-c/protobuf-c.h>
#include <zlib.h>

#include "libpp/report/profile.pb-c.h"
#include "libpp/report/report_int.h"
#include "libutil/op_alloc.h"

/* the gzip stream of the packed parts */
struct gz_sink {
	z_stream z;
	FILE *out;
	int err;			/* the first error: -EIO or -ENOMEM */
	uint8_t *packed;		/* the part being packed */
	size_t packed_size;		/* bytes allocated there */
	unsigned char buf[64 * 1024];
};

/* run deflate over what z holds with flush; what it makes goes to out */
static void gz_run(struct gz_sink *g, int flush)
{
	int ret;

	do {
		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		ret = deflate(&g->z, flush);
		if (ret == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		if (fwrite(g->buf, 1, sizeof(g->buf) - g->z.avail_out, g->out) !=
		    sizeof(g->buf) - g->z.avail_out) {
			g->err = -EIO;
			return;
		}
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && ret != Z_STREAM_END));
}

/* deflate len bytes at data */
static void gz_feed(struct gz_sink *g, const uint8_t *data, size_t len)
{
	while (len && !g->err) {
		/* avail_in is 32 bits wide: feed a large part in pieces */
		uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;

		g->z.next_in = (Bytef *)(uintptr_t)data;
		g->z.avail_in = n;
		gz_run(g, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/*
 * The profile is packed in parts, each a Profile message with some of the
 * fields set, in field-number order: the wire form of a message is its
 * fields one after the other, each left out when empty (proto3), so the
 * parts concatenate into the bytes of the whole message.  Samples,
 * mappings, locations and functions go PART at a time, through message
 * structs reused for each part rather than made for all at once.
 */
#define PART 4096

/*
 * part packed whole and deflated: protobuf-c's pack() writes a flat buffer
 * faster than its pack_to_buffer() hands over each field on its own
 */
static void pack(struct gz_sink *g, const Perftools__Profiles__Profile *part)
{
	size_t len = perftools__profiles__profile__get_packed_size(part);

	if (len > g->packed_size) {
		g->packed = op_xrealloc(g->packed, len);
		g->packed_size = len;
	}
	perftools__profiles__profile__pack(part, g->packed);
	gz_feed(g, g->packed, len);
}

static void put_types(struct gz_sink *g, const struct pp_pprof *m)
{
	Perftools__Profiles__Profile part = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType *types, **ptrs;
	size_t i;

	types = op_xcalloc(m->nr_types + 1, sizeof(*types));
	ptrs = op_xcalloc(m->nr_types + 1, sizeof(*ptrs));
	for (i = 0; i < m->nr_types; i++) {
		perftools__profiles__value_type__init(&types[i]);
		types[i].type = (int64_t)m->types[i];
		types[i].unit = (int64_t)m->units[i];
		ptrs[i] = &types[i];
	}
	part.n_sample_type = m->nr_types;
	part.sample_type = ptrs;
	pack(g, &part);
	free(types);
	free(ptrs);
}

/* the message structs of a part, made once and reused for each */
struct part_structs {
	Perftools__Profiles__Sample samples[PART], *sample_ptrs[PART];
	Perftools__Profiles__Label labels[PART], *label_ptrs[PART];
	Perftools__Profiles__Location locations[PART], *location_ptrs[PART];
	Perftools__Profiles__Line lines[PART], *line_ptrs[PART];
	Perftools__Profiles__Mapping mappings[PART], *mapping_ptrs[PART];
	Perftools__Profiles__Function functions[PART], *function_ptrs[PART];
};

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

/* nr items, PART at a time, each part filled by fill and packed */
static void put_in_parts(struct gz_sink *g, const struct pp_pprof *m, size_t nr,
			 void (*fill)(Perftools__Profiles__Profile *part,
				      struct part_structs *ps, const struct pp_pprof *m,
				      size_t first, size_t n))
{
	struct part_structs *ps = op_xcalloc(1, sizeof(*ps));
	size_t i;

	for (i = 0; i < nr; i += PART) {
		Perftools__Profiles__Profile part = PERFTOOLS__PROFILES__PROFILE__INIT;

		fill(&part, ps, m, i, nr - i < PART ? nr - i : PART);
		pack(g, &part);
	}
	free(ps);
}

static void put_strings(struct gz_sink *g, const struct pp_pprof *m)
{
	Perftools__Profiles__Profile part = PERFTOOLS__PROFILES__PROFILE__INIT;

	part.n_string_table = m->nr_strings;
	part.string_table = m->strings;
	pack(g, &part);
}

/* the fields after the string table: time, period, comments, default type */
static void put_rest(struct gz_sink *g, const struct pp_pprof *m)
{
	Perftools__Profiles__Profile part = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType period_type = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	int64_t *comments = op_xcalloc(m->nr_comments + 1, sizeof(*comments));
	size_t i;

	part.time_nanos = m->time_nanos;
	if (m->period_type) {
		period_type.type = (int64_t)m->period_type;
		period_type.unit = (int64_t)m->period_unit;
		part.period_type = &period_type;
		part.period = m->period;
	}
	for (i = 0; i < m->nr_comments; i++)
		comments[i] = (int64_t)m->comments[i];
	part.n_comment = m->nr_comments;
	part.comment = comments;
	part.default_sample_type = (int64_t)m->default_type;
	pack(g, &part);
	free(comments);
}

/* the whole profile, part after part in field-number order */
static void put_profile(struct gz_sink *g, struct pp_pprof *m)
{
	put_types(g, m);
	put_in_parts(g, m, m->nr_samples, fill_samples);
	put_in_parts(g, m, m->nr_mappings, fill_mappings);
	put_in_parts(g, m, m->nr_locations, fill_locations);
	put_in_parts(g, m, m->nr_functions, fill_functions);
	put_strings(g, m);
	put_rest(g, m);
}

int pp_pprof_encode(struct pp_pprof *m, FILE *out, struct op_err *err)
{
	struct gz_sink *g;
	int ret;

	g = op_xcalloc(1, sizeof(*g));
	g->out = out;
	/*
	 * 15 + 16: a window of 2^15 bytes, and a gzip header and trailer.
	 * The fastest level: on 100k distinct stacks it takes a third off the
	 * export's time for a file 7 % larger than the default level's.
	 */
	ret = deflateInit2(&g->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			   Z_DEFAULT_STRATEGY);
	if (ret != Z_OK) {
		op_err_set(err, "cannot start the gzip compression: %s",
			   ret == Z_MEM_ERROR ? "out of memory" : "zlib refused");
		free(g);
		return ret == Z_MEM_ERROR ? -ENOMEM : -EIO;
	}
	put_profile(g, m);
	if (!g->err) {
		g->z.next_in = NULL;
		g->z.avail_in = 0;
		gz_run(g, Z_FINISH);
	}
	deflateEnd(&g->z);
	ret = g->err;
	if (ret)
		op_err_set(err, "cannot write the profile");
	free(g->packed);
	free(g);
	return ret;
}
