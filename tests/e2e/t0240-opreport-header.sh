#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The lines above a report: the CPU (and its speed when recorded), the
# event counted with its unit mask and count, one line per column, the
# timer interrupt of OProfile's timer mode, and what operf recorded in
# session.info (the event's description, the cpu-clock fallback, kernel
# samples left out).  Warnings on stderr, exit 0: samples lost (with the
# share lost when the total is known) and throttled events, from the
# stats/ of the session reported.
. "$top_srcdir/tests/lib.sh"
use_fixtures

# a session as operf writes it on a machine without a PMU: timer cpu
# type, the cpu-clock software event, its period in ns
cat >fixtures/clk.json <<'EOF'
{"cpu_type": "timer", "cpu_speed": 2445.43,
 "events": [{"name": "cpu-clock", "count": 250000, "code": 0}],
 "profiles": [{"binary": "build/fixture_nopie",
               "symbol_samples": {"compute_alpha": 30, "main": 10}}]}
EOF
cat >fixtures/ev2.json <<'EOF'
{"cpu_type": "i386/skylake",
 "events": [{"name": "cpu_clk_unhalted", "count": 100000},
            {"name": "inst_retired", "count": 50000, "code": 192}],
 "profiles": [
  {"binary": "build/fixture_nopie", "event": 0,
   "symbol_samples": {"compute_alpha": 300, "compute_beta": 100}},
  {"binary": "build/fixture_nopie", "event": 1,
   "symbol_samples": {"compute_alpha": 100, "compute_beta": 100, "main": 50}}]}
EOF
cat >fixtures/um.json <<'EOF'
{"cpu_type": "i386/skylake",
 "events": [{"name": "l2_rqsts", "count": 200000, "unitmask": 33, "code": 36},
            {"name": "l2_rqsts", "count": 200000, "unitmask": 66, "code": 36}],
 "profiles": [
  {"binary": "build/fixture_nopie", "event": 0, "symbol_samples": {"compute_alpha": 30}},
  {"binary": "build/fixture_nopie", "event": 1, "symbol_samples": {"compute_beta": 20}}]}
EOF
for s in basic threads timer clk ev2 um; do
	check "mksamples.py writes the $s session" mksession $s
done

# head_is NAME LINES OPTIONS...: exit 0, nothing on stderr, and the first
# LINES lines of the report are the text on stdin
head_is() {
	h_n=$1 h_lines=$2
	shift 2
	cat >"$h_n.want" &&
	exits 0 "$h_n" "$@" &&
	head -n "$h_lines" "$h_n.out" >"$h_n.head" && compare "$h_n.want" "$h_n.head" &&
	{ test ! -s "$h_n.err" || { sed 's/^/# stderr: /' "$h_n.err"; false; }; }
}

# the cpu named as OProfile 1.4 names it; a software clock is said to be
# one, not OProfile's timer mode; events and unit masks described as
# OProfile describes them, the text from libpfm4 (Debian 12's)
check 'the cpu, its speed, the event with unit mask and count' \
	head_is basic 3 --session-dir=out/basic -l <<'EOF'
CPU: Intel Skylake microarchitecture, speed 2400 MHz (estimated)
Counted cpu_clk_unhalted events (Count core clock cycles whenever the clock signal on the specific core is running (not halted)) with a unit mask of 0x00 (No unit mask) count 100000
samples  %        symbol name
EOF
check 'no speed when none was recorded; one line per cpu column' \
	head_is threads 5 --session-dir=out/threads --merge=tgid -l <<'EOF'
CPU: Intel Skylake microarchitecture
Counted cpu_clk_unhalted events (Count core clock cycles whenever the clock signal on the specific core is running (not halted)) with a unit mask of 0x00 (No unit mask) count 100000
Samples on CPU 0
Samples on CPU 1
samples  %        samples  %        image name               symbol name
EOF
check "OProfile's timer mode: the timer interrupt" \
	head_is timer 3 --session-dir=out/timer -l <<'EOF'
