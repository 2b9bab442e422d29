// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Profile specifications (see pp_spec.h): parsing the tag:value arguments
 * of the report tools, with differential "{ A } { B }" sides, and testing
 * sample file names against a parsed spec.  The tags are one table that
 * says where each list lives and how its items are checked, so parsing,
 * matching and the list of valid tags cannot drift apart.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/profile/pp_spec.h"
#include "libutil/op_alloc.h"
#include "libutil/op_parse.h"
#include "libutil/op_strbuf.h"
#include "libutil/op_quote.h"

#define QUOTE_SIZE 160

/* how the items of a tag are checked and matched */
enum item_kind {
	ITEM_PATH,		/* archive:, one path */
	ITEM_SESSION,		/* a session name */
	ITEM_IMAGE,		/* a glob or a path, made absolute */
	ITEM_STRING,		/* an event name, matched exactly */
	ITEM_COUNT,		/* a signed decimal int */
	ITEM_UNIT_MASK,		/* a decimal or 0x hex u32 */
	ITEM_ID,		/* "all" or a decimal u32: cpu, tgid, tid */
	ITEM_TIME,		/* START-END in seconds: time: */
};

/* what a tag is matched against */
enum tag_field {
	FIELD_NONE,		/* archive: */
	FIELD_SESSION,
	FIELD_APP,
	FIELD_IMAGE,
	FIELD_EVENT,
	FIELD_COUNT,
	FIELD_UNIT_MASK,
	FIELD_CPU,
	FIELD_TGID,
	FIELD_TID,
};

struct tag {
	const char *name;
	size_t offset;		/* of the struct pp_spec_list in struct pp_spec */
	enum item_kind kind;
	enum tag_field field;
	bool exclude;		/* a match rejects the file */
};

#define LIST(field) offsetof(struct pp_spec, field)

/* in the order of pp_spec_valid_tags() and of the checks in reject */
enum tag_idx {
	TAG_ARCHIVE,
	TAG_SESSION,
	TAG_SESSION_EXCLUDE,
	TAG_IMAGE,
	TAG_IMAGE_EXCLUDE,
	TAG_LIB_IMAGE,
	TAG_LIB_IMAGE_EXCLUDE,
	TAG_EVENT,
	TAG_COUNT,
	TAG_UNIT_MASK,
	TAG_CPU,
	TAG_TGID,
	TAG_TID,
	TAG_TIME,
	NR_TAGS
};

static const struct tag tags[NR_TAGS] = {
	[TAG_ARCHIVE] = { "archive", 0, ITEM_PATH, FIELD_NONE, false },
	[TAG_SESSION] = { "session", LIST(session), ITEM_SESSION, FIELD_SESSION, false },
	[TAG_SESSION_EXCLUDE] = { "session-exclude", LIST(session_exclude), ITEM_SESSION, FIELD_SESSION, true },
	[TAG_IMAGE] = { "image", LIST(image), ITEM_IMAGE, FIELD_APP, false },
	[TAG_IMAGE_EXCLUDE] = { "image-exclude", LIST(image_exclude), ITEM_IMAGE, FIELD_APP, true },
	[TAG_LIB_IMAGE] = { "lib-image", LIST(lib_image), ITEM_IMAGE, FIELD_IMAGE, false },
	[TAG_LIB_IMAGE_EXCLUDE] = { "lib-image-exclude", LIST(lib_image_exclude), ITEM_IMAGE, FIELD_IMAGE, true },
	[TAG_EVENT] = { "event", LIST(event), ITEM_STRING, FIELD_EVENT, false },
	[TAG_COUNT] = { "count", LIST(count), ITEM_COUNT, FIELD_COUNT, false },
	[TAG_UNIT_MASK] = { "unit-mask", LIST(unit_mask), ITEM_UNIT_MASK, FIELD_UNIT_MASK, false },
	[TAG_CPU] = { "cpu", LIST(cpu), ITEM_ID, FIELD_CPU, false },
	[TAG_TGID] = { "tgid", LIST(tgid), ITEM_ID, FIELD_TGID, false },
	[TAG_TID] = { "tid", LIST(tid), ITEM_ID, FIELD_TID, false },
	/* not matched against names: libpp/profile/time.c reads the slices */
	[TAG_TIME] = { "time", LIST(time), ITEM_TIME, FIELD_NONE, false },
};

