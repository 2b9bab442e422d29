/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Disassembly for opannotate --assembly, through libopcodes (never by
 * running objdump and reading its text).  libbfd names the machine of a
 * binary; the code bytes come from the caller, who knows where a symbol's
 * keys lie in the file (pp_symtab_code()).  The text of an instruction is
 * objdump's: AT&T syntax on x86 unless the options say "intel", operands
 * as objdump prints them, branch and call targets and the data addresses
 * of RIP-relative operands as "401136 <name+0x4>": named by the caller's
 * symbolizer, or else from the binary's own symbols as objdump -d names
 * them ("<printf@plt>", "<sink>", "<free@GLIBC_2.2.5>").
 *
 * libopcodes and libbfd are used in libpp/symbols/disasm.c and
 * disasm_names.c only.
 */
#ifndef PP_DISASM_H
#define PP_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "libpp/symbols/pp_demangle.h"
#include "libpp/symbols/pp_symbols.h"
#include "libutil/op_error.h"
#include "libutil/op_strbuf.h"

struct pp_disasm;

/*
 * A disassembler for the machine of the binary at path (ELF of any
 * architecture libopcodes was built for).  options: as objdump's -M
 * ("intel", "att", "suffix", comma-separated), or NULL.  Returns 0, or a
 * negative errno / PP_SYMBOLS_ERR_* with err (optional) naming the file,
 * or for BAD_OPTIONS the option, the machine and the options it knows.
 * Options are checked against the machine's list (x86, aarch64, and those
 * libopcodes lists: arc, arm, mips, powerpc, riscv, s390); other machines
 * take none.  *d is freed with pp_disasm_close(); path and options are
 * not kept.
 */
int pp_disasm_open(const char *path, const char *options, struct pp_disasm **d,
		   struct op_err *err);
void pp_disasm_close(struct pp_disasm *d);

/* the width objdump gives addresses of this machine: 8 or 16 hex digits */
unsigned pp_disasm_addr_digits(const struct pp_disasm *d);

/*
 * How a branch or call target (or the data address of an x86 RIP-relative
 * operand) is named: append "name+0x4" (or nothing, when no symbol
 * covers vma) to sb.  The disassembler prints "ADDR <...>" around it as
 * objdump does.  When nothing was appended, or fn is NULL (the default),
 * the address is named from the binary's own symbols with objdump's
 * rules and text: the static symbol table (or the dynamic one in a
 * stripped binary), PLT entries ("name@plt"), the symbols of dynamic
 * relocations (GOT slots) and symbol versions ("name@@GLIBC_2.2.5"),
 * and "0x401136" as objdump prints it when the binary has no symbols.
 * Those are read from the file on the first address to name, and give
 * objdump's text for the file pp_disasm_open() was given: for a stripped
 * binary with a separate debug file, objdump's on the stripped one.
 * vma is cut to the machine's address width.  data is borrowed until
 * the next call here or close.
 */
typedef void (*pp_disasm_symbolizer)(void *data, uint64_t vma, struct op_strbuf *sb);
void pp_disasm_set_symbolizer(struct pp_disasm *d, pp_disasm_symbolizer fn,
			      void *data);

/*
 * How the names taken from the binary's symbols (above) are shown: raw
 * as objdump without -C prints them (PP_DEMANGLE_NONE, the default), or
 * through pp_demangle() as the symbolizer's names are, a suffix from '@'
 * ("@plt", "@@GLIBC_2.2.5") kept as objdump -C keeps it.
 */
void pp_disasm_set_demangle(struct pp_disasm *d, enum pp_demangle_mode mode);

/*
 * Decode the instruction at code[0..len), whose address is vma: its text
 * is appended to text, its length returned (1..len).  Bytes that are no
 * valid instruction decode as objdump shows them, with the length the
 * decoder consumed ("(bad)" on x86, 4 bytes for "8f e8 78 ff"), which
 * keeps the listing in step with objdump's.  PP_SYMBOLS_ERR_BAD_INSN: the
 * instruction does not end within code[0..len) (or len is 0) or the
 * decoder gave up; text then holds "(bad)" and the caller may step one
 * byte.  -ENOMEM when text could not grow.  code is only read during
 * the call.
 */
int pp_disasm_insn(struct pp_disasm *d, const unsigned char *code, size_t len,
		   uint64_t vma, struct op_strbuf *text);

#endif
