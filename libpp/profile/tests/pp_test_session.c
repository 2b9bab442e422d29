// SPDX-License-Identifier: GPL-2.0-or-later
/* Fake sessions for the libpp tests (see pp_test_session.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libdb/odb.h"
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