const char *pp_spec_valid_tags(void)
{
	return "archive, session, session-exclude, image, image-exclude, "
	       "lib-image, lib-image-exclude, event, count, unit-mask, cpu, "
	       "tgid, tid, time";
}

static struct pp_spec_list *tag_list(struct pp_spec *spec, const struct tag *t)
{
	return (struct pp_spec_list *)((char *)spec + t->offset);
}

static const struct pp_spec_list *tag_clist(const struct pp_spec *spec,
					    const struct tag *t)
{
	return (const struct pp_spec_list *)((const char *)spec + t->offset);
}

static void list_add(struct pp_spec_list *list, char *item)
{
	list->items = op_xreallocarray(list->items, list->nr + 1,
				       sizeof(*list->items));
	list->items[list->nr++] = item;
}

static void list_release(struct pp_spec_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->items[i]);
	free(list->items);
	list->items = NULL;
	list->nr = 0;
}

static void list_copy(struct pp_spec_list *dst, const struct pp_spec_list *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++)
		list_add(dst, op_xstrdup(src->items[i]));
}

static void spec_release(struct pp_spec *spec)
{
	size_t i;

	for (i = TAG_ARCHIVE + 1; i < NR_TAGS; i++)
		list_release(tag_list(spec, &tags[i]));
	free(spec->archive);
	memset(spec, 0, sizeof(*spec));
}

void pp_spec_set_release(struct pp_spec_set *set)
{
	if (!set)
		return;
	spec_release(&set->first);
	spec_release(&set->second);
	set->differential = false;
}

/* --- numbers and paths ----------------------------------------------- */

/* seconds as a decimal number (at most 9 digits after the point) in ns */
static int parse_seconds(const char *s, const char *end, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = 100000000ull;
	const char *p = s;

	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (whole >= 1000000000ull)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, scale /= 10)
			frac += (uint64_t)(*p - '0') * scale;
	if (p != end || p == s || (p == s + 1 && *s == '.'))
		return -EINVAL;
	*ns = whole * 1000000000ull + frac;
	return 0;
}

int pp_spec_time_parse(const char *item, struct pp_time_range *r)
{
	const char *dash = strchr(item, '-');

	if (!dash) {
		/* one point in time: the slice it falls in */
		if (parse_seconds(item, item + strlen(item), &r->start_ns))
			return -EINVAL;
		r->end_ns = r->start_ns + 1;
		return 0;
	}
	if (strchr(dash + 1, '-') || (dash == item && !dash[1]))
		return -EINVAL;
	r->start_ns = 0;
	r->end_ns = UINT64_MAX;
	if (dash > item && parse_seconds(item, dash, &r->start_ns))
		return -EINVAL;
	if (dash[1] && parse_seconds(dash + 1, dash + strlen(dash), &r->end_ns))
		return -EINVAL;
	return r->end_ns > r->start_ns ? 0 : -EINVAL;
}

static int parse_count(const char *s, int *out)
{
	return op_parse_int(s, 10, INT32_MIN, INT32_MAX, out);
}

/* decimal, or hex after "0x" (never octal: "010" is ten) */
static int parse_unit_mask(const char *s, uint32_t *out)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return s[2] ? op_parse_u32(s, 16, out) : -EINVAL;
	return op_parse_u32(s, 10, out);
}

/* "all" (*out = ODB_ALL) or a decimal u32 */
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

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* drop empty and "." components, resolve ".." lexically; path is absolute */
static void normalize(char *path)
{
	char *out = path, *in = path;

	while (*in) {
		char *end;
		size_t len;

		while (*in == '/')
			in++;
		if (!*in)
			break;
		end = strchr(in, '/');
		len = end ? (size_t)(end - in) : strlen(in);
		if (len == 1 && in[0] == '.') {
			/* nothing */
		} else if (len == 2 && in[0] == '.' && in[1] == '.') {
			while (out > path && *--out != '/')
				;
		} else {
			*out++ = '/';
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

/*
 * An image or archive item as a path to match.  A name without '/' is a
 * basename, and a pattern starting with a glob character matches whole
 * paths anywhere: both stay as they are.  Other paths are made absolute
 * and normalized, and resolved with realpath() when they hold no glob
 * and exist (sample files record the real path of a binary).
 */
static char *absolute_path(const char *item, bool glob_ok)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char cwd[PATH_MAX], real[PATH_MAX], *path;

	if (glob_ok && (!strchr(item, '/') || (item[0] && strchr("*?[", item[0]))))
		return op_xstrdup(item);
	if (item[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd)))
			return op_xstrdup(item);
		op_strbuf_addf(&sb, "%s/", cwd);
	}
	op_strbuf_addstr(&sb, item);
	path = op_strbuf_detach(&sb);
	if (!path)
		op_die(1, "out of memory");
	normalize(path);
	if ((!glob_ok || !has_glob(path)) && strlen(path) < PATH_MAX &&
	    realpath(path, real)) {
		free(path);
		path = op_xstrdup(real);
	}
	return path;
}

