// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parsing OProfile's event lists, "NAME:count:unitmask:kernel:user,...",
 * into struct opev_spec (grammar in opev.h).  The input is untrusted
 * (a command line, a session file): it is read in place by (pointer,
 * length) fields, never written, and every error names the bad field
 * and the item it is in, quoted printable on one line.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events/opev_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_parse.h"

enum { F_NAME, F_COUNT, F_UM, F_KERNEL, F_USER, NR_FIELDS };

struct field {
	const char *p;
	size_t len;
};

/* one item of the list, split on ':' */
struct item {
	struct field whole;
	struct field f[NR_FIELDS];
	size_t nr;
};

/* longest number we parse; longer digit strings are out of range */
#define NUM_MAX_LEN 24

/* "<what> '<token>' in '<item>'[: <note>]" */
static int fail(struct op_err *err, int code, const char *what,
		const struct field *tok, const struct item *it,
		const char *note)
{
	char qt[OPEV_QUOTE_SIZE], qi[OPEV_QUOTE_SIZE];

	op_err_set(err, "%s '%s' in '%s'%s%s", what,
		   opev_quote(qt, sizeof(qt), tok->p, tok->len),
		   opev_quote(qi, sizeof(qi), it->whole.p, it->whole.len),
		   note ? ": " : "", note ? note : "");
	return code;
}

/* does f look like a number in base (16: "0x" then hex digits)? */
static bool number_shape(const struct field *f, int base)
{
	size_t i = base == 16 ? 2 : 0;

	if (f->len <= i)
		return false;
	for (; i < f->len; i++)
		if (base == 16 ? !isxdigit((unsigned char)f->p[i])
			       : !isdigit((unsigned char)f->p[i]))
			return false;
	return true;
}

/*
 * Parse a number field that number_shape() accepts: -EINVAL, -ERANGE or
 * 0 as op_parse_u64().  Leading zeros are dropped first, so any length
 * of them parses.
 */
static int parse_number(const struct field *f, int base, uint64_t max,
			uint64_t *out)
{
	size_t skip = base == 16 ? 2 : 0, len;
	char buf[2 + NUM_MAX_LEN + 1];
	const char *d;

	if (!number_shape(f, base))
		return -EINVAL;
	d = f->p + skip;
	len = f->len - skip;
	while (len > 1 && d[0] == '0') {
		d++;
		len--;
	}
	if (len > NUM_MAX_LEN)
		return -ERANGE;
	memcpy(buf, "0x", skip);
	memcpy(buf + skip, d, len);
	buf[skip + len] = '\0';
	return op_parse_u64(buf, base, max, out);
}

/*
 * Split an item on ':'.  Without a count field (ocount's grammar,
 * NAME:unitmask:kernel:user) the fields after the name land one slot
 * later, leaving the count empty.
 */
static int split(const char *p, size_t len, bool no_count, struct item *it,
		 struct op_err *err)
{
	size_t start = 0, i;

	it->whole.p = p;
	it->whole.len = len;
	it->nr = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && p[i] != ':')
			continue;
		if (it->nr == NR_FIELDS) {
			struct field rest = { p + start, len - start };

			return fail(err, OPEV_ERR_BAD_SYNTAX, "too many fields",
				    &rest, it, no_count ?
				    "at most NAME:unitmask:kernel:user" :
				    "at most NAME:count:unitmask:kernel:user");
		}
		if (no_count && it->nr == F_COUNT) {
			it->f[F_COUNT].p = p + start;
			it->f[F_COUNT].len = 0;
			it->nr++;
		}
		it->f[it->nr].p = p + start;
		it->f[it->nr].len = i - start;
		it->nr++;
		start = i + 1;
	}
	if (it->nr > 1 && it->f[it->nr - 1].len == 0) {
		struct field colon = { p + len - 1, 1 };

		return fail(err, OPEV_ERR_BAD_SYNTAX, "trailing", &colon, it,
			    NULL);
	}
	return 0;
}

static int parse_name(const struct item *it, struct opev_spec *spec,
		      struct op_err *err)
{
	const struct field *f = &it->f[F_NAME];
	char qc[OPEV_QUOTE_SIZE], note[OPEV_QUOTE_SIZE + 32];
	size_t bad;
	int ret;

	if (!f->len) {
		char qi[OPEV_QUOTE_SIZE];

		op_err_set(err, "missing event name in '%s'",
			   opev_quote(qi, sizeof(qi), it->whole.p,
				      it->whole.len));
		return OPEV_ERR_BAD_SYNTAX;
	}
	ret = opev_name_check(f->p, f->len, &bad);
	if (ret == OPEV_ERR_NAME_TOO_LONG)
		return fail(err, ret, "event name too long", f, it,
			    "at most 63 characters");
	if (ret) {
		if (snprintf(note, sizeof(note), "'%s' is not allowed",
			     opev_quote(qc, sizeof(qc), f->p + bad, 1)) < 0)
			note[0] = '\0';
		return fail(err, ret, "bad event name", f, it, note);
	}
	memcpy(spec->name, f->p, f->len);
	spec->name[f->len] = '\0';
	return 0;
}

static int parse_count(const struct item *it, struct opev_spec *spec,
		       struct op_err *err)
{
	const struct field *f = &it->f[F_COUNT];
	int ret;

