// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample-file names parsed back into their fields (see odb_name.h).  The
 * parser is strict where OProfile was lenient: every component must be
 * where the grammar puts it, so a name that parses means one thing.  Each failure names the part that is wrong, quoted
 * printable, so one line tells the user which file and why.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libdb/odb.h"
#include "libdb/odb_name.h"
#include "libutil/op_alloc.h"
#include "libutil/op_quote.h"
#include "libutil/op_parse.h"
#include "libutil/op_strbuf.h"

#define NR_SPEC_FIELDS 6
#define QUOTE_SIZE 160

/* the name split at '/' (in a private copy), and where the parse is */
struct parse {
	char *copy;
	char **comp;		/* components before the last one */
	size_t nr;
	size_t idx;		/* the next component to read */
	struct op_err *err;
};

static const char *const field_names[NR_SPEC_FIELDS] = {
	"EVENT", "COUNT", "UNITMASK", "TGID", "TID", "CPU",
};

/* "all" or an unsigned 32-bit decimal number */
static int parse_id(const char *s, int64_t *out)
{
	uint32_t v;

	if (!strcmp(s, "all")) {
		*out = ODB_ALL;
		return 0;
	}
	if (op_parse_u32(s, 10, &v))
		return -EINVAL;
	*out = v;
	return 0;
}

static int bad_field(struct op_err *err, int idx, const char *field,
		     const char *spec)
{
	char qf[QUOTE_SIZE], qs[QUOTE_SIZE];

	op_err_set(err, "bad %s '%s' in '%s'", field_names[idx],
		   op_quote(qf, sizeof(qf), field), op_quote(qs, sizeof(qs), spec));
	return ODB_ERR_NAME_BAD_FIELD;
}

/* EVENT.COUNT.UNITMASK.TGID.TID.CPU: six non-empty fields */
static int parse_spec(const char *spec, struct odb_name *name,
		      struct op_err *err)
{
	char *copy = op_strdup(spec), *field[NR_SPEC_FIELDS], *p = copy;
	char qs[QUOTE_SIZE];
	int nr = 0, ret = 0;

	if (!copy)
		return -ENOMEM;

	for (;;) {
		char *dot = strchr(p, '.');

		if (nr == NR_SPEC_FIELDS || !*p || p == dot) {
			nr = -1;
			break;
		}
		field[nr++] = p;
		if (!dot)
			break;
		*dot = '\0';
		p = dot + 1;
	}
	if (nr != NR_SPEC_FIELDS) {
		op_err_set(err, "last component '%s' is not "
			   "EVENT.COUNT.UNITMASK.TGID.TID.CPU",
			   op_quote(qs, sizeof(qs), spec));
		ret = ODB_ERR_NAME_NO_SPEC;
		goto out;
	}
	if (op_parse_int(field[1], 10, INT32_MIN, INT32_MAX, &name->count)) {
		ret = bad_field(err, 1, field[1], spec);
		goto out;
	}
	if (op_parse_u32(field[2], 10, &name->unit_mask)) {
		ret = bad_field(err, 2, field[2], spec);
		goto out;
	}
	if (parse_id(field[3], &name->tgid)) {
		ret = bad_field(err, 3, field[3], spec);
		goto out;
	}
	if (parse_id(field[4], &name->tid)) {
		ret = bad_field(err, 4, field[4], spec);
		goto out;
	}
	if (parse_id(field[5], &name->cpu)) {
		ret = bad_field(err, 5, field[5], spec);
		goto out;
	}
	name->event = op_strdup(field[0]);
	if (!name->event)
		ret = -ENOMEM;
out:
	free(copy);
	return ret;
}

static const char *peek(const struct parse *p)
{
	return p->idx < p->nr ? p->comp[p->idx] : NULL;
}

/* a component that is one of the {...} markers (never an escaped one) */
static bool is_marker(const char *c)
{
	return c && c[0] == '{';
}

/* unescape s in place; an escaped NUL would cut the name short */
static bool unescape(char *s)
{
	size_t len = odb_name_unescape(s);

	return strlen(s) == len;
}

static int bad_unescape(struct parse *p, const char *what, const char *s)
{
	char q[QUOTE_SIZE];

	op_err_set(p->err, "%s '%s' holds an escaped NUL byte (%%00)", what,
		   op_quote(q, sizeof(q), s));
	return ODB_ERR_NAME_BAD_IMAGE;
}

/* {root} then the path's components up to the next marker */
static int parse_root(struct parse *p, struct odb_image_id *id)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	const char *c;

	p->idx++;
	while ((c = peek(p)) && !is_marker(c)) {
		if (!*c) {
			op_strbuf_release(&sb);
			op_err_set(p->err, "empty path component (a doubled '/')");
			return ODB_ERR_NAME_BAD_IMAGE;
		}
		op_strbuf_addch(&sb, '/');
		op_strbuf_addstr(&sb, c);
		p->idx++;
	}
	if (!sb.len)
		op_strbuf_addch(&sb, '/');	/* the root directory itself */
	id->kind = ODB_IMAGE_FILE;
	id->name = op_strbuf_detach(&sb);
	if (!id->name)
		return -ENOMEM;
	if (!unescape(id->name))
		return bad_unescape(p, "image path", id->name);
	return 0;
}