CPU: CPU with timer interrupt
Profiling through timer interrupt
samples  %        symbol name
EOF
check 'a software clock without session.info: described, period in ns' \
	head_is clk 3 --session-dir=out/clk -l <<'EOF'
CPU: no hardware counter (a software clock), speed 2445.43 MHz (estimated)
Counted cpu-clock events (CPU time clock, a software event; count in nanoseconds) count 250000
samples  %        symbol name
EOF
check 'two events: one line each, event columns' \
	head_is ev2 6 --session-dir=out/ev2 <<'EOF'
CPU: Intel Skylake microarchitecture
Counted cpu_clk_unhalted events (Count core clock cycles whenever the clock signal on the specific core is running (not halted)) with a unit mask of 0x00 (No unit mask) count 100000
Counted inst_retired events (Number of instructions retired (Precise Event)) with a unit mask of 0x00 (Number of instructions retired. General Counter - architectural event) count 50000
cpu_clk_unhalt...|inst_retired:5...|
  samples|      %|  samples|      %|
------------------------------------
EOF
check 'two unit masks: the event line names both, a line per column' \
	head_is um 5 --session-dir=out/um -l <<'EOF'
CPU: Intel Skylake microarchitecture
Counted l2_rqsts events (L2 requests) with unit masks 0x21, 0x42 count 200000
Samples matching a unit mask of 33
Samples matching a unit mask of 66
samples  %        samples  %        symbol name
EOF
check '--merge=unitmask: one column, the masks named as merged' \
	head_is um-merged 3 --session-dir=out/um -l --merge=unitmask <<'EOF'
CPU: Intel Skylake microarchitecture
Counted l2_rqsts events (L2 requests) with unit masks 0x21, 0x42 (merged) count 200000
samples  %        symbol name
EOF
check 'unit mask 33 alone: its own mask' \
	head_is um-one 3 --session-dir=out/um -l unit-mask:33 <<'EOF'
CPU: Intel Skylake microarchitecture
Counted l2_rqsts events (L2 requests) with a unit mask of 0x21 (Demand Data Read requests that miss L2 cache) count 200000
samples  %        symbol name
EOF
check '-n: no header lines at all' \
	head_is nohdr 1 --session-dir=out/ev2 -n <<'EOF'
      400 100.000       250 100.000 fixture_nopie
EOF

# what operf writes to session.info (daemon/operf.c): the event with its
# description, and why it fell back to cpu-clock
info=out/clk/samples/current/session.info
cat >$info <<'EOF'
tool operf 0.1.0
started 2026-01-02 03:04:05
target command /bin/true
event cpu-clock software 250000 4 0 0 cpu-clock: CPU time clock (software event), sample every 250000 ns
fallback no hardware PMU, so the cpu's default event cannot count
separate-thread 0
separate-cpu 0
callgraph 0
EOF
check 'the cpu-clock fallback operf recorded is said' \
	head_is fallback 4 --session-dir=out/clk -l <<'EOF'
CPU: no hardware counter (a software clock), speed 2445.43 MHz (estimated)
Counted cpu-clock events (CPU time clock (software event), sample every 250000 ns) count 250000
Note: operf sampled with a software clock because no hardware PMU, so the cpu's default event cannot count
samples  %        symbol name
EOF
check '... in the summary too' \
	head_is fallback-sum 3 --session-dir=out/clk <<'EOF'
CPU: no hardware counter (a software clock), speed 2445.43 MHz (estimated)
Counted cpu-clock events (CPU time clock (software event), sample every 250000 ns) count 250000
Note: operf sampled with a software clock because no hardware PMU, so the cpu's default event cannot count
EOF
sed -i '/^fallback/d' $info && echo kernel-excluded >>$info
check 'no fallback recorded: no note; kernel samples left out: a note' \
	head_is nofallback 4 --session-dir=out/clk -l <<'EOF'
CPU: no hardware counter (a software clock), speed 2445.43 MHz (estimated)
Counted cpu-clock events (CPU time clock (software event), sample every 250000 ns) count 250000
Note: kernel samples were not recorded (/proc/sys/kernel/perf_event_paranoid)
samples  %        symbol name
EOF
xml_fallback() {
	exits 0 clkxml --session-dir=out/clk -X &&
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' clkxml.out
}
check 'the XML of that session is well-formed' xml_fallback