/* --- parsing ---------------------------------------------------------- */

static int check_item(const struct tag *t, const char *item, const char *arg,
		      struct op_err *err)
{
	char qi[QUOTE_SIZE], qa[QUOTE_SIZE];
	int64_t id;
	uint32_t um;
	struct pp_time_range range;
	int count, ret = 0;

	if (t->kind == ITEM_COUNT)
		ret = parse_count(item, &count);
	else if (t->kind == ITEM_UNIT_MASK)
		ret = parse_unit_mask(item, &um);
	else if (t->kind == ITEM_ID)
		ret = parse_id(item, &id);
	else if (t->kind == ITEM_TIME)
		ret = pp_spec_time_parse(item, &range);
	if (!ret)
		return 0;
	op_err_set(err, "bad %s '%s' in '%s' (%s)", t->name,
		   op_quote(qi, sizeof(qi), item), op_quote(qa, sizeof(qa), arg),
		   t->kind == ITEM_COUNT ? "a decimal number" :
		   t->kind == ITEM_UNIT_MASK ? "a decimal or 0x hex number" :
		   t->kind == ITEM_TIME ? "START-END in seconds from the start of "
		   "the session, such as 2-3, 4.5- or -10, or one second: 4" :
		   "'all' or a decimal number");
	return PP_PROFILE_ERR_BAD_NUMBER;
}

static int empty_value(const struct tag *t, const char *arg,
		       struct op_err *err)
{
	char qa[QUOTE_SIZE];

	op_err_set(err, "empty %s value in '%s'", t->name,
		   op_quote(qa, sizeof(qa), arg));
	return PP_PROFILE_ERR_EMPTY_VALUE;
}

/* the items of value, split at ',' but not at "\," */
static int add_items(struct pp_spec *spec, const struct tag *t,
		     const char *value, const char *arg, struct op_err *err)
{
	struct pp_spec_list *list = tag_list(spec, t);
	const char *p = value;
	int ret = 0;

	for (;;) {
		struct op_strbuf sb = OP_STRBUF_INIT;
		char *item;

		for (; *p && *p != ','; p++) {
			if (p[0] == '\\' && p[1] == ',')
				p++;
			op_strbuf_addch(&sb, *p);
		}
		item = op_strbuf_detach(&sb);
		if (!item)
			op_die(1, "out of memory");
		if (!*item)
			ret = empty_value(t, arg, err);
		else
			ret = check_item(t, item, arg, err);
		if (ret) {
			free(item);
			return ret;
		}
		if (t->kind == ITEM_IMAGE) {
			char *abs = absolute_path(item, true);

			free(item);
			item = abs;
		}
		list_add(list, item);
		if (!*p++)
			return 0;
	}
}

static int add_archive(struct pp_spec *spec, const char *value,
		       const char *arg, struct op_err *err)
{
	char qa[QUOTE_SIZE], qo[QUOTE_SIZE];

	if (!*value)
		return empty_value(&tags[TAG_ARCHIVE], arg, err);
	if (spec->archive) {
		op_err_set(err, "archive: given twice, '%s' after '%s'",
			   op_quote(qa, sizeof(qa), arg),
			   op_quote(qo, sizeof(qo), spec->archive));
		return PP_PROFILE_ERR_TWO_ARCHIVES;
	}
	spec->archive = absolute_path(value, false);
	return 0;
}

/* the tag of "tag:value" args, NULL for a bare image; *ret on error */
static const struct tag *find_tag(const char *arg, int *ret,
				  struct op_err *err)
{
	const char *colon = strchr(arg, ':');
	char qt[QUOTE_SIZE], qa[QUOTE_SIZE], *name;
	size_t i, len;

