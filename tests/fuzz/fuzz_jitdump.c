// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: jitdump files (jit-PID.dump), which a JIT runtime wrote
 * and operf reads at the end of a run: parsed (daemon/opd_jitdump.h),
 * every piece of code must lie within the input; made into an ELF image
 * (daemon/opd_jitelf.h), which opreport then reads as the session's
 * jit/1.jo for a region at the lowest piece of code: its symbols must lie
 * in the region, sorted and apart, and its code be readable.  Nothing may
 * crash, hang or leak.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/opd_jitdump.h"
#include "daemon/opd_jitelf.h"
#include "libpp/symbols/pp_symbols.h"
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/fuzz_tmp.h"

#define LEN 0x4000ull

/* the image as opreport reads it, for the region of 'lo' */
static void read_back(const unsigned char *image, size_t len, uint64_t lo)
{
	struct odb_image_id id = {
		.kind = ODB_IMAGE_ANON, .name = (char *)"anon", .anon_tgid = 1,
		.anon_start = lo, .anon_end = lo + LEN - 1,
	};
	struct pp_sym_opts o = { 0 };
	struct pp_symtab *t;
	unsigned char buf[64];
	const char *why;
	size_t i;
	int fd;

	if (lo + LEN - 1 < lo)
		return;
	o.jit_dir = fuzz_tmp("fuzz_jitdump", "1.jo");
	fd = open(fuzz_tmp_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, image, len) != (ssize_t)len || close(fd))
		abort();
	if (pp_symtab_load(&id, false, LEN, &o, &t))
		return;	/* out of memory only */
	for (i = 0; i < t->nr; i++) {
		const struct pp_sym *s = &t->syms[i];

		if (s->start >= s->end || !s->name || (i && s->start < t->syms[i - 1].end))
			abort();
		if (t->source == PP_SYMS_JITDUMP && s->start >= LEN)
			abort();
		if (t->source == PP_SYMS_JITDUMP &&
		    pp_symtab_code(t, s->start, buf, sizeof(buf), &why) < 0)
			abort();
	}
	pp_symtab_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct opd_jitdump d;
	unsigned char *image;
	size_t i, len, nr_syms;
	uint64_t lo = UINT64_MAX;

	if (opd_jitdump_parse(data, size, &d))
		return 0;
	for (i = 0; i < d.nr_codes; i++) {
		const struct opd_jit_code *c = &d.codes[i];
		const uint8_t *code = c->code;

		if ((const uint8_t *)c->name < data || code < data || code > data + size ||
		    c->size > (uint64_t)(data + size - code))
			abort();
		if (c->size && c->addr < lo)
			lo = c->addr;
	}
	if (!opd_jitelf_build(&d, &image, &len, &nr_syms)) {
		if (!nr_syms || nr_syms > d.nr_codes)
			abort();
		read_back(image, len, lo);
		free(image);
	}
	opd_jitdump_release(&d);
	return 0;
}
