#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opannotate --assembly on sessions with exactly known samples: per image
# exactly its sampled symbols, most samples first (or by address with
# --sort=vma), each as "ADDRESS <name>:" with its total; every instruction
# of the symbol with the samples of its bytes; the instruction text that
# objdump -d --no-show-raw-insn gives, also in Intel syntax
# (--disassembler-options, --objdump-params); -s -a puts each
# instruction's source line above it.  Options that do not go together
# and unknown disassembler options are usage errors (exit 2).
. "$top_srcdir/tests/lib.sh"
use_fixtures
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
for t in addr2line objdump; do
	command -v $t >/dev/null 2>&1 || skip_all "no $t (binutils) for the oracle"
done
make_multi
nopie=$FIX/build/fixture_nopie
pie=$FIX/build/fixture_pie
# main calls through the PLT and reads the data symbol sink: its targets
# read as objdump names them ("<printf@plt>", "<sink>") in every syntax
od_basic='--objdump compute_alpha --objdump compute_beta --objdump compute_gamma --objdump helper_delta --objdump main'

check 'mksamples.py writes the basic session' mksession basic
check 'opannotate --assembly exits 0' ann_exits 0 asm --session-dir=out/basic --assembly
check '... with nothing on stderr' test ! -s asm.err
check 'each symbol, instruction, count, percentage; the text of objdump' \
	oracle asm out/basic asm.out --strict --total 1834 $od_basic
head_ok() {	# NAME LINES...: NAME.out's interpretation lines
	h_n=$1; shift
	printf ' * %s\n' 'Interpretation of command line:' "$@" '' >"$h_n.iwant" &&
	sed -n '4,/^ \* $/p' "$h_n.out" >"$h_n.igot" && compare "$h_n.iwant" "$h_n.igot"
}
check 'the header says what is shown' head_ok asm 'Output annotated assembly listing with samples'
check 'the image is introduced once, by its path' \
	test "$(grep -c "^               :Disassembly of $nopie:\$" asm.out)" = 1
symline() {
	grep -qx '000000000040113f <compute_alpha>: /\* compute_alpha total:   1000 54.5256 \*/' asm.out &&
	grep -qx '  1000 54.5256 :  40113f:	test   %rdi,%rdi' asm.out &&
	grep -qx '     7  0.3817 :  40116d:	mov    $0x1,%edx' asm.out
}
check 'symbol and instruction lines as objdump writes them, with the counts' symline
order() {	# NAME SYMBOL...: the symbols of NAME.out, in this order
	o_n=$1; shift
	printf '%s\n' "$@" >"$o_n.owant" &&
	sed -n 's/^[0-9a-f]* <\(.*\)>:.*/\1/p' "$o_n.out" >"$o_n.ogot" &&
	compare "$o_n.owant" "$o_n.ogot"
}
check 'symbols come most samples first' \
	order asm compute_alpha compute_beta compute_gamma main helper_delta
check '--sort=vma exits 0' ann_exits 0 vma --session-dir=out/basic -a --sort=vma
check '... and puts the symbols in address order' \
	oracle asm out/basic vma.out --strict --total 1834 --sort vma $od_basic
check '... helper_delta first' \
	order vma helper_delta compute_alpha compute_beta compute_gamma main
check '--sort=sample is the default order' ann_exits 0 bysample --session-dir=out/basic -a --sort=sample
check '... the same listing' sh -c 'sed 1,2d asm.out >a1 && sed 1,2d bysample.out >a2 && cmp a1 a2'

# the control: the oracle sees a wrong instruction and a count moved
wrong() {	# SED-SCRIPT
	sed "$1" asm.out >wrong.out &&
	! oracle asm out/basic wrong.out --strict --total 1834 $od_basic >wrong.log
}
check 'control: a changed operand is caught' wrong 's/test   %rdi,%rdi/test   %rsi,%rdi/'
check 'control: a count moved to the next instruction is caught' \
	wrong '/  40116d:/s/^     7  0.3817 :/               :/; /  401172:/s/^               :/     7  0.3817 :/'
check 'control: a missing instruction is caught' wrong '/  401176:/d'

# --- -s -a: source lines interleaved ----------------------------------------
check 'opannotate -s -a exits 0' ann_exits 0 mixed --session-dir=out/basic -s -a
check '... above each instruction, the source line addr2line gives it' \
	oracle asm out/basic mixed.out --strict --total 1834 --interleaved $od_basic
check '... its header says so' head_ok mixed \
	'Output annotated assembly listing with samples' \
	'Interleaved with the source lines of each instruction'
check '... a source line is shown when it changes, not before every instruction' \
	test "$(grep -c '^               :	' mixed.out)" -lt "$(grep -c ':  [0-9a-f]*:	' mixed.out)"

# --- Intel syntax, and the other spellings --------------------------------
check '--disassembler-options=intel exits 0' \
	ann_exits 0 intel --session-dir=out/basic -a --disassembler-options=intel
check '... the text of objdump -M intel' \
	oracle asm out/basic intel.out --strict --total 1834 --objdump-opts intel $od_basic
check '... its header names the options' \
	grep -qx ' \* Disassembler options: "intel"' intel.out
same_as_intel() {	# NAME OPTIONS...: the listing of intel.out
	s_n=$1; shift
	ann_exits 0 "$s_n" --session-dir=out/basic -a "$@" &&
	sed 2d intel.out >"$s_n.want" && sed 2d "$s_n.out" >"$s_n.got" &&
	compare "$s_n.want" "$s_n.got"
}
check '--objdump-params="-M intel": the same listing' same_as_intel odp1 '--objdump-params=-M intel'
check '--objdump-params=-Mintel: the same' same_as_intel odp2 --objdump-params=-Mintel
check '--objdump-params=--disassembler-options=intel: the same' \
	same_as_intel odp3 --objdump-params=--disassembler-options=intel
