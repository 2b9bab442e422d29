#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A process that execs another workload: the samples after the exec are
# attributed to the new binary (the app part of the path is the exec'd
# binary), those before it to the first, all in one process.  The kernel
# samples taken while exec loads operf's command belong to the command
# too: at a high rate there are many, and none is left with a kernel
# image as its own application.
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

# /bin/true at 50 kHz: mostly the kernel loading and tearing it down
loading() {
	l_ok=0
	for l_i in 1 2 3 4 5; do
		operf -e cpu-clock:20000 -d "load$l_i" true >"load$l_i.out" 2>&1 || return 1
		for l_app in "load$l_i"/samples/current/\{kern\}/*; do
			test -e "$l_app" || continue
			say "run $l_i: kernel image ${l_app##*/} as an app"
			return 1
		done
		find "load$l_i/samples/current/{root}" -type d -path '*/true/{dep}/{kern}' |
			grep -q . && l_ok=$((l_ok + 1))
	done
	say "$l_ok of 5 runs with kernel samples under true"
	test "$l_ok" -gt 0
}
if test "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 1 -a "$(id -u)" != 0; then
	skip 'kernel samples of loading true are under true' 'no kernel samples here (perf_event_paranoid)'
else
	check 'kernel samples of loading true are under true, none under {kern}' loading
fi
done_testing
