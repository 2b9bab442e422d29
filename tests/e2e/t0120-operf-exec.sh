#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process that execs another workload: the samples after the exec are
# attributed to the new binary (the app part of the path is the exec'd
# binary), those before it to the first, all in one process.
. "$top_srcdir/tests/lib.sh"
need_perf

execer=$WORKLOADS/execer
split=$WORKLOADS/split

check 'operf -t ./execer ./split exits 0' profile run -t -d sess "$execer" "$split"
check 'the exec happened' grep -q '^split: ' run.out
check 'attribute.py reads every sample file' attribute sess attr

three=$(attr_sum attr symbol 2="$split" 3="$split" 4=split_three)
one=$(attr_sum attr symbol 2="$split" 3="$split" 4=split_one)
check 'split_three and split_one are under the app split' at_least $((three + one)) 200
check 'no samples of split under the app execer' \
	test "$(attr_sum attr image 2="$execer" 3="$split")" = 0
check 'execer_work is under the app execer' \
	at_least "$(attr_sum attr symbol 2="$execer" 3="$execer" 4=execer_work)" 20
check 'no samples of execer under the app split' \
	test "$(attr_sum attr image 2="$split" 3="$execer")" = 0
check 'the 3:1 split survives the exec (75% +- 5)' near "$three" "$one" 75 5
check 'before and after the exec is one process' \
	test "$(attr_first attr thread 2 6=execer_work)" = "$(attr_first attr thread 2 6=split_three)"
done_testing
