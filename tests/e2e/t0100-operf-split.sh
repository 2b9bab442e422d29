#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf with its defaults on a program whose work is split 3:1 between two
# functions: the hot function comes first, the split is right within 5
# points, every sample is under the right binary, and the session is laid
# out as oprofile-ng-session(5), SESSION DIRECTORY, says.
. "$top_srcdir/tests/lib.sh"
need_perf

split=$WORKLOADS/split
current=oprofile_data/samples/current

check 'operf ./split exits 0 (default event, ./oprofile_data)' \
	profile run "$split"
check 'the program ran to its end' grep -q '^split: ' run.out
check 'attribute.py reads every sample file' attribute oprofile_data attr

three=$(attr_sum attr symbol 2="$split" 3="$split" 4=split_three)
one=$(attr_sum attr symbol 2="$split" 3="$split" 4=split_one)
image=$(attr_sum attr image 2="$split" 3="$split")
total=$(attr_sum attr total)
check 'split_three is the hottest symbol of split' \
	test "$(attr_first attr symbol 4 3="$split")" = split_three
check 'split_three has 75% +- 5 of the two functions' near "$three" "$one" 75 5
check 'the two functions hold 95% of the samples in split' \
	near $((three + one)) $((image - three - one)) 97.5 2.5
check 'split itself holds most samples (>= 80%)' \
	near "$image" $((total - image)) 90 10
check 'enough samples to judge (>= 400)' at_least "$total" 400
check 'every sample file is under the app split' \
	test "$(attr_distinct attr image 2)" = 1 -a "$(attr_first attr image 2)" = "$split"
check 'no {cg} files without --callgraph' test "$(attr_sum attr arcs)" = 0
check 'no per-thread or per-cpu files without -t and -c' \
	test "$(attr_distinct attr thread 2)$(attr_first attr thread 2)$(attr_first attr cpu 2)" = 1allall

# oprofile-ng-session(5), SESSION DIRECTORY
check 'the session has abi, samples/operf.log and current/stats/' \
	test -s oprofile_data/abi -a -s oprofile_data/samples/operf.log -a -d $current/stats
check 'no previous/ after the first run' test ! -e oprofile_data/samples/previous
check 'session.info names the command' grep -qx "target command $split" $current/session.info
summary_ok() {
	grep -Eq "^operf: [0-9]+ samples \([0-9]+ kernel, [0-9]+ user\) written to [0-9]+ sample files?; profile in $(pwd -P)/oprofile_data\$" run.err
}
check 'operf ends with its one-line summary' summary_ok
done_testing
