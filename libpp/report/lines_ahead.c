// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening ahead the line information an output will need (report_int.h,
 * PP_LINES_AHEAD and PP_LINES_OF_TOP): a thread opens the DWARF of the
 * tables in the order they will be needed (pp_symtab_open_lines()), while
 * the caller goes on with the rows, the stacks and the output.  Opening
 * is most of what source lines cost: libdw inflates a distribution's
 * compressed debug sections whole (libc's: 33 ms here).  A table the
 * caller reaches first it opens itself (the table's lock makes one wait
 * for the other); the thread stops at the next table once told to.
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "libpp/report/report_int.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_alloc.h"

struct pp_lines_ahead {
	pthread_t tid;
	struct pp_symtab **tabs;
	size_t nr;
	bool stop;			/* atomic: open no more */
};

static void *open_all(void *arg)
{
	struct pp_lines_ahead *la = arg;
	size_t i;

	for (i = 0; i < la->nr && !__atomic_load_n(&la->stop, __ATOMIC_RELAXED); i++)
		pp_symtab_open_lines(la->tabs[i]);
	return NULL;
}

struct pp_lines_ahead *pp_lines_ahead_start(struct pp_symtab **tabs, size_t nr)
{
	struct pp_lines_ahead *la;

	if (!nr) {
		free(tabs);
		return NULL;
	}
	la = op_xcalloc(1, sizeof(*la));
	la->tabs = tabs;
	la->nr = nr;
	if (pthread_create(&la->tid, NULL, open_all, la)) {
		free(la->tabs);	/* no thread: each opens when first used */
		free(la);
		return NULL;
	}
	return la;
}

void pp_lines_ahead_end(struct pp_lines_ahead *la)
{
	if (!la)
		return;
	__atomic_store_n(&la->stop, true, __ATOMIC_RELAXED);
	pthread_join(la->tid, NULL);
	free(la->tabs);
	free(la);
}
