// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opreport --format=pprof, read back with protobuf-c and libdeflate:
 *  - pp_pprof_encode() of a profile made by hand: a gzip stream whose
 *    message has every id, string, value, label, comment and period as
 *    given, and a stream that cannot be written is -EIO;
 *  - the pprof output of pp_report_run() on the fixture sessions (no
 *    stack file: one-frame samples, with the note and the comment
 *    saying so): per function, the samples of the symbols opreport -l
 *    gives, with -i and -t, gap rows, and the one artificial symbol of
 *    a program that is not there.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <libdeflate.h>

#include "libpp/report/profile.pb-c.h"
#include "libpp/report/report_int.h"
#include "libpp/report/tests/pp_test_report.h"

/* the gzip members the last decode() read */
static size_t members_read;

/*
 * The message in gzip bytes gz[0..len), members and all (the encoder
 * writes one per part); caller frees with ..._free_unpacked()
 */
static Perftools__Profiles__Profile *decode(const char *gz, size_t len)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	Perftools__Profiles__Profile *prof;
	size_t size = 1 << 16, out = 0, at = 0;
	unsigned char *raw = malloc(size);

	assert_non_null(d);
	assert_non_null(raw);
	assert_true(len > 0);
	members_read = 0;
	while (at < len) {
		size_t in_used = 0, got = 0;
		enum libdeflate_result ret;

		ret = libdeflate_gzip_decompress_ex(d, gz + at, len - at, raw + out, size - out,
						    &in_used, &got);
		if (ret == LIBDEFLATE_INSUFFICIENT_SPACE) {
			size *= 2;
			raw = realloc(raw, size);
			assert_non_null(raw);
			continue;
		}
		assert_int_equal(ret, LIBDEFLATE_SUCCESS);
		at += in_used;
		out += got;
		members_read++;
	}
	prof = perftools__profiles__profile__unpack(NULL, out, raw);
	assert_non_null(prof);
	libdeflate_free_decompressor(d);
	free(raw);
	return prof;
}

static const char *pstr(const Perftools__Profiles__Profile *p, int64_t i)
{
	assert_true(i >= 0 && (size_t)i < p->n_string_table);
	return p->string_table[i];
}

/* a profile of two stacks: main -> f (3, 30) and f alone (1, 10) */
static void make_profile(struct pp_pprof *m)
{
	static char pool[][16] = { "", "ev", "count", "main", "f", "/bin/x", "abcd",
				   "x.c", "app", "x", "a comment", "nanoseconds" };
	static char *strings[sizeof(pool) / sizeof(pool[0])];
	static size_t types[] = { 1, 1 }, units[] = { 2, 2 }, comments[] = { 10 };
	static struct pp_pprof_mapping mappings[] = {
		{ .start = 0x1000, .limit = 0x1100, .offset = 0x100, .file = 5,
		  .build_id = 6, .has_lines = true },
	};
	static struct pp_pprof_function functions[] = {
		{ .name = 3, .system_name = 3, .file = 7, .start_line = 10 },
		{ .name = 4, .system_name = 4, .file = 7, .start_line = 20 },
	};
	static struct pp_pprof_location locations[] = {
		{ .mapping = 1, .address = 0x1010, .function = 1, .line = 12 },
		{ .mapping = 1, .address = 0x1080, .function = 2, .line = 21 },
	};
	static uint64_t frames[] = { 2, 1, 2 };
	static size_t first[] = { 0, 2, 3 }, labels[] = { 9, 0 };
	static int64_t values[] = { 3, 30, 1, 10 };

	size_t i;

	for (i = 0; i < sizeof(pool) / sizeof(pool[0]); i++)
		strings[i] = pool[i];
	memset(m, 0, sizeof(*m));
	m->strings = strings;
	m->nr_strings = sizeof(strings) / sizeof(strings[0]);
	m->nr_types = 2;
	m->types = types;
	m->units = units;
	m->default_type = 1;
	m->period_type = 1;
	m->period_unit = 11;
	m->period = 100000;
	m->comments = comments;
	m->nr_comments = 1;
	m->label_key = 8;
	m->mappings = mappings;
	m->nr_mappings = 1;
	m->functions = functions;
	m->nr_functions = 2;
	m->locations = locations;
	m->nr_locations = 2;
	m->frames = frames;
	m->nr_frames = 3;
	m->first = first;
	m->values = values;
	m->labels = labels;
	m->nr_samples = 2;
}

