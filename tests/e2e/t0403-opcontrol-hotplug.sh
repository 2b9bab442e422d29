#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A cpu goes offline and comes back while the daemon runs: the daemon
# says so in its log, keeps profiling on the other cpus meanwhile, and
# profiles the cpu again once it is back (the kernel drops a cpu's perf
# events when it goes offline).  Runs after every other test of this
# directory (tests/Makefile.am), as taking a cpu away would slow theirs.
. "$top_srcdir/tests/lib.sh"
need_perf
test "$(id -u)" = 0 || skip_all "needs root to take a cpu offline"
cpu=$(sed -n 's/^[0-9]*-\([0-9]*\)$/\1/p' /sys/devices/system/cpu/online)
test -n "$cpu" && test "$cpu" -gt 0 ||
	skip_all "needs two cpus or more online, as a range ($(cat /sys/devices/system/cpu/online))"
ctl=/sys/devices/system/cpu/cpu$cpu/online
test -w "$ctl" || skip_all "cpu $cpu cannot be taken offline here (no $ctl)"
command -v taskset >/dev/null 2>&1 || skip_all "taskset is not installed"

S=$T/sess
opc() { opcontrol --session-dir="$S" "$@"; }
spin=$WORKLOADS/spinner
log=$S/samples/oprofiled.log
# samples of the spinner in its own binary on cpu N (its sample file)
on_cpu() {
	attribute "$S" attr --live --app "$spin" &&
	attr_sum attr file 2="{root}$spin/{dep}/{root}$spin/cpu-clock.250000.0.all.all.$1"
}

check 'a daemon separating cpus' opc -e cpu-clock:250000 -p cpu --start
kill_at_exit "$(cat "$S/samples/operf.lock")"
trap 'echo 1 >"$ctl" 2>/dev/null; opcontrol --session-dir="$S" --shutdown >/dev/null 2>&1; cleanup' EXIT
echo 0 >"$ctl" || skip_all "cannot take cpu $cpu offline: $ctl refused"
check 'the daemon sees the cpu go offline' wait_until 10 grep -q "cpu $cpu went offline" "$log"
"$spin" 1 >/dev/null
check 'profiling goes on meanwhile' opc --dump
check '... on cpu 0' at_least "$(on_cpu 0)" 50
echo 1 >"$ctl"
check 'the daemon sees it come back' wait_until 10 grep -q "cpu $cpu came online: profiling it" "$log"
before=$(on_cpu "$cpu")
taskset -c "$cpu" "$spin" 1 >/dev/null
check '--dump' opc --dump
after=$(on_cpu "$cpu")
say "spinner samples on cpu $cpu: $before before it came back, $after after"
check 'samples on the cpu that came back' at_least "$after" $((before + 50))
check 'the daemon shuts down' opc --shutdown
done_testing
