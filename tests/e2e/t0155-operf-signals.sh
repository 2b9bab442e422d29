#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stopping operf by signal: SIGINT during --system-wide (root or
# perf_event_paranoid <= 0 only) and SIGTERM during --pid stop it cleanly
# with the files written; SIGINT while it runs a command goes to the
# command, and operf finishes once the command has died.
. "$top_srcdir/tests/lib.sh"
need_perf

spinner=$WORKLOADS/spinner

# sampled SESSION MIN SYMBOL...: each SYMBOL has MIN samples so far
sampled() {
	s_dir=$1 s_min=$2
	shift 2
	attribute "$s_dir" "$s_dir.live" --live --ignore-mtime --app "$spinner" \
		2>/dev/null || return 1
	for sym; do
		test "$(attr_sum "$s_dir.live" symbol 3="$spinner" 4="$sym")" -ge "$s_min" || return 1
	done
}

"$spinner" 60 spinner.pid &
spid=$!
kill_at_exit $spid
wait_until 10 test -f spinner.pid

# --- --system-wide, SIGINT ------------------------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if test "$(id -u)" = 0 || test "$paranoid" -le 0; then
	operf --system-wide -d sys >sys.out 2>sys.err &
	opid=$!
	kill_at_exit $opid
	check 'operf --system-wide samples the running spinner' \
		wait_until 20 sampled sys 100 spin_main spin_thread
	kill -INT $opid
	reap_within 15 $opid
	check 'SIGINT stops operf --system-wide, exit 0' test "$status" = 0
	# other programs may be rebuilt while the whole system is profiled
	check 'attribute.py reads every sample file' \
		attribute sys sys.attr --ignore-mtime --app "$spinner"
	check 'the spinner is in the profile under its app' \
		at_least "$(attr_sum sys.attr symbol 2="$spinner" 3="$spinner" 4=spin_thread)" 100
	check 'session.info says system-wide' \
		grep -qx 'target system-wide' sys/samples/current/session.info
else
	why="--system-wide needs root or perf_event_paranoid <= 0 (it is $paranoid)"
	skip 'operf --system-wide samples the running spinner' "$why"
	skip 'SIGINT stops operf --system-wide, exit 0' "$why"
	skip 'attribute.py reads every sample file' "$why"
	skip 'the spinner is in the profile under its app' "$why"
	skip 'session.info says system-wide' "$why"
fi

# --- --pid, SIGTERM -------------------------------------------------------
operf --pid $spid -d term >term.out 2>term.err &
opid=$!
kill_at_exit $opid
check 'operf --pid samples the spinner' wait_until 20 sampled term 50 spin_main
kill -TERM $opid
reap_within 10 $opid
check 'SIGTERM stops operf --pid, exit 0' test "$status" = 0
check 'the files are complete (attribute.py)' attribute term term.attr
check 'the target still runs' kill -0 $spid
kill -KILL $spid
wait $spid 2>/dev/null

# --- a command, SIGINT ----------------------------------------------------
operf -d cmd "$spinner" 60 cmd.pid >cmd.out 2>cmd.err &
opid=$!
kill_at_exit $opid
check 'operf runs the spinner' wait_until 20 sampled cmd 50 spin_main spin_thread
kill -INT $opid
reap_within 10 $opid
check 'operf ends after SIGINT, exit 0' test "$status" = 0
cpid=$(cat cmd.pid)
check 'the command got the SIGINT and is gone' sh -c "! kill -0 $cpid 2>/dev/null"
check 'operf says how the command ended' \
	grep -qx "operf: '$spinner' was killed by signal 2" cmd.err
check 'the files are complete (attribute.py)' attribute cmd cmd.attr
check 'both threads of the command are in them' \
	test "$(attr_sum cmd.attr symbol 4=spin_main)" -ge 50 -a \
	     "$(attr_sum cmd.attr symbol 4=spin_thread)" -ge 50
done_testing