# --- lost and throttled samples (oprofile-ng-session(5), LOST SAMPLES) -----------
stats=out/basic/samples/current/stats
mkdir -p $stats/throttled
# warns NAME OPTIONS...: exit 0, the usual report, stderr as on stdin
warns() {
	w_n=$1; shift
	cat >"$w_n.want" &&
	exits 0 "$w_n" "$@" &&
	norm "$w_n.err" >"$w_n.got" && compare "$w_n.want" "$w_n.got" &&
	grep -q '^1000 *54.5256  compute_alpha$' "$w_n.out"
}
# total_samples counts the samples written (1834 here), so 150 lost ones
# are a share of 1984 taken
printf 100 >$stats/lost_no_mapping && printf 50 >$stats/lost_kernel &&
	printf 1834 >$stats/total_samples
check 'lost samples: a warning with the share lost' \
	warns lost --session-dir=out/basic -l <<'EOF'
opreport: warning: 150 of 1984 samples (7.56%) were lost: 100 at an address in no mapping, 50 at a kernel address in no kernel image; see T/tools/out/basic/samples/operf.log
EOF
check '... also with -X' sh -c '"$0" --session-dir=out/basic -X >x.out 2>x.err &&
	grep -q "^opreport: warning: 150 of 1984 samples (7.56%) were lost" x.err' "$OPREPORT"
# call-graph arcs whose caller had no mapping are not lost samples
printf 80999 >$stats/lost_bt_no_mapping
check 'lost arcs: a note of their own, not counted as lost samples' \
	warns arcs --session-dir=out/basic -l <<'EOF'
opreport: warning: 150 of 1984 samples (7.56%) were lost: 100 at an address in no mapping, 50 at a kernel address in no kernel image; see T/tools/out/basic/samples/operf.log
opreport: warning: 80999 call-graph arcs were not recorded: their caller was in no known mapping (their samples were recorded)
EOF
printf 0 >$stats/lost_no_mapping && printf 0 >$stats/lost_kernel
check '... and alone, no lost samples' \
	warns arcs2 --session-dir=out/basic -l <<'EOF'
opreport: warning: 80999 call-graph arcs were not recorded: their caller was in no known mapping (their samples were recorded)
EOF
rm $stats/lost_bt_no_mapping
printf 100 >$stats/lost_no_mapping && printf 50 >$stats/lost_kernel
rm $stats/total_samples
check 'lost samples, total unknown: a warning without a share' \
	warns lost2 --session-dir=out/basic -l <<'EOF'
opreport: warning: 150 samples were lost: 100 at an address in no mapping, 50 at a kernel address in no kernel image; see T/tools/out/basic/samples/operf.log
EOF
printf 0 >$stats/lost_no_mapping && printf 0 >$stats/lost_kernel
check 'counters at zero: no warning' warns nolost --session-dir=out/basic -l </dev/null
: >$stats/throttled/cpu_clk_unhalted && : >$stats/throttled/inst_retired
check 'throttled events: a warning for each' \
	warns throttled --session-dir=out/basic -l <<'EOF'
opreport: warning: the kernel throttled event 'cpu_clk_unhalted': fewer samples than its rate asks for
opreport: warning: the kernel throttled event 'inst_retired': fewer samples than its rate asks for
EOF
# the stats of the session reported, not of another one
mkdir -p out/basic/samples/previous && cp -R out/basic/samples/current/. out/basic/samples/previous &&
	rm -rf $stats || exit 99
check 'the stats of session:previous when that is reported' \
	warns prev --session-dir=out/basic -l session:previous <<'EOF'
opreport: warning: the kernel throttled event 'cpu_clk_unhalted': fewer samples than its rate asks for
opreport: warning: the kernel throttled event 'inst_retired': fewer samples than its rate asks for
EOF
check '... and none for current, which has no stats' warns cur --session-dir=out/basic -l </dev/null
done_testing