	if (it->nr <= F_COUNT || !f->len)
		return 0;
	spec->has_count = true;
	ret = parse_number(f, 10, OPEV_MAX_PERIOD, &spec->count);
	if (ret == -ERANGE)
		return fail(err, OPEV_ERR_COUNT_RANGE,
			    "sample count out of range", f, it,
			    "at most 2147483647");
	if (ret)
		return fail(err, OPEV_ERR_BAD_COUNT, "bad sample count", f, it,
			    NULL);
	return 0;
}

static int parse_unit_mask(const struct item *it, struct opev_spec *spec,
			   struct op_err *err)
{
	const struct field *f = &it->f[F_UM];
	size_t bad;
	int ret, base = 10;

	if (it->nr <= F_UM || !f->len)
		return 0;
	spec->has_unit_mask = true;
	if (isdigit((unsigned char)f->p[0])) {
		if (f->len > 1 && f->p[0] == '0' && (f->p[1] | 0x20) == 'x')
			base = 16;
		ret = parse_number(f, base, UINT32_MAX, &spec->unit_mask);
		if (ret == -ERANGE)
			return fail(err, OPEV_ERR_BAD_UNIT_MASK,
				    "unit mask out of range", f, it,
				    "at most 0xffffffff");
		if (ret)
			return fail(err, OPEV_ERR_BAD_UNIT_MASK,
				    "bad unit mask", f, it,
				    "hex needs 0x, else decimal");
		return 0;
	}
	ret = opev_um_name_check(f->p, f->len, &bad);
	if (ret == OPEV_ERR_NAME_TOO_LONG)
		return fail(err, ret, "unit mask name too long", f, it,
			    "at most 63 characters");
	if (ret)
		return fail(err, OPEV_ERR_BAD_UNIT_MASK, "bad unit mask", f, it,
			    "a name is letters, digits and '_'");
	memcpy(spec->um_name, f->p, f->len);
	spec->um_name[f->len] = '\0';
	return 0;
}

static int parse_flag(const struct item *it, int idx, bool *flag,
		      struct op_err *err)
{
	const struct field *f = &it->f[idx];

	*flag = true;
	if (it->nr <= (size_t)idx)
		return 0;
	if (f->len == 1 && (f->p[0] == '0' || f->p[0] == '1')) {
		*flag = f->p[0] == '1';
		return 0;
	}
	return fail(err, OPEV_ERR_BAD_FLAG,
		    idx == F_KERNEL ? "bad kernel flag" : "bad user flag",
		    f, it, "must be 0 or 1");
}

static int parse_item(const char *p, size_t len, bool no_count,
		      struct opev_spec *spec, struct op_err *err)
{
	struct item it;
	int ret;

	ret = split(p, len, no_count, &it, err);
	if (!ret)
		ret = parse_name(&it, spec, err);
	if (!ret)
		ret = parse_count(&it, spec, err);
	if (!ret)
		ret = parse_unit_mask(&it, spec, err);
	if (!ret)
		ret = parse_flag(&it, F_KERNEL, &spec->kernel, err);
	if (!ret)
		ret = parse_flag(&it, F_USER, &spec->user, err);
	if (ret)
		return ret;
	if (!spec->kernel && !spec->user) {
		char qi[OPEV_QUOTE_SIZE];

		op_err_set(err, "event '%s' counts in neither kernel nor "
			   "user mode", opev_quote(qi, sizeof(qi), p, len));
		return OPEV_ERR_NO_MODE;
	}
	return 0;
}

static size_t count_items(const char *list)
{
	size_t nr = 1;

	for (; *list; list++)
		nr += *list == ',';
	return nr;
}

static int parse_list(const char *list, bool no_count,
		      struct opev_spec **specs, size_t *nr, struct op_err *err)
{
	struct opev_spec *out;
	size_t n, i;
	const char *p;
	int ret;

	*specs = NULL;
	*nr = 0;
	if (!list || !*list) {
		op_err_set(err, "empty event list");
		return OPEV_ERR_EMPTY_LIST;
	}
	n = count_items(list);
	out = op_calloc(n, sizeof(*out));
	if (!out) {
		op_err_set(err, "out of memory for %zu events", n);
		return -ENOMEM;
	}
	for (i = 0, p = list; i < n; i++) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (!len) {
			char ql[OPEV_QUOTE_SIZE];

			op_err_set(err, "empty event specification %zu in '%s'",
				   i + 1, opev_quote(ql, sizeof(ql), list,
						     strlen(list)));
			ret = OPEV_ERR_BAD_SYNTAX;
			goto out_free;
		}
		ret = parse_item(p, len, no_count, &out[i], err);
		if (ret)
			goto out_free;
		p += len + 1;
	}
	*specs = out;
	*nr = n;
	return 0;

out_free:
	free(out);
	return ret;
}

int opev_parse_list(const char *list, struct opev_spec **specs, size_t *nr,
		    struct op_err *err)
{
	return parse_list(list, false, specs, nr, err);
}

int opev_parse_count_list(const char *list, struct opev_spec **specs,
			  size_t *nr, struct op_err *err)
{
	return parse_list(list, true, specs, nr, err);
}