	*ret = 0;
	if (!colon)
		return NULL;
	len = (size_t)(colon - arg);
	for (i = 0; i < NR_TAGS; i++)
		if (strlen(tags[i].name) == len && !memcmp(tags[i].name, arg, len))
			return &tags[i];
	/* "./a:b" or "/x/a:b" is a path with a colon, not a tag */
	if (memchr(arg, '/', len))
		return NULL;
	name = op_xstrndup(arg, len);
	op_err_set(err, "unknown tag '%s' in '%s' (valid tags: %s)",
		   op_quote(qt, sizeof(qt), name), op_quote(qa, sizeof(qa), arg),
		   pp_spec_valid_tags());
	free(name);
	*ret = PP_PROFILE_ERR_UNKNOWN_TAG;
	return NULL;
}

/* in_side: inside braces, where "image:a}" is a '}' glued on */
static int parse_arg(struct pp_spec *spec, const char *arg, bool in_side,
		     struct op_err *err)
{
	const struct tag *t;
	char qa[QUOTE_SIZE];
	size_t len = strlen(arg);
	int ret;

	/* "{image:a}": a brace glued to a tag ("image:{x}" is a name) */
	if (arg[0] == '{' ||
	    (in_side && len && arg[len - 1] == '}' && !strchr(arg, '{'))) {
		op_err_set(err, "'%s': braces must be arguments of their own, "
			   "as in '{ image:a } { image:b }'",
			   op_quote(qa, sizeof(qa), arg));
		return PP_PROFILE_ERR_BAD_BRACES;
	}
	t = find_tag(arg, &ret, err);
	if (ret)
		return ret;
	if (!t) {
		/* a bare argument: one image, not split at commas */
		if (!*arg)
			return empty_value(&tags[TAG_IMAGE], arg, err);
		list_add(&spec->image, absolute_path(arg, true));
		return 0;
	}
	if (t->kind == ITEM_PATH)
		return add_archive(spec, arg + strlen(t->name) + 1, arg, err);
	return add_items(spec, t, arg + strlen(t->name) + 1, arg, err);
}

/* a side of a differential profile: tags it does not give come from shared */
static void inherit(struct pp_spec *side, const struct pp_spec *shared)
{
	size_t i;

	for (i = TAG_ARCHIVE + 1; i < NR_TAGS; i++) {
		struct pp_spec_list *list = tag_list(side, &tags[i]);

		if (!list->nr)
			list_copy(list, tag_clist(shared, &tags[i]));
	}
	if (!side->archive && shared->archive)
		side->archive = op_xstrdup(shared->archive);
}

/* where the next argument goes: "SHARED { FIRST } { SECOND }" */
struct sides {
	enum { SHARED, FIRST, SECOND } part;
	int nr;			/* sides opened so far */
};

static int brace_error(int ret, struct op_err *err, const char *why)
{
	op_err_set(err, "%s", why);
	return ret;
}

static int open_side(struct sides *s, struct op_err *err)
{
	if (s->part != SHARED)
		return brace_error(PP_PROFILE_ERR_BAD_BRACES, err,
				   "'{' inside braces");
	if (s->nr == 2)
		return brace_error(PP_PROFILE_ERR_TOO_MANY_SIDES, err,
				   "a third '{': a differential profile has "
				   "two sides");
	s->part = ++s->nr == 1 ? FIRST : SECOND;
	return 0;
}

static int close_side(struct sides *s, struct op_err *err)
{
	if (s->part == SHARED)
		return brace_error(PP_PROFILE_ERR_BAD_BRACES, err,
				   "'}' without '{'");
	s->part = SHARED;
	return 0;
}

int pp_spec_parse(int argc, const char *const *argv, struct pp_spec_set *set,
		  struct op_err *err)
{
	struct pp_spec shared = { 0 };
	struct sides s = { SHARED, 0 };
	int i, ret = 0;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < argc && !ret; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "{")) {
			ret = open_side(&s, err);
		} else if (!strcmp(arg, "}")) {
			ret = close_side(&s, err);
		} else if (!strcmp(arg, "{}")) {
			/* an empty side, as OProfile reads "{}" */
			ret = open_side(&s, err);
			if (!ret)
				ret = close_side(&s, err);
		} else {
			ret = parse_arg(s.part == SHARED ? &shared :
					s.part == FIRST ? &set->first :
					&set->second, arg, s.part != SHARED, err);
		}
	}
	if (!ret && s.part != SHARED)
		ret = brace_error(PP_PROFILE_ERR_BAD_BRACES, err, "'{' without '}'");
	if (!ret && s.nr == 1)
		ret = brace_error(PP_PROFILE_ERR_BAD_BRACES, err,
				  "one side in braces: a differential profile "
				  "is '{ SPEC } { SPEC }'");
	if (ret) {
		spec_release(&shared);
		pp_spec_set_release(set);
		return ret;
	}
	if (s.nr == 2) {
		set->differential = true;
		inherit(&set->first, &shared);
		inherit(&set->second, &shared);
		spec_release(&shared);
	} else {
		set->first = shared;
	}
	return 0;
}

