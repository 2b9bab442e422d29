#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The tests of a differential profile on real runs: operf on the trio
# workload (work split 3:2:1 between trio_a, trio_b and trio_c) twice
# unchanged, and once with trio_b 20 % slower.  Two runs of one program
# show no significant change in its functions (at 99.9 %, so that a
# correct test fails this check once in a thousand runs); the slower
# trio_b is found, its share up, and --significant-only lists it.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
trio=$WORKLOADS/trio

# 10,000 samples a second: about 12,000 a run
for run in one two slower; do
	arg=
	test $run = slower && arg=--slower
	check "operf trio $arg ($run)" profile "$run" --session-dir="$T/$run" \
		-e cpu-clock:100000 "$trio" $arg
done
side() { echo "session:$T/$1/samples/current"; }

check 'two unchanged runs: exit 0' exits 0 same --session-dir="$T/one" -l --confidence=99.9 \
	"lib-image:$trio" { "$(side one)" } { "$(side two)" }
check '... trio_a, trio_b and trio_c are compared' \
	test "$(grep -c ' trio_[abc]$' same.out)" = 3
check '... and no change is significant' sh -c '! grep "  \*   " same.out | grep -q .' ||
	sed 's/^/# /' same.out
check 'an unchanged run against trio_b 20 % slower: exit 0' exits 0 slow --session-dir="$T/one" -l \
	--confidence=99.9 "lib-image:$trio" { "$(side one)" } { "$(side slower)" }
check '... trio_b'"'"'s change is significant' grep -q '  \*   trio_b$' slow.out ||
	sed 's/^/# /' slow.out
check '... its share grew' sh -c "grep ' trio_b\$' slow.out |
	awk '{ up = \$3 > 0 } END { exit !(NR == 1 && up) }'"
check '--significant-only lists trio_b' exits 0 only --session-dir="$T/one" -l --significant-only \
	--confidence=99.9 "lib-image:$trio" { "$(side one)" } { "$(side slower)" }
check '... and nothing marked ~' sh -c 'grep -q " trio_b\$" only.out && ! grep -q "  ~   " only.out'
done_testing
