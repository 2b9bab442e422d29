#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ocount counts what it is asked to, with known measures: task-clock of
# a command (and of the children and threads it starts) is its CPU time
# as the kernel's rusage gives it, within 10 %; per-thread counts of a
# running process add up to its CPU time; cpu-clock on a cpu for an
# interval is that interval.  Brief format and --output-file have their
# layout; bad input fails cleanly, and a forked command never outlives
# a failing ocount.
. "$top_srcdir/tests/lib.sh"
need_perf

W=$WORKLOADS

# within A B PCT: A is within PCT % of B (B > 0)
within() {
	awk -v a="$1" -v b="$2" -v pct="$3" 'BEGIN {
		if (b <= 0) { print "# nothing to compare with"; exit 1 }
		d = 100 * (a - b) / b
		if (d < -pct || d > pct) {
			printf "# %s is %.1f%% off %s (at most %s%%)\n", a, d, b, pct
			exit 1
		}
	}'
}

# brief_count FILE EVENT: the count of EVENT's line in a brief report
brief_count() {
	awk -F, -v e="$2" '$1 == e { print $2; n++ } END { if (n != 1) exit 1 }' "$1"
}

# The command whose CPU time is measured: a python that runs ARGS and
# prints the CPU time (rusage, in microseconds) of itself and its
# children in ns, all of which ocount counts from python's exec on.
cat >rusage.py <<'PY'
import os, resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
t = 0.0
for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
    r = resource.getrusage(who)
    t += r.ru_utime + r.ru_stime
print(int(t * 1e9))
PY

# --- (1) task-clock of a command is its CPU time -------------------------
measured() {	# NAME WORKLOAD
	ocount -b -e task-clock -f "$1.count" python3 rusage.py "$2" \
		>"$1.cpu" 2>"$1.err" || { cat "$1.err"; return 1; }
	got=$(brief_count "$1.count" task-clock) || { cat "$1.count"; return 1; }
	want=$(cat "$1.cpu")
	say "$1: task-clock $got ns, rusage $want ns"
	within "$got" "$want" 10
}
check 'task-clock of forker (two forked children) is its CPU time within 10 %' \
	measured forker "$W/forker"
check '... and it counts the children (more than 2.5 times the parent'"'"'s 0.06 s)' \
	test "$(brief_count forker.count task-clock)" -gt 150000000
check 'task-clock of threads (two threads) is its CPU time within 10 %' \
	measured threads "$W/threads"
both() {
	ocount -b -e task-clock,cpu-clock -f both.count "$W/forker" >/dev/null 2>both.err &&
	within "$(brief_count both.count cpu-clock)" "$(brief_count both.count task-clock)" 10
}
check 'cpu-clock and task-clock agree on forker within 10 %' both

# the default layout: OProfile's header lines and table
table() {
	ocount -e task-clock "$W/threads" >table.out 2>table.err || return 1
	grep -q '^Events were actively counted for [0-9.]* \(nanoseconds\|seconds\)\.$' table.out &&
	grep -qx "Event counts (actual) for $W/threads:" table.out &&
	grep -q '^	Event  *Count  *% time counted$' table.out &&
	grep -q '^	task-clock  *[0-9]\{3\},[0-9]\{3\},[0-9]\{3\}  *100\.00$' table.out ||
		{ cat table.out; return 1; }
}
check 'the table has the header lines and a grouped count at 100.00 %' table
check 'the command'"'"'s exit status is ocount'"'"'s' sh -c '
	ocount -e task-clock sh -c "exit 5" >st.out 2>&1; test $? = 5'
check '... and its output is still printed' grep -q task-clock st.out

