#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon survives what a machine does to it: kill -9 (its files stay
# readable; the next --start takes the stale lock and socket over and
# continues current/, stats added to what was there), a caller who is
# neither root nor its user (refused by its credentials, with a hint),
# and its disk filling up (logged with the errno, counted as lost in
# --status, profiling goes on, nothing written is damaged).
. "$top_srcdir/tests/lib.sh"
need_perf
test "$(id -u)" = 0 || skip_all "needs root (the daemon's, a second user, a tmpfs)"

S=$T/sess
opc() { opcontrol --session-dir="$S" "$@"; }
out() { o_name=$1; shift; opc "$@" >"$o_name.out" 2>"$o_name.err"; }
spin=$WORKLOADS/spinner
spinner_samples() {	# SESSION [OPTIONS]: samples in the spinner (0 for none)
	s_dir=$1; shift
	if ! opreport --session-dir="$s_dir" "$@" >rep.out 2>rep.err; then
		grep -q 'no sample files match' rep.err && echo 0
		return
	fi
	# the image summary names it by its base name, or its path where
	# another binary has the same base name
	awk -v path="$spin" -v base="$(basename "$spin")" \
		'$3 == path || $3 == base { n += $1 } END { print n + 0 }' rep.out
}

check 'the daemon starts' opc -e cpu-clock:100000 --start
pid=$(cat "$S/samples/operf.lock")
kill_at_exit "$pid"
"$spin" 1 >/dev/null
check '--dump' opc --dump
before=$(spinner_samples "$S")
say "spinner samples before kill -9: $before"
kill -KILL "$pid"
check 'kill -9: the daemon is gone' wait_until 10 gone "$pid"
check '... leaving its lock and socket' test -e "$S/samples/operf.lock" -a -S "$S/oprofiled.sock"
check '... and every file readable: opreport as before' test "$(spinner_samples "$S")" = "$before"
check 'attribute.py reads every sample file' attribute "$S" attr
check_fail '--dump then says no daemon runs' out dead --dump
check '... with the hint to start it' grep -q '^hint: start it with' dead.err
check '--start again' out again --start
pid2=$(cat "$S/samples/operf.lock")
kill_at_exit "$pid2"
check '... a new daemon' test "$pid2" != "$pid"
check '... which took the stale lock over' \
	grep -q "taking over the lock of '$S/samples' left by process $pid" "$S/samples/oprofiled.log"
"$spin" 1 >/dev/null
check '--dump' opc --dump
after=$(spinner_samples "$S")
say "after the restart: $after"
check 'current/ was continued, not replaced' at_least "$after" $((before + 50))

# a caller who is neither root nor the daemon's user
user=${OP_TEST_USER:-opng-test}
if command -v setpriv >/dev/null 2>&1 && id "$user" >/dev/null 2>&1; then
	as_user() { setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups "$@"; }
	as_user opcontrol --session-dir="$S" --dump >user1.out 2>user1.err
	check 'another user cannot reach the session directory' test $? = 1
	check '... and is told to be root' grep -q '^hint: run opcontrol as root' user1.err
	# even with a way in, the daemon checks who calls
	chmod 711 "$T"
	chmod 755 "$S"
	chmod 666 "$S/oprofiled.sock"
	as_user opcontrol --session-dir="$S" --dump >user2.out 2>user2.err
	check 'with the socket open to all, the daemon refuses the caller' test $? = 1
	check '... by its credentials' grep -q "error: only root or uid 0 may control this daemon" user2.err
	check '... with a hint' grep -q '^hint: run opcontrol as root' user2.err
	check '... and logs it' grep -q "refused 'dump' from uid $(id -u "$user")" "$S/samples/oprofiled.log"
	chmod 600 "$S/oprofiled.sock"
	chmod 700 "$S" "$T"
	check 'the daemon shuts down' opc --shutdown
	# what another user could plant: the setup, a shared directory
	chown "$user" "$S/daemonrc"
	check_fail 'a daemonrc of another user is not read' out planted --start
	check '... saying whose it is' grep -q "daemonrc' belongs to another user (uid $(id -u "$user")): not read" planted.err
	chown 0 "$S/daemonrc"
	mkdir -m 1777 "$T/shared"
	# bounded: a daemon that took the directory would run in the foreground
	refused_shared() {
		timeout 30 oprofiled --session-dir="$T/shared" --no-daemon
		rc=$?
		test $rc -ne 124 || { say "oprofiled took the directory and ran"; return 1; }
		test $rc -ne 0 && test $rc -lt 128
	}
	check 'a directory others may write to is refused, sticky bit or not' refused_shared
	check 'parents made for a new session directory are 0755, it 0700' sh -c \
		"opcontrol --session-dir='$T/p1/p2/s' --init && test \$(stat -c %a '$T/p1') = 755 &&
		 test \$(stat -c %a '$T/p1/p2/s') = 700"
	check 'the daemon starts again' opc --start
else
	skip 'another user is refused' "no setpriv or no user '$user' (./setup.sh check creates it)"
fi
check 'the daemon shuts down' opc --shutdown

# the disk fills up under the daemon
mkdir small || exit 99
if mount -t tmpfs -o size=16m tmpfs small 2>mount.err; then
	trap 'opcontrol --session-dir="$T/small/s" --shutdown >/dev/null 2>&1; umount "$T/small" 2>/dev/null; cleanup' EXIT
	D=$T/small/s
	check 'a daemon separating threads on a small disk' \
		opcontrol --session-dir="$D" -p thread --start
	kill_at_exit "$(cat "$D/samples/operf.lock")"
	"$WORKLOADS/forkstorm" 300 >/dev/null
	opcontrol --session-dir="$D" --dump
	dd if=/dev/zero of=small/filler bs=64k >/dev/null 2>&1
	check 'the disk is full' sh -c '! dd if=/dev/zero of=small/filler2 bs=4k count=1 2>/dev/null'
	"$WORKLOADS/forkstorm" 1000 >/dev/null
	check 'the daemon still answers --dump' opcontrol --session-dir="$D" --dump
	opcontrol --session-dir="$D" --status >full.out 2>full.err
	check '... and --status' test $? = 0
	check '... which counts the lost samples' \
		grep -Eq '^Samples lost: [1-9][0-9]*: .*whose sample file could not be written' full.out
	check 'the log names the file and the errno' \
		grep -q "cannot write sample file '$D/samples/current/.*': No space left on device" "$D/samples/oprofiled.log"
	check 'every sample file written is whole' attribute "$D" fullattr --live
	rm -f small/filler small/filler2
	opcontrol --session-dir="$D" --dump
	"$spin" 1 >/dev/null
	check 'room again: profiling goes on' opcontrol --session-dir="$D" --dump
	check '... the spinner gets its files' test "$(spinner_samples "$D" --merge=tgid,tid)" -gt 50
	check 'the daemon shuts down' opcontrol --session-dir="$D" --shutdown
else
	skip 'the disk fills up' "cannot mount a tmpfs here: $(cat mount.err)"
fi
done_testing
