// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SESSION/daemonrc (odb_setup.h): the exact text written for the
 * defaults and for a full setup, parsing it back, the --separate and
 * --image values, every parse error naming its line, setups that could
 * not be read back refused, the file written (0600) and read (never
 * through a symlink, never waiting on a FIFO), and -ENOMEM at every
 * allocation.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "libdb/odb.h"
#include "libdb/odb_setup.h"
#include "libdb/tests/odb_test_util.h"
#include "libutil/op_alloc.h"
#include "libutil/op_dir.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"
#include "tests/lib/op_testdir.h"

static struct op_testdir dir;

static int setup(void **state)
{
	(void)state;
	return op_testdir_make(&dir);
}

static int teardown(void **state)
{
	(void)state;
	op_testdir_remove(&dir);
	return 0;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* the struct owns its strings; these tests only lend literals */
#define S(literal) ((char *)(literal))

static char *full_images[] = {
	S("/bin/ls"),
	S("/usr/lib/x86_64-linux-gnu/libc.so.6"),
};

static const struct odb_setup full = {
	.events = S("cpu-clock:100000,CPU_CLK_UNHALTED:1000003:0:1:1"),
	.separate = ODB_SEPARATE_ALL,
	.callgraph = ODB_SETUP_MAX_DEPTH,
	.vmlinux = S("/boot/vmlinux with space"),
	.no_vmlinux = true,
	.images = full_images,
	.nr_images = ARRAY_SIZE(full_images),
	.buffer_size = UINT32_MAX,
	.cpu_buffer_size = 8192,
	.slice_ns = 250000000,
};

static const char full_text[] =
	"# oprofiled setup, written by opcontrol\n"
	"events=cpu-clock:100000,CPU_CLK_UNHALTED:1000003:0:1:1\n"
	"separate=lib,kernel,thread,cpu\n"
	"callgraph=1024\n"
	"vmlinux=/boot/vmlinux with space\n"
	"no-vmlinux=1\n"
	"image=/bin/ls,/usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"buffer-size=4294967295\n"
	"cpu-buffer-size=8192\n"
	"slice=250000000\n";

static const char default_text[] =
	"# oprofiled setup, written by opcontrol\n"
	"events=\n"
	"separate=none\n"
	"callgraph=0\n"
	"vmlinux=\n"
	"no-vmlinux=0\n"
	"image=\n"
	"buffer-size=0\n"
	"cpu-buffer-size=0\n"
	"slice=0\n";

static bool same_string(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static bool same_setup(const struct odb_setup *a, const struct odb_setup *b)
{
	size_t i;

	if (!same_string(a->events, b->events) || a->separate != b->separate ||
	    a->callgraph != b->callgraph || !same_string(a->vmlinux, b->vmlinux) ||
	    a->no_vmlinux != b->no_vmlinux || a->nr_images != b->nr_images ||
	    a->buffer_size != b->buffer_size ||
	    a->cpu_buffer_size != b->cpu_buffer_size || a->slice_ns != b->slice_ns)
		return false;
	for (i = 0; i < a->nr_images; i++)
		if (!same_string(a->images[i], b->images[i]))
			return false;
	return true;
}

static void assert_setup_equal(const struct odb_setup *a, const struct odb_setup *b)
{
	struct op_strbuf sa = OP_STRBUF_INIT, sb = OP_STRBUF_INIT;

	if (same_setup(a, b))
		return;
	odb_setup_format(a, &sa);
	odb_setup_format(b, &sb);
	fail_msg("setups differ:\n%s---\n%s", sa.buf ? sa.buf : "?",
		 sb.buf ? sb.buf : "?");
}

static bool is_default(const struct odb_setup *s)
{
	static const struct odb_setup defaults;

	return same_setup(s, &defaults) && !s->images;
}

/* the text of setup, for the caller to free; NULL if format failed */
static char *format(const struct odb_setup *setup, int *ret)
{
	struct op_strbuf sb = OP_STRBUF_INIT;

	*ret = odb_setup_format(setup, &sb);
	if (*ret) {
		op_strbuf_release(&sb);
		return NULL;
	}
	return op_strbuf_detach(&sb);
}

static void test_format(void **state)
{
	static const struct odb_setup defaults;
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *text;
	int ret;

	(void)state;
	text = format(&defaults, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(text, default_text);
	free(text);
	text = format(&full, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(text, full_text);
	free(text);

	/* appended to what sb holds */
	op_strbuf_addstr(&sb, "x\n");
	assert_int_equal(odb_setup_format(&defaults, &sb), 0);
	assert_int_equal(sb.len, 2 + strlen(default_text));
	assert_string_equal(sb.buf + 2, default_text);
	op_strbuf_release(&sb);
}

/* both texts read back as their setups, and are written again byte for byte */
static void test_round_trip(void **state)
{
	static const struct odb_setup defaults;
	static const struct {
		int line;
		const struct odb_setup *setup;
		const char *text;
	} rows[] = {
		{ .line = __LINE__, .setup = &defaults, .text = default_text },
		{ .line = __LINE__, .setup = &full, .text = full_text },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct odb_setup back;
		struct op_err err = { "" };
		char *again;
		int ret;

		ret = odb_setup_parse(rows[i].text, strlen(rows[i].text), &back, &err);
		if (ret)
			fail_msg("row at line %d: %d, %s", rows[i].line, ret, err.msg);
		assert_setup_equal(&back, rows[i].setup);
		again = format(&back, &ret);
		assert_int_equal(ret, 0);
		if (strcmp(again, rows[i].text))
			fail_msg("row at line %d: wrote\n%s", rows[i].line, again);
		free(again);
		odb_setup_release(&back);
		assert_true(is_default(&back));
		odb_setup_release(&back);
	}
	odb_setup_release(NULL);
}

#define SEPARATE_WORDS "(none, lib, kernel, thread, cpu or all)"
#define UNKNOWN_SEPARATE(word) "unknown --separate value '" word "' " SEPARATE_WORDS

static void test_separate(void **state)
{
	static const struct {
		int line;
		const char *text;
		int ret;
		unsigned bits;
		const char *msg;
	} rows[] = {
		{ .line = __LINE__, .text = "none", .bits = 0 },
		{ .line = __LINE__, .text = "lib", .bits = ODB_SEPARATE_LIB },
		/* kernel implies lib, as with OProfile */
		{ .line = __LINE__, .text = "kernel",
		  .bits = ODB_SEPARATE_KERNEL | ODB_SEPARATE_LIB },
		{ .line = __LINE__, .text = "thread", .bits = ODB_SEPARATE_THREAD },
		{ .line = __LINE__, .text = "cpu", .bits = ODB_SEPARATE_CPU },
		{ .line = __LINE__, .text = "all", .bits = ODB_SEPARATE_ALL },
		{ .line = __LINE__, .text = "thread,cpu",
		  .bits = ODB_SEPARATE_THREAD | ODB_SEPARATE_CPU },
		{ .line = __LINE__, .text = "cpu,kernel",
		  .bits = ODB_SEPARATE_CPU | ODB_SEPARATE_KERNEL | ODB_SEPARATE_LIB },
		{ .line = __LINE__, .text = "lib,kernel,thread,cpu", .bits = ODB_SEPARATE_ALL },
		{ .line = __LINE__, .text = "lib,lib", .bits = ODB_SEPARATE_LIB },
		{ .line = __LINE__, .text = "all,cpu", .bits = ODB_SEPARATE_ALL },
		{ .line = __LINE__, .text = "none,none", .bits = 0 },
		/* errors */
		{ .line = __LINE__, .text = "none,lib", .ret = -EINVAL,
		  .msg = "--separate: 'none' cannot be combined with other values" },
		{ .line = __LINE__, .text = "all,none", .ret = -EINVAL,
		  .msg = "--separate: 'none' cannot be combined with other values" },
		{ .line = __LINE__, .text = "", .ret = -EINVAL,
		  .msg = "empty --separate value " SEPARATE_WORDS },
		{ .line = __LINE__, .text = "library", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("library") },
		{ .line = __LINE__, .text = "LIB", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("LIB") },
		{ .line = __LINE__, .text = "lib, cpu", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE(" cpu") },
		{ .line = __LINE__, .text = "lib,,cpu", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("") },
		{ .line = __LINE__, .text = ",lib", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("") },
		{ .line = __LINE__, .text = "lib,", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("") },
		{ .line = __LINE__, .text = "none,", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("") },
		{ .line = __LINE__, .text = ",", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("") },
		/* a long word is cut in the message, and never matches */
		{ .line = __LINE__, .text = "libkernelthreadcpuall", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("libkernelthread") },
		{ .line = __LINE__, .text = "cpu,lib\n", .ret = -EINVAL,
		  .msg = UNKNOWN_SEPARATE("lib\n") },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct op_err err = { "" };
		unsigned bits = 0xdead;
		int ret = odb_setup_parse_separate(rows[i].text, &bits, &err);

		if (ret != rows[i].ret)
			fail_msg("row at line %d: %d, not %d (%s)", rows[i].line, ret,
				 rows[i].ret, err.msg);
		if (!ret && bits != rows[i].bits)
			fail_msg("row at line %d: bits %#x, not %#x", rows[i].line, bits,
				 rows[i].bits);
		if (ret && (bits != 0xdead || strcmp(err.msg, rows[i].msg)))
			fail_msg("row at line %d: bits %#x, '%s'", rows[i].line, bits,
				 err.msg);
	}
	/* err is optional */
	assert_int_equal(odb_setup_parse_separate("x", &(unsigned){ 0 }, NULL), -EINVAL);
}

static void test_separate_text(void **state)
{
	static const struct {
		int line;
		unsigned bits;
		const char *text;
	} rows[] = {
		{ .line = __LINE__, .bits = 0, .text = "none" },
		{ .line = __LINE__, .bits = ODB_SEPARATE_LIB, .text = "lib" },
		{ .line = __LINE__, .bits = ODB_SEPARATE_LIB | ODB_SEPARATE_KERNEL,
		  .text = "lib,kernel" },
		{ .line = __LINE__, .bits = ODB_SEPARATE_CPU | ODB_SEPARATE_THREAD,
		  .text = "thread,cpu" },
		{ .line = __LINE__, .bits = ODB_SEPARATE_ALL, .text = "lib,kernel,thread,cpu" },
		/* bits that are no word are left out */
		{ .line = __LINE__, .bits = 1u << 4 | ODB_SEPARATE_CPU, .text = "cpu" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		odb_setup_separate_text(rows[i].bits, &sb);
		if (strcmp(sb.buf, rows[i].text))
			fail_msg("row at line %d: '%s'", rows[i].line, sb.buf);
		op_strbuf_release(&sb);
	}
}

#define BAD_IMAGE "--image takes absolute paths separated by commas, or 'all'"

static void test_images(void **state)
{
	static const struct {
		int line;
		const char *text;
		int ret;
		size_t nr;
		const char *first, *last;
		const char *msg;
	} rows[] = {
		{ .line = __LINE__, .text = "all" },
		{ .line = __LINE__, .text = "" },
		{ .line = __LINE__, .text = "/bin/ls", .nr = 1, .first = "/bin/ls",
		  .last = "/bin/ls" },
		{ .line = __LINE__, .text = "/a,/b c,/d", .nr = 3, .first = "/a",
		  .last = "/d" },
		{ .line = __LINE__, .text = "/", .nr = 1, .first = "/", .last = "/" },
		{ .line = __LINE__, .text = "/a,/a", .nr = 2, .first = "/a", .last = "/a" },
		/* errors */
		{ .line = __LINE__, .text = "bin/ls", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "/a,b", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "/a,,/b", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = ",/a", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = ",", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "/a,", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "/a,/b,", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "all,/a", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "/a, /b", .ret = -EINVAL, .msg = BAD_IMAGE },
		{ .line = __LINE__, .text = "ALL", .ret = -EINVAL, .msg = BAD_IMAGE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct odb_setup s = { 0 };
		struct op_err err = { "" };
		int ret;

		/* what was there is replaced, by nothing on an error */
		assert_int_equal(odb_setup_parse_images(&s, "/old,/older", NULL), 0);
		assert_int_equal(s.nr_images, 2);
		ret = odb_setup_parse_images(&s, rows[i].text, &err);
		if (ret != rows[i].ret || s.nr_images != rows[i].nr)
			fail_msg("row at line %d: %d, %zu images (%s)", rows[i].line, ret,
				 s.nr_images, err.msg);
		if (!rows[i].nr)
			assert_null(s.images);
		else if (strcmp(s.images[0], rows[i].first) ||
			 strcmp(s.images[s.nr_images - 1], rows[i].last))
			fail_msg("row at line %d: '%s' ... '%s'", rows[i].line, s.images[0],
				 s.images[s.nr_images - 1]);
		if (ret && strcmp(err.msg, rows[i].msg))
			fail_msg("row at line %d: '%s'", rows[i].line, err.msg);
		odb_setup_release(&s);
	}
}

/* "/i,/i,...": nr paths */
static char *image_list(size_t nr)
{
	char *text = malloc(nr * 3);
	size_t i;

	assert_non_null(text);
	for (i = 0; i < nr; i++)
		memcpy(text + 3 * i, "/i,", 3);
	text[nr * 3 - 1] = '\0';
	return text;
}

static void test_many_images(void **state)
{
	struct odb_setup s = { 0 };
	struct op_err err = { "" };
	char *text;

	(void)state;
	text = image_list(4096);
	assert_int_equal(odb_setup_parse_images(&s, text, &err), 0);
	assert_int_equal(s.nr_images, 4096);
	assert_string_equal(s.images[4095], "/i");
	free(text);
	text = image_list(4097);
	assert_int_equal(odb_setup_parse_images(&s, text, &err), -EINVAL);
	assert_string_equal(err.msg, "--image: more than 4096 paths");
	assert_int_equal(s.nr_images, 0);
	assert_null(s.images);
	free(text);
	odb_setup_release(&s);
}

/* the message for a line too long or holding a NUL byte or a CR */
#define NUL_CR(nr) "line " #nr ": too long, or holds a NUL byte or a carriage return"

/* one line's error, and the line it names */
static void test_parse_errors(void **state)
{
	static const struct {
		int line;
		const char *text;
		size_t len;		/* 0: strlen(text) */
		const char *msg;
	} rows[] = {
		/* keys */
		{ .line = __LINE__, .text = "foo=1\n", .msg = "line 1: unknown key 'foo'" },
		{ .line = __LINE__, .text = "# c\n\nEvents=x\n",
		  .msg = "line 3: unknown key 'Events'" },
		{ .line = __LINE__, .text = " events=x", .msg = "line 1: unknown key ' events'" },
		{ .line = __LINE__, .text = "events =x", .msg = "line 1: unknown key 'events '" },
		{ .line = __LINE__, .text = "=x", .msg = "line 1: unknown key ''" },
		{ .line = __LINE__, .text = "events=\ncallgraph=1\ncallgraph=1\n",
		  .msg = "line 3: 'callgraph' given twice" },
		{ .line = __LINE__, .text = "image=/a\n#\n\nimage=/a\n",
		  .msg = "line 4: 'image' given twice" },
		{ .line = __LINE__, .text = "events=\nevents",
		  .msg = "line 2: not a KEY=VALUE line" },
		{ .line = __LINE__, .text = "events", .msg = "line 1: not a KEY=VALUE line" },
		{ .line = __LINE__, .text = "\n\n  \n", .msg = "line 3: not a KEY=VALUE line" },
		{ .line = __LINE__, .text = " # indented", .msg = "line 1: not a KEY=VALUE line" },
		/* numbers: decimal, no sign, no blank, in range */
		{ .line = __LINE__, .text = "callgraph=1025", .msg = "line 1: bad value '1025'" },
		{ .line = __LINE__, .text = "callgraph=-1", .msg = "line 1: bad value '-1'" },
		{ .line = __LINE__, .text = "callgraph=+1", .msg = "line 1: bad value '+1'" },
		{ .line = __LINE__, .text = "callgraph=0x10", .msg = "line 1: bad value '0x10'" },
		{ .line = __LINE__, .text = "callgraph= 1", .msg = "line 1: bad value ' 1'" },
		{ .line = __LINE__, .text = "callgraph=1 ", .msg = "line 1: bad value '1 '" },
		{ .line = __LINE__, .text = "callgraph=", .msg = "line 1: bad value ''" },
		{ .line = __LINE__, .text = "callgraph=99999999999999999999",
		  .msg = "line 1: bad value '99999999999999999999'" },
		{ .line = __LINE__, .text = "no-vmlinux=2", .msg = "line 1: bad value '2'" },
		{ .line = __LINE__, .text = "no-vmlinux=yes", .msg = "line 1: bad value 'yes'" },
		{ .line = __LINE__, .text = "buffer-size=4294967296",
		  .msg = "line 1: bad value '4294967296'" },
		{ .line = __LINE__, .text = "cpu-buffer-size=1e3",
		  .msg = "line 1: bad value '1e3'" },
		{ .line = __LINE__, .text = "cpu-buffer-size=18446744073709551616",
		  .msg = "line 1: bad value '18446744073709551616'" },
		{ .line = __LINE__, .text = "slice=999999", .msg = "line 1: bad value '999999'" },
		{ .line = __LINE__, .text = "slice=3600000000001",
		  .msg = "line 1: bad value '3600000000001'" },
		{ .line = __LINE__, .text = "slice=off", .msg = "line 1: bad value 'off'" },
		/* the value is cut in the message */
		{ .line = __LINE__,
		  .text = "buffer-size=1234567890123456789012345678901234567890123",
		  .msg = "line 1: bad value '1234567890123456789012345678901234567890'" },
		/* the words of --separate and --image */
		{ .line = __LINE__, .text = "separate=",
		  .msg = "line 1: empty --separate value " SEPARATE_WORDS },
		{ .line = __LINE__, .text = "separate=none,cpu",
		  .msg = "line 1: --separate: 'none' cannot be combined with other values" },
		{ .line = __LINE__, .text = "\nseparate=bogus",
		  .msg = "line 2: " UNKNOWN_SEPARATE("bogus") },
		{ .line = __LINE__, .text = "image=rel/ative", .msg = "line 1: " BAD_IMAGE },
		{ .line = __LINE__, .text = "image=/a,,/b", .msg = "line 1: " BAD_IMAGE },
		/* a NUL byte, wherever it is */
		{ .line = __LINE__, .text = "events=a\0b\n", .len = 11,
		  .msg = NUL_CR(1) },
		{ .line = __LINE__, .text = "events=\n\0\n", .len = 10,
		  .msg = NUL_CR(2) },
		{ .line = __LINE__, .text = "# \0 in a comment", .len = 16,
		  .msg = NUL_CR(1) },
		/* a CR but the one of a CRLF: it could not be written back */
		{ .line = __LINE__, .text = "events=a\rb\n", .msg = NUL_CR(1) },
		{ .line = __LINE__, .text = "events=\r\nvmlinux=/v\r\r\n", .msg = NUL_CR(2) },
		{ .line = __LINE__, .text = "image=/a\r,/b", .msg = NUL_CR(1) },
		{ .line = __LINE__, .text = "\r\r\n", .msg = NUL_CR(1) },
		{ .line = __LINE__, .text = "events=a\rseparate=lib\r", .msg = NUL_CR(1) },
		/* a comma at the end leaves an empty word or path */
		{ .line = __LINE__, .text = "separate=lib,",
		  .msg = "line 1: " UNKNOWN_SEPARATE("") },
		{ .line = __LINE__, .text = "image=/a,", .msg = "line 1: " BAD_IMAGE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		size_t len = rows[i].len ? rows[i].len : strlen(rows[i].text);
		struct op_err err = { "" };
		struct odb_setup s;
		int ret = odb_setup_parse(rows[i].text, len, &s, &err);

		if (ret != -EINVAL || strcmp(err.msg, rows[i].msg))
			fail_msg("row at line %d: %d, '%s'", rows[i].line, ret, err.msg);
		odb_setup_release(&s);
		/* err is optional */
		assert_int_equal(odb_setup_parse(rows[i].text, len, &s, NULL), -EINVAL);
		odb_setup_release(&s);
	}
}

/* what reads: CRLF, comments, blank lines, missing keys, values as given */
static void test_parse_ok(void **state)
{
	const struct {
		int line;
		const char *text;
		struct odb_setup want;
	} rows[] = {
		{ .line = __LINE__, .text = "" },
		{ .line = __LINE__, .text = "\n\n\r\n" },
		{ .line = __LINE__, .text = "# only a comment\n#events=x" },
		{ .line = __LINE__, .text = "events=\nvmlinux=\nimage=all\n" },
		{ .line = __LINE__, .text = "callgraph=7",
		  .want = { .callgraph = 7 } },
		{ .line = __LINE__, .text = "callgraph=0007\r\nno-vmlinux=1\r\n",
		  .want = { .callgraph = 7, .no_vmlinux = true } },
		{ .line = __LINE__, .text = "separate=kernel\ncallgraph=1024\n",
		  .want = { .separate = ODB_SEPARATE_KERNEL | ODB_SEPARATE_LIB,
			    .callgraph = 1024 } },
		{ .line = __LINE__, .text = "\r\n# x=y\r\nbuffer-size=4294967295\r\n"
					    "cpu-buffer-size=0\r\n",
		  .want = { .buffer_size = UINT32_MAX } },
		/* values are kept as they are: blanks, '=', '#' */
		{ .line = __LINE__, .text = "events= a=b #c \nvmlinux=#v",
		  .want = { .events = S(" a=b #c "), .vmlinux = S("#v") } },
		{ .line = __LINE__, .text = "image=all", .want = { 0 } },
		{ .line = __LINE__, .text = "slice=none",
		  .want = { .slice_ns = ODB_SETUP_NO_SLICES } },
		{ .line = __LINE__, .text = "slice=1000000", .want = { .slice_ns = 1000000 } },
		{ .line = __LINE__, .text = "image=/x,/y\n",
		  .want = { .images = (char *[]){ S("/x"), S("/y") }, .nr_images = 2 } },
		/* any order */
		{ .line = __LINE__, .text = "cpu-buffer-size=3\nbuffer-size=2\n"
					    "image=/i\nno-vmlinux=0\nvmlinux=/v\n"
					    "callgraph=1\nseparate=thread\nevents=e\n",
		  .want = { .events = S("e"), .separate = ODB_SEPARATE_THREAD,
			    .callgraph = 1, .vmlinux = S("/v"),
			    .images = (char *[]){ S("/i") }, .nr_images = 1,
			    .buffer_size = 2, .cpu_buffer_size = 3 } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct op_err err = { "" };
		struct odb_setup s;
		int ret = odb_setup_parse(rows[i].text, strlen(rows[i].text), &s, &err);

		if (ret)
			fail_msg("row at line %d: %d, '%s'", rows[i].line, ret, err.msg);
		if (!same_setup(&s, &rows[i].want))
			fail_msg("row at line %d: not the setup wanted", rows[i].line);
		odb_setup_release(&s);
	}
	/* the text need not end in NUL: len bytes are read */
	{
		struct odb_setup s;

		assert_int_equal(odb_setup_parse("callgraph=12", 11, &s, NULL), 0);
		assert_int_equal(s.callgraph, 1);
		odb_setup_release(&s);
	}
}

/* "KEY=aaa...\n" of len bytes before its newline, followed by tail */
static char *long_line(const char *key, size_t len, const char *tail, size_t *out_len)
{
	size_t klen = strlen(key), tlen = strlen(tail);
	char *text = malloc(len + 1 + tlen + 1);

	assert_non_null(text);
	memcpy(text, key, klen);
	text[klen] = '=';
	memset(text + klen + 1, 'a', len - klen - 1);
	text[len] = '\n';
	memcpy(text + len + 1, tail, tlen + 1);
	*out_len = len + 1 + tlen;
	return text;
}

static void test_long_lines(void **state)
{
	struct op_err err = { "" };
	struct odb_setup s;
	size_t len;
	char *text;

	(void)state;
	/* ODB_SETUP_MAX_LINE bytes: read */
	text = long_line("events", ODB_SETUP_MAX_LINE, "callgraph=2", &len);
	assert_int_equal(odb_setup_parse(text, len, &s, &err), 0);
	assert_int_equal(strlen(s.events), ODB_SETUP_MAX_LINE - strlen("events="));
	assert_int_equal(s.callgraph, 2);
	odb_setup_release(&s);
	free(text);
	/* the CR of a CRLF is not counted */
	text = long_line("events", ODB_SETUP_MAX_LINE + 1, "", &len);
	text[ODB_SETUP_MAX_LINE] = '\r';
	text[ODB_SETUP_MAX_LINE + 1] = '\n';
	assert_int_equal(odb_setup_parse(text, len, &s, &err), 0);
	assert_int_equal(strlen(s.events), ODB_SETUP_MAX_LINE - strlen("events="));
	odb_setup_release(&s);
	free(text);
	/* one more: refused, whatever the line */
	text = long_line("events", ODB_SETUP_MAX_LINE + 1, "", &len);
	assert_int_equal(odb_setup_parse(text, len, &s, &err), -EINVAL);
	assert_string_equal(err.msg, NUL_CR(1));
	odb_setup_release(&s);
	free(text);
	text = long_line("# comment", ODB_SETUP_MAX_LINE + 1, "", &len);
	assert_int_equal(odb_setup_parse(text, len, &s, &err), -EINVAL);
	assert_string_equal(err.msg, NUL_CR(1));
	odb_setup_release(&s);
	free(text);
	/* the last line, without newline */
	text = long_line("vmlinux", ODB_SETUP_MAX_LINE + 1, "", &len);
	memmove(text + 1, text, len - 1);
	text[0] = '\n';
	assert_int_equal(odb_setup_parse(text, len, &s, &err), -EINVAL);
	assert_string_equal(err.msg, NUL_CR(2));
	odb_setup_release(&s);
	free(text);
}

/* whether format refuses setup, appending nothing */
static bool refused(const struct odb_setup *setup)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	bool ok;

	op_strbuf_addstr(&sb, "kept");
	ok = odb_setup_format(setup, &sb) == -EINVAL && !strcmp(sb.buf, "kept");
	op_strbuf_release(&sb);
	return ok;
}

/* a setup whose text could not be read back is not written */
static void test_format_refuses(void **state)
{
	const struct {
		int line;
		struct odb_setup setup;
	} rows[] = {
		{ .line = __LINE__, .setup = { .events = S("a\nb") } },
		{ .line = __LINE__, .setup = { .events = S("a\r") } },
		{ .line = __LINE__, .setup = { .vmlinux = S("/v\nevents=x") } },
		{ .line = __LINE__, .setup = { .vmlinux = S("\r") } },
		{ .line = __LINE__,
		  .setup = { .images = (char *[]){ S("/a"), S("/b\n") }, .nr_images = 2 } },
		{ .line = __LINE__,
		  .setup = { .images = (char *[]){ S("/a,/b") }, .nr_images = 1 } },
		/* values the reader refuses */
		{ .line = __LINE__,
		  .setup = { .images = (char *[]){ S("/a"), S("rel") }, .nr_images = 2 } },
		{ .line = __LINE__,
		  .setup = { .images = (char *[]){ S("") }, .nr_images = 1 } },
		{ .line = __LINE__, .setup = { .callgraph = ODB_SETUP_MAX_DEPTH + 1 } },
		{ .line = __LINE__, .setup = { .buffer_size = (uint64_t)UINT32_MAX + 1 } },
		{ .line = __LINE__, .setup = { .cpu_buffer_size = UINT64_MAX } },
		{ .line = __LINE__, .setup = { .slice_ns = 999999 } },
		{ .line = __LINE__, .setup = { .slice_ns = 3600000000001ull } },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		if (!refused(&rows[i].setup))
			fail_msg("row at line %d: written", rows[i].line);
}

/* a string of len bytes: a slash, then 'a's */
static char *path_of(size_t len)
{
	char *s = malloc(len + 1);

	assert_non_null(s);
	memset(s, 'a', len);
	s[0] = '/';
	s[len] = '\0';
	return s;
}

/* lines the reader would refuse, from lists that are long but valid */
static void test_format_long(void **state)
{
	const size_t max = ODB_SETUP_MAX_LINE;
	struct odb_setup s = { 0 }, back;
	char *images[4097], *text;
	size_t i;
	int ret;

	(void)state;
	/* "events=..." of ODB_SETUP_MAX_LINE bytes: written and read back */
	s.events = path_of(max - strlen("events="));
	text = format(&s, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(odb_setup_parse(text, strlen(text), &back, NULL), 0);
	assert_setup_equal(&back, &s);
	odb_setup_release(&back);
	free(text);
	free(s.events);
	s.events = path_of(max - strlen("events=") + 1);
	assert_true(refused(&s));
	free(s.events);
	s.events = NULL;
	s.vmlinux = path_of(max - strlen("vmlinux=") + 1);
	assert_true(refused(&s));
	free(s.vmlinux);
	s.vmlinux = NULL;

	/* two paths that --image takes, one line too long together */
	images[0] = path_of(max / 2);
	images[1] = path_of(max / 2);
	s.images = images;
	s.nr_images = 2;
	assert_true(refused(&s));
	free(images[0]);
	free(images[1]);

	/* at most 4096 paths */
	for (i = 0; i < 4097; i++)
		images[i] = S("/i");
	s.nr_images = 4096;
	text = format(&s, &ret);
	assert_int_equal(ret, 0);
	free(text);
	s.nr_images = 4097;
	assert_true(refused(&s));
}

/* setup written to directory path (made as needed) */
static int setup_write(const char *path, const struct odb_setup *s)
{
	struct op_dir d;
	int ret = op_testdir_hold(path, &d);

	if (!ret)
		ret = odb_setup_write(&d, s);
	op_dir_close(&d);
	return ret;
}

static void test_write_read(void **state)
{
	char sub[PATH_MAX], path[PATH_MAX];
	struct op_err err = { "" };
	struct odb_setup back;
	struct stat st;
	size_t len;
	char *text;

	(void)state;
	op_testdir_file(&dir, "run", sub, sizeof(sub));
	assert_int_equal(setup_write(sub, &full), 0);
	op_testdir_file(&dir, "run/daemonrc", path, sizeof(path));
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(op_read_file(path, 1 << 20, &text, &len), 0);
	assert_string_equal(text, full_text);
	free(text);
	op_testdir_file(&dir, "run/daemonrc.tmp", path, sizeof(path));
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(odb_setup_read(sub, &back, &err), 0);
	assert_setup_equal(&back, &full);
	odb_setup_release(&back);

	/* written again: replaced whole */
	assert_int_equal(setup_write(sub, &(struct odb_setup){ .callgraph = 3 }), 0);
	assert_int_equal(odb_setup_read(sub, &back, &err), 0);
	assert_int_equal(back.callgraph, 3);
	assert_null(back.events);
	odb_setup_release(&back);

	/* a refused setup leaves the file as it was */
	assert_int_equal(setup_write(sub, &(struct odb_setup){ .events = S("\n") }),
			 -EINVAL);
	assert_int_equal(odb_setup_read(sub, &back, &err), 0);
	assert_int_equal(back.callgraph, 3);
	odb_setup_release(&back);

	/* none: -ENOENT and the defaults, err untouched */
	op_testdir_file(&dir, "none", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	snprintf(err.msg, sizeof(err.msg), "untouched");
	assert_int_equal(odb_setup_read(sub, &back, &err), -ENOENT);
	assert_true(is_default(&back));
	assert_string_equal(err.msg, "untouched");
	odb_setup_release(&back);
	op_testdir_file(&dir, "missing", sub, sizeof(sub));
	assert_int_equal(odb_setup_read(sub, &back, NULL), -ENOENT);
	odb_setup_release(&back);

	/* a damaged file: the error names its line, nothing is kept */
	op_testdir_file(&dir, "bad", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	op_testdir_file(&dir, "bad/daemonrc", path, sizeof(path));
	assert_int_equal(odb_test_spew(path, "events=x\ncallgraph=y\n", 21), 0);
	assert_int_equal(odb_setup_read(sub, &back, &err), -EINVAL);
	assert_string_equal(err.msg, "line 2: bad value 'y'");
	odb_setup_release(&back);
}

static void test_not_regular(void **state)
{
	char sub[PATH_MAX], path[PATH_MAX], target[PATH_MAX];
	struct op_err err = { "" };
	struct odb_setup back;
	size_t len;
	char *text;

	(void)state;
	/* a symlink to a good file: not followed */
	op_testdir_file(&dir, "elsewhere", sub, sizeof(sub));
	assert_int_equal(setup_write(sub, &full), 0);
	op_testdir_file(&dir, "elsewhere/daemonrc", target, sizeof(target));
	op_testdir_file(&dir, "link", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	op_testdir_file(&dir, "link/daemonrc", path, sizeof(path));
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(odb_setup_read(sub, &back, &err), ODB_ERR_NOT_REGULAR);
	assert_string_equal(err.msg, "not a regular file");
	assert_true(is_default(&back));
	odb_setup_release(&back);
	/* writing replaces the link, never what it points to */
	assert_int_equal(setup_write(sub, &(struct odb_setup){ .callgraph = 9 }), 0);
	assert_int_equal(op_read_file(target, 1 << 20, &text, &len), 0);
	assert_string_equal(text, full_text);
	free(text);
	assert_int_equal(odb_setup_read(sub, &back, &err), 0);
	assert_int_equal(back.callgraph, 9);
	odb_setup_release(&back);

	/* a FIFO with no writer: refused at once, not waited on */
	op_testdir_file(&dir, "fifo", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	op_testdir_file(&dir, "fifo/daemonrc", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);	/* a hang is a failure */
	assert_int_equal(odb_setup_read(sub, &back, &err), ODB_ERR_NOT_REGULAR);
	alarm(0);
	assert_true(is_default(&back));
	odb_setup_release(&back);

	/* a directory */
	op_testdir_file(&dir, "isdir/daemonrc", path, sizeof(path));
	assert_int_equal(op_mkdir_p(path, 0755), 0);
	op_testdir_file(&dir, "isdir", sub, sizeof(sub));
	assert_int_equal(odb_setup_read(sub, &back, &err), ODB_ERR_NOT_REGULAR);
	odb_setup_release(&back);
}

/* allocation k failing, for every k: -ENOMEM (freed by the caller's release) */
static void test_oom(void **state)
{
	struct odb_setup back;
	struct op_err err;
	char sub[PATH_MAX];
	unsigned long k;
	int ret;

	(void)state;
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_setup_parse(full_text, strlen(full_text), &back, &err);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_setup_equal(&back, &full);
			odb_setup_release(&back);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("parse: allocation %lu failing gave %d", k, ret);
		odb_setup_release(&back);
	}
	assert_true(k > 4);
	for (k = 1;; k++) {
		struct op_strbuf sb = OP_STRBUF_INIT;

		op_alloc_fail_at(k);
		ret = odb_setup_format(&full, &sb);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_string_equal(sb.buf, full_text);
			op_strbuf_release(&sb);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("format: allocation %lu failing gave %d", k, ret);
		op_strbuf_release(&sb);
	}
	assert_true(k > 1);
	for (k = 1;; k++) {
		struct odb_setup s = { 0 };

		op_alloc_fail_at(k);
		ret = odb_setup_parse_images(&s, "/a,/b,/c", &err);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_int_equal(s.nr_images, 3);
			odb_setup_release(&s);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM || s.images || s.nr_images)
			fail_msg("images: allocation %lu failing gave %d", k, ret);
	}
	assert_true(k > 6);

	op_testdir_file(&dir, "oom", sub, sizeof(sub));
	assert_int_equal(op_mkdir_p(sub, 0755), 0);
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = setup_write(sub, &full);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("write: allocation %lu failing gave %d", k, ret);
	}
	for (k = 1;; k++) {
		op_alloc_fail_at(k);
		ret = odb_setup_read(sub, &back, &err);
		if (op_alloc_count() < k) {
			op_alloc_fail_at(0);
			assert_int_equal(ret, 0);
			assert_setup_equal(&back, &full);
			odb_setup_release(&back);
			break;
		}
		op_alloc_fail_at(0);
		if (ret != -ENOMEM)
			fail_msg("read: allocation %lu failing gave %d", k, ret);
		odb_setup_release(&back);
	}
	assert_true(k > 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_separate),
		cmocka_unit_test(test_separate_text),
		cmocka_unit_test(test_images),
		cmocka_unit_test(test_many_images),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_format_refuses),
		cmocka_unit_test(test_format_long),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_oom),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