# --- (5) brief format, output file ---------------------------------------
brief() {
	rm -f brief.count
	ocount -b -e task-clock,cpu-clock -f brief.count "$W/forker" >brief.out 2>brief.err ||
		return 1
	test ! -s brief.err -o "$(grep -vc notice brief.err)" = 0 || { cat brief.err; return 1; }
	test "$(grep -c . brief.out)" = 1 &&	# only forker's own line
	grep -qx 'forker: 2 children' brief.out &&
	grep -v '^$' brief.count >lines &&
	test "$(wc -l <lines)" = 2 &&
	grep -q '^task-clock,[0-9][0-9]*,100\.00$' lines &&
	grep -q '^cpu-clock,[0-9][0-9]*,100\.00$' lines &&
	test ! -e brief.count.tmp || { cat brief.count; return 1; }
}
check '--brief-format -f: one line per event in the file, nothing of ours on stdout' brief
check '--output-file is not written when ocount fails' sh -c '
	echo old >failed.count
	ocount -e no_such_event -f failed.count true 2>/dev/null
	test $? = 2 && test "$(cat failed.count)" = old && ! test -e failed.count.tmp'

nodir() {
	ocount -e task-clock -f nodir/x.count touch ran-nodir 2>nodir.err
	rc=$?
	test $rc = 1 && test ! -e ran-nodir &&
	grep -q "^ocount: error: cannot write 'nodir/x.count' in 'nodir'" nodir.err ||
		{ say "exit $rc"; cat nodir.err; return 1; }
}
check '--output-file in a missing directory: exit 1 before the command runs' nodir

# --- (2), (3) running processes and threads ------------------------------
"$W/spinner" 60 spinner.pid &
spid=$!
kill_at_exit $spid
wait_until 10 test -s spinner.pid
tid=$(ls /proc/$spid/task | grep -vx $spid | head -n 1)

# ticks of utime + stime of process PID
ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
hz=$(getconf CLK_TCK)

separate() {
	t0=$(ticks $spid)
	ocount -b -t -e task-clock -p $spid -i 2000:1 >sep.out 2>sep.err || { cat sep.err; return 1; }
	t1=$(ticks $spid)
	grep '^[0-9]*,task-clock,' sep.out >rows
	test "$(wc -l <rows)" = 2 || { cat sep.out; return 1; }
	grep -q "^$spid,task-clock,[1-9][0-9]*,100.00\$" rows &&
	grep -q "^$tid,task-clock,[1-9][0-9]*,100.00\$" rows || { cat rows; return 1; }
	grep -q '^timestamp,[0-9]*$' sep.out || { cat sep.out; return 1; }
	sum=$(awk -F, '{ s += $3 } END { printf "%.0f\n", s }' rows)
	cpu=$(((t1 - t0) * 1000000000 / hz))
	say "per-thread rows sum to $sum ns; the process used $cpu ns meanwhile"
	# the ticks also cover ocount's start and end (and count in 10 ms)
	awk -v s="$sum" -v c="$cpu" 'BEGIN { exit !(s <= c + 20000000 && s >= c * 0.8) }'
}
check '--process-list -t -i 2000:1: one row per thread, summing to its CPU time' separate
threads_only() {
	ocount -b -e task-clock -r $tid -i 500:1 >thr.out 2>thr.err || return 1
	n=$(grep -c '^task-clock,[1-9][0-9]*,100.00$' thr.out)
	test "$n" = 1 || { cat thr.out thr.err; return 1; }
	# one busy thread for 0.5 s: about 0.5 s of CPU at most, where both
	# threads would give about 1 s (slack for a loaded machine's delays)
	test "$(brief_count thr.out task-clock)" -le 750000000
}
check '--thread-list counts the one thread given' threads_only

ocount -e task-clock -p $spid >int.out 2>int.err &
opid=$!
kill_at_exit $opid
wait_until 10 grep -q 'to stop counting' int.err
sleep 0.3
kill -INT $opid
reap_within 10 $opid
check 'SIGINT stops ocount --process-list, exit 0' test "$status" = 0
check '... with the counts so far printed' \
	grep -q '^	task-clock  *[0-9,]*  *100\.00$' int.out
check '... and the process it counted still runs' kill -0 $spid

ocount -e task-clock -p $spid >end.out 2>end.err &
opid=$!
kill_at_exit $opid
wait_until 10 grep -q 'to stop counting' end.err
kill -KILL $spid
wait $spid 2>/dev/null
reap_within 10 $opid
check 'ocount --process-list ends by itself when the process has gone' test "$status" = 0
check '... with its counts printed' grep -q 'for the specified process(es):' end.out

