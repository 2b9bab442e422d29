#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opannotate on a session operf made of the split workload (split_three
# does 3 units of burn.h's loop for every 1 of split_one).  --source: the
# lines of split's files have exactly the counts the sample files and
# addr2line give; burn.h's loop carries nearly all of each function's
# samples, summarised at each call site ("burn inlined here"), 3:1 within
# 5 points.  --assembly: split_three first, then split_one, at their
# addresses, every instruction's count and objdump's text (also Intel
# syntax), the hottest instructions inside the loop; --sort=vma; -s -a.
# Kernel samples (resolved through kallsyms): --assembly says the vmlinux
# is needed, once, and lists their addresses; --source says they have no
# lines.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
for t in addr2line objdump; do
	command -v $t >/dev/null 2>&1 || skip_all "no $t (binutils) for the oracle"
done
split=$WORKLOADS/split

check 'operf split' profile run -d "$T/sess" "$split"
check 'opannotate --source exits 0' ann_exits 0 src --session-dir=sess --source
check "every line of split's files has the count of the sample files and addr2line" \
	oracle source sess src.out --image "$split" --total 0

# value NAME KIND FILE: the count of the "/* NAME KIND: N" comment in FILE
value() {
	sed -n "s|.* /\* $1 $2: *\([0-9]*\) .*|\1|p" "$3" | head -n 1
}
three=$(value split_three total src.out)
one=$(value split_one total src.out)
check 'split_three and split_one have their totals' test -n "$three" -a -n "$one"
check 'enough samples to judge (>= 300 in the two)' at_least $((${three:-0} + ${one:-0})) 300
check 'split_three has 75% +- 5 of the two' near "${three:-0}" "${one:-0}" 75 5
inl3=$(sed -n 's|.*return burn(3, x); /\* burn inlined here: *\([0-9]*\) .*|\1|p' src.out)
inl1=$(sed -n 's|.*return burn(1, x); /\* burn inlined here: *\([0-9]*\) .*|\1|p' src.out)
check 'the call site in split_three sums burn()'"'"'s samples there: >= 90 % of it' \
	at_least $((${inl3:-0} * 10)) $((${three:-0} * 9))
