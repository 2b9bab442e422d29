#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf stopped (SIGSTOP) while its command runs: the kernel's buffers
# fill and it drops samples.  operf's figures add up (taken = written +
# lost, the lost ones by cause, the kernel's drops named), stats/ holds
# the same numbers, and opreport warns in the same words.
. "$top_srcdir/tests/lib.sh"
need_perf

# a short period (20 kHz) fills the buffers even on a loaded machine
operf -g -e cpu-clock:50000 -d sess "$WORKLOADS/spinner" 6 >run.out 2>run.err &
opid=$!
kill_at_exit $opid
wait_until 10 pgrep -P $opid >/dev/null
sleep 0.5
kill -STOP $opid
sleep 3
kill -CONT $opid
reap_within 60 $opid
check 'operf exits 0 after being stopped' test "$status" = 0
stats=sess/samples/current/stats
if ! test -s $stats/lost_records_by_kernel; then
	skip 'the figures of a run that lost samples' 'the kernel dropped nothing here'
	done_testing
	exit
fi
set -- $(sed -n 's/^operf: \([0-9]*\) samples taken: \([0-9]*\) written to [0-9]* sample files*, \([0-9]*\) lost; .*/\1 \2 \3/p' run.err)
taken=${1:-x} written=${2:-x} lost=${3:-x}
say "taken $taken, written $written, lost $lost"
check 'the summary adds up: taken = written + lost' \
	sh -c 'test "$0" != x && test "$0" = "$(($1 + $2))"' "$taken" "$written" "$lost"
check 'the share lost is of the samples taken, below 100%' \
	grep -Eq "^operf: warning: $lost of $taken samples \((0|[1-9][0-9]?)\.[0-9]+%\) were lost: " run.err
check 'the kernel'"'"'s drops are named' \
	grep -Eq "^operf: warning: .* were lost: .*[0-9]+ dropped by the kernel \(its buffers were full\)" run.err
causes=$(sed -n 's/^operf: warning: .* were lost: \([^;]*\).*/\1/p' run.err |
	tr ',' '\n' | awk '{ s += $1 } END { print s + 0 }')
check "the causes add up to the $lost lost" test "$causes" = "$lost"
check 'stats/total_samples is the samples written' test "$(cat $stats/total_samples)" = "$written"
check 'stats/lost_records_by_kernel holds the drops' test -s $stats/lost_records_by_kernel
check 'opreport reads it' opr rep --session-dir=sess
sed -n 's/^operf: warning: \(.* were lost: .*\)/\1/p' run.err >lost.operf
sed -n 's/^opreport: warning: \(.* were lost: .*\)/\1/p' rep.err >lost.opreport
check 'opreport warns in the same words' \
	sh -c 'test -s lost.operf && diff -u lost.operf lost.opreport'

done_testing