check '--objdump-params="--no-show-raw-insn -M intel": the same' \
	same_as_intel odp4 '--objdump-params=--no-show-raw-insn -M intel'
check '--objdump-params=--no-show-raw-insn alone: the plain listing' \
	sh -c "$OPANNOTATE --session-dir=out/basic -a --objdump-params=--no-show-raw-insn >raw.out &&
	       sed 2d asm.out >r1 && sed 2d raw.out >r2 && cmp r1 r2"
check '--disassembler-options=intel,suffix' \
	ann_exits 0 suffix --session-dir=out/basic -a --disassembler-options=intel,suffix
check '... the text of objdump -M intel,suffix' \
	oracle asm out/basic suffix.out --strict --total 1834 --objdump-opts intel,suffix $od_basic

# --- usage errors -----------------------------------------------------------
usage() {	# NAME MESSAGE OPTIONS...: exit 2, MESSAGE and the hint, no output
	u_n=$1 u_msg=$2
	shift 2
	ann_exits 2 "$u_n" --session-dir=out/basic "$@" && test ! -s "$u_n.out" &&
	printf 'opannotate: error: %s\nhint: see '\''opannotate --help'\''\n' "$u_msg" >"$u_n.want" &&
	compare "$u_n.want" "$u_n.err"
}
x86='x86-64, i386, i8086, att, intel, att-mnemonic, intel-mnemonic, addr64, addr32, addr16, data32, data16, suffix, amd64, intel64'
check 'an unknown disassembler option: exit 2, the known ones listed' usage bad1 \
	"disassembler option 'bogus' not known for i386:x86-64 (known: $x86)" \
	-a --disassembler-options=bogus
check '... also through --objdump-params and next to a good one' usage bad2 \
	"disassembler option 'sufix' not known for i386:x86-64 (known: $x86)" \
	-a '--objdump-params=-M intel,sufix'
check 'an objdump option other than -M: exit 2' usage bad3 \
	"--objdump-params: '-d' is not supported (only -M, --disassembler-options and --no-show-raw-insn)" \
	-a '--objdump-params=-d -M intel'
check '--sort=size: exit 2' usage bad4 "unknown --sort key 'size' (valid: sample, vma)" -a --sort=size
check '--sort without --assembly: exit 2' usage bad5 '--sort only applies to --assembly' -s --sort=vma
check '--disassembler-options without --assembly: exit 2' usage bad6 \
	'--disassembler-options only applies to --assembly' -s --disassembler-options=intel
check '--objdump-params without --assembly: exit 2' usage bad7 \
	'--objdump-params only applies to --assembly' -s '--objdump-params=-M intel'

# --- multi: inlined code, three files -----------------------------------------
check 'mksamples.py writes the multi session' mksession multi
check 'opannotate -a on it exits 0' ann_exits 0 multi --session-dir=out/multi -a
check '... every symbol, instruction and count; the text of objdump' \
	oracle asm out/multi multi.out --strict --total 3700 \
	--objdump func_a --objdump func_b --objdump func_c
check '... -s -a: the source line of each instruction (inlined ones too)' \
	sh -c "$OPANNOTATE --session-dir=out/multi -s -a >multi-s.out 2>multi-s.err &&
	       python3 $ORACLE asm out/multi multi-s.out --strict --total 3700 --interleaved &&
	       grep -q '^               :	x ^= x << 13;\$' multi-s.out"

# --- PIE and a library --------------------------------------------------------
check 'mksamples.py writes the callgraph session' mksession callgraph
check 'opannotate -a on the PIE session exits 0' ann_exits 0 pie --session-dir=out/callgraph -a
check "fixture_pie's symbols, instructions and counts; the text of objdump" \
	oracle asm out/callgraph pie.out --image "$pie" --total 1728 \
	--objdump compute_alpha --objdump compute_beta --objdump compute_gamma
check "... run_all and main: objdump's text, the names of PLT entries and data too" \
	oracle asm out/callgraph pie.out --image "$pie" --total 1728 \
	--objdump run_all --objdump main
check "fixture_pie's listing comes first (1715 of 1728 samples)" \
	sh -c "grep -m 1 'Disassembly of' pie.out | grep -q 'fixture_pie:\$'"
check 'libc is listed with its two sampled symbols and their counts' \
	sh -c "grep -q '^               :Disassembly of .*libc.so.6:\$' pie.out &&
	       python3 $ORACLE asm out/callgraph pie.out --total 1728 --image \
	       \$(sed -n 's/^               :Disassembly of \(.*libc.so.6\):\$/\1/p' pie.out)"
check '-x: the application alone' ann_exits 0 pie-x --session-dir=out/callgraph -a -x
check '... with percentages of its 1715 samples' \
	oracle asm out/callgraph pie-x.out --image "$pie" --total 1715 --strict
check '-i run_all,main: those two only' ann_exits 0 pie-i --session-dir=out/callgraph -a -i run_all,main
check '... with their counts, percentages of the two' \
	oracle asm out/callgraph pie-i.out --image "$pie" --strict \
	--symbol run_all --symbol main
check '-t 20 exits 0' ann_exits 0 t20 --session-dir=out/callgraph -a -t 20
check '... the symbols over 20 % only: compute_alpha, compute_beta' \
	order t20 compute_alpha compute_beta
done_testing
