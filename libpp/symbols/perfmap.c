// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JIT symbols from perf map files (/tmp/perf-PID.map), the text format
 * node --perf-basic-prof, the JVM's perf-map agent, .NET and Python 3.12
 * write: one "START SIZE NAME" line per piece of generated code, START
 * and SIZE in hex (with or without 0x), NAME the rest of the line.  Code
 * can be generated again at an address: the later line wins.
 *
 * The file is another user's input: read without following a symlink,
 * only when it is a regular file owned by this user or root (as perf
 * reads it), at most PERFMAP_MAX bytes; a line that does not parse is
 * skipped.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"

#define PERFMAP_MAX ((size_t)256 << 20)

/* a hex number at *p (an optional 0x), then blanks; false if none */
static bool hex_field(char **p, uint64_t *v)
{
	char *s = *p, *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
	      (*s >= 'A' && *s <= 'F')))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 16);
	if (errno || (*end != ' ' && *end != '\t'))
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	*p = end;
	return true;
}

int pp_perfmap_symbols(char *text, uint64_t lo, uint64_t hi, struct pp_cands *out)
{
	size_t first = out->nr, i, j;
	char *line, *next;

	for (line = text; line && *line; line = next) {
		struct pp_sym_cand *c;
		uint64_t start, size;
		char *p = line, *nl = strchr(line, '\n');
		size_t len;

		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		len = strlen(line);
		while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
			line[--len] = '\0';
		if (!hex_field(&p, &start) || !hex_field(&p, &size) || !*p ||
		    start < lo || start >= hi || !size)
			continue;
		if (pp_cands_reserve(out, 1))
			return -ENOMEM;
		c = &out->v[out->nr++];
		memset(c, 0, sizeof(*c));
		c->vma = start;
		c->size = size > hi - start ? hi - start : size;
		c->limit = hi;
		c->name = p;
		c->bind = PP_BIND_GLOBAL;
		c->name_class = pp_name_class(p);
	}
	/* the later line first: of candidates at one start the first is kept */
	for (i = first, j = out->nr; j && i < --j; i++) {
		struct pp_sym_cand tmp = out->v[i];

		out->v[i] = out->v[j];
		out->v[j] = tmp;
	}
	return 0;
}

int pp_perfmap_read(const char *path, char **text)
{
	size_t len;

	return op_read_owned_file(path, PERFMAP_MAX, text, &len);
}
