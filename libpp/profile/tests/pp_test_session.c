// SPDX-License-Identifier: GPL-2.0-or-later
/* Fake sessions for the libpp tests (see pp_test_session.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/odb_name.h"
#include "libpp/profile/tests/pp_test_session.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

char *pp_test_path(const char *dir, const char *rel)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *s;

	op_strbuf_addf(&sb, "%s/%s", dir, rel);
	s = op_strbuf_detach(&sb);
	assert_non_null(s);
	return s;
}

void pp_test_sample(const char *dir, const char *rel, unsigned nr_keys)
{
	char *path = pp_test_path(dir, rel);
	struct odb_file *file;
	unsigned i;
	int ret;

	if (op_mkdir_parents(path, 0755))
		fail_msg("cannot make the parents of '%s'", path);
	ret = odb_file_open(path, ODB_WRITE, NULL, &file);
	if (ret)
		fail_msg("cannot write '%s': %d", path, ret);
	for (i = 0; i < nr_keys; i++)
		assert_int_equal(odb_file_add(file, 0x1000 + i, i + 1), 0);
	assert_int_equal(odb_file_close(file), 0);
	free(path);
}

void pp_test_file(const char *dir, const char *rel, const char *text)
{
	char *path = pp_test_path(dir, rel);

	if (op_mkdir_parents(path, 0755) ||
	    op_write_file_atomic(path, text, strlen(text), 0644))
		fail_msg("cannot write '%s'", path);
	free(path);
}

void pp_test_samples(const char *dir, const char *const *names)
{
	for (; *names; names++)
		pp_test_sample(dir, *names, 1);
}

void pp_test_odb(const char *dir, const char *rel, const char *keys, bool kernel)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	struct opd_header h = {
		.cpu_type = PP_TEST_CPU_SKYLAKE,
		.is_kernel = kernel,
		.cpu_speed = 2400.0,
	};
	struct odb_file *file;
	struct odb_name name;
	struct op_err err;
	const char *p = keys;
	char *path;
	int ret;

	if (odb_name_parse(rel, &name, &err))
		fail_msg("'%s' is no sample-file name: %s", rel, err.msg);
	h.ctr_count = (uint32_t)name.count;
	h.ctr_um = name.unit_mask;
	odb_name_release(&name);
	op_strbuf_addf(&sb, "%s/" PP_TEST_CURRENT "%s", dir, rel);
	path = op_strbuf_detach(&sb);
	assert_non_null(path);
	if (op_mkdir_parents(path, 0755))
		fail_msg("cannot make the parents of '%s'", path);
	ret = odb_file_open(path, ODB_WRITE, &h, &file);
	if (ret)
		fail_msg("cannot write '%s': %d", path, ret);
	while (*p) {
		unsigned long long key, count;
		int used;

		if (sscanf(p, " %llx:%llu%n", &key, &count, &used) != 2)
			fail_msg("bad keys '%s' for '%s'", keys, rel);
		assert_int_equal(odb_file_add(file, key, count), 0);
		p += used;
		while (*p == ' ')
			p++;
	}
	assert_int_equal(odb_file_close(file), 0);
	free(path);
}

/* a note: kept, one line each */
static void keep_note(void *data, const char *msg)
{
	struct op_strbuf *sb = data;

	op_strbuf_addf(sb, "%s\n", msg);
}

int pp_test_profile_build(struct pp_test_profile *t, const char *dir,
			  const char *const *spec, unsigned merge,
			  const struct pp_sym_opts *sym_opts, struct op_err *err)
{
	int argc = 0;

	memset(t, 0, sizeof(*t));
	op_strbuf_init(&t->noted);
	pp_notes_init(&t->notes, keep_note, &t->noted);
	while (spec && spec[argc])
		argc++;
	if (pp_session_dir_find(&t->sd, dir, NULL, err) ||
	    pp_spec_parse(argc, spec, &t->spec, err) ||
	    pp_session_list(&t->sd, &t->spec.first, &t->list, err))
		fail_msg("cannot list the session at '%s': %s", dir, err->msg);
	return pp_profile_build(&t->p, &t->list, merge, sym_opts, err);
}

void pp_test_profile_release(struct pp_test_profile *t)
{
	pp_profile_release(&t->p);
	pp_file_list_release(&t->list);
	pp_spec_set_release(&t->spec);
	pp_session_dir_release(&t->sd);
	pp_notes_release(&t->notes);
	op_strbuf_release(&t->noted);
}

size_t pp_test_image(const struct pp_profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nr_images; i++)
		if (!strcmp(p->images[i].id.name, name))
			return i;
	fail_msg("no image '%s'", name);
	return SIZE_MAX;
}

size_t pp_test_app(const struct pp_profile *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nr_apps; i++)
		if (!strcmp(p->apps[i].id.name, name))
			return i;
	fail_msg("no application '%s'", name);
	return SIZE_MAX;
}
