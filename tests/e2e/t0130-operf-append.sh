#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --append adds to samples/current; without it, current moves to
# samples/previous (replacing the older previous) and a new current starts.
# The third and fourth runs profile a small other program (20 forks).
. "$top_srcdir/tests/lib.sh"
need_perf

split=$WORKLOADS/split
small="$WORKLOADS/forkstorm 20"
samples=sess/samples

check 'first run' profile run1 -d sess "$split"
attribute sess attr1
check 'second run with --append' profile run2 --append -d sess "$split"
check 'attribute.py reads every sample file after --append' attribute sess attr2
check '--append leaves no previous/' test ! -e $samples/previous
grew() {
	# every file of run 1 is still there with at least its old counts
	awk -F '\t' 'NR == FNR { if ($1 == "file") old[$2] = $3; next }
		$1 == "file" && ($2 in old) { if ($3 < old[$2]) { print "# shrank: " $2; bad = 1 }; seen++ }
		END { n = 0; for (f in old) n++; if (seen != n) { print "# files lost"; bad = 1 }; exit bad }' attr1 attr2
}
check 'every count of the first run is kept or grows' grew
t1=$(attr_sum attr1 total)
t2=$(attr_sum attr2 total)
check 'the second run added about as many samples (>= half)' at_least $((t2 - t1)) $((t1 / 2))
three=$(attr_sum attr2 symbol 3="$split" 4=split_three)
one=$(attr_sum attr2 symbol 3="$split" 4=split_one)
check 'the appended profile still splits 75% +- 5' near "$three" "$one" 75 5
cp -R $samples/current snap2

check 'third run without --append' profile run3 -d sess $small
check 'the old current is now previous/, unchanged' diff -r snap2 $samples/previous
attribute sess attr3
check 'current starts again: nothing of split in it' \
	test "$(attr_sum attr3 image 2="$split")" = 0
cp -R $samples/current snap3

check 'fourth run without --append' profile run4 -d sess $small
check 'previous/ is now the third run' diff -r snap3 $samples/previous
check 'nothing else is left in samples/' \
	test "$(ls -A $samples | tr '\n' ' ')" = "current operf.log previous "
done_testing
