#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A fork storm: 2000 short-lived children, each about 1 ms in
# storm_child_work.  At least 95% of the user-space samples (counting the
# ones operf lost) land in that function of the workload, under the
# workload's app: the engine follows every fork in time.
. "$top_srcdir/tests/lib.sh"
need_perf

storm=$WORKLOADS/forkstorm

check 'operf ./forkstorm exits 0' profile run -d sess "$storm"
check 'all 2000 children ran' grep -qx 'forkstorm: 2000 children, 0 failed' run.out
check 'attribute.py reads every sample file' attribute sess attr

work=$(attr_sum attr symbol 2="$storm" 3="$storm" 4=storm_child_work)
user=$(($(attr_sum attr total) - $(attr_sum attr symbol 4='(kernel)')))
lost=0
for s in lost_no_mapping lost_no_app_for_user_sample lost_records_by_kernel; do
	lost=$((lost + $(attr_sum attr stat 2=$s)))
done
say "storm_child_work $work of $user user samples, $lost lost"
check 'on average at least one sample per child in storm_child_work' \
	at_least "$work" 2000
check '>= 95% of user samples (and lost ones) in storm_child_work' \
	at_least $((work * 100)) $(((user + lost) * 95))
check 'every sample is under the app forkstorm' \
	test "$(attr_distinct attr image 2)" = 1 -a "$(attr_first attr image 2)" = "$storm"
done_testing
