// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading the kernel's kallsyms and modules texts (see odb_kallsyms.h). */
#include "config.h"

#include <string.h>

#include "libdb/odb_kallsyms.h"
#include "libutil/op_parse.h"

/* hexadecimal digits at p (at most 16, an optional "0x" first); *end after */
static uint64_t parse_hex(const char *p, const char **end)
{
	uint64_t v = 0;
	int d, n = 0;

	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	while ((d = op_hex_digit(*p)) >= 0 && n++ < 16) {
		v = v << 4 | (uint64_t)d;
		p++;
	}
	*end = p;
	return v;
}

/* a decimal number at p; *end after its digits */
static uint64_t parse_dec(const char *p, const char **end)
{
	uint64_t v = 0;

	while (*p >= '0' && *p <= '9') {
		v = v * 10 + (uint64_t)(*p - '0');
		p++;
	}
	*end = p;
	return v;
}

static const char *line_end(const char *p)
{
	return p + strcspn(p, "\n");
}

static const char *after_line(const char *p)
{
	p = line_end(p);
	return *p ? p + 1 : p;
}

const char *odb_kallsyms_next(const char *p, struct odb_ksym *k)
{
	const char *q, *end;

	if (!*p)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->addr = parse_hex(p, &q);
	if (q == p || q[0] != ' ' || !q[1] || q[1] == '\n' || q[2] != ' ') {
		k->addr = 0;	/* not a symbol line */
		return after_line(p);
	}
	k->type = q[1];
	k->name = q + 3;
	k->name_len = strcspn(k->name, " \t\n");
	end = k->name + k->name_len;
	if (end[0] == '\t' && end[1] == '[') {
		k->module = end + 2;
		k->module_len = strcspn(k->module, "]\n");
	}
	return after_line(end);
}

uint64_t odb_kallsyms_find(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text;
	struct odb_ksym k;

	while ((p = odb_kallsyms_next(p, &k)))
		if (k.addr && !k.module && k.name_len == len &&
		    !memcmp(k.name, name, len))
			return k.addr;
	return 0;
}

bool odb_kallsyms_usable(const char *text)
{
	const char *p = text;
	struct odb_ksym k;

	while ((p = odb_kallsyms_next(p, &k)))
		if (k.addr)
			return true;
	return false;
}

/* the next blank-separated word of the line at *p, moving *p after it */
static const char *word(const char **p, size_t *len)
{
	const char *w = *p + strspn(*p, " \t");

	*len = strcspn(w, " \t\n");
	*p = w + *len;
	return *len ? w : NULL;
}

const char *odb_modules_next(const char *p, struct odb_kmodule *m)
{
	const char *q = p, *w, *end;
	size_t len;
	int i;

	if (!*p)
		return NULL;
	memset(m, 0, sizeof(*m));
	m->name = word(&q, &m->name_len);
	w = word(&q, &len);
	if (!m->name || !w)
		return after_line(p);
	m->size = parse_dec(w, &end);
	if (end != w + len)
		return after_line(p);
	/* refcount, dependencies, state, then the address */
	for (i = 0; i < 3 && word(&q, &len); i++)
		;
	w = word(&q, &len);
	if (i < 3 || !w)
		return after_line(p);
	m->addr = parse_hex(w, &end);
	m->valid = end == w + len;
	return after_line(p);
}
