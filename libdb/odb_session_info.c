// SPDX-License-Identifier: GPL-2.0-or-later
/* Building, parsing, writing and reading session.info (odb_session_info.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libdb/odb.h"
#include "libdb/odb_int.h"
#include "libdb/odb_session.h"
#include "libdb/odb_session_info.h"
#include "libdb/odb_slices.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_parse.h"
#include "libutil/op_strbuf.h"

/* far more than operf writes: a command line, a few dozen events */
#define INFO_MAX ((size_t)1 << 20)

static bool is_control(char c)
{
	return (unsigned char)c < ' ' || c == 0x7f;
}

/* s, with control characters as spaces (values are one line) */
static void add_value(struct op_strbuf *sb, const char *s)
{
	for (; s && *s; s++)
		op_strbuf_addch(sb, is_control(*s) ? ' ' : *s);
}

static bool word_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (*s == ' ' || is_control(*s))
			return false;
	return true;
}

static void add_line(struct op_strbuf *sb, const char *key, const char *value)
{
	op_strbuf_addstr(sb, key);
	op_strbuf_addch(sb, ' ');
	add_value(sb, value);
	op_strbuf_addch(sb, '\n');
}

static void add_target(struct op_strbuf *sb, const struct odb_session_info *info)
{
	switch (info->target) {
	case ODB_TARGET_COMMAND:
		op_strbuf_addstr(sb, "target command");
		if (info->command && *info->command) {
			op_strbuf_addch(sb, ' ');
			add_value(sb, info->command);
		}
		op_strbuf_addch(sb, '\n');
		break;
	case ODB_TARGET_PID:
		op_strbuf_addf(sb, "target pid %" PRIu32 "\n", info->pid);
		break;
	case ODB_TARGET_SYSTEM:
		op_strbuf_addstr(sb, "target system-wide\n");
		break;
	default:
		break;
	}
}

static void add_event(struct op_strbuf *sb, const struct odb_session_event *ev)
{
	op_strbuf_addf(sb, "event %s %s %" PRIu64 " %" PRIu32 " %" PRIu32 " %" PRIu32 " ",
		       ev->name, ev->software ? "software" : "hardware",
		       ev->period, ev->cpu_type, ev->code, ev->unit_mask);
	add_value(sb, ev->desc);
	op_strbuf_addch(sb, '\n');
}

