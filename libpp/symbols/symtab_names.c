// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shown names of a table's symbols (pp_symtab_shown_name()), made
 * once and kept: demangling is most of a big symbol report's time, and
 * several threads make names at once (the loader beside the samples, the
 * report's helpers beside its writer), so each name is claimed by one of
 * them.
 *
 * Each symbol has a state byte: SHOWN_NONE, then SHOWN_BUSY while one
 * thread makes the name (claimed by a compare-and-swap), then SHOWN_DONE
 * once the name is stored (a release store, read with acquire, so a
 * thread that sees DONE sees the name).  A thread that finds BUSY waits
 * for the other; making a name takes microseconds.
 */
#include "config.h"

#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

#include "libpp/symbols/symbols_int.h"
#include "libutil/op_quote.h"

enum {
	SHOWN_NONE,
	SHOWN_BUSY,
	SHOWN_DONE,
};

/*
 * The demangled name of sym (freed with the table), or NULL: shown raw.
 * Control characters (a binary's names are anyone's) are escaped, so a
 * name never splits a report line.
 */
static char *make_name(const struct symtab_priv *p, const struct pp_sym *sym)
{
	char *d = sym->flags & PP_SYM_ARTIFICIAL ? NULL : pp_demangle(sym->name, p->demangle);
	char *e;
	int failed;

	e = op_escape_controls(d ? d : sym->name, &failed);
	if (!e)
		return d;
	free(d);
	return e;
}

const char *pp_symtab_shown_name(struct pp_symtab *t, const struct pp_sym *sym)
{
	struct symtab_priv *p = t->priv;
	size_t i;
	unsigned char *state;
	unsigned char none = SHOWN_NONE;

	if (pp_symtab_is_made(t, sym))
		return pp_symtab_made_shown(sym);
	i = (size_t)(sym - t->syms);
	state = &p->shown_state[i];

	if (__atomic_load_n(state, __ATOMIC_ACQUIRE) != SHOWN_DONE) {
		if (__atomic_compare_exchange_n(state, &none, SHOWN_BUSY, false,
						__ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
			p->shown[i] = make_name(p, sym);
			/* pairs with the acquire loads of the other threads */
			__atomic_store_n(state, SHOWN_DONE, __ATOMIC_RELEASE);
		} else {
			while (__atomic_load_n(state, __ATOMIC_ACQUIRE) != SHOWN_DONE)
				sched_yield();
		}
	}
	return p->shown[i] ? p->shown[i] : sym->name;
}

void pp_symtab_free_shown(struct pp_symtab *t)
{
	struct symtab_priv *p = t->priv;
	size_t i;

	for (i = 0; p->shown && i < t->nr; i++)
		free(p->shown[i]);
	free(p->shown);
	free(p->shown_state);
	p->shown = NULL;
	p->shown_state = NULL;
}
