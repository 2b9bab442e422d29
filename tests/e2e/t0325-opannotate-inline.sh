#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Inlined code in an operf session of the inline workload: inline_outer()
# runs inl_round(), an always_inline loop, which runs inl_step(), another
# one.  Every line has the count the sample files and addr2line -i give
# (tools/annotate_oracle.py); the helpers' own lines carry nearly all of
# inline_outer's samples; each call site shows "NAME inlined here: N"
# where N is the sum of the lines of the code inlined there (checked on
# the output itself: inl_step's lines for its call in inl_round, those
# plus inl_round's for its call in inline_outer), and inline_outer's
# total is the sum of its own and its helpers' lines.  -s -a shows the
# helpers' lines above their instructions.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
command -v addr2line >/dev/null 2>&1 || skip_all "no addr2line (binutils) for the oracle"
prog=$WORKLOADS/inline
test -x "$prog" || skip_all "the inline workload is not built"

check 'operf inline' profile run -d "$T/sess" "$prog"
check 'opannotate --source exits 0' ann_exits 0 src --session-dir=sess --source
check "every line of inline.c and burn.h: addr2line's counts, totals, inlined-here sums" \
	oracle source sess src.out --image "$prog" --total 0

# sums.py OUTPUT SOURCE: per function of inline.c (by the line ranges of
# its definition in SOURCE), the samples on its lines, and the comments
cat >sums.py <<'EOF'
import re, sys
out, src = sys.argv[1], open(sys.argv[2]).read().split("\n")
# the line ranges of the functions: from the line naming it to its "}"
ranges = {}
for i, l in enumerate(src):
    m = re.search(r"\b(inl_step|inl_round|inline_outer|inline_other|main)\(", l)
    if m and not l.startswith(("\t", " ")) and m.group(1) not in ranges:
        end = next(j for j in range(i, len(src)) if src[j] == "}")
        ranges[m.group(1)] = (i + 1, end + 1)
lines, notes, cur, nr = {}, {}, False, 0
for l in open(out).read().split("\n"):
    if l.startswith(' * Total samples for file : '):
        cur, nr = l.endswith('/inline.c"'), -6
        continue
    if not cur:
        continue
    nr += 1
    if nr <= 0:
        continue
    m = re.match(r"^(?: {15}| *(\d+) +\S+ ):(.*)$", l)
    if not m:
        cur = False
        continue
    lines[nr] = int(m.group(1) or 0)
    for n, kind, c in re.findall(r"/\* (\S+) (total|inlined here): +(\d+) ", m.group(2)):
        notes[(n, kind)] = (nr, int(c))
def samples(fn):
    lo, hi = ranges[fn]
    return sum(c for n, c in lines.items() if lo <= n <= hi)
for fn in ("inl_step", "inl_round", "inline_outer"):
    print("lines %s %d" % (fn, samples(fn)))
for (n, kind), (at, c) in sorted(notes.items()):
    where = [f for f, (lo, hi) in ranges.items() if lo <= at <= hi]
    print("note %s %s %d %s" % (n, kind.replace(" ", "_"), c, where[0] if where else "-"))
EOF
check 'the functions and comments of inline.c' \
	sh -c "python3 sums.py src.out '$top_srcdir/tests/workloads/inline.c' >sums"
get() {	# KIND NAME...: the number of a line of sums
	awk -v k="$1" -v n="$2" -v m="${3:-}" '
	$1 == k && $2 == n && (m == "" || $3 == m) { print ($1 == "lines" ? $3 : $4); exit }' sums
}
step=$(get lines inl_step)
round=$(get lines inl_round)
outer=$(get lines inline_outer)
say "samples on the lines of inl_step $step, inl_round $round, inline_outer $outer"
sed 's/^/# /' sums
total=$(get note inline_outer total)
in_step=$(get note inl_step inlined_here)
in_round=$(get note inl_round inlined_here)
check 'enough samples to judge (>= 300 in inline_outer)' at_least "${total:-0}" 300
check "inl_step's own lines carry most of inline_outer's samples (>= 60 %)" \
	at_least $((${step:-0} * 10)) $((${total:-0} * 6))
check "... and the two helpers' lines >= 90 %" \
	at_least $(((${step:-0} + ${round:-0}) * 10)) $((${total:-0} * 9))
check '"inl_step inlined here" sits in inl_round, on its call' \
	sh -c "grep -q '^note inl_step inlined_here [0-9]* inl_round\$' sums &&
	       grep -q '	x = inl_step(x); /\* inl_step inlined here: ' src.out"
check '... and is the sum of inl_step'"'"'s lines' test "${in_step:-x}" = "${step:-y}"
check '"inl_round inlined here" sits in inline_outer, on its call' \
	sh -c "grep -q '^note inl_round inlined_here [0-9]* inline_outer\$' sums &&
	       grep -q '	x = inl_round(x, 3 \* BURN_STEPS_PER_UNIT); /\* inl_round inlined here: ' src.out"
check '... and is the sum of inl_round'"'"'s and inl_step'"'"'s lines' \
	test "${in_round:-x}" = "$((${round:-0} + ${step:-0}))"
check '"inline_outer total" is in inline_outer' \
	sh -c "grep -q '^note inline_outer total [0-9]* inline_outer\$' sums"
check "... and is the sum of its own lines and its helpers' lines" \
	test "${total:-x}" = "$((${outer:-0} + ${round:-0} + ${step:-0}))"
check 'the helpers have no total of their own (they are not symbols)' \
	sh -c "! grep -q '^note inl_[a-z]* total ' sums"
other=$(sed -n 's|.*return burn(1, x); /\* burn inlined here: *\([0-9]*\) .*|\1|p' src.out)
check 'inline_other: burn inlined at its call, a third of inline_outer +- 10 points' \
	near "${other:-0}" "${total:-0}" 25 10

# --- -s -a ------------------------------------------------------------------
check 'opannotate -s -a exits 0' ann_exits 0 mixed --session-dir=sess -s -a
check '... the source line of each instruction, as addr2line gives it' \
	oracle asm sess mixed.out --image "$prog" --total 0 --interleaved
outer_listing() {	# inl_step's line of x >> 7 is above an instruction of inline_outer
	awk '/^[0-9a-f]+ </ { f = /<inline_outer>:/ } f' mixed.out >outer.lst &&
	grep -qx '               :	x ^= x >> 7;' outer.lst
}
check "... inl_step's lines inside inline_outer's listing" outer_listing
done_testing
