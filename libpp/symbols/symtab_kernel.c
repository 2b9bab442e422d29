// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel images' symbol tables (symbols_int.h, symtab_load_kernel()):
 * the vmlinux given with --vmlinux, else kallsyms (the session's copy,
 * else the running kernel's) for the core kernel and for each module,
 * whose region comes from the /proc/modules copy.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_alloc.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

/*
 * kallsyms text: the session's copy, else the running kernel's (never
 * for an archive: its kernel is another machine's)
 */
static int read_kallsyms(struct pp_symtab *t, const struct pp_sym_opts *o)
{
	struct symtab_priv *p = t->priv;
	const char *paths[2] = { o->kallsyms, o->archive ? NULL : PROC_KALLSYMS };
	size_t i, len;

	for (i = 0; i < 2; i++) {
		char *text;
		int ret;

		if (!paths[i])
			continue;
		/* a session's copy or /proc: never a symlink to follow */
		ret = op_read_plain_file(paths[i], KALLSYMS_MAX, &text, &len);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			continue;
		if (!pp_kallsyms_usable(text)) {
			free(text);
			continue;
		}
		p->text = text;
		return pp_str_set(&t->symfile, op_strdup(paths[i]));
	}
	return 0;
}

/* base (and end) of a module: /proc/modules copy, else its lowest symbol */
static int module_region(const struct pp_symtab *t, const struct pp_sym_opts *o,
			 const char *module, uint64_t lowest, uint64_t *base,
			 uint64_t *end)
{
	const char *file = o->modules;
	uint64_t size = 0;
	char *text;
	size_t len;
	int ret;

	if (!file && !strcmp(t->symfile, PROC_KALLSYMS))
		file = PROC_MODULES;
	*base = lowest;
	*end = UINT64_MAX;
	if (!file)
		return 0;
	ret = op_read_plain_file(file, KALLSYMS_MAX, &text, &len);
	if (ret)
		return ret == -ENOMEM ? ret : 0;
	if (!pp_modules_find(text, module, base, &size) && size &&
	    *base + size > *base)
		*end = *base + size;
	free(text);
	return 0;
}

/* module NULL: the core kernel with keys per mode */
static int load_kallsyms(struct pp_symtab *t, const char *module,
			 enum key_mode mode, const struct pp_sym_opts *o)
{
	struct symtab_priv *p = t->priv;
	struct pp_kallsyms_info info;
	struct pp_cands c = { 0 };
	uint64_t base = 0, end = UINT64_MAX;
	size_t i;
	int ret = read_kallsyms(t, o);

	p->no_lines = "kernel symbols from kallsyms have no line information "
		      "(a vmlinux with debug information has)";
	p->no_code = module ? "module symbols come from kallsyms: there is no "
			      "module file to read code from" :
			      "kernel symbols come from kallsyms: disassembly "
			      "needs the vmlinux (operf --vmlinux=FILE)";
	if (ret)
		return ret;
	if (!p->text && o->archive)
		return pp_str_setf(&t->missing, "no kernel symbols: the archive has no "
				"usable kernel/kallsyms (the running kernel's would be "
				"another machine's)");
	if (!p->text && o->kallsyms)
		return pp_str_setf(&t->missing, "no kernel symbols: neither '%s' nor "
				PROC_KALLSYMS " shows addresses", o->kallsyms);
	if (!p->text)
		return pp_str_setf(&t->missing, "no kernel symbols: the session has no kernel/kallsyms and "
				PROC_KALLSYMS " shows no addresses");
	ret = pp_kallsyms_symbols(p->text, module, &c, &info);
	if (!ret && module)
		ret = module_region(t, o, module, info.lowest, &base, &end);
	else if (mode == KEYS_TEXT)
		base = info.text;
	if (!ret) {
		for (i = 0; i < c.nr; i++)
			c.v[i].limit = end;
		p->bias = base;
		symtab_map_keys(&c, 0, base);
		ret = pp_cands_finish(&c, &t->syms, &t->nr);
	}
	pp_cands_release(&c);
	if (!ret && t->nr)
		t->source = PP_SYMS_KALLSYMS;
	else if (!ret)
		ret = module ? pp_str_setf(&t->missing, "no symbols for module %s in '%s'",
					module, t->symfile) :
			       pp_str_setf(&t->missing, "no kernel text symbols in '%s'",
					t->symfile);
	return ret;
}

int symtab_load_kernel(struct pp_symtab *t, const struct odb_image_id *image,
		       const struct pp_sym_opts *o)
{
	int ret;

	if (image->kind == ODB_IMAGE_FILE) {
		if (!strcmp(image->name, PROC_KALLSYMS))
			return load_kallsyms(t, NULL, KEYS_TEXT, o);
		return symtab_load_file(t, image->name, o, KEYS_TEXT);
	}
	if (strcmp(image->name, "no-vmlinux"))
		return load_kallsyms(t, image->name, KEYS_RAW, o);
	/* an explicit --vmlinux first; kallsyms when it gives nothing */
	if (o->vmlinux) {
		ret = symtab_load_file(t, o->vmlinux, o, KEYS_RAW);
		if (ret || t->nr)
			return ret;
		symtab_forget_binary(t);
	}
	return load_kallsyms(t, NULL, KEYS_RAW, o);
}

