// SPDX-License-Identifier: GPL-2.0-or-later
/* What the tests of shown names share (see pp_test_names.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "libpp/symbols/tests/pp_test_names.h"
#include "libutil/op_file.h"
#include "libutil/op_strbuf.h"

static const char *const names[] = {
	"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE6appendEPKcm",
	"_ZNSt6vectorIiSaIiEE9push_backERKi",
	"main",
	"_ZN2v88internal4Heap14CollectGarbageENS0_15AllocationSpaceENS0_"
	"23GarbageCollectionReasonENS_15GCCallbackFlagsE",
	"_Z3fooi",
	"not_mangled_Z",
	"_Zbroken",
};

void pp_test_write_named_kallsyms(const char *path, size_t nr)
{
	struct op_strbuf text;
	size_t i;

	op_strbuf_init(&text);
	for (i = 0; i < nr; i++)
		op_strbuf_addf(&text, "%016zx T %s\n", 0x1000 + 0x10 * i,
			       names[i % (sizeof(names) / sizeof(names[0]))]);
	op_strbuf_addf(&text, "%016zx D the_end\n", 0x1000 + 0x10 * nr);
	if (op_strbuf_failed(&text) ||
	    op_write_file_atomic(path, text.buf, text.len, 0644))
		fail_msg("cannot write %s", path);
	op_strbuf_release(&text);
}

void pp_test_check_shown(const struct pp_sym *sym, const char *got,
			 enum pp_demangle_mode mode)
{
	char *want = pp_demangle(sym->name, mode);

	if (strcmp(got, want ? want : sym->name))
		fail_msg("%s in mode %d shown as '%s', expected '%s'", sym->name,
			 (int)mode, got, want ? want : sym->name);
	free(want);
}
