// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel symbols from kallsyms text (symbols_int.h): the session's copy of
 * /proc/kallsyms, or the running kernel's.  Lines are
 *
 *	ffffffff81000000 T _text
 *	ffffffffc0201000 t ext4_fill_super	[ext4]
 *
 * Text symbols (t, T, w, W) become candidates; the other typed lines
 * (data, rodata, bss) only bound the text symbol before them, so the last
 * function before .rodata does not run on over it.  Absolute and
 * undefined symbols are skipped.  Addresses of 0 are what kptr_restrict
 * shows: such a file has no usable symbols.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libpp/symbols/symbols_int.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* the address at the start of line p, or 0; *end after the digits */
static uint64_t parse_addr(const char *p, const char **end)
{
	uint64_t a = 0;
	int v, n = 0;

	while ((v = hexval(*p)) >= 0 && n++ < 16) {
		a = a << 4 | (uint64_t)v;
		p++;
	}
	*end = p;
	return a;
}

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

bool pp_kallsyms_usable(const char *text)
{
	const char *p = text, *end;

	while (*p) {
		if (parse_addr(p, &end) && *end == ' ')
			return true;
		p = next_line(p);
	}
	return false;
}

struct kline {
	uint64_t addr;
	char type;
	char *name;		/* cut in place */
	const char *module;	/* NULL for the core kernel; not cut */
	size_t module_len;
};

/* split line p; returns the next line, or NULL at the end of the text */
static char *split_line(char *p, struct kline *k)
{
	const char *end;
	char *q;

	if (!*p)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->addr = parse_addr(p, &end);
	q = (char *)end;
	if (*q != ' ' || !q[1] || q[2] != ' ') {
		k->addr = 0;	/* not a symbol line */
		return (char *)next_line(p);
	}
	k->type = q[1];
	k->name = q + 3;
	q = k->name + strcspn(k->name, " \t\n");
	if (*q == '\t' && q[1] == '[') {
		k->module = q + 2;
		k->module_len = strcspn(k->module, "]\n");
	}
	p = (char *)next_line(q);
	*q = '\0';
	return p;
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static bool is_skipped(char type)
{
	return type == 'a' || type == 'A' || type == 'U' || type == 'u';
}

static bool wanted(const struct kline *k, const char *module)
{
	if (!module)
		return !k->module;
	return k->module && k->module_len == strlen(module) &&
	       !memcmp(k->module, module, k->module_len);
}

int pp_kallsyms_symbols(char *text, const char *module, struct pp_cands *out,
			struct pp_kallsyms_info *info)
{
	char *p = text;
	struct kline k;

	memset(info, 0, sizeof(*info));
	while ((p = split_line(p, &k))) {
		struct pp_sym_cand *c;

		if (!k.addr || !k.name[0])
			continue;
		/* _text, else _stext */
		if (!k.module && k.name[0] == '_' &&
		    (!strcmp(k.name, "_text") || (!info->text && !strcmp(k.name, "_stext"))))
			info->text = k.addr;
		if (!wanted(&k, module) || is_skipped(k.type))
			continue;
		if (!info->lowest || k.addr < info->lowest)
			info->lowest = k.addr;
		if (out->nr == out->alloc && pp_cands_reserve(out, 1))
			return -ENOMEM;
		c = &out->v[out->nr++];
		c->vma = k.addr;
		c->size = 0;
		c->limit = UINT64_MAX;
		c->start = 0;
		c->name = k.name;
		c->name_class = pp_name_class(k.name);
		c->bind = k.type == 't' ? PP_BIND_LOCAL :
			  k.type == 'T' ? PP_BIND_GLOBAL : PP_BIND_WEAK;
		c->boundary = !is_text(k.type);
	}
	return 0;
}

int pp_modules_find(const char *text, const char *module, uint64_t *base,
		    uint64_t *size)
{
	const char *p = text;

	/* "name size refcount deps state address [taint]" */
	while (p && *p) {
		char name[64], deps[512], state[32];
		unsigned long long sz, addr;
		int refs;

		if (sscanf(p, "%63s %llu %d %511s %31s %llx", name, &sz, &refs,
			   deps, state, &addr) == 6 && !strcmp(name, module) && addr) {
			*base = addr;
			*size = sz;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -ENOENT;
}
