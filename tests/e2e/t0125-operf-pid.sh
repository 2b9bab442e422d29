#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf --pid attaches to a running two-thread spinner: both threads are
# sampled, SIGINT stops operf cleanly with the files written and leaves
# the target running; when the target ends, operf ends by itself.
. "$top_srcdir/tests/lib.sh"
need_perf

spinner=$WORKLOADS/spinner

"$spinner" 60 spinner.pid &
spid=$!
kill_at_exit $spid
wait_until 10 test -f spinner.pid

# sampled SESSION MIN SYMBOL...: each SYMBOL has MIN samples so far
sampled() {
	s_dir=$1 s_min=$2
	shift 2
	attribute "$s_dir" "$s_dir.live" --live 2>/dev/null || return 1
	for sym; do
		test "$(attr_sum "$s_dir.live" symbol 4="$sym")" -ge "$s_min" || return 1
	done
}

operf --pid $spid -t -d sess >run.out 2>run.err &
opid=$!
kill_at_exit $opid
check 'both threads are sampled while operf runs' \
	wait_until 20 sampled sess 100 spin_main spin_thread
kill -INT $opid
reap_within 10 $opid
check 'operf stops on SIGINT and exits 0' test "$status" = 0
check 'the target still runs after operf has gone' kill -0 $spid
check 'no error or warning from operf' sh -c '! grep -E "error|warning" run.err'
check 'attribute.py reads every sample file' attribute sess attr
check 'spin_main is under the app spinner' \
	at_least "$(attr_sum attr symbol 2="$spinner" 3="$spinner" 4=spin_main)" 100
check 'spin_thread is under the app spinner' \
	at_least "$(attr_sum attr symbol 2="$spinner" 3="$spinner" 4=spin_thread)" 100
check 'all samples are in the tgid of the target' \
	test "$(attr_distinct attr thread 2)" = 1 -a "$(attr_first attr thread 2)" = $spid
check 'the two functions are in two threads' \
	test "$(attr_first attr thread 3 6=spin_main)" = $spid -a \
	     "$(attr_first attr thread 3 6=spin_thread)" != $spid
check 'session.info records the pid' \
	grep -qx "target pid $spid" sess/samples/current/session.info

# the target ends first: operf notices and finishes by itself
operf --pid $spid -d sess2 >run2.out 2>run2.err &
opid=$!
kill_at_exit $opid
check 'a second operf --pid samples the spinner' \
	wait_until 20 sampled sess2 50 spin_main
kill -KILL $spid
wait $spid 2>/dev/null
reap_within 10 $opid
check 'operf ends by itself, exit 0, when the target is gone' test "$status" = 0
written() {
	attribute sess2 attr2 && at_least "$(attr_sum attr2 symbol 4=spin_main)" 50
}
check 'its samples are written' written
# --pid on another user's process: the kernel's ptrace check refuses it,
# and operf says so (not perf_event_paranoid)
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
if test "$(id -u)" = 0 && command -v setpriv >/dev/null 2>&1 &&
   id nobody >/dev/null 2>&1 &&
   as_nobody "$top_builddir/daemon/operf" --version >/dev/null 2>&1; then
	sleep 60 &
	victim=$!
	kill_at_exit $victim
	# a directory nobody can reach ($T is root's, mode 0700)
	nb=$(mktemp -d "${TMPDIR:-/tmp}/optest-nobody.XXXXXX") && chmod 1777 "$nb" || exit 99
	not_ours() {
		(cd "$nb" && as_nobody "$top_builddir/daemon/operf" -d s --pid $victim) \
			>nb.out 2>nb.err
		nb_rc=$?
		rm -rf "$nb"
		test $nb_rc = 1 &&
		grep -q "^operf: error: cannot profile process $victim: it is another user's" nb.err &&
		! grep -q 'perf_event_paranoid' nb.err
	}
	check "--pid on another user's process: refused for that reason" not_ours
else
	skip "--pid on another user's process" \
		'needs root, setpriv, the user nobody, and a build tree nobody can run'
fi
done_testing
