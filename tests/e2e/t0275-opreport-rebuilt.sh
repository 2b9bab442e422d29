#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A binary rebuilt since profiling is told by the build-id operf recorded
# (the session's buildids file), not by its time:
#  - touched only: the same build, no warning, the same report;
#  - replaced by another build: named, with what to do (--image-path or
#    --root), and its samples under the image, never another build's
#    symbols;
#  - --image-path to the profiled build: its symbols, no warning.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"

cp "$WORKLOADS/split" prog && mkdir orig && cp -p prog orig/prog || exit 99
check 'operf ./prog' profile run -d s ./prog
check 'the session records its build-id' \
	grep -q "^[0-9a-f]\{16,40\} $T_REAL/prog\$" s/samples/current/buildids
check 'opreport -l' exits 0 l0 --session-dir=s -l -n
touch -d '2001-01-01' prog
touched() {
	exits 0 l1 --session-dir=s -l -n && test ! -s l1.err && cmp l0.out l1.out
}
check 'touched since: the same report, no warning' touched
cp "$WORKLOADS/callchain" prog || exit 99
replaced() {
	exits 0 l2 --session-dir=s -l -n &&
	grep -q "^opreport: warning: '$T_REAL/prog' is not the binary that was profiled (build-id [0-9a-f]*\.\.\. then, [0-9a-f]*\.\.\. now): it was rebuilt or replaced; give the profiled build with --image-path or --root; its samples are counted under the image\$" l2.err &&
	grep -q " $T_REAL/prog\$" l2.out &&
	! grep -q 'split_three\|cg_leaf\|cg_caller' l2.out
}
check 'replaced by another build: said, samples under the image' replaced
found() {
	exits 0 l3 --session-dir=s -l -n -p "$T/orig" && test ! -s l3.err && cmp l0.out l3.out
}
check '--image-path to the profiled build: its symbols again' found

done_testing