# a process nobody reaps ends as a zombie: that is gone too (its parent,
# a shell that became sleep, never waits)
sh -c "'$W/spinner' 1 zombie.pid & exec sleep 30" &
zparent=$!
kill_at_exit $zparent
wait_until 10 test -s zombie.pid
ocount -e task-clock -p "$(cat zombie.pid)" >zombie.out 2>zombie.err &
opid=$!
kill_at_exit $opid
reap_within 10 $opid
check 'ocount --process-list ends when the process is a zombie' test "$status" = 0
kill -KILL $zparent
wait $zparent 2>/dev/null

# SIGINT with a command: the command gets it, ocount prints and exits
ocount -e task-clock "$W/spinner" 60 cmd.pid >cmd.out 2>cmd.err &
opid=$!
kill_at_exit $opid
wait_until 10 test -s cmd.pid
cpid=$(cat cmd.pid)
kill -INT $opid
reap_within 10 $opid
check 'SIGINT to ocount running a command: exit 0, counts printed' sh -c "
	test '$status' = 0 && grep -q '^	task-clock  *[0-9,]*  *100\.00$' cmd.out"
check '... and the command has ended' gone "$cpid"

# --- (4) whole cpus --------------------------------------------------------
if test "$(id -u)" = 0 || test "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0; then
	cpus() {
		ocount -b -c -s -e cpu-clock -i 500:1 >sys.out 2>sys.err || { cat sys.err; return 1; }
		online=$(getconf _NPROCESSORS_ONLN)
		test "$(grep -c '^[0-9]*,cpu-clock,' sys.out)" = "$online" || { cat sys.out; return 1; }
		awk -F, '/,cpu-clock,/ { print $3 }' sys.out | while read -r n; do
			within "$n" 500000000 10 || exit 1
		done
	}
	check '--system-wide -c: one row per cpu, cpu-clock is the 0.5 s interval' cpus
	cpu0() {
		ocount -b -C 0 -e cpu-clock -i 500:1 >c0.out 2>c0.err || { cat c0.err; return 1; }
		within "$(brief_count c0.out cpu-clock)" 500000000 10
	}
	check '--cpu-list=0: cpu-clock of cpu 0 is the 0.5 s interval' cpu0
	check '--cpu-list table says what it counted' sh -c '
		ocount -C 0 -e cpu-clock -i 100:1 >c0t.out 2>/dev/null &&
		grep -q "^Current time (seconds since epoch): [0-9]*\.[0-9]$" c0t.out &&
		grep -qx "Event counts (actual) for the specified CPU(s):" c0t.out'
else
	why='counting whole cpus needs root or perf_event_paranoid <= 0'
	skip '--system-wide -c: one row per cpu, cpu-clock is the 0.5 s interval' "$why"
	skip '--cpu-list=0: cpu-clock of cpu 0 is the 0.5 s interval' "$why"
	skip '--cpu-list table says what it counted' "$why"
fi

# --- (6) bad input: clean errors, nothing left running -----------------------
# a copy of sleep with a name of its own, reachable by another user
V=$(mktemp -d "${TMPDIR:-/tmp}/optest-ocount.XXXXXX") || exit 99
chmod 755 "$V"
victim=ocvictim$$
cp "$(command -v sleep)" "$V/$victim" || exit 99
# none_left: no process runs the victim, nor a held ocount child for it
none_left() {
	if pgrep -f "$victim" >left.txt; then
		say "left running: $(cat left.txt)"
		return 1
	fi
}
# exits STATUS MESSAGE-REGEX ARGS...: ocount ARGS exits STATUS with
# MESSAGE on stderr
ocount_exits() {
	e_want=$1 e_msg=$2
	shift 2
	ocount "$@" >bad.out 2>bad.err
	e_rc=$?
	test "$e_rc" = "$e_want" || { say "exit $e_rc, not $e_want"; cat bad.err; return 1; }
	grep -q "^ocount: error: $e_msg" bad.err || { cat bad.err; return 1; }
}
check 'an unknown event: exit 2' \
	ocount_exits 2 "unknown event .no_such_event." -e no_such_event touch ran
check '... (it did not run)' test ! -e ran
check 'a bad event spec (a count, as for operf): exit 2' \
	ocount_exits 2 "too many fields" -e task-clock:100000:0:1:1 true
