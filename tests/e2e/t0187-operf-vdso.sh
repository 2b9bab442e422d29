#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The vdso resolved to its symbols: operf stores the vdso image the kernel
# maps (kernel/vdso.so in the session), opreport -l names the functions of
# the [vdso] region (clock_gettime, or its alias __vdso_clock_gettime) from
# it, or from the running kernel's vdso when the session has no copy, and
# opannotate -a disassembles them.  The workload is python3 calling
# time.clock_gettime, which glibc serves from the vdso.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

check 'operf python3 (clock_gettime in a loop)' profile run -d vd python3 -c '
import time
for _ in range(2000000):
    time.clock_gettime(time.CLOCK_MONOTONIC)'
check 'the session keeps the vdso image' \
	sh -c 'head -c 4 vd/samples/current/kernel/vdso.so | grep -q ELF'
vdso_rows() {	# NAME: -l names the vdso function, with most of its samples
	exits 0 "$1" --session-dir=vd -l -n &&
	python3 - "$1.out" <<'EOF'
import re, sys
rows = [l for l in open(sys.argv[1]) if "[vdso] (tgid:" in l]
assert rows, "no row of the vdso"
named = {m.group(1): int(l.split()[0]) for l in rows
         for m in [re.search(r"\) +\S+ +(\S+)$", l.rstrip())] if m}
print("# vdso rows: %s" % named)
fn = sum(c for n, c in named.items() if n in ("clock_gettime", "__vdso_clock_gettime"))
assert fn * 2 >= sum(int(l.split()[0]) for l in rows), "clock_gettime has not most of the vdso's samples"
EOF
}
check 'opreport -l: the vdso'"'"'s clock_gettime, from the session'"'"'s copy' vdso_rows l1
asm() {
	ann_exits 0 asm --session-dir=vd -a &&
	grep -q '^0*[0-9a-f]* <\(__vdso_\)\{0,1\}clock_gettime>: /\* ' asm.out &&
	test "$(grep -A3 'clock_gettime>: /\*' asm.out | grep -c ':  *[0-9a-f]*:	')" -gt 0
}
check 'opannotate -a disassembles it' asm
rm vd/samples/current/kernel/vdso.so
check 'without the copy: from the running kernel'"'"'s vdso' vdso_rows l2

done_testing
