#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One writer per session directory: a second operf into a directory in
# use is refused with the holder's pid and touches nothing; a lock left
# by a killed operf is taken over with a notice; a run that ends leaves
# no lock behind.
. "$top_srcdir/tests/lib.sh"
need_perf

profile first -d sess true
check 'a run that ends leaves no lock file' test ! -e sess/samples/operf.lock
mkdir sess/samples/current/marker

operf -d sess "$WORKLOADS/spinner" 30 >run.out 2>run.err &
opid=$!
kill_at_exit $opid
check 'the running operf holds the lock with its pid' \
	wait_until 10 grep -qx "$opid" sess/samples/operf.lock
check_fail 'a second operf into the same directory is refused' profile second -d sess true
check '... naming the holder' \
	grep -q "error: session directory '$T/sess' is in use by process $opid (operf)" second.err
check '... with a hint' grep -q '^hint: wait for it to finish' second.err
check_fail '... also with --append' profile third -a -d sess true
check 'the first run'"'"'s previous/ is what it moved, untouched by the others' \
	test -d sess/samples/previous/marker
check 'the lock still names the first operf' grep -qx "$opid" sess/samples/operf.lock

# operf killed: its lock file stays, with its pid, and is taken over
spin=$(pgrep -P $opid spinner)
kill -KILL $opid
reap_within 10 $opid
test -n "$spin" && kill -KILL "$spin" 2>/dev/null
check 'a killed operf leaves its lock file' grep -qx "$opid" sess/samples/operf.lock
check 'the next run takes the lock over' profile fourth -d sess true
check '... and says so' \
	grep -q "notice: taking over the lock of '$T/sess/samples' left by process $opid" fourth.err
check '... leaving no lock behind' test ! -e sess/samples/operf.lock

done_testing
