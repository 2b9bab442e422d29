// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: perf map files of JIT code (/tmp/perf-PID.map), text
 * another program wrote, read as opreport reads them: the input is the
 * session's jit/perf-1.map of an anonymous region, whose table
 * pp_symtab_load() makes.  Every symbol must lie in the region, the
 * symbols sorted and apart, each name one line's text; every key of the
 * region is held by one symbol (a JIT entry or a gap).  Nothing may
 * crash, hang or leak.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpp/symbols/pp_symbols.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_tmp.h"

#define LO 0x7f0000001000ull
#define LEN 0x4000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct odb_image_id id = {
		.kind = ODB_IMAGE_ANON, .name = (char *)"anon", .anon_tgid = 1,
		.anon_start = LO, .anon_end = LO + LEN - 1,
	};
	struct pp_sym_opts o = { 0 };
	struct pp_symtab *t;
	uint64_t k;
	size_t i;
	int fd;

	o.jit_dir = fuzz_tmp("fuzz_perfmap", "perf-1.map");
	fd = open(fuzz_tmp_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd))
		abort();
	if (pp_symtab_load(&id, false, LEN, &o, &t))
		return 0;	/* out of memory only */
	for (i = 0; i < t->nr; i++) {
		const struct pp_sym *s = &t->syms[i];

		if (s->start >= s->end || s->end > LEN || !s->name ||
		    strchr(s->name, '\n') || (i && s->start < t->syms[i - 1].end))
			abort();
	}
	for (k = 0; k < LEN; k += 61) {
		const struct pp_sym *s = pp_symtab_hold(t, k);

		if (s && (k < s->start || k >= s->end))
			abort();
	}
	pp_symtab_free(t);
	return 0;
}
