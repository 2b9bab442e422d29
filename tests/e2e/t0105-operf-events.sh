#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Which events operf samples: the default falls back to the cpu-clock
# software event, with one notice, when no hardware PMU counts; -e picks
# events and periods, several at once, user space only; a hardware event
# where there is a PMU.
. "$top_srcdir/tests/lib.sh"
need_perf

split=$WORKLOADS/split
info=samples/current/session.info

# --- the default event ---------------------------------------------------
if have_hw_pmu; then
	why='a hardware PMU counts here: no fallback'
	skip 'the default event falls back to cpu-clock with one notice' "$why"
	skip 'session.info records the fallback' "$why"
	skip 'the sample files are named for cpu-clock every 250000 ns' "$why"
else
	profile def -d def "$split"
	notice_ok() {
		test "$(grep -c 'cpu-clock' def.err)" = 1 &&
		grep -Eq '^operf: notice: no hardware PMU, so the cpu.s default event cannot count; sampling with the cpu-clock software event every 250000 ns instead$' def.err
	}
	# (a second notice says when perf_event_paranoid keeps kernel samples out)
	check 'the default event falls back to cpu-clock with one notice' notice_ok
	info_ok() {
		grep -Eq '^event cpu-clock software 250000 ' def/$info &&
		grep -Eq '^fallback no hardware PMU, so the cpu.s default event cannot count$' def/$info
	}
	check 'session.info records the fallback' info_ok
	names_ok() {
		attribute def def.attr &&
		test "$(attr_distinct def.attr event 2)" = 1 &&
		test "$(attr_first def.attr event 2)/$(attr_first def.attr event 3)/$(attr_first def.attr event 4)" = cpu-clock/250000/0
	}
	check 'the sample files are named for cpu-clock every 250000 ns' names_ok
fi

# --- -e with a period ----------------------------------------------------
check 'operf -e cpu-clock:100000 exits 0' profile p100 -e cpu-clock:100000 -d p100 "$split"
check 'an explicit event prints no fallback notice' sh -c '! grep -q cpu-clock p100.err'
check 'no fallback in session.info' sh -c '! grep -q "^fallback" p100/'$info
check 'the file names carry the period 100000' \
	sh -c 'ls -R p100/samples/current | grep -qx "cpu-clock.100000.0.all.all.all"'

# --- two events at once --------------------------------------------------
check 'operf -e cpu-clock:250000,task-clock:500000 exits 0' \
	profile two -e cpu-clock:250000,task-clock:500000 -d two "$split"
attribute two two.attr
cpu=$(attr_sum two.attr event 2=cpu-clock 3=250000)
task=$(attr_sum two.attr event 2=task-clock 3=500000)
check 'each event has its own sample files' test "$(attr_distinct two.attr event 2)" = 2
check 'twice the period gives half the samples (67% +- 5 for the shorter)' \
	near "$cpu" "$task" 66.7 5
check 'split_three is hottest with both events together' \
	test "$(attr_first two.attr symbol 4 3="$split")" = split_three

# --- user space only -----------------------------------------------------
check 'operf -e cpu-clock:250000:0:0:1 (no kernel) exits 0' \
	profile user -e cpu-clock:250000:0:0:1 -d user "$split"
attribute user user.attr
check 'no kernel samples when the kernel is excluded' \
	test "$(attr_sum user.attr symbol 4='(kernel)')" = 0
check 'split_three is still hottest' \
	test "$(attr_first user.attr symbol 4 3="$split")" = split_three

# --- a hardware event ----------------------------------------------------
if have_hw_pmu; then
	hw_ok() {
		profile hw -e CPU_CLK_UNHALTED:100000 -d hw "$split" &&
		attribute hw hw.attr &&
		test "$(attr_first hw.attr event 2)" = CPU_CLK_UNHALTED &&
		test "$(attr_first hw.attr symbol 4 3="$split")" = split_three
	}
	check 'CPU_CLK_UNHALTED:100000 samples split_three hottest' hw_ok
else
	skip 'CPU_CLK_UNHALTED:100000 samples split_three hottest' 'no hardware PMU'
fi
done_testing
