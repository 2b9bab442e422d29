// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opd_comm: every (tgid, tid, name, program) once with --separate-thread;
 * without it one name per program, and none of no known program, however
 * many processes ran it.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon/opd_comm.h"
#include "libutil/op_strbuf.h"

static const char *path_of(void *data, uint32_t cookie)
{
	(void)data;
	return cookie == 7 ? "/bin/true" : cookie == 9 ? "/usr/bin/as" : "";
}

static void assert_text(const struct opd_comms *c, const char *want)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	opd_comms_text(c, &sb, path_of, NULL);
	assert_string_equal(sb.buf ? sb.buf : "", want);
	op_strbuf_release(&sb);
}

static void churn(struct opd_comms *c)
{
	uint32_t pid;

	for (pid = 100; pid < 10100; pid++) {
		opd_comms_add(c, pid, pid, "sh", 0);		/* the fork */
		opd_comms_add(c, pid, pid, "true", 7);		/* its exec */
		opd_comms_add(c, pid, pid + 1, "worker", 0);	/* a thread */
	}
	opd_comms_add(c, 5, 5, "as", 9);
	opd_comms_add(c, 5, 5, "as", 9);
}

static void test_threads(void **state)
{
	struct opd_comms c;

	(void)state;
	opd_comms_init(&c);
	churn(&c);
	assert_int_equal(c.nr, 3 * 10000 + 1);
	assert_int_equal(c.v[0].tgid, 100);
	assert_string_equal(c.v[1].comm, "true");
	assert_int_equal(c.v[2].tid, 101);
	opd_comms_release(&c);
}

static void test_apps_only(void **state)
{
	struct opd_comms c;

	(void)state;
	opd_comms_init(&c);
	c.apps_only = true;
	churn(&c);
	/* the first process that ran each program stands for all */
	assert_int_equal(c.nr, 2);
	assert_text(&c, "100 100 true /bin/true\n5 5 as /usr/bin/as\n");
	opd_comms_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_apps_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