static void check_profile(const Perftools__Profiles__Profile *p)
{
	const Perftools__Profiles__Sample *s;

	assert_int_equal(p->n_sample_type, 2);
	assert_string_equal(pstr(p, p->sample_type[1]->type), "ev");
	assert_string_equal(pstr(p, p->sample_type[1]->unit), "count");
	assert_string_equal(pstr(p, p->default_sample_type), "ev");
	assert_non_null(p->period_type);
	assert_string_equal(pstr(p, p->period_type->unit), "nanoseconds");
	assert_int_equal(p->period, 100000);
	assert_int_equal(p->n_comment, 1);
	assert_string_equal(pstr(p, p->comment[0]), "a comment");
	assert_int_equal(p->n_mapping, 1);
	assert_int_equal(p->mapping[0]->id, 1);
	assert_int_equal(p->mapping[0]->memory_start, 0x1000);
	assert_int_equal(p->mapping[0]->memory_limit, 0x1100);
	assert_int_equal(p->mapping[0]->file_offset, 0x100);
	assert_string_equal(pstr(p, p->mapping[0]->filename), "/bin/x");
	assert_string_equal(pstr(p, p->mapping[0]->build_id), "abcd");
	assert_true(p->mapping[0]->has_functions && p->mapping[0]->has_line_numbers);
	assert_int_equal(p->n_function, 2);
	assert_int_equal(p->function[1]->id, 2);
	assert_string_equal(pstr(p, p->function[1]->name), "f");
	assert_string_equal(pstr(p, p->function[1]->filename), "x.c");
	assert_int_equal(p->function[1]->start_line, 20);
	assert_int_equal(p->n_location, 2);
	assert_int_equal(p->location[1]->id, 2);
	assert_int_equal(p->location[1]->mapping_id, 1);
	assert_int_equal(p->location[1]->address, 0x1080);
	assert_int_equal(p->location[1]->n_line, 1);
	assert_int_equal(p->location[1]->line[0]->function_id, 2);
	assert_int_equal(p->location[1]->line[0]->line, 21);
	assert_int_equal(p->n_sample, 2);
	s = p->sample[0];
	assert_int_equal(s->n_location_id, 2);
	assert_int_equal(s->location_id[0], 2);	/* the leaf first */
	assert_int_equal(s->location_id[1], 1);
	assert_int_equal(s->n_value, 2);
	assert_int_equal(s->value[1], 30);
	assert_int_equal(s->n_label, 1);
	assert_string_equal(pstr(p, s->label[0]->key), "app");
	assert_string_equal(pstr(p, s->label[0]->str), "x");
	s = p->sample[1];
	assert_int_equal(s->n_location_id, 1);
	assert_int_equal(s->value[0], 1);
	assert_int_equal(s->n_label, 0);
}

