/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the tests of shown names share (the table's cache here, the
 * report's name stream in libpp/report): a kallsyms text of many kernel
 * symbols with mangled, plain and broken names, and the check that a
 * shown name is what pp_demangle makes of the raw one.  Each helper fails
 * the running cmocka test on error.
 */
#ifndef PP_TEST_NAMES_H
#define PP_TEST_NAMES_H

#include <stddef.h>

#include "libpp/symbols/pp_symbols.h"

/*
 * Write to path a kallsyms of nr symbols from 0x1000 up, 0x10 bytes each,
 * named by cycling over mangled (some needing the smart rules), plain and
 * broken names, and a data symbol ending the last.
 */
void pp_test_write_named_kallsyms(const char *path, size_t nr);

/* fail unless got is how sym is shown in mode */
void pp_test_check_shown(const struct pp_sym *sym, const char *got,
			 enum pp_demangle_mode mode);

#endif
