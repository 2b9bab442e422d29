// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel symbols from kallsyms text (symbols_int.h): the session's copy of
 * /proc/kallsyms, or the running kernel's, read line by line by libdb
 * (odb_kallsyms.h).  Text symbols (t, T, w, W) become candidates; the other typed lines
 * (data, rodata, bss) only bound the text symbol before them, so the last
 * function before .rodata does not run on over it.  Absolute and
 * undefined symbols are skipped.  Addresses of 0 are what kptr_restrict
 * shows: such a file has no usable symbols.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libdb/odb_kallsyms.h"
#include "libpp/symbols/symbols_int.h"

bool pp_kallsyms_usable(const char *text)
{
	return odb_kallsyms_usable(text);
}

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static bool is_skipped(char type)
{
	return type == 'a' || type == 'A' || type == 'U' || type == 'u';
}

static bool wanted(const struct odb_ksym *k, const char *module)
{
	if (!module)
		return !k->module;
	return k->module && k->module_len == strlen(module) &&
	       !memcmp(k->module, module, k->module_len);
}

int pp_kallsyms_symbols(char *text, const char *module, struct pp_cands *out,
			struct pp_kallsyms_info *info)
{
	const char *p = text;
	struct odb_ksym k;

	memset(info, 0, sizeof(*info));
	while ((p = odb_kallsyms_next(p, &k))) {
		struct pp_sym_cand *c;
		char *name = text + (k.name - text);

		if (!k.addr || !k.name_len)
			continue;
		/* names are borrowed from text, cut in place */
		name[k.name_len] = '\0';
		/* _text, else _stext */
		if (!k.module && name[0] == '_' &&
		    (!strcmp(name, "_text") || (!info->text && !strcmp(name, "_stext"))))
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
		c->name = name;
		c->name_class = pp_name_class(name);
		c->bind = k.type == 't' ? PP_BIND_LOCAL :
			  k.type == 'T' ? PP_BIND_GLOBAL : PP_BIND_WEAK;
		c->boundary = !is_text(k.type);
	}
	return 0;
}

int pp_modules_find(const char *text, const char *module, uint64_t *base,
		    uint64_t *size)
{
	size_t len = strlen(module);
	const char *p = text;
	struct odb_kmodule m;

	while ((p = odb_modules_next(p, &m)))
		if (m.valid && m.addr && m.name_len == len && !memcmp(m.name, module, len)) {
			*base = m.addr;
			*size = m.size;
			return 0;
		}
	return -ENOENT;
}