int odb_session_info_format(const struct odb_session_info *info, char **text,
			    size_t *len)
{
	struct op_strbuf sb = OP_STRBUF_INIT;
	size_t i;

	*text = NULL;
	*len = 0;
	for (i = 0; i < info->nr_events; i++)
		if (!word_ok(info->events[i].name))
			return -EINVAL;
	if (info->tool)
		add_line(&sb, "tool", info->tool);
	if (info->started)
		add_line(&sb, "started", info->started);
	add_target(&sb, info);
	for (i = 0; i < info->nr_events; i++)
		add_event(&sb, &info->events[i]);
	if (info->fallback)
		add_line(&sb, "fallback", info->fallback_reason);
	if (info->kernel_excluded)
		add_line(&sb, "kernel-excluded", info->kernel_excluded_reason);
	op_strbuf_addf(&sb, "separate-thread %d\nseparate-cpu %d\ncallgraph %d\n",
		       info->separate_thread, info->separate_cpu, info->callgraph);
	if (info->slice_ns)
		op_strbuf_addf(&sb, "slice %" PRIu64 "\n", info->slice_ns);
	if (info->vmlinux && *info->vmlinux)
		add_line(&sb, "vmlinux", info->vmlinux);
	if (op_strbuf_failed(&sb)) {
		op_strbuf_release(&sb);
		return -ENOMEM;
	}
	*len = sb.len;
	*text = op_strbuf_detach(&sb);
	return *text ? 0 : -ENOMEM;
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

static int set_string(char **field, const char *value)
{
	char *copy = op_strdup(value);

	if (!copy)
		return -ENOMEM;
	free(*field);
	*field = copy;
	return 0;
}

/* the next word of *p (up to a space), NUL-terminated in place */
static char *next_word(char **p)
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

static void event_release(struct odb_session_event *ev)
{
	free(ev->name);
	free(ev->desc);
}

/* "NAME KIND PERIOD CPUTYPE CODE UNITMASK DESCRIPTION...", in place */
static int parse_event(struct odb_session_info *info, char *p)
{
	char *name = next_word(&p), *kind = next_word(&p), *period = next_word(&p);
	char *cpu = next_word(&p), *code = next_word(&p), *um = next_word(&p);
	struct odb_session_event ev = { 0 }, *v;

	if (!um || !*name || (strcmp(kind, "software") && strcmp(kind, "hardware")) ||
	    op_parse_u64(period, 10, UINT64_MAX, &ev.period) ||
	    op_parse_u32(cpu, 10, &ev.cpu_type) ||
	    op_parse_u32(code, 10, &ev.code) ||
	    op_parse_u32(um, 10, &ev.unit_mask))
		return 0;
	ev.software = !strcmp(kind, "software");
	ev.name = op_strdup(name);
	ev.desc = op_strdup(p);
	v = op_reallocarray(info->events, info->nr_events + 1, sizeof(*v));
	if (!ev.name || !ev.desc || !v) {
		event_release(&ev);
		if (v)
			info->events = v;
		return -ENOMEM;
	}
	info->events = v;
	info->events[info->nr_events++] = ev;
	return 0;
}

static int parse_target(struct odb_session_info *info, const char *v)
{
	const char *rest;
	uint32_t pid;

	if (!strcmp(v, "system-wide")) {
		info->target = ODB_TARGET_SYSTEM;
	} else if ((rest = value_of(v, "pid"))) {
		if (op_parse_u32(rest, 10, &pid))
			return 0;
		info->target = ODB_TARGET_PID;
		info->pid = pid;
	} else if ((rest = value_of(v, "command"))) {
		if (set_string(&info->command, rest))
			return -ENOMEM;
		info->target = ODB_TARGET_COMMAND;
	}
	return 0;
}

static void parse_flag(bool *flag, const char *v)
{
	if (!strcmp(v, "0") || !strcmp(v, "1"))
		*flag = v[0] == '1';
}

/* one line, NUL-terminated, control characters already spaces */
static int parse_line(struct odb_session_info *info, char *line)
{
	const char *v;

	if ((v = value_of(line, "tool")))
		return set_string(&info->tool, v);
	if ((v = value_of(line, "started")))
		return set_string(&info->started, v);
	if ((v = value_of(line, "target")))
		return parse_target(info, v);
	if ((v = value_of(line, "event")))
		return parse_event(info, line + (v - line));
	if ((v = value_of(line, "fallback"))) {
		info->fallback = true;
		return set_string(&info->fallback_reason, v);
	}
	if ((v = value_of(line, "kernel-excluded"))) {
		info->kernel_excluded = true;
		return set_string(&info->kernel_excluded_reason, v);
	}
	if ((v = value_of(line, "separate-thread")))
		parse_flag(&info->separate_thread, v);
	else if ((v = value_of(line, "separate-cpu")))
		parse_flag(&info->separate_cpu, v);
	else if ((v = value_of(line, "callgraph")))
		parse_flag(&info->callgraph, v);
	else if ((v = value_of(line, "slice")))
		op_parse_u64(v, 10, ODB_SLICES_MAX_NS, &info->slice_ns);
	else if ((v = value_of(line, "vmlinux")) && *v)
		return set_string(&info->vmlinux, v);
	return 0;
}

int odb_session_info_parse(const char *text, size_t len,
			   struct odb_session_info *info)
{
	const char *p = text, *end = text + len;
	int ret = 0;

	memset(info, 0, sizeof(*info));
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* a NUL in the line ends it: strndup stops there */
		char *line = op_strndup(p, n), *c;

		if (!line) {
			ret = -ENOMEM;
			break;
		}
		for (c = line; *c; c++)
			if (is_control(*c))
				*c = ' ';
		ret = parse_line(info, line);
		free(line);
		p = nl ? nl + 1 : end;
	}
	if (ret)
		odb_session_info_release(info);
	return ret;
}

int odb_session_info_write(const struct op_dir *dir,
			   const struct odb_session_info *info)
{
	char *text;
	size_t len;
	int ret;

	ret = odb_session_info_format(info, &text, &len);
	if (ret)
		return ret;
	ret = op_dir_write_file(dir, "session.info", text, len, 0644);
	free(text);
	return ret;
}

int odb_session_info_read(const char *dir, struct odb_session_info *info)
{
	char *text;
	size_t len;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = odb_session_read(dir, "session.info", INFO_MAX, &text, &len);
	if (ret)
		return ret;
	ret = odb_session_info_parse(text, len, info);
	free(text);
	return ret;
}

void odb_session_info_release(struct odb_session_info *info)
{
	size_t i;

	if (!info)
		return;
	free(info->tool);
	free(info->started);
	free(info->command);
	for (i = 0; i < info->nr_events; i++)
		event_release(&info->events[i]);
	free(info->events);
	free(info->fallback_reason);
	free(info->kernel_excluded_reason);
	free(info->vmlinux);
	memset(info, 0, sizeof(*info));
}
