#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf --callgraph on main -> cg_caller -> cg_leaf: {cg} files whose arcs
# (oprofile-ng-formats(5), CALL-GRAPH FILES) give main -> cg_caller and cg_caller -> cg_leaf
# for nearly every sample of the leaf, and no arc the other way.
. "$top_srcdir/tests/lib.sh"
need_perf

cc=$WORKLOADS/callchain

check 'operf --callgraph ./callchain exits 0' profile run --callgraph -d sess "$cc"
check 'attribute.py reads every sample file' attribute sess attr
check 'there are {cg} files' \
	sh -c 'find sess/samples/current -path "*/{cg}/*" -type f | grep -q .'
leaf=$(attr_sum attr symbol 3="$cc" 4=cg_leaf)
# arc COLUMNS: 2 app, 3 caller image, 4 caller, 5 callee image, 6 callee
to_leaf=$(attr_sum attr arc 2="$cc" 3="$cc" 4=cg_caller 5="$cc" 6=cg_leaf)
to_caller=$(attr_sum attr arc 2="$cc" 3="$cc" 4=main 5="$cc" 6=cg_caller)
check 'cg_leaf is still the hottest symbol of the plain files' \
	test "$(attr_first attr symbol 4 3="$cc")" = cg_leaf
check 'enough leaf samples to judge (>= 300)' at_least "$leaf" 300
# (kernel samples taken while in the leaf add user arcs too: no upper bound)
check 'arcs cg_caller -> cg_leaf: >= 90% of the leaf samples' \
	at_least $((to_leaf * 100)) $((leaf * 90))
check 'arcs main -> cg_caller: as many (>= 90% of the leaf samples)' \
	at_least $((to_caller * 100)) $((leaf * 90))
# only a sample on cg_leaf's first or last instruction, where its frame is
# not set up, skips cg_caller
check 'arcs main -> cg_leaf (cg_caller skipped): under 2% of the leaf samples' \
	at_least $((leaf * 2)) $(($(attr_sum attr arc 4=main 6=cg_leaf) * 100))
check 'no arc from cg_leaf to a function of the program' \
	test "$(attr_sum attr arc 3="$cc" 4=cg_leaf 5="$cc")" = 0
check 'no arc into main from the program' \
	test "$(attr_sum attr arc 3="$cc" 5="$cc" 6=main)" = 0
check 'session.info records callgraph 1' grep -qx 'callgraph 1' sess/samples/current/session.info
done_testing
