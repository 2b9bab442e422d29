#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JIT code named from perf map files: the jit workload generates jit_hot
# and jit_cold into anonymous memory and names them in /tmp/perf-PID.map,
# as node --perf-basic-prof and the JVM's agent do.
#  - operf copies the map file into the session (jit/perf-PID.map);
#  - opreport -l names the two functions, 3:1 within 5 points, instead of
#    one anonymous region;
#  - with /tmp's file gone the session's copy still names them;
#  - a map file owned by another user, or a symlink, is not read.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
jit=$WORKLOADS/jit
"$jit" >probe.out 2>&1
test $? = 77 && skip_all "$(cat probe.out)"
rm -f "$(sed -n 's/.* map //p' probe.out)"

check 'operf ./jit' profile run -d s "$jit"
pid=$(sed -n 's/^jit: pid \([0-9]*\),.*/\1/p' run.out)
map=/tmp/perf-$pid.map
kill_at_exit_map() { rm -f "$map"; }
trap 'kill_at_exit_map; cleanup' EXIT
check 'the session keeps a copy of the map file' cmp "$map" "s/samples/current/jit/perf-$pid.map"
named() {	# NAME: -l names jit_hot and jit_cold, 3:1
	exits 0 "$1" --session-dir=s -l -n &&
	hot=$(awk '$NF == "jit_hot" { print $1 }' "$1.out") &&
	cold=$(awk '$NF == "jit_cold" { print $1 }' "$1.out") &&
	say "jit_hot $hot, jit_cold $cold" &&
	test -n "$hot" -a -n "$cold" &&
	near "$hot" "$cold" 75 5
}
check 'opreport -l: jit_hot and jit_cold, 3:1' named l1
rm -f "$map"
check '... also when /tmp/perf-PID.map is gone (the session copy)' named l2
# no copy, no file: the region is one row again
rm -r s/samples/current/jit
anon() {
	exits 0 l3 --session-dir=s -l -n &&
	! grep -q 'jit_hot' l3.out && grep -q "anon (tgid:$pid range:" l3.out
}
check '... and without either, the anonymous region as one row' anon
# a symlink planted as /tmp/perf-PID.map is not followed
printf '%x 10 planted\n' 0 >planted.map
ln -s "$T/planted.map" "$map" || exit 99
check 'a symlinked map file is not read' anon

done_testing