/* {kern}/NAME: exactly one component */
static int parse_kern(struct parse *p, struct odb_image_id *id)
{
	const char *c;

	p->idx++;
	c = peek(p);
	if (!c || !*c || is_marker(c)) {
		op_err_set(p->err, "{kern} is not followed by a kernel image name");
		return ODB_ERR_NAME_BAD_IMAGE;
	}
	id->kind = ODB_IMAGE_KERNEL;
	id->name = op_strdup(c);
	if (!id->name)
		return -ENOMEM;
	p->idx++;
	if (!unescape(id->name))
		return bad_unescape(p, "kernel image name", c);
	return 0;
}

/* "0x" and lower- or upper-case hex digits */
static int parse_hex(const char *s, uint64_t *out)
{
	if (s[0] != '0' || s[1] != 'x' || !s[2])
		return -EINVAL;
	return op_parse_u64(s, 16, UINT64_MAX, out);
}

/* TGID.0xSTART.0xEND: 0, -EINVAL or -ENOMEM */
static int parse_range(const char *s, struct odb_image_id *id)
{
	char *copy = op_strdup(s), *dot1, *dot2;
	uint32_t tgid;
	int ret = -EINVAL;

	if (!copy)
		return -ENOMEM;

	dot1 = strchr(copy, '.');
	dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
	if (!dot2 || strchr(dot2 + 1, '.'))
		goto out;
	*dot1 = *dot2 = '\0';
	if (op_parse_u32(copy, 10, &tgid) ||
	    parse_hex(dot1 + 1, &id->anon_start) ||
	    parse_hex(dot2 + 1, &id->anon_end))
		goto out;
	id->anon_tgid = tgid;
	ret = 0;
out:
	free(copy);
	return ret;
}

/* {anon:NAME}/TGID.0xSTART.0xEND */
static int parse_anon(struct parse *p, struct odb_image_id *id)
{
	const char *c = peek(p), *range;
	size_t len = strlen(c);
	char q[QUOTE_SIZE], qr[QUOTE_SIZE];
	int ret;

	if (strncmp(c, "{anon:", 6) || len < 8 || c[len - 1] != '}') {
		op_err_set(p->err, "'%s' is not {anon:NAME}",
			   op_quote(q, sizeof(q), c));
		return ODB_ERR_NAME_BAD_ANON;
	}
	id->kind = ODB_IMAGE_ANON;
	id->name = op_strndup(c + 6, len - 7);
	if (!id->name)
		return -ENOMEM;
	if (!unescape(id->name))
		return bad_unescape(p, "anonymous region name", c);
	p->idx++;
	range = peek(p);
	ret = range && !is_marker(range) ? parse_range(range, id) : -EINVAL;
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		op_err_set(p->err, "'%s' after '%s' is not TGID.0xSTART.0xEND",
			   range ? op_quote(qr, sizeof(qr), range) : "",
			   op_quote(q, sizeof(q), c));
		return ODB_ERR_NAME_BAD_ANON;
	}
	if (id->anon_end < id->anon_start) {
		op_err_set(p->err, "anonymous region '%s' ends before it starts",
			   op_quote(qr, sizeof(qr), range));
		return ODB_ERR_NAME_BAD_ANON;
	}
	p->idx++;
	return 0;
}

/*
 * One image at the current component.  what names its place in messages;
 * bad_start is the error for a component that starts no image.
 */
static int parse_image(struct parse *p, struct odb_image_id *id,
		       const char *what, int bad_start)
{
	const char *c = peek(p);
	char q[QUOTE_SIZE];
	int ret;

	if (!c) {
		op_err_set(p->err, "no %s image", what);
		return bad_start;
	}
	if (!strcmp(c, "{root}"))
		ret = parse_root(p, id);
	else if (!strcmp(c, "{kern}"))
		ret = parse_kern(p, id);
	else if (!strncmp(c, "{anon", 5))
		ret = parse_anon(p, id);
	else {
		op_err_set(p->err, "%s image starts with '%s', not {root}, "
			   "{kern} or {anon:NAME}", what, op_quote(q, sizeof(q), c));
		return bad_start;
	}
	if (ret)
		return ret;
	/* a kernel name or an anon range is one component: a marker follows */
	c = peek(p);
	if (c && !is_marker(c)) {
		op_err_set(p->err, "unexpected '%s' after the %s image",
			   op_quote(q, sizeof(q), c), what);
		return ODB_ERR_NAME_BAD_IMAGE;
	}
	return 0;
}

/* expect the marker m next */
static bool take(struct parse *p, const char *m)
{
	const char *c = peek(p);

	if (!c || strcmp(c, m))
		return false;
	p->idx++;
	return true;
}

