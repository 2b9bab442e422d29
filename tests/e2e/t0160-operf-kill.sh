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

check 'operf ./split --kill-self exits 0' profile self -d self "$split" --kill-self
check 'operf says the command was killed' \
	grep -qx "operf: '$split' was killed by signal 9" self.err
check 'attribute.py reads every sample file' attribute self self.attr
three=$(attr_sum self.attr symbol 3="$split" 4=split_three)
one=$(attr_sum self.attr symbol 3="$split" 4=split_one)
check 'the killed target still has its samples, split 75% +- 5' \
	near "$three" "$one" 75 5
done_testing
