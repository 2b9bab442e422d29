#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Lost samples end to end: a run whose main sample file cannot be written
# (a directory stands where --append would add to it) loses those samples.
# operf counts them in stats/ under OProfile 1.4's names with
# total_samples, exits 1 naming the file, says how many of the samples
# taken it lost and why, and opreport warns in the same words (lost
# samples of the samples taken, by cause).
. "$top_srcdir/tests/lib.sh"
need_perf

split=$WORKLOADS/split
stats=sess/samples/current/stats

check 'operf ./split exits 0' profile run1 -d sess "$split"
# the file of split's own samples, in split, which most samples go to
file=$(find sess/samples/current -type f -path "*/{dep}/{root}$split/*" | head -n 1)
check 'split has a sample file of its own' test -n "$file"
check '... with samples in it' attribute sess attr1
check 'the first run wrote stats/' test -d $stats

# a directory where the sample file was: it cannot be opened again (and
# no counter of the first run is left to add to the second's)
rm -f "$file" && mkdir "$file" && rm -rf $stats || exit 99
profile run2 --append -d sess "$split"
check 'operf --append ./split exits 1: a sample file could not be written' test $? = 1
check 'operf says which sample file it could not write' \
	grep -q "^operf: error: cannot write sample file '.*{dep}/{root}$split/" run2.err

# the figures libdb defines: lost samples (every lost_* file but
# lost_bt_no_mapping, which counts arcs) of the samples taken
# (total_samples, the samples written, plus the lost ones)
lost=0
for f in $stats/lost_*; do
	test -f "$f" && test "$f" != $stats/lost_bt_no_mapping && lost=$((lost + $(cat "$f")))
done
total=$(cat $stats/total_samples 2>/dev/null)
taken=$((${total:-0} + lost))
say "lost $lost, total_samples ${total:-none}, taken $taken"
check 'stats/lost_samplefile counts the samples lost' \
	sh -c "test -f $stats/lost_samplefile && test \$(cat $stats/lost_samplefile) -ge 50"
check 'stats/total_samples is written with it' test -n "$total"
# the files now hold run 1's samples less those of the removed file, plus
# the samples run 2 wrote
rel=${file#sess/samples/current/}
in_file=$(awk -F '\t' -v f="$rel" '$1 == "file" && $2 == f { print $3 }' attr1)
check 'attribute.py reads every sample file after run 2' attribute sess attr2
t1=$(attr_sum attr1 total)
t2=$(attr_sum attr2 total)
say "run 1: $t1 samples, $in_file of them in the removed file; now $t2"
check 'total_samples is what run 2 wrote into the sample files' \
	test "$((t2 - (t1 - in_file)))" = "${total:-none}"
pct=$(awk -v l="$lost" -v t="$taken" 'BEGIN { printf "%.2f", t ? 100 * l / t : 100 }')
check "operf: $lost of $taken samples lost, by cause" \
	grep -q "^operf: warning: $lost of $taken samples ($pct%) were lost: [0-9]* whose sample file could not be written" run2.err
summary=$(sed -n 's/^operf: \([0-9]*\) samples taken: \([0-9]*\) written to .*, \([0-9]*\) lost; .*/\1 \2 \3/p' run2.err)
check "operf's summary: $taken taken = ${total:-?} written + $lost lost" \
	test "$summary" = "$taken ${total:-x} $lost"
check 'opreport exits 0 on the session' opr rep --session-dir=sess
sed -n 's/^operf: warning: \(.* were lost: .*\)/\1/p' run2.err >lost.operf
sed -n 's/^opreport: warning: \(.* were lost: .*\)/\1/p' rep.err >lost.opreport
check "opreport: the same $lost of $taken samples ($pct%) were lost, in the same words" \
	sh -c 'test -s lost.operf && diff -u lost.operf lost.opreport'
check 'no lost arcs without --callgraph' sh -c "! grep -q 'call-graph arcs' rep.err run2.err"
done_testing
