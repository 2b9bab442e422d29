#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf -t (--separate-thread) on two threads doing 3:1 work at the same
# time: one sample file per thread, distinct tids in one tgid, each thread
# in its own function, and the per-thread split right within 5 points.
. "$top_srcdir/tests/lib.sh"
need_perf

threads=$WORKLOADS/threads

check 'operf --separate-thread ./threads exits 0' \
	profile run --separate-thread -d sess "$threads"
check 'attribute.py reads every sample file' attribute sess attr

tid_three=$(attr_first attr thread 3 6=thread_three)
tid_one=$(attr_first attr thread 3 6=thread_one)
tgid=$(attr_first attr thread 2 6=thread_three)
three=$(attr_sum attr thread 3="$tid_three" 6=thread_three)
one=$(attr_sum attr thread 3="$tid_one" 6=thread_one)
names_ok() {
	find sess/samples/current -type f -path '*{dep}*' | sed 's|.*/||' >names &&
	test -s names &&
	! grep -Ev '^[^.]+\.[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+\.all$' names
}
check 'every sample file name has a numeric tgid and tid' names_ok
check 'one process' test "$(attr_distinct attr thread 2)" = 1
check 'the two functions run in different threads' \
	test -n "$tid_three" -a -n "$tid_one" -a "$tid_three" != "$tid_one"
check 'neither is the main thread' \
	test "$tid_three" != "$tgid" -a "$tid_one" != "$tgid"
check 'thread_three only in its thread' \
	test "$(attr_distinct attr thread 3 6=thread_three)" = 1
check 'thread_one only in its thread' \
	test "$(attr_distinct attr thread 3 6=thread_one)" = 1
check 'per-thread split: thread_three 75% +- 5' near "$three" "$one" 75 5
check 'the main thread has its own files too' \
	test "$(attr_sum attr thread 3="$tgid")" -gt 0
done_testing
