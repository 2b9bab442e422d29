// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A symbol table loaded by a thread of its own (pp_symbols.h,
 * pp_symtab_ahead_start()): the kernel's, from the session's kallsyms
 * copy, is most of a report's table loading (120 000 lines parsed),
 * and can be read while the caller is still listing sample files.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

struct pp_symtab_ahead {
	struct odb_image_id id;		/* a copy, name included */
	bool is_kernel;
	const struct pp_sym_opts *opts;
	struct pp_symtab *t;
	int ret;
	pthread_t tid;
};

static void *load(void *arg)
{
	struct pp_symtab_ahead *a = arg;

	a->ret = pp_symtab_load(&a->id, a->is_kernel, 0, a->opts, &a->t);
	return NULL;
}

struct pp_symtab_ahead *pp_symtab_ahead_start(const struct odb_image_id *image, bool is_kernel,
					      const struct pp_sym_opts *opts)
{
	struct pp_symtab_ahead *a = op_calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->id = *image;
	a->id.name = op_strdup(image->name);
	a->is_kernel = is_kernel;
	a->opts = opts;
	if (!a->id.name || pthread_create(&a->tid, NULL, load, a)) {
		free(a->id.name);
		free(a);
		return NULL;
	}
	return a;
}

struct pp_symtab *pp_symtab_ahead_take(struct pp_symtab_ahead *a)
{
	struct pp_symtab *t;

	if (!a)
		return NULL;
	pthread_join(a->tid, NULL);
	t = a->ret ? NULL : a->t;
	free(a->id.name);
	free(a);
	return t;
}
