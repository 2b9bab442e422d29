#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf --lazy-conversion records the raw stream and converts it after
# profiling: the same kind of profile as live conversion (split, forks
# with -t, call-graph arcs), and the raw operf.data is removed after
# (kept with OPERF_KEEP_DATA).
. "$top_srcdir/tests/lib.sh"
need_perf

split=$WORKLOADS/split
forker=$WORKLOADS/forker
cc=$WORKLOADS/callchain

check 'operf --lazy-conversion ./split exits 0' profile split -l -d split "$split"
check 'attribute.py reads every sample file' attribute split split.attr
three=$(attr_sum split.attr symbol 2="$split" 3="$split" 4=split_three)
one=$(attr_sum split.attr symbol 2="$split" 3="$split" 4=split_one)
check 'split_three is the hottest symbol of split' \
	test "$(attr_first split.attr symbol 4 3="$split")" = split_three
check 'split_three has 75% +- 5 of the two functions' near "$three" "$one" 75 5
# the raw stream exists while operf profiles and is gone once converted:
# the command waits for a file before it runs split
operf -l -d gate sh -c 'while test ! -e go; do sleep 0.05; done; exec "$0"' "$split" \
	>gate.out 2>gate.err &
gate=$!
kill_at_exit $gate
check 'operf -l has samples/operf.data while it profiles' \
	wait_until 30 test -f gate/samples/operf.data
: >go
reap_within 60 $gate
check '... exits 0 once the command ran' test "$status" = 0
check 'the raw operf.data is removed after conversion' \
	test ! -e gate/samples/operf.data
check '... which was converted: split_three has samples' \
	sh -c 'python3 "$0" gate >gate.attr && grep -q "	split_three	" gate.attr' "$ATTRIBUTE"
# (inside a function: a redirection after check would take its "ok" line)
keep_data() {
	OPERF_KEEP_DATA=1 operf -l -d keep "$WORKLOADS/forkstorm" 20 >keep.out 2>keep.err
}
check 'OPERF_KEEP_DATA=1 operf -l keeps it' keep_data
check '... as a file with data' test -s keep/samples/operf.data

check 'operf -l -t ./forker exits 0' profile fork -l -t -d fork "$forker"
check 'attribute.py reads every sample file (forker)' attribute fork fork.attr
check 'child_work is sampled in two processes under forker' \
	test "$(attr_distinct fork.attr thread 2 4="$forker" 6=child_work)" = 2
check 'parent_work in a third one' \
	test "$(attr_distinct fork.attr thread 2 4="$forker" 6=parent_work)" = 1 -a \
	     "$(attr_sum fork.attr thread 2="$(attr_first fork.attr thread 2 6=parent_work)" 6=child_work)" = 0

check 'operf -l -g ./callchain exits 0' profile cg -l -g -d cg "$cc"
check 'attribute.py reads every sample file (callchain)' attribute cg cg.attr
leaf=$(attr_sum cg.attr symbol 3="$cc" 4=cg_leaf)
to_leaf=$(attr_sum cg.attr arc 3="$cc" 4=cg_caller 5="$cc" 6=cg_leaf)
check 'arcs cg_caller -> cg_leaf for >= 90% of the leaf samples' \
	at_least $((to_leaf * 100)) $((leaf * 90))
check 'and some leaf samples at all (>= 300)' at_least "$leaf" 300
done_testing
