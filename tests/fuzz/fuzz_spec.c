// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the profile specification arguments of a report tool from
 * untrusted bytes, split into argv at NUL and newline bytes.
 * pp_spec_parse() must give one of its errors with a one-line message and
 * an empty set, or specs within pp_spec.h's promises; each side, written
 * back as arguments, must parse to the same lists.  The specs are then
 * matched against a few names.  Nothing may crash or leak.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_spec.h"
#include "libutil/op_strbuf.h"
#include "tests/fuzz/fuzz.h"

#define MAX_ARGS 64

/* the list tags, in struct pp_spec order */
static const struct {
	const char *tag;
	size_t offset;
	bool image;
} lists[] = {
	{ "session", offsetof(struct pp_spec, session), false },
	{ "session-exclude", offsetof(struct pp_spec, session_exclude), false },
	{ "image", offsetof(struct pp_spec, image), true },
	{ "image-exclude", offsetof(struct pp_spec, image_exclude), true },
	{ "lib-image", offsetof(struct pp_spec, lib_image), true },
	{ "lib-image-exclude", offsetof(struct pp_spec, lib_image_exclude), true },
	{ "event", offsetof(struct pp_spec, event), false },
	{ "count", offsetof(struct pp_spec, count), false },
	{ "unit-mask", offsetof(struct pp_spec, unit_mask), false },
	{ "cpu", offsetof(struct pp_spec, cpu), false },
	{ "tgid", offsetof(struct pp_spec, tgid), false },
	{ "tid", offsetof(struct pp_spec, tid), false },
};

#define NR_LISTS (sizeof(lists) / sizeof(lists[0]))

static const char *const names[] = {
	"{root}/usr/bin/prog/{dep}/{root}/usr/lib/libc.so.6/cpu-clock.100000.0.all.all.all",
	"{root}/usr/bin/prog/{dep}/{root}/usr/bin/prog/e.5000.16.12.13.2",
	"{kern}/k/{dep}/{kern}/no-vmlinux/{cg}/{anon:[heap]}/1.0x1.0x2/e.1.0.0.0.0",
};

static const struct pp_spec_list *list_at(const struct pp_spec *spec, size_t i)
{
	return (const struct pp_spec_list *)((const char *)spec + lists[i].offset);
}

static bool one_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

static void check_spec(const struct pp_spec *spec)
{
	size_t i, j;

	for (i = 0; i < NR_LISTS; i++) {
		const struct pp_spec_list *l = list_at(spec, i);

		if (!l->items != !l->nr)
			abort();
		for (j = 0; j < l->nr; j++) {
			const char *item = l->items[j];

			if (!item[0])
				abort();
			/* image paths are absolute, or basenames, or globs */
			if (lists[i].image && strchr(item, '/') && item[0] != '/' &&
			    !strchr("*?[", item[0]))
				abort();
		}
	}
	if (spec->archive && spec->archive[0] != '/')
		abort();
	if (!pp_spec_sessions(spec)->nr)
		abort();
}

/* "tag:a,b\,c" of a list; false when an item ends in '\' (ambiguous) */
static bool write_list(struct op_strbuf *sb, const char *tag,
		       const struct pp_spec_list *l)
{
	size_t i;

	op_strbuf_addf(sb, "%s:", tag);
	for (i = 0; i < l->nr; i++) {
		const char *p = l->items[i];
		size_t len = strlen(p);

		if (p[len - 1] == '\\')
			return false;
		if (i)
			op_strbuf_addch(sb, ',');
		for (; *p; p++) {
			if (*p == ',')
				op_strbuf_addch(sb, '\\');
			op_strbuf_addch(sb, *p);
		}
	}
	return true;
}

static bool same_lists(const struct pp_spec *a, const struct pp_spec *b)
{
	size_t i, j;

	for (i = 0; i < NR_LISTS; i++) {
		const struct pp_spec_list *x = list_at(a, i), *y = list_at(b, i);

		if (x->nr != y->nr)
			return false;
		for (j = 0; j < x->nr; j++)
			if (strcmp(x->items[j], y->items[j]))
				return false;
	}
	return !a->archive == !b->archive &&
	       (!a->archive || !strcmp(a->archive, b->archive));
}

/* spec written back as arguments parses to the same spec */
static void check_round_trip(const struct pp_spec *spec)
{
	struct op_strbuf args[NR_LISTS + 1];
	const char *argv[NR_LISTS + 1];
	struct pp_spec_set again;
	size_t i, n = 0;
	bool ok = true;

	for (i = 0; i < NR_LISTS; i++) {
		const struct pp_spec_list *l = list_at(spec, i);

		if (!l->nr)
			continue;
		op_strbuf_init(&args[n]);
		ok &= write_list(&args[n], lists[i].tag, l);
		argv[n] = args[n].buf;
		n++;
	}
	if (spec->archive) {
		op_strbuf_init(&args[n]);
		op_strbuf_addf(&args[n], "archive:%s", spec->archive);
		argv[n] = args[n].buf;
		n++;
	}
	for (i = 0; i < n; i++)
		ok &= !op_strbuf_failed(&args[i]);
	if (ok) {
		if (pp_spec_parse((int)n, argv, &again, NULL))
			abort();
		if (again.differential || !same_lists(spec, &again.first))
			abort();
		pp_spec_set_release(&again);
	}
	for (i = 0; i < n; i++)
		op_strbuf_release(&args[i]);
}

static void check_match(const struct pp_spec *spec)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct odb_name n;

		if (odb_name_parse(names[i], &n, NULL))
			abort();
		pp_spec_reject(spec, "current", &n);
		pp_spec_reject(spec, NULL, &n);
		odb_name_release(&n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *argv[MAX_ARGS];
	struct pp_spec_set set;
	struct op_err err = { "" };
	char *copy = malloc(size + 1);
	int argc = 0, ret;
	size_t i, start = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	/* NUL or newline ends an argument; no input is no argument */
	for (i = 0; size && i <= size && argc < MAX_ARGS; i++) {
		if (i == size || copy[i] == '\0' || copy[i] == '\n') {
			copy[i] = '\0';
			argv[argc++] = copy + start;
			start = i + 1;
		}
	}
	ret = pp_spec_parse(argc, argv, &set, &err);
	free(copy);
	if (ret) {
		if (ret < PP_PROFILE_ERR_UNKNOWN_TAG || ret > PP_PROFILE_ERR_TWO_ARCHIVES)
			abort();
		if (!err.msg[0] || !one_line(err.msg))
			abort();
		if (set.differential || set.first.image.items || set.first.archive ||
		    set.second.session.items)
			abort();
		return 0;
	}
	check_spec(&set.first);
	check_round_trip(&set.first);
	check_match(&set.first);
	if (set.differential) {
		check_spec(&set.second);
		check_round_trip(&set.second);
		check_match(&set.second);
	} else if (set.second.image.nr || set.second.archive) {
		abort();
	}
	pp_spec_set_release(&set);
	return 0;
}
