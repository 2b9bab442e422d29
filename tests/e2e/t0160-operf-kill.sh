#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hard endings: operf killed by SIGKILL in the middle of a run leaves
# every sample file readable and consistent; a target killed by a signal
# still leaves its samples, and operf says how it ended.
. "$top_srcdir/tests/lib.sh"
need_perf

spinner=$WORKLOADS/spinner
split=$WORKLOADS/split

"$spinner" 60 spinner.pid &
spid=$!
kill_at_exit $spid
wait_until 10 test -f spinner.pid

sampled() {
	attribute sess live --live 2>/dev/null &&
	test "$(attr_sum live symbol 3="$spinner")" -ge 300
}
operf --pid $spid -t -d sess >run.out 2>run.err &
opid=$!
kill_at_exit $opid
check 'operf --pid writes samples while it runs' wait_until 20 sampled
kill -KILL $opid
wait $opid 2>/dev/null
all_dump() {
	find sess/samples/current -type f -path '*{dep}*' >files &&
	test -s files &&
	while read -r f; do
		odb-dump "$f" >/dev/null || { say "odb-dump failed on $f"; return 1; }
	done <files
}
check 'after kill -9 of operf, odb-dump reads every sample file' all_dump
check 'and each follows the format (attribute.py)' attribute sess attr
check 'with the samples seen before the kill' \
	at_least "$(attr_sum attr symbol 3="$spinner")" 300
check 'the target is not hurt' kill -0 $spid

self_killed() {	# operf exits as the command did: 128 + SIGKILL
	profile self -d self "$split" --kill-self
	test $? = 137
}
check 'operf ./split --kill-self exits 137 (128 + 9), as the command' self_killed
check 'operf says the command was killed' \
	grep -qx "operf: '$split' was killed by signal 9" self.err
check 'attribute.py reads every sample file' attribute self self.attr
three=$(attr_sum self.attr symbol 3="$split" 4=split_three)
one=$(attr_sum self.attr symbol 3="$split" 4=split_one)
check 'the killed target still has its samples, split 75% +- 5' \
	near "$three" "$one" 75 5
# the command's exit status is operf's, and said (as perf record does)
failed() {	# STATUS COMMAND...
	f_want=$1; shift
	operf -d "st$f_want" "$@" >"st$f_want.out" 2>"st$f_want.err"
	f_rc=$?
	test "$f_rc" = "$f_want" || { say "exit status $f_rc, expected $f_want"; return 1; }
	grep -qx "operf: '$1' exited with status $f_want" "st$f_want.err" &&
	test -d "st$f_want/samples/current"
}
check 'operf false: exits 1 and says so, the profile written' failed 1 false
check 'operf sh -c "exit 7": exits 7' failed 7 sh -c 'exit 7'
ok_run() {
	operf -d st0 true >st0.out 2>st0.err && ! grep -q 'exited with status' st0.err
}
check 'operf true: exits 0, nothing said' ok_run

done_testing