/* --- matching --------------------------------------------------------- */

static bool in_list(const struct pp_spec_list *list, const char *s)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (!strcmp(list->items[i], s))
			return true;
	return false;
}

/*
 * A pattern with a '/' matches the whole path, others the basename.  A
 * name is also matched literally, so "[heap]" finds the heap although as
 * a glob it is a bracket expression.
 */
static bool image_matches(const char *pattern, const struct odb_image_id *id)
{
	const char *name = id->name ? id->name : "", *base;

	if (strchr(pattern, '/')) {
		if (id->kind != ODB_IMAGE_FILE)
			return false;
	} else {
		base = id->kind == ODB_IMAGE_FILE ? strrchr(name, '/') : NULL;
		if (base && base[1])
			name = base + 1;
	}
	return !strcmp(pattern, name) || !fnmatch(pattern, name, 0);
}

static bool image_in(const struct pp_spec_list *list,
		     const struct odb_image_id *id)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (image_matches(list->items[i], id))
			return true;
	return false;
}

/* an "all" item matches anything; a file's "all" matches only that */
static bool id_in(const struct pp_spec_list *list, int64_t value)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		int64_t item;

		if (parse_id(list->items[i], &item))
			continue;
		if (item == ODB_ALL || item == value)
			return true;
	}
	return false;
}

static bool count_in(const struct pp_spec_list *list, int value)
{
	size_t i;
	int item;

	for (i = 0; i < list->nr; i++)
		if (!parse_count(list->items[i], &item) && item == value)
			return true;
	return false;
}

static bool unit_mask_in(const struct pp_spec_list *list, uint32_t value)
{
	size_t i;
	uint32_t item;

	for (i = 0; i < list->nr; i++)
		if (!parse_unit_mask(list->items[i], &item) && item == value)
			return true;
	return false;
}

static const struct pp_spec_list default_sessions = {
	.items = (char *[]){ (char[]){ "current" } },
	.nr = 1,
};

const struct pp_spec_list *pp_spec_sessions(const struct pp_spec *spec)
{
	return spec->session.nr ? &spec->session : &default_sessions;
}

/* does the list tag t of spec reject name? */
static bool rejects(const struct pp_spec *spec, const struct tag *t,
		    const char *session, const struct odb_name *name)
{
	const struct pp_spec_list *list = tag_clist(spec, t);
	bool in;

	if (t->field == FIELD_SESSION) {
		/* listing picks the sessions; NULL: the caller did */
		if (!session)
			return false;
		if (t->exclude)
			return in_list(list, session);
		return !in_list(pp_spec_sessions(spec), session);
	}
	if (!list->nr)
		return false;
	switch (t->field) {
	case FIELD_APP:
		in = image_in(list, &name->app);
		break;
	case FIELD_IMAGE:
		in = image_in(list, &name->image);
		break;
	case FIELD_EVENT:
		in = in_list(list, name->event ? name->event : "");
		break;
	case FIELD_COUNT:
		in = count_in(list, name->count);
		break;
	case FIELD_UNIT_MASK:
		in = unit_mask_in(list, name->unit_mask);
		break;
	case FIELD_CPU:
		in = id_in(list, name->cpu);
		break;
	case FIELD_TGID:
		in = id_in(list, name->tgid);
		break;
	case FIELD_TID:
		in = id_in(list, name->tid);
		break;
	default:
		return false;
	}
	return in == t->exclude;
}

const char *pp_spec_reject(const struct pp_spec *spec, const char *session,
			   const struct odb_name *name)
{
	size_t i;

	for (i = TAG_ARCHIVE + 1; i < NR_TAGS; i++)
		if (rejects(spec, &tags[i], session, name))
			return tags[i].name;
	return NULL;
}