static int parse_path(struct parse *p, struct odb_name *name)
{
	char q[QUOTE_SIZE];
	const char *c;
	int ret;

	if (!p->nr || !*p->comp[0]) {
		op_err_set(p->err, p->nr ? "name starts with '/': it must be "
			   "relative to the session" : "no application part");
		return ODB_ERR_NAME_NO_APP;
	}
	ret = parse_image(p, &name->app, "application", ODB_ERR_NAME_NO_APP);
	if (ret)
		return ret;
	if (!take(p, "{dep}")) {
		c = peek(p);
		if (c)
			op_err_set(p->err, "'%s' after the application where "
				   "{dep} belongs", op_quote(q, sizeof(q), c));
		else
			op_err_set(p->err, "no {dep} after the application");
		return ODB_ERR_NAME_NO_DEP;
	}
	ret = parse_image(p, &name->image, "sampled", ODB_ERR_NAME_BAD_IMAGE);
	if (ret)
		return ret;
	if (take(p, "{cg}")) {
		name->is_cg = true;
		ret = parse_image(p, &name->cg, "callee", ODB_ERR_NAME_BAD_IMAGE);
		if (ret)
			return ret;
	}
	c = peek(p);
	if (c) {
		op_err_set(p->err, "unexpected '%s' after the %s image",
			   op_quote(q, sizeof(q), c),
			   name->is_cg ? "callee" : "sampled");
		return ODB_ERR_NAME_BAD_IMAGE;
	}
	return 0;
}

/* split the part before the last '/' into components: 0 or -ENOMEM */
static int split(struct parse *p, const char *rel, size_t len)
{
	size_t i, n = 1;

	p->copy = op_strndup(rel, len);
	if (!p->copy)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		n += p->copy[i] == '/';
	p->comp = op_calloc(n, sizeof(*p->comp));
	if (!p->comp)
		return -ENOMEM;
	p->comp[p->nr++] = p->copy;
	for (i = 0; i < len; i++) {
		if (p->copy[i] == '/') {
			p->copy[i] = '\0';
			p->comp[p->nr++] = p->copy + i + 1;
		}
	}
	return 0;
}

int odb_name_parse(const char *rel, struct odb_name *name, struct op_err *err)
{
	struct parse p = { .err = err };
	const char *slash;
	int ret;

	memset(name, 0, sizeof(*name));
	slash = strrchr(rel, '/');
	ret = parse_spec(slash ? slash + 1 : rel, name, err);
	if (ret)
		goto out;
	if (slash)
		ret = split(&p, rel, (size_t)(slash - rel));
	if (!ret)
		ret = parse_path(&p, name);
out:
	free(p.comp);
	free(p.copy);
	if (ret)
		odb_name_release(name);
	return ret;
}

void odb_name_release(struct odb_name *name)
{
	if (!name)
		return;
	odb_image_id_release(&name->app);
	odb_image_id_release(&name->image);
	odb_image_id_release(&name->cg);
	free(name->event);
	memset(name, 0, sizeof(*name));
}

int odb_image_id_copy(struct odb_image_id *dst, const struct odb_image_id *src)
{
	*dst = *src;
	if (!src->name)
		return 0;
	dst->name = op_strdup(src->name);
	if (dst->name)
		return 0;
	memset(dst, 0, sizeof(*dst));
	return -ENOMEM;
}

void odb_image_id_release(struct odb_image_id *id)
{
	if (!id)
		return;
	free(id->name);
	memset(id, 0, sizeof(*id));
}

bool odb_image_id_equal(const struct odb_image_id *a, const struct odb_image_id *b)
{
	if (a->kind != b->kind || !a->name != !b->name)
		return false;
	if (a->name && strcmp(a->name, b->name))
		return false;
	return a->kind != ODB_IMAGE_ANON ||
	       (a->anon_tgid == b->anon_tgid && a->anon_start == b->anon_start &&
		a->anon_end == b->anon_end);
}


int odb_image_id_format(struct op_strbuf *sb, const struct odb_image_id *id,
			bool long_names)
{
	const char *name = id->name ? id->name : "";

	if (id->kind == ODB_IMAGE_FILE && !long_names) {
		const char *base = strrchr(name, '/');

		/* "/" stays "/"; "/usr/bin/" cannot happen, the parser drops it */
		if (base && base[1])
			name = base + 1;
	}
	/* OProfile names kernel images "/NAME", "/no-vmlinux" with -f */
	if (id->kind == ODB_IMAGE_KERNEL && long_names)
		op_strbuf_addch(sb, '/');
	op_strbuf_addstr(sb, name);
	if (id->kind == ODB_IMAGE_ANON)
		op_strbuf_addf(sb, " (tgid:%" PRIu32 " range:0x%" PRIx64 "-0x%" PRIx64 ")",
			       id->anon_tgid, id->anon_start, id->anon_end);
	return op_strbuf_failed(sb) ? -ENOMEM : 0;
}