static void test_encode(void **state)
{
	Perftools__Profiles__Profile *p;
	struct pp_pprof m;
	struct op_err err = { "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	make_profile(&m);
	assert_non_null(mem);
	assert_int_equal(pp_pprof_encode(&m, mem, &err), 0);
	assert_int_equal(fclose(mem), 0);
	assert_true(len > 18 && (unsigned char)buf[0] == 0x1f &&
		    (unsigned char)buf[1] == 0x8b);	/* gzip */
	p = decode(buf, len);
	check_profile(p);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

/* m's samples: nr of them, sample i's frames [first[i], first[i + 1]) */
static void set_samples(struct pp_pprof *m, size_t nr, size_t *first, uint64_t *frames,
			int64_t *values, size_t *labels)
{
	m->nr_samples = nr;
	m->first = first;
	m->frames = frames;
	m->nr_frames = first[nr];
	m->values = values;
	m->labels = labels;
}

/* the encoded bytes of m (pp_pprof_encode() must succeed); free them */
static char *encode(struct pp_pprof *m, size_t *len)
{
	struct op_err err = { "" };
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	assert_non_null(mem);
	assert_int_equal(pp_pprof_encode(m, mem, &err), 0);
	assert_int_equal(fclose(mem), 0);
	assert_true(*len >= 18 && (unsigned char)buf[0] == 0x1f &&
		    (unsigned char)buf[1] == 0x8b);	/* gzip */
	return buf;
}

/*
 * 10,000 samples: parts of several thousand items each, one gzip member
 * apiece, that read back as one message with every sample in order
 */
static void test_encode_many(void **state)
{
	enum { N = 10000 };
	static uint64_t frames[N];
	static size_t first[N + 1], labels[N];
	static int64_t values[2 * N];
	Perftools__Profiles__Profile *p;
	struct pp_pprof m;
	size_t i, len;
	char *buf;

	(void)state;
	make_profile(&m);
	for (i = 0; i < N; i++) {
		frames[i] = 1 + i % 2;
		first[i + 1] = i + 1;
		values[2 * i] = (int64_t)i;
		values[2 * i + 1] = 7;
	}
	set_samples(&m, N, first, frames, values, labels);
	buf = encode(&m, &len);
	p = decode(buf, len);
	assert_true(members_read >= 3);
	assert_int_equal(p->n_sample, N);
	for (i = 0; i < N; i++) {
		assert_int_equal(p->sample[i]->n_location_id, 1);
		assert_int_equal(p->sample[i]->location_id[0], 1 + i % 2);
		assert_int_equal(p->sample[i]->value[0], (int64_t)i);
	}
	assert_int_equal(p->n_location, 2);
	assert_string_equal(pstr(p, p->function[1]->name), "f");
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

/*
 * Every number at its widest (ten-byte varints: the largest ids and
 * addresses, negative values and lines): the parts are packed into
 * buffers sized by bounds from the arrays, not measured, and must fit
 */
static void test_encode_widest(void **state)
{
	enum { N = 5000, DEPTH = 8 };
	static uint64_t frames[N * DEPTH];
	static size_t first[N + 1], labels[N];
	static int64_t values[2 * N];
	static struct pp_pprof_location locations[N];
	Perftools__Profiles__Profile *p;
	struct pp_pprof m;
	size_t i, len;
	char *buf;

	(void)state;
	make_profile(&m);
	for (i = 0; i < N * DEPTH; i++)
		frames[i] = UINT64_MAX - i % 3;
	for (i = 0; i < N; i++) {
		first[i + 1] = (i + 1) * DEPTH;
		values[2 * i] = INT64_MIN;
		values[2 * i + 1] = -1;
		labels[i] = (size_t)INT64_MAX;
		locations[i] = (struct pp_pprof_location){ .mapping = UINT64_MAX,
			.address = UINT64_MAX - i, .function = UINT64_MAX, .line = INT64_MIN };
	}
	set_samples(&m, N, first, frames, values, labels);
	m.locations = locations;
	m.nr_locations = N;
	buf = encode(&m, &len);
	p = decode(buf, len);
	assert_int_equal(p->n_sample, N);
	assert_int_equal(p->sample[N - 1]->n_location_id, DEPTH);
	assert_true(p->sample[N - 1]->location_id[DEPTH - 1] == UINT64_MAX - (N * DEPTH - 1) % 3);
	assert_true(p->sample[0]->value[0] == INT64_MIN);
	assert_true(p->sample[0]->label[0]->str == INT64_MAX);
	assert_int_equal(p->n_location, N);
	assert_true(p->location[N - 1]->address == UINT64_MAX - (N - 1));
	assert_true(p->location[7]->line[0]->line == INT64_MIN);
	assert_true(p->location[7]->line[0]->function_id == UINT64_MAX);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

/*
 * In two steps: started with the samples alone (no mappings, locations,
 * functions, and strings only as far as the samples' labels), the rest
 * given before finishing: the same profile
 */
static void test_encode_two_steps(void **state)
{
	Perftools__Profiles__Profile *p;
	struct pp_pprof m, full;
	struct pp_pprof_encoder *e;
	struct op_err err = { "" };
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(mem);
	make_profile(&full);
	m = full;
	m.nr_mappings = m.nr_locations = m.nr_functions = m.nr_comments = 0;
	m.nr_strings = 10;
	assert_int_equal(pp_pprof_encode_start(&m, mem, &e, &err), 0);
	/* what the caller makes meanwhile (the fields the samples do not use) */
	m.nr_mappings = full.nr_mappings;
	m.nr_locations = full.nr_locations;
	m.nr_functions = full.nr_functions;
	m.nr_comments = full.nr_comments;
	m.nr_strings = full.nr_strings;
	assert_int_equal(pp_pprof_encode_finish(e, &err), 0);
	assert_int_equal(fclose(mem), 0);
	p = decode(buf, len);
	check_profile(p);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

/* nothing at all to write: still a gzip file, of an empty message */
static void test_encode_empty(void **state)
{
	Perftools__Profiles__Profile *p;
	struct pp_pprof m;
	size_t len;
	char *buf;

	(void)state;
	memset(&m, 0, sizeof(m));
	buf = encode(&m, &len);
	p = decode(buf, len);
	assert_int_equal(members_read, 1);
	assert_int_equal(p->n_sample, 0);
	assert_int_equal(p->n_string_table, 0);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
}

/* a stream that fails at once: -EIO with a message */
static void test_encode_unwritable(void **state)
{
	struct pp_pprof m;
	struct op_err err = { "" };
	FILE *f = fopen("/dev/null", "r");

	(void)state;
	if (!f)
		skip();
	make_profile(&m);
	assert_int_equal(pp_pprof_encode(&m, f, &err), -EIO);
	assert_string_equal(err.msg, "cannot write the profile");
	fclose(f);
}

/* a pprof run on fixture sessions: the samples per function */
static const struct {
	int line;
	const char *session;
	const char *spec[2];
	struct pp_report_opts o;
	const char *want;		/* "NAME=COUNT " per function, by name */
} rows[] = {
	{ .line = __LINE__, .session = "s", .spec = { PP_TEST_K_ONLY },
	  .want = "alpha=500 beta=200 delta=50 " },
	{ .line = __LINE__, .session = "s", .spec = { PP_TEST_K_ONLY },
	  .o = { .include_symbols = (const char *const[]){ "beta", NULL } },
	  .want = "beta=200 " },
	{ .line = __LINE__, .session = "s", .spec = { PP_TEST_K_ONLY },
	  .o = { .threshold = 30.0 },
	  .want = "alpha=500 " },
	/* samples between symbols: the gap rows of -l */
	{ .line = __LINE__, .session = "g",
	  .want = "[no-vmlinux 0x0-0xfff]=30 [no-vmlinux 0x1280-0x12ff]=10 alpha=60 " },
	/* the program that is not there (its one artificial symbol), and its
	 * samples in the kernel */
	{ .line = __LINE__, .session = "s", .spec = { "image:/opt/t/prog" },
	  .want = "/opt/t/prog=150 alpha=40 gamma=60 " },
	{ .line = __LINE__, .session = "s2",
	  .want = "alpha=390 beta=300 gamma=60 " },
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "NAME=COUNT " of the first value per function, by name */
static char *per_function(const Perftools__Profiles__Profile *p)
{
	int64_t *sum = calloc(p->n_function + 1, sizeof(*sum));
	char **names = calloc(p->n_function + 1, sizeof(*names));
	char *out = calloc(1, 4096);
	size_t i, n = 0;

	assert_true(sum && names && out);
	for (i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];
		uint64_t leaf = s->location_id[0];

		assert_true(leaf >= 1 && leaf <= p->n_location);
		assert_int_equal(p->location[leaf - 1]->id, leaf);
		sum[p->location[leaf - 1]->line[0]->function_id - 1] += s->value[0];
	}
	for (i = 0; i < p->n_function; i++) {
		if (!sum[i])
			continue;
		names[n] = malloc(512);
		assert_non_null(names[n]);
		snprintf(names[n++], 512, "%s=%lld ", pstr(p, p->function[i]->name),
			 (long long)sum[i]);
	}
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		strncat(out, names[i], 4095 - strlen(out));
		free(names[i]);
	}
	free(names);
	free(sum);
	return out;
}

static void test_output(void **state)
{
	struct pp_test_fixture *f = *state;
	size_t i, k;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pp_test_profile side = { 0 }, *t[1] = { &side };
		Perftools__Profiles__Profile *p;
		struct op_err err = { "" };
		char *buf, *got;
		size_t len;
		bool said = false;

		pp_test_fixture_profile(&side, f, rows[i].session,
					rows[i].spec[0] ? rows[i].spec : NULL, 0);
		if (pp_test_report_run_len("pprof", t, 1, &rows[i].o, &buf, &len, &err))
			fail_msg("row at line %d: %s", rows[i].line, err.msg);
		p = decode(buf, len);
		got = per_function(p);
		if (strcmp(got, rows[i].want))
			fail_msg("row at line %d: '%s', not '%s'", rows[i].line, got,
				 rows[i].want);
		for (k = 0; k < p->n_comment; k++)
			said |= !strncmp(pstr(p, p->comment[k]), "No whole call stacks: ", 22);
		if (!said || !strstr(side.noted.buf ? side.noted.buf : "",
				     "no whole call stacks: the session has no stack file"))
			fail_msg("row at line %d: no word of the missing stacks", rows[i].line);
		free(got);
		perftools__profiles__profile__free_unpacked(p, NULL);
		free(buf);
		pp_test_profile_release(&side);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_encode_many),
		cmocka_unit_test(test_encode_widest),
		cmocka_unit_test(test_encode_two_steps),
		cmocka_unit_test(test_encode_empty),
		cmocka_unit_test(test_encode_unwritable),
		cmocka_unit_test(test_output),
	};

	return cmocka_run_group_tests(tests, pp_test_fixture_setup, pp_test_fixture_teardown);
}
