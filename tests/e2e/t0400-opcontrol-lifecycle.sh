#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The system-wide daemon driven by opcontrol, as its users would: set up,
# --start, work, --dump while it runs and report, more work and a bigger
# dump, --status, --stop, --save, --reset, --shutdown; then the errors:
# no daemon, a symlinked session directory, a setup change while it runs,
# bad options.
. "$top_srcdir/tests/lib.sh"
need_system_wide

S=$T/sess
opc() { opcontrol --session-dir="$S" "$@"; }
# out NAME ARGS...: opcontrol ARGS, its stdout in NAME.out, stderr in NAME.err
out() { o_name=$1; shift; opc "$@" >"$o_name.out" 2>"$o_name.err"; }
spin=$WORKLOADS/spinner

# samples of the spinner in the current profile (opreport's image summary)
spinner_samples() {
	if ! opreport --session-dir="$S" "$@" >rep.out 2>rep.err; then
		# an empty profile: none
		grep -q 'no sample files match' rep.err && echo 0
		return
	fi
	# the image summary names it by its base name, or its path where
	# another binary has the same base name
	awk -v path="$spin" -v base="$(basename "$spin")" \
		'$3 == path || $3 == base { n += $1 } END { print n + 0 }' rep.out
}

check_fail '--dump without a daemon fails' out nod --dump
check '... saying there is none' grep -q "^opcontrol: error: no session directory '$S'" nod.err
check 'setup options are saved' opc -e cpu-clock:100000 -p none --callgraph=0
check '... in SESSION/daemonrc, private' test "$(stat -c %a "$S/daemonrc")" = 600
check '... with the event' grep -qx 'events=cpu-clock:100000' "$S/daemonrc"
check 'the session directory is made 0700' test "$(stat -c %a "$S")" = 700
check_fail 'an unknown event is refused' opc -e NO_SUCH_EVENT:1000
check_fail 'a bad --separate is refused' opc -p sideways
out sep -p sideways
check 'a bad --separate says which word' grep -q "unknown --separate value 'sideways'" sep.err
check_fail '--dump before the daemon runs fails' out nod2 --dump
check '... saying how to start it' grep -q '^hint: start it with' nod2.err

# a descriptor of ours the daemon must not keep
exec 7>inherited.txt
check 'opcontrol --start starts the daemon' out start --start
exec 7>&-
check '... and says so' grep -qx 'Daemon started.' start.out
check '... and profiling' grep -qx 'Profiler running.' start.out
pid=$(cat "$S/samples/operf.lock")
kill_at_exit "$pid"
check 'the daemon holds the session lock with its pid' kill -0 "$pid"
check 'the daemon is detached: a session of its own, no terminal' \
	test "$(proc_stat "$pid" 4)" != "$(proc_stat $$ 4)" -a "$(proc_stat "$pid" 5)" = 0
check 'the control socket is its owner'"'"'s only' test "$(stat -c %a "$S/oprofiled.sock")" = 600
check 'it runs in its session directory' test "$(readlink "/proc/$pid/cwd")" = "$S"
check '... holding nothing it inherited' sh -c "! ls -l /proc/$pid/fd | grep -q inherited.txt"
check '... with stdin /dev/null' test "$(readlink "/proc/$pid/fd/0")" = /dev/null
check '... and umask 077' grep -q '^Umask:.*0077' "/proc/$pid/status"
check 'a second --start is fine' opc --start
mv "$S/samples/oprofiled.log" "$S/samples/rotated.log"
kill -HUP "$pid"
check 'SIGHUP: the daemon reopens its log (rotated away by someone)' \
	wait_until 10 grep -q 'log reopened (SIGHUP)' "$S/samples/oprofiled.log"

"$spin" 1 >/dev/null
check '--dump returns once written' opc --dump
first=$(spinner_samples)
say "spinner samples after the first dump: $first"
check 'opreport shows the spinner while the daemon runs' test "${first:-0}" -gt 50
"$spin" 1 >/dev/null
check 'a second --dump' opc --dump
second=$(spinner_samples)
say "after the second: $second"
check '... shows more samples' test "${second:-0}" -gt "$first"
# other programs of a busy machine may have gone, their binaries with
# them (a warning each): what matters is that no sample file was skipped
sed 's/^/# opreport: /' rep.err
check 'opreport read every sample file of the live session' \
	sh -c '! grep -q "cannot read sample file" rep.err'

check '--status while running' out status --status
check '... names the pid' grep -q "^Daemon running: pid $pid, up " status.out
check '... profiling' grep -qx 'Profiling: running' status.out
check '... the event' grep -q '^Events: cpu-clock:100000' status.out
check '... the samples so far' grep -Eq '^Samples received: [1-9][0-9]*$' status.out
check '... lost' grep -Eq '^Samples lost: [0-9]+' status.out
check '... files' grep -Eq '^Sample files: [1-9][0-9]* made, [0-9]+ open$' status.out
check '... disk used' grep -Eq "^Disk used: [0-9]+ KiB in $S/samples/current\$" status.out

check_fail 'a setup change while it runs is refused' out chg -p thread
check '... with the hint to shut it down first' grep -q '^hint: opcontrol --shutdown' chg.err

check '--stop' opc --stop
opc --status >status2.out
check '... profiling stopped, daemon still running' grep -qx 'Profiling: stopped' status2.out
before=$(spinner_samples)
"$spin" 1 >/dev/null
opc --dump
check 'nothing of a spinner run while stopped' test "$(spinner_samples)" = "$before"

check '--save=first' opc --save=first
check '... makes session first' test -d "$S/samples/first/{root}"
check '... which opreport reads as session:first' \
	test "$(spinner_samples session:first)" -ge "$second"
check '... and current starts again empty' test "$(spinner_samples)" = 0
check_fail '--save to an existing name fails' opc --save=first
check_fail '--save=../x is refused' opc --save=../x
check '--start again' opc --start
"$spin" 1 >/dev/null
opc --dump
check 'the new samples go to the new current' test "$(spinner_samples)" -gt 50
check '--reset' opc --reset
check '... empties current' test "$(spinner_samples)" = 0
check '... keeps the saved session' test "$(spinner_samples session:first)" -ge "$second"
check '... and rotated the log' test -f "$S/samples/oprofiled.log.1"

check '--shutdown' out shut --shutdown
check '... says so' grep -qx 'Daemon stopped.' shut.out
check '... and the daemon is gone' gone "$pid"
check '... with its socket' test ! -e "$S/oprofiled.sock"
check '... and its lock' test ! -e "$S/samples/operf.lock"
check '--status without a daemon' out status3 --status
check '... says it is not running' grep -qx 'Daemon not running' status3.out
check '... and the saved setup' grep -qx 'Events: cpu-clock:100000' status3.out
check '--shutdown without a daemon is fine' opc --shutdown

ln -s "$S" link
check_fail 'a symlinked session directory is refused' \
	sh -c "opcontrol --session-dir='$T/link' --start >ln.out 2>ln.err"
check '... before anything starts' test ! -e "$S/samples/operf.lock"
check '... saying why' grep -q "is a symbolic link" ln.err
check_fail 'oprofiled refuses it too' oprofiled --session-dir="$T/link" --no-daemon
check_fail 'a relative --session-dir is a usage error' opcontrol --session-dir=rel --status
check 'exit status 2 for usage errors' sh -c 'opcontrol --frobnicate 2>/dev/null; test $? = 2'
check 'nothing to do is a usage error' sh -c 'opcontrol 2>/dev/null; test $? = 2'
done_testing
