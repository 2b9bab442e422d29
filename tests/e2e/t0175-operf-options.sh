#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Options given more than once, and runs that fail to start: -e lists add
# up; a command that cannot be executed leaves the session as it was (no
# rotation of current/ into previous/, no directory left behind).
. "$top_srcdir/tests/lib.sh"
need_perf

split=$WORKLOADS/split
samples=sess/samples

check 'two --events options' profile two -d sess -e cpu-clock:100000 -e task-clock:200000 "$split"
both() {
	find $samples/current -name 'cpu-clock.100000.0.all.all.all' | grep -q . &&
	find $samples/current -name 'task-clock.200000.0.all.all.all' | grep -q .
}
check '... both events have sample files' both
check '--session-dir given twice: the last one is used' \
	profile last -d other -d sess2 "$split"
check '... and only that one is written' sh -c 'test -d sess2/samples/current && test ! -e other'

attribute sess before
check 'a command that cannot be executed exits 3' sh -c \
	'operf -d sess ./no-such-program >typo.out 2>typo.err; test $? -eq 3'
check '... and leaves current/ as it was' sh -c 'python3 "$0" sess >after && cmp before after' "$ATTRIBUTE"
check '... moves nothing into previous/' test ! -e $samples/previous
check 'a second failed start changes nothing either' sh -c \
	'operf -d sess ./another-typo >/dev/null 2>&1; test $? -eq 3 && test ! -e sess/samples/previous'
check 'no set-aside directories are left' sh -c '! ls -a $0 | grep -q previous-old' $samples
check 'a good run then rotates as usual' profile good -d sess "$split"
check '... the old profile is now previous/' sh -c 'python3 "$0" --sub previous sess >prev && cmp before prev' "$ATTRIBUTE"
done_testing