check 'a bad --cpu-list: exit 2' ocount_exits 2 "--cpu-list: bad cpu" -C 0-x
check 'a cpu that is not online: exit 2' ocount_exits 2 "--cpu-list: cpu 4097 is not online" -C 4097
check 'a nonexistent command: exit 3' \
	ocount_exits 3 "cannot execute './no/such/cmd'" -e task-clock ./no/such/cmd
check 'a nonexistent pid: exit 1' ocount_exits 1 "no such process: 999999999" -p 999999999
check 'a nonexistent thread: exit 1' ocount_exits 1 "no such thread" -r 999999999
check 'run modes combined: exit 2' ocount_exits 2 "a command, --process-list" -s true
check '--separate-cpu without cpus: exit 2' ocount_exits 2 "--separate-cpu needs" -c true
check 'a bad --time-interval: exit 2' ocount_exits 2 "--time-interval" -i 0:x true

# the sanity of none_left: it sees the victim when it runs
"$V/$victim" 30 &
vpid=$!
kill_at_exit $vpid
sees_victim() { ! none_left >/dev/null; }
check 'none_left sees a running victim' sees_victim
kill -KILL $vpid
wait $vpid 2>/dev/null

user=${OP_TEST_USER:-opng-test}
if test "$(id -u)" = 0 && command -v setpriv >/dev/null 2>&1 && id "$user" >/dev/null 2>&1 &&
   test "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2; then
	as_user() {
		setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups "$@"
	}
	# kernel mode only is refused at paranoid >= 2: after the fork
	perm() {
		(cd "$V" && as_user "$top_builddir/daemon/ocount" -e task-clock:0:1:0 \
			"$V/$victim" 30) >perm.out 2>perm.err
		rc=$?
		test $rc = 1 && grep -q 'hint:.*perf_event_paranoid' perm.err ||
			{ say "exit $rc"; cat perm.err; return 1; }
	}
	check 'a permission error after the fork: exit 1 with a hint' perm
	check '... and the forked command is not left behind' none_left
	cpu_perm() {
		(cd "$V" && as_user "$top_builddir/daemon/ocount" -C 0 -e cpu-clock \
			-i 100:1) >cpu.out 2>cpu.err
		rc=$?
		test $rc = 1 && grep -q 'hint: counting whole cpus needs root' cpu.err ||
			{ say "exit $rc"; cat cpu.err; return 1; }
	}
	check 'counting a cpu as another user: exit 1 with a hint' cpu_perm
	not_ours() {
		(cd "$V" && as_user "$top_builddir/daemon/ocount" -e task-clock -p $$ \
			-i 100:1) >pid.out 2>pid.err
		rc=$?
		test $rc = 1 && grep -q "ocount: error: cannot count task $$: it is another user's" pid.err ||
			{ say "exit $rc"; cat pid.err; return 1; }
	}
	check 'counting another user'"'"'s process: exit 1, the ptrace rule named' not_ours
else
	why="needs root, setpriv, user $user and perf_event_paranoid >= 2"
	skip 'a permission error after the fork: exit 1 with a hint' "$why"
	skip '... and the forked command is not left behind' "$why"
	skip 'counting a cpu as another user: exit 1 with a hint' "$why"
	skip 'counting another user'"'"'s process: exit 1, the ptrace rule named' "$why"
fi
check 'after every failure above, no victim is left running' none_left
# the last interval ends a command still running: it is killed, not left
# (a sleeping task's counter is not enabled: its intervals count 0, not
# "not counted")
intervals() {
	ocount -b -e task-clock -i 100:3 "$V/$victim" 30 >iv.out 2>iv.err || return 1
	test "$(grep -c '^timestamp,[0-9]*\.[0-9]$' iv.out)" = 3 &&
	test "$(grep -c '^task-clock,[0-9]*,100\.00$' iv.out)" = 3 &&
	grep -q '^task-clock,0,100\.00$' iv.out || { cat iv.out; return 1; }
}
check '-i 100:3: three dumps, then the command still running is killed' intervals
check '... and nothing is left behind' none_left
rm -rf "$V"

done_testing
