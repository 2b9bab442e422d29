#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# optop, the live view, on a session operf is writing: the spike workload
# (steady_work(), then spike_work() during second 2) under operf while
# optop takes snapshots every half second.
#  - batch mode (standard output not a terminal): plain text, no escape
#    codes; the totals never go down from one snapshot to the next (each
#    file read as a whole snapshot); the rates come from the second
#    snapshot on; spike_work leads a snapshot while it runs;
#  - once operf is done, optop's totals are opreport's, symbol by symbol;
#  - on a terminal (script(1)): the screen is redrawn, and the keys i, p
#    and q switch to images, to processes and quit;
#  - a session not there yet: "waiting for samples"; SIGTERM ends the
#    view with status 0; usage errors exit 2.
. "$top_srcdir/tests/lib.sh"
need_perf
OPTOP=$top_builddir/pp/optop
test -x "$OPTOP" || skip_all "optop is not built"
spike=$WORKLOADS/spike

operf -e cpu-clock:250000 -d L "$spike" 4 2 >operf.out 2>&1 &
opid=$!
check 'optop -b -n 12 -d 0.5 while operf runs' sh -c "'$OPTOP' --session-dir=L -b -n 12 \
	-d 0.5 -l 8 >batch.out 2>batch.err"
wait "$opid"
check '... operf ended well' test $? = 0
check '... 12 snapshots' test "$(grep -c '^optop ' batch.out)" = 12
check '... no escape codes' sh -c "! grep -q \"$(printf '\033')\" batch.out"
check '... the rates come from the second snapshot with samples on' sh -c "
	awk '/^optop / { n++ } / in the last / { rated = 1 }
	     /rates come with the next/ { first++ } END { exit !(rated && first >= 1) }' batch.out"
# each block: symbol -> samples; a total must never go down
check '... no total goes down between snapshots' sh -c "awk '
	/^optop / { for (k in now) was[k] = now[k]; delete now; next }
	/^ +[-0-9.]+ +[-0-9]+ +[0-9.]+ +[0-9]+  / { k = \$5 \" \" \$6; now[k] = \$4
		if ((k in was) && \$4 + 0 < was[k] + 0) { print \"down: \" k; bad = 1 } }
	END { exit bad }' batch.out"
check '... spike_work leads a snapshot while it runs' sh -c "awk '
	/^  now %/ { top = 1; next } top && /^ / { if (\$5 == \"spike_work\" && \$1 + 0 >= 50) hit = 1; top = 0 }
	END { exit !hit }' batch.out" || sed 's/^/# /' batch.out

check 'optop -b -n 1 after operf' sh -c "'$OPTOP' --session-dir=L -b -n 1 -l 200 >after.out"
check 'opreport -l' exits 0 rep --session-dir=L -l
for fn in steady_work spike_work; do
	ours=$(awk -v f=$fn '$5 == f { print $4 }' after.out)
	theirs=$(awk -v f=$fn '$NF == f { print $1 }' rep.out)
	check "... $fn: optop $ours, opreport $theirs" test -n "$ours" -a "$ours" = "$theirs"
done
check '... all samples: optop = opreport' sh -c "
	test \"\$(sed -n 's/^\([0-9]*\) samples in .*/\1/p' after.out)\" = \
	     \"\$(awk '/^[0-9]/ { s += \$1 } END { print s }' rep.out)\""

# --- a terminal ------------------------------------------------------------
if command -v script >/dev/null 2>&1; then
	check 'optop on a terminal: keys i, p, then q quits at once' sh -c "
		(sleep 1; printf i; sleep 1; printf p; sleep 1; printf q; sleep 30) |
		timeout 15 script -qfec \"'$OPTOP' --session-dir=L -d 0.2\" tty.out >/dev/null"
	check '... the screen is redrawn' grep -q "$(printf '\033\\[H')" tty.out
	check '... names its keys' grep -q 'keys: s symbols, i images, p processes, q quit' tty.out
	check '... i: images' grep -q 'view: images' tty.out
	check '... p: processes' grep -q 'view: processes' tty.out
else
	skip 'optop on a terminal' 'script (util-linux) is not installed'
fi

# --- no session yet, signals, usage ---------------------------------------
mkdir -p E/samples
check 'a session without samples yet: exit 1' sh -c "'$OPTOP' --session-dir=E -b -n 1 \
	>wait.out 2>&1; test \$? = 1"
check '... says it waits' grep -q 'waiting for samples' wait.out
"$OPTOP" --session-dir=L -b -d 0.2 >term.out 2>&1 &
tpid=$!
sleep 1
kill -TERM "$tpid"
wait "$tpid"
check 'SIGTERM ends the view: exit 0' test $? = 0
check '--view=x: exit 2' sh -c "'$OPTOP' --session-dir=L --view=x 2>/dev/null; test \$? = 2"
check 'time:0-1: exit 2' sh -c "'$OPTOP' --session-dir=L time:0-1 2>/dev/null; test \$? = 2"
check '{ } { }: exit 2' sh -c "'$OPTOP' --session-dir=L { } { } 2>/dev/null; test \$? = 2"
check '--delay=-1: exit 2' sh -c "'$OPTOP' --session-dir=L --delay=-1 2>/dev/null; test \$? = 2"
done_testing
