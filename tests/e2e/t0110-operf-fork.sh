#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf follows forks: the children's samples land in the child-only
# function, under the right application, in the children's own tgids
# with -t, and the parent/children split matches the work they do.
. "$top_srcdir/tests/lib.sh"
need_perf

forker=$WORKLOADS/forker

check 'operf -t ./forker exits 0' profile run -t -d sess "$forker"
check 'the program and its children ran to the end' grep -q '^forker: 2 children' run.out
check 'attribute.py reads every sample file' attribute sess attr

child=$(attr_sum attr symbol 2="$forker" 3="$forker" 4=child_work)
parent=$(attr_sum attr symbol 2="$forker" 3="$forker" 4=parent_work)
check 'child_work is the hottest symbol of forker' \
	test "$(attr_first attr symbol 4 3="$forker")" = child_work
check 'children 2 x 130, parent 60 units: child_work 81% +- 5' \
	near "$child" "$parent" 81.25 5
check 'forker samples are all under the app forker' \
	test "$(attr_sum attr image 3="$forker")" = "$(attr_sum attr image 2="$forker" 3="$forker")"
check 'child_work is sampled in two processes' \
	test "$(attr_distinct attr thread 2 4="$forker" 6=child_work)" = 2
check 'parent_work in one process' \
	test "$(attr_distinct attr thread 2 4="$forker" 6=parent_work)" = 1
ptgid=$(attr_first attr thread 2 6=parent_work)
check 'no child_work in the parent' \
	test "$(attr_sum attr thread 2="$ptgid" 6=child_work)" = 0
single_threaded() {
	awk -F '\t' '$1 == "thread" && $6 ~ /_work$/ && $2 != $3 { bad = 1 } END { exit bad }' attr
}
check 'each process is one thread: tid = tgid' single_threaded
done_testing
