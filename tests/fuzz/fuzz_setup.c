// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the daemon's setup file, SESSION/daemonrc, from untrusted
 * bytes.  odb_setup_parse() must take any input; a refusal names its
 * line.  A setup it accepts must be written by odb_setup_format() (the
 * reader accepts nothing the writer refuses), that text must parse to an
 * equal setup, and writing that one must give the same bytes.  The input
 * up to its first NUL is also tried as a --separate and an --image value:
 * words that make known bits (kernel bringing lib), their text reading
 * back to them; absolute paths without commas, at most 4096.  Nothing may
 * crash or leak.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb_setup.h"
#include "tests/fuzz/fuzz.h"

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
	    a->cpu_buffer_size != b->cpu_buffer_size)
		return false;
	for (i = 0; i < a->nr_images; i++)
		if (!same_string(a->images[i], b->images[i]))
			return false;
	return true;
}

/* "line N: ..." with N a line of text */
static bool names_a_line(const char *msg, const char *text, size_t len)
{
	size_t nr = 1, i, n;
	char *end;

	if (strncmp(msg, "line ", 5))
		return false;
	n = strtoul(msg + 5, &end, 10);
	if (strncmp(end, ": ", 2))
		return false;
	for (i = 0; i + 1 < len; i++)
		nr += text[i] == '\n';
	return n >= 1 && n <= nr;
}

static void check_file(const char *text, size_t len)
{
	struct op_strbuf out = OP_STRBUF_INIT, again_out = OP_STRBUF_INIT;
	struct op_err err = { "" };
	struct odb_setup setup, again;
	int ret = odb_setup_parse(text, len, &setup, &err);

	if (ret) {
		if (ret != -EINVAL || !names_a_line(err.msg, text, len))
			abort();
		odb_setup_release(&setup);
		return;
	}
	ret = odb_setup_format(&setup, &out);
	if (ret == -ENOMEM)
		goto out;
	if (ret)
		abort();
	if (odb_setup_parse(out.buf, out.len, &again, NULL))
		abort();
	if (!same_setup(&setup, &again))
		abort();
	if (odb_setup_format(&again, &again_out) ||
	    again_out.len != out.len || memcmp(again_out.buf, out.buf, out.len))
		abort();
	odb_setup_release(&again);
out:
	op_strbuf_release(&again_out);
	op_strbuf_release(&out);
	odb_setup_release(&setup);
}

static void check_separate(const char *value)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	unsigned bits = 0, back = 0;

	if (odb_setup_parse_separate(value, &bits, NULL))
		return;
	if (bits & ~(unsigned)ODB_SEPARATE_ALL)
		abort();
	if ((bits & ODB_SEPARATE_KERNEL) && !(bits & ODB_SEPARATE_LIB))
		abort();
	odb_setup_separate_text(bits, &sb);
	if (!op_strbuf_failed(&sb) &&
	    (odb_setup_parse_separate(sb.buf, &back, NULL) || back != bits))
		abort();
	op_strbuf_release(&sb);
}

static void check_images(const char *value)
{
	struct odb_setup setup = { 0 };
	size_t i;
	int ret = odb_setup_parse_images(&setup, value, NULL);

	if (ret) {
		if ((ret != -EINVAL && ret != -ENOMEM) || setup.images || setup.nr_images)
			abort();
		return;
	}
	if (setup.nr_images > 4096 || (!setup.nr_images && setup.images))
		abort();
	for (i = 0; i < setup.nr_images; i++)
		if (setup.images[i][0] != '/' || strchr(setup.images[i], ','))
			abort();
	odb_setup_release(&setup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *nul = memchr(text, '\0', size);
	size_t n = nul ? (size_t)(nul - text) : size;
	char *value;

	check_file(text, size);
	value = malloc(n + 1);
	if (!value)
		return 0;
	memcpy(value, text, n);
	value[n] = '\0';
	check_separate(value);
	check_images(value);
	free(value);
	return 0;
}
