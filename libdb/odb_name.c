// SPDX-License-Identifier: GPL-2.0-or-later
/* Building sample-file names: image parts, escaping, the spec (see odb_name.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "libdb/odb_name.h"
#include "libutil/op_hash.h"
#include "libutil/op_parse.h"

#define COMPONENT_MAX 255

static const char hexdigits[] = "0123456789ABCDEF";

static void add_escaped_byte(struct op_strbuf *sb, unsigned char c)
{
	char esc[3] = { '%', hexdigits[c >> 4], hexdigits[c & 15] };

	op_strbuf_add(sb, esc, sizeof(esc));
}

static bool must_escape(unsigned char c, bool slash)
{
	return c == '%' || c == '\\' || c < 0x20 || c == 0x7f ||
	       (slash && c == '/');
}

/* one component (len bytes, no '/') escaped onto sb */
static void add_component(struct op_strbuf *sb, const char *s, size_t len,
			  bool slash)
{
	size_t i;

	if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.')) {
		for (i = 0; i < len; i++)
			add_escaped_byte(sb, '.');
		return;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((i == 0 && c == '{') || must_escape(c, slash))
			add_escaped_byte(sb, c);
		else
			op_strbuf_addch(sb, (char)c);
	}
}

/* the "/#long/HASH/start-of-basename" form of an unusable path */
static void add_long_form(struct op_strbuf *sb, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t start = sb->len, len;

	base = base ? base + 1 : path;
	op_strbuf_addf(sb, "/#long/%016llx/",
		       (unsigned long long)op_hash_str(path));
	len = strlen(base);
	add_component(sb, base, len > 64 ? 64 : len, true);
	if (sb->len == start + 24)	/* an empty basename */
		op_strbuf_addch(sb, '_');
}

int odb_name_escape_path(struct op_strbuf *sb, const char *path)
{
	size_t start = sb->len;
	const char *p = path;

	if (path[0] != '/')
		return -EINVAL;
	while (*p) {
		const char *slash;
		size_t len, before;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		op_strbuf_addch(sb, '/');
		before = sb->len;
		add_component(sb, p, len, false);
		if (sb->len - before > COMPONENT_MAX ||
		    sb->len - start > ODB_NAME_IMAGE_MAX) {
			if (!op_strbuf_failed(sb))
				op_strbuf_setlen(sb, start);
			add_long_form(sb, path);
			break;
		}
		p += len;
	}
	if (sb->len == start)
		op_strbuf_addch(sb, '/');	/* the root directory itself */
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

int odb_name_escape_word(struct op_strbuf *sb, const char *name)
{
	size_t start = sb->len, len = strlen(name);

	add_component(sb, name, len, true);
	if (sb->len - start > COMPONENT_MAX && !op_strbuf_failed(sb)) {
		op_strbuf_setlen(sb, start);
		op_strbuf_addf(sb, "#long-%016llx",
			       (unsigned long long)op_hash_str(name));
	}
	if (sb->len == start)
		op_strbuf_addch(sb, '_');
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

size_t odb_name_unescape(char *s)
{
	char *out = s;
	const char *in = s;

	while (*in) {
		int hi, lo;

		if (in[0] == '%' && (hi = op_hex_digit(in[1])) >= 0 &&
		    (lo = op_hex_digit(in[2])) >= 0) {
			*out++ = (char)(hi * 16 + lo);
			in += 3;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
	return (size_t)(out - s);
}

int odb_name_add_file(struct op_strbuf *sb, const char *path)
{
	int ret;

	op_strbuf_addstr(sb, "{root}");
	if (path[0] == '/')
		return odb_name_escape_path(sb, path);
	op_strbuf_addch(sb, '/');
	ret = odb_name_escape_word(sb, path);
	return ret ? ret : op_strbuf_failed(sb) ? -ENOMEM : 0;
}

int odb_name_add_kernel(struct op_strbuf *sb, const char *name)
{
	if (name[0] == '/')
		return odb_name_add_file(sb, name);
	op_strbuf_addstr(sb, "{kern}/");
	return odb_name_escape_word(sb, name);
}

int odb_name_add_anon(struct op_strbuf *sb, const char *name, uint32_t tgid,
		      uint64_t start, uint64_t end)
{
	op_strbuf_addstr(sb, "{anon:");
	odb_name_escape_word(sb, name);
	op_strbuf_addf(sb, "}/%" PRIu32 ".0x%" PRIx64 ".0x%" PRIx64, tgid, start, end);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

int odb_name_add_images(struct op_strbuf *sb, const char *app, const char *image,
			const char *callee)
{
	op_strbuf_addf(sb, "%s/{dep}/%s", app, image);
	if (callee)
		op_strbuf_addf(sb, "/{cg}/%s", callee);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}

static void add_id(struct op_strbuf *sb, int64_t v)
{
	if (v == ODB_ALL)
		op_strbuf_addstr(sb, "all");
	else
		op_strbuf_addf(sb, "%" PRId64, v);
}

int odb_name_add_spec(struct op_strbuf *sb, const char *event, int count,
		      uint32_t unit_mask, int64_t tgid, int64_t tid, int64_t cpu)
{
	/* COUNT with %d, UNITMASK in decimal, as OProfile 1.4 writes them */
	op_strbuf_addf(sb, "/%s.%d.%" PRIu32 ".", event, count, unit_mask);
	add_id(sb, tgid);
	op_strbuf_addch(sb, '.');
	add_id(sb, tid);
	op_strbuf_addch(sb, '.');
	add_id(sb, cpu);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}