check '... and in split_one' at_least $((${inl1:-0} * 10)) $((${one:-0} * 9))
loop_lines() {	# the four lines of burn.h's loop hold >= 90 % of burn.h
	awk '
	/^ \* Total samples for file : .*burn\.h"$/ { f = 1; getline; getline; total = $2; next }
	/^ \* Total samples for file/ { f = 0 }
	f && /^ *[0-9]+ +[0-9.]+ :(\twhile \(n--\) \{|\t\tx \^= x (<<|>>) [0-9]+;)$/ { loop += $1 }
	END { printf "# loop %d of %d\n", loop, total; exit !(total > 0 && loop * 10 >= total * 9) }' src.out
}
check "the four lines of burn.h's loop carry >= 90 % of its samples" loop_lines
check "burn.h's total is the two call sites'" \
	sh -c "grep -A 2 'Total samples for file : .*burn.h\"' src.out | tail -n 1 | grep -q '^ \* *$((${inl3:-0} + ${inl1:-0})) '"

# --- --assembly -----------------------------------------------------------------
check 'opannotate --assembly exits 0' ann_exits 0 asm --session-dir=sess --assembly
# (split_three and split_one store to burn_sink: "# 4038 <burn_sink>")
check "split's symbols in order of samples, every instruction's count, objdump's text" \
	oracle asm sess asm.out --image "$split" --total 0 --objdump split_three \
	--objdump split_one --objdump main
check 'split_three comes first, split_one second' \
	sh -c "test \"\$(sed -n 's/^[0-9a-f]* <\(.*\)>:.*/\1/p' asm.out | head -n 2 | tr '\n' ' ')\" = 'split_three split_one '"
hottest() {	# split_three's hottest instruction lies inside its loop
	python3 - asm.out <<'EOF'
import re, sys
insns, inside = [], False
for ln in open(sys.argv[1]):
    if re.match(r"^[0-9a-f]+ <", ln):
        inside = "<split_three>:" in ln
        continue
    m = re.match(r"^(?: {15}| *(\d+) +\S+ ):  ([0-9a-f]+):\t(.*)$", ln)
    if inside and m:
        insns.append((int(m.group(1) or 0), int(m.group(2), 16), m.group(3)))
best = max(insns)
# the loop: from the target of a backward jump to the jump
loops = [(int(m.group(1), 16), at) for _c, at, text in insns
         for m in [re.match(r"j\w+ +([0-9a-f]+) <split_three\+0x[0-9a-f]+>$", text)]
         if m and int(m.group(1), 16) < at]
print("# hottest %d at 0x%x, loops %s" % (best[0], best[1],
      ["0x%x..0x%x" % l for l in loops]))
sys.exit(0 if best[0] > 0 and any(lo <= best[1] <= hi for lo, hi in loops) else 1)
EOF
}
check "split_three's hottest instruction is inside its loop" hottest
check '--sort=vma exits 0' ann_exits 0 vma --session-dir=sess -a --sort=vma
check '... symbols in address order, the same counts' \
	oracle asm sess vma.out --image "$split" --total 0 --sort vma
check 'opannotate -s -a exits 0' ann_exits 0 mixed --session-dir=sess -s -a
check '... each instruction under its source line (burn.h, inlined)' \
	oracle asm sess mixed.out --image "$split" --total 0 --interleaved
check '... e.g. the line of the loop' grep -qx '               :		x ^= x >> 7;' mixed.out
check '--disassembler-options=intel exits 0' ann_exits 0 intel --session-dir=sess -a --disassembler-options=intel
check "... objdump -M intel's text" \
	oracle asm sess intel.out --image "$split" --total 0 \
	--objdump split_three --objdump split_one --objdump-opts intel
check '--objdump-params="-M intel": the same listing' \
	sh -c "$OPANNOTATE --session-dir=sess -a '--objdump-params=-M intel' >intel2.out 2>intel2.err &&
	       sed 2d intel.out >i1 && sed 2d intel2.out >i2 && cmp i1 i2"

# --- kernel samples ---------------------------------------------------------
check 'attribute.py reads the session' attribute sess attr
kernel=$(awk -F '\t' '$1 == "image" && $3 == "no-vmlinux" { print $3; exit }' attr)
if test -n "$kernel"; then
	ksamples=$(attr_sum attr image 3="$kernel")
	say "kernel image '$kernel', $ksamples samples"
	check 'the kernel: no disassembly, the vmlinux is needed (said once)' sh -c "
		grep -c \"^opannotate: warning: no disassembly for '$kernel': kernel symbols come from kallsyms: disassembly needs the vmlinux (operf --vmlinux=FILE)\$\" asm.err | grep -qx 1"
	klisted() {	# each kernel symbol with its sampled addresses, "(no code)"
		python3 - asm.out "$kernel" "$ksamples" <<'EOF'
import re, sys
img, want = sys.argv[2], int(sys.argv[3])
listed = totals = bad = 0
inside, sym = False, 0
for ln in open(sys.argv[1]):
    ln = ln.rstrip("\n")
    if ln.startswith(" " * 15 + ":Disassembly of "):
        inside = ln == " " * 15 + ":Disassembly of " + img + ":"
        continue
    if not inside:
        continue
    m = re.match(r"^([0-9a-f]+) <.*>: /\* .* total: +(\d+) ", ln)
    if m:
        sym = int(m.group(1), 16)
        totals += int(m.group(2))
        continue
    m = re.match(r"^ *(\d+) +\S+ :  ([0-9a-f]+):\t\(no code\)$", ln)
    if m:
        listed += int(m.group(1))
        bad += int(m.group(2), 16) < sym
    elif re.match(r"^ *\d+ ", ln):
        bad += 1
print("# listed %d, symbol totals %d, kernel samples %d" % (listed, totals, want))
sys.exit(0 if 0 < listed == totals <= want and not bad else 1)
EOF
	}
	check '... its samples listed by address, under their symbols' klisted
	check '--source: no warning that kernel symbols have no lines (they never do)' sh -c "
		! grep -q 'kernel symbols from kallsyms have no line information' src.err"
else
	skip 'the kernel: no disassembly, the vmlinux is needed' 'no kernel samples in this session'
fi
done_testing
