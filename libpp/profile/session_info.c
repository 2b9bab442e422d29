// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What operf recorded beside the samples of a session (see pp_session.h):
 * session.info (daemon/operf.c write_info() writes it, one "key value"
 * per line), the lost-sample counters and throttled events under stats/
 * (daemon/opd_session.c), and the kernel/kallsyms copy.  Everything is
 * optional: a session made by OProfile 1.4 has only stats/, and a file we
 * cannot read or parse leaves its fields empty.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/profile/pp_session.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"
#include "libutil/op_strbuf.h"

/* bigger than any session.info or counter operf writes */
#define INFO_MAX ((size_t)1 << 20)
#define NUMBER_MAX 64

static char *join(const char *a, const char *b)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	char *s;

	op_strbuf_addf(&sb, "%s/%s", a, b);
	s = op_strbuf_detach(&sb);
	if (!s)
		op_die(1, "out of memory");
	return s;
}

/* the rest of line after "key " (or "" after a bare "key"), else NULL */
static const char *value_of(const char *line, const char *key)
{
	size_t len = strlen(key);

	if (strncmp(line, key, len))
		return NULL;
	if (!line[len])
		return line + len;
	return line[len] == ' ' ? line + len + 1 : NULL;
}

static void set_string(char **field, const char *value)
{
	free(*field);
	*field = op_xstrdup(value);
}

/* the next space-separated word of *p, NUL-terminated in place */
static char *word(char **p)
{
	char *start = *p, *space;

	if (!*start)
		return NULL;
	space = strchr(start, ' ');
	if (space) {
		*space = '\0';
		*p = space + 1;
	} else {
		*p = start + strlen(start);
	}
	return start;
}

/* "NAME KIND PERIOD CPUTYPE EVENT UNITMASK DESCRIPTION..." */
static void add_event(struct pp_session_info *info, const char *value)
{
	char *copy = op_xstrdup(value), *p = copy;
	char *name = word(&p), *kind = word(&p), *period = word(&p);
	char *cpu = word(&p), *code = word(&p), *um = word(&p);
	struct pp_session_event ev = { 0 };

	if (!um || !*name || (strcmp(kind, "software") && strcmp(kind, "hardware")) ||
	    op_parse_u64(period, 10, UINT64_MAX, &ev.period) ||
	    op_parse_u32(cpu, 10, &ev.cpu_type) ||
	    op_parse_u32(code, 10, &ev.code) ||
	    op_parse_u32(um, 10, &ev.unit_mask)) {
		free(copy);
		return;
	}
	ev.software = !strcmp(kind, "software");
	ev.name = op_xstrdup(name);
	ev.desc = op_xstrdup(p);
	info->events = op_xreallocarray(info->events, info->nr_events + 1,
					sizeof(*info->events));
	info->events[info->nr_events++] = ev;
	free(copy);
}

static void parse_line(struct pp_session_info *info, const char *line)
{
	const char *v;

	if ((v = value_of(line, "fallback"))) {
		info->fallback = true;
		set_string(&info->fallback_reason, v);
	} else if (value_of(line, "kernel-excluded")) {
		info->kernel_excluded = true;
	} else if ((v = value_of(line, "vmlinux")) && *v) {
		set_string(&info->vmlinux, v);
	} else if ((v = value_of(line, "event"))) {
		add_event(info, v);
	}
}

static void read_info_file(struct pp_session_info *info, const char *dir)
{
	char *path = join(dir, "session.info"), *text, *line, *nl;
	size_t len;

	if (op_read_file(path, INFO_MAX, &text, &len)) {
		free(path);
		return;
	}
	free(path);
	for (line = text; line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (!nl)
			nl = text + len;
		*nl = '\0';
		/* a NUL inside the file ends that line early; no harm */
		parse_line(info, line);
	}
	free(text);
}

/* a counter file: a decimal number, maybe with a newline after it */
static bool read_number(const char *path, uint64_t *out)
{
	char *text;
	size_t len;
	int ret;

	if (op_read_file(path, NUMBER_MAX, &text, &len))
		return false;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	ret = op_parse_u64(text, 10, UINT64_MAX, out);
	free(text);
	return !ret;
}

static int cmp_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void read_throttled(struct pp_session_info *info, const char *stats)
{
	char *path = join(stats, "throttled");
	DIR *dir = opendir(path);
	struct dirent *de;

	free(path);
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		info->throttled = op_xreallocarray(info->throttled,
						   info->nr_throttled + 1,
						   sizeof(*info->throttled));
		info->throttled[info->nr_throttled++] = op_xstrdup(de->d_name);
	}
	closedir(dir);
	if (info->nr_throttled)
		qsort(info->throttled, info->nr_throttled,
		      sizeof(*info->throttled), cmp_string);
}

/* the sum of the lost_* counters in stats */
static void read_lost(struct pp_session_info *info, const char *stats)
{
	DIR *dir = opendir(stats);
	struct dirent *de;

	if (!dir)
		return;
	while ((de = readdir(dir))) {
		char *path;
		uint64_t n;

		if (strncmp(de->d_name, "lost_", 5))
			continue;
		path = join(stats, de->d_name);
		if (read_number(path, &n))
			info->lost = info->lost > UINT64_MAX - n ? UINT64_MAX :
				     info->lost + n;
		free(path);
	}
	closedir(dir);
}

static void read_stats(struct pp_session_info *info, const char *dir)
{
	char *stats = join(dir, "stats"), *total = join(stats, "total_samples");

	read_lost(info, stats);
	if (!read_number(total, &info->total_samples))
		info->total_samples = 0;
	read_throttled(info, stats);
	free(total);
	free(stats);
}

void pp_session_info_read(const struct pp_session_dir *sd, const char *name,
			  struct pp_session_info *info)
{
	char *dir = pp_session_path(sd, name), *kallsyms, *modules;

	memset(info, 0, sizeof(*info));
	read_info_file(info, dir);
	read_stats(info, dir);
	kallsyms = join(dir, "kernel/kallsyms");
	if (op_is_file(kallsyms))
		info->kallsyms = kallsyms;
	else
		free(kallsyms);
	modules = join(dir, "kernel/modules");
	if (op_is_file(modules))
		info->modules = modules;
	else
		free(modules);
	free(dir);
}

void pp_session_info_release(struct pp_session_info *info)
{
	size_t i;

	if (!info)
		return;
	free(info->fallback_reason);
	for (i = 0; i < info->nr_throttled; i++)
		free(info->throttled[i]);
	free(info->throttled);
	free(info->kallsyms);
	free(info->modules);
	free(info->vmlinux);
	for (i = 0; i < info->nr_events; i++) {
		free(info->events[i].name);
		free(info->events[i].desc);
	}
	free(info->events);
	memset(info, 0, sizeof(*info));
}
