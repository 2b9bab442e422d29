// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: machine code from untrusted bytes, decoded through
 * pp_disasm (libopcodes), as opannotate decodes whatever a binary holds.
 * Input: one byte choosing the options, eight of address (little-endian),
 * then the code, decoded instruction after instruction to its end.  Every
 * call must give a length within what is left or PP_SYMBOLS_ERR_BAD_INSN,
 * and one line of text; nothing may crash, hang, leak or print.
 *
 * The disassemblers are opened once, for this program's own executable
 * (the machine the fuzzer runs on); the options switch x86 between 64-,
 * 32- and 16-bit code and its syntaxes.
 *
 * libopcodes is not instrumented, so libFuzzer would see our few
 * branches only: each mnemonic decoded (per mode) bumps a counter in
 * libFuzzer's extra-counters section, which it treats as coverage.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libpp/symbols/pp_disasm.h"
#include "libutil/op_strbuf.h"
#include "tests/fuzz/fuzz.h"

static const char *const modes[] = {
	NULL,
	"intel",
	"att,suffix",
	"i386",
	"i386,intel",
	"i8086",
	"addr32,data16",
	"intel-mnemonic,x86-64",
};

#define NR_MODES (sizeof(modes) / sizeof(modes[0]))

static struct pp_disasm *handles[NR_MODES];
__attribute__((used, section("__libfuzzer_extra_counters")))
static uint8_t mnemonics[1 << 14];
static size_t nr_handles;

static void open_handles(void)
{
	size_t i;

	for (i = 0; i < NR_MODES; i++) {
		struct op_err err = { "" };
		int ret = pp_disasm_open("/proc/self/exe", modes[i], &handles[i], &err);

		/* a machine other than x86 refuses x86's options */
		if (ret == PP_SYMBOLS_ERR_BAD_OPTIONS && i)
			break;
		if (ret) {
			fprintf(stderr, "fuzz_disasm: %s\n", err.msg);
			abort();
		}
	}
	nr_handles = i;
}

/* names every address with an odd low byte, to run both printing paths */
static void symbolize(void *data, uint64_t vma, struct op_strbuf *sb)
{
	(void)data;
	if (vma & 1)
		op_strbuf_addf(sb, "fn+0x%" PRIx64, vma & 0xfff);
}

/* one line of text; its first word counted as coverage */
static void check_text(const struct op_strbuf *text, unsigned mode)
{
	uint32_t h = 2166136261u ^ mode;
	size_t i;

	if (!text->len || strlen(text->buf) != text->len)
		abort();
	for (i = 0; i < text->len; i++)
		if (text->buf[i] == '\n')
			abort();
	for (i = 0; i < text->len && text->buf[i] != ' '; i++)
		h = (h ^ (unsigned char)text->buf[i]) * 16777619u;
	mnemonics[h % sizeof(mnemonics)]++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct op_strbuf text = OP_STRBUF_INIT;
	struct pp_disasm *d;
	unsigned mode;
	uint64_t vma = 0;
	size_t off = 9;
	int i;

	if (!nr_handles)
		open_handles();
	if (size < 9)
		return 0;
	mode = data[0] % nr_handles;
	d = handles[mode];
	for (i = 8; i >= 1; i--)
		vma = vma << 8 | data[i];
	pp_disasm_set_symbolizer(d, data[0] & 0x80 ? symbolize : NULL, NULL);
	while (off < size) {
		int n;

		op_strbuf_reset(&text);
		n = pp_disasm_insn(d, data + off, size - off, vma + (off - 9), &text);
		if (n == PP_SYMBOLS_ERR_BAD_INSN) {
			if (strcmp(text.buf, "(bad)"))
				abort();
			n = 1;
		} else if (n <= 0 || (size_t)n > size - off) {
			abort();
		}
		check_text(&text, mode);
		off += (size_t)n;
	}
	op_strbuf_release(&text);
	return 0;
}
