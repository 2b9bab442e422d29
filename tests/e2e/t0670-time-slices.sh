#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Time slices (samples/current/slices) and time: in the reports:
#  - operf on the spike workload (steady_work() for 5 s, spike_work()
#    during second 2 alone) records one slice a second; time:2-3 finds
#    spike_work() there and nowhere else, as perf's own timestamps of the
#    same run say (perf record -- operf);
#  - the slices add up to the sample files: time:0- gives the plain
#    report, and --format=timeline's rows add up to it, each row to its
#    columns;
#  - a differential of two stretches of one run ({ time:0-2 } { time:2-3 })
#    finds the spike; opannotate and opgprof take time: too;
#  - --slice=0.25 cuts quarter seconds; --slice=0 records none, and
#    time: on such a session is an error naming why; so is a damaged or
#    symlinked slice file, and a bad time: item (usage, exit 2);
#  - operf --append adds a later run's slices after the first's;
#  - oprofiled slices too (opcontrol --slice).
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
spike=$WORKLOADS/spike

check 'operf ./spike 5 2' profile run -e cpu-clock:250000 -d s1 "$spike" 5 2
check '... wrote the slice file' test -s s1/samples/current/slices
check '... session.info says 1 s slices' grep -qx 'slice 1000000000' \
	s1/samples/current/session.info

# samples of symbol $2 in report $1.out (opreport -l)
sym() { awk -v s="$2" '$NF == s { n += $1 } END { print n + 0 }' "$1.out"; }

check 'opreport -l time:2-3' exits 0 mid --session-dir=s1 -l "lib-image:$spike" time:2-3
check 'opreport -l time:0-2,3-' exits 0 rest --session-dir=s1 -l "lib-image:$spike" time:0-2,3-
check 'opreport -l (the whole run)' exits 0 all --session-dir=s1 -l "lib-image:$spike"
spike_all=$(sym all spike_work) spike_mid=$(sym mid spike_work)
say "spike_work: $spike_mid of $spike_all samples in second 2; steady_work $(sym mid steady_work) there"
check '... spike_work has 3,000 samples or more' test "$spike_all" -ge 3000
check '... 95 % of them in second 2' test $((spike_mid * 100)) -ge $((spike_all * 95))
check '... where steady_work has under 5 % of its samples' \
	test $(($(sym mid steady_work) * 100)) -lt $(($(sym all steady_work) * 5))
check '... the two ranges add up to the whole' \
	test $((spike_mid + $(sym rest spike_work))) = "$spike_all" -a \
	     $(($(sym mid steady_work) + $(sym rest steady_work))) = "$(sym all steady_work)"
check '... the header says which slices' \
	grep -qx 'Time: 2.000 s to 3.000 s of the session, 1 slice of 1 s (time:2-3)' mid.out

# the whole session through the slices is the plain report
check 'opreport time:0- is opreport' exits 0 whole --session-dir=s1 time:0-
check 'opreport' exits 0 plain --session-dir=s1
check '... the same counts' sh -c "grep -v '^Time:' whole.out | cmp -s - plain.out"
check 'opreport -l time:0- is opreport -l' exits 0 wholel --session-dir=s1 -l time:0-
check 'opreport -l' exits 0 plainl --session-dir=s1 -l
check '... the same counts' sh -c "grep -v '^Time:' wholel.out | cmp -s - plainl.out"

check 'opreport --format=timeline' exits 0 tl --session-dir=s1 --format=timeline \
	"lib-image:$spike"
sed -n '/^start s/,$p' tl.out | sed 's/^/#   /'
# timeline rows: start end samples [1..k] other
check '... 5 or 6 slices of 1 s' sh -c "awk '/^start s/ { t = 1; next }
	t && \$2 - \$1 != 1 { bad = 1 } t { n++ }
	END { exit bad || n < 5 || n > 6 }' tl.out"
check '... each row adds up' sh -c "awk '/^start s/ { t = 1; next }
	t { s = 0; for (i = 4; i <= NF; i++) s += \$i; if (s != \$3) bad = 1 }
	END { exit bad }' tl.out"
tl_sum=$(awk '/^start s/ { t = 1; next } t { s += $3 } END { print s + 0 }' tl.out)
all_sum=$(awk '/^[0-9]/ { s += $1 } END { print s + 0 }' all.out)
check "... the rows add up to the whole ($tl_sum, $all_sum)" test "$tl_sum" = "$all_sum"
# the column of spike_work: the legend line "[k] spike_work (spike)"
col=$(sed -n 's/^  \[\([0-9]*\)\] spike_work (spike)$/\1/p' tl.out)
check '... spike_work has a column' test -n "$col"
check '... its samples are in the row 2.000-3.000' sh -c "awk -v c=$((col + 3)) '
	/^start s/ { t = 1; next }
	t { tot += \$c; if (\$1 == \"2.000\") mid = \$c }
	END { exit !(tot > 0 && mid * 100 >= tot * 95) }' tl.out"

check 'a differential { time:0-2 } { time:2-3 }' exits 0 diff --session-dir=s1 -l \
	"lib-image:$spike" { time:0-2 } { time:2-3 }
check '... finds spike_work significant and up' sh -c "grep ' spike_work\$' diff.out |
	grep -q '+++ .*  \*   '"

check 'opannotate --source time:2-3' sh -c "'$top_builddir/pp/opannotate' --session-dir=s1 \
	--source time:2-3 'lib-image:$spike' >ann.out 2>ann.err"
check '... counts spike_work, hardly steady_work' sh -c "
	s=\$(sed -n 's/.*spike_work total: *\([0-9]*\).*/\1/p' ann.out)
	t=\$(sed -n 's/.*steady_work total: *\([0-9]*\).*/\1/p' ann.out)
	test \"\${s:-0}\" -ge 3000 && test \"\${t:-0}\" -lt \$((s / 10))"
check 'opgprof time:2-3' sh -c "cd '$T' && '$top_builddir/pp/opgprof' --session-dir=s1 \
	time:2-3 -o gmon.out 'lib-image:$spike' >gp.out 2>&1"
if command -v gprof >/dev/null 2>&1; then
	check '... gprof puts spike_work first' sh -c "gprof -b -p '$spike' gmon.out |
		awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+/ { print \$NF; exit }' | grep -qx spike_work"
else
	skip '... gprof puts spike_work first' 'gprof is not installed'
fi

# --- perf's timestamps of the same run ----------------------------------
if command -v perf >/dev/null 2>&1 &&
   perf record -q -e cpu-clock -c 1000000 -o perf.data -- \
	operf -e cpu-clock:250000 -d s2 "$spike" 4 1 >perf.out 2>&1; then
	perf script -i perf.data -F comm,time,ip,sym 2>/dev/null >perf.txt
	# perf's share of spike_work's samples in second 1 of spike's run
	share=$(awk '$1 == "spike" { t = $2 + 0; if (!t0) t0 = t
		if ($NF == "spike_work") { n++; if (t - t0 >= 1 && t - t0 < 2) m++ } }
		END { if (n) printf "%d", m * 100 / n }' perf.txt)
	check 'perf record -- operf ./spike 4 1: opreport -l time:1-2' \
		exits 0 ps --session-dir=s2 -l "lib-image:$spike" time:1-2
	check 'opreport -l' exits 0 pa --session-dir=s2 -l "lib-image:$spike"
	ours=$(($(sym ps spike_work) * 100 / ($(sym pa spike_work) + 1)))
	say "spike_work in second 1: perf $share %, operf's slices $ours %"
	check '... perf puts 90 % of spike_work in second 1' test "${share:-0}" -ge 90
	check '... and so do the slices, within 5 points' \
		test $((ours - ${share:-0})) -le 5 -a $((${share:-0} - ours)) -le 5
else
	skip 'perf agrees on when spike_work ran' 'perf record cannot run here'
fi

# --- real programs one after the other --------------------------------------
# xz then bzip2 (stripped Debian binaries) on the same input: the slices
# that hold xz's samples (in liblzma) come before those of bzip2's (in
# libbz2), one slice at most holding both
xz=$(command -v xz 2>/dev/null) bz=$(command -v bzip2 2>/dev/null)
if test -n "$xz" && test -n "$bz"; then
	head -c 400000 /dev/urandom | od -An -tx1 >input.txt
	check 'operf --slice=0.25 sh -c "xz -6 -T1; bzip2 -9"' profile seq -e cpu-clock:250000 \
		--slice=0.25 -d s10 \
		sh -c "'$xz' -6 -T1 -c input.txt >/dev/null && '$bz' -9 -c input.txt >/dev/null"
	check '... timeline of liblzma' exits 0 tlz --session-dir=s10 --format=timeline \
		'lib-image:*liblzma*'
	check '... timeline of libbz2' exits 0 tbz --session-dir=s10 --format=timeline \
		'lib-image:*libbz2*'
	# "START SAMPLES" of the slices where the library has samples
	rows() { awk '/^start s/ { t = 1; next } t && $3 > 0 { print $1, $3 }' "$1"; }
	rows tlz.out >lz.rows
	rows tbz.out >bz.rows
	say "slices with liblzma samples: $(tr '\n' ' ' <lz.rows)"
	say "slices with libbz2 samples: $(tr '\n' ' ' <bz.rows)"
	check '... both have samples' test -s lz.rows -a -s bz.rows
	check "... liblzma's last slice is no later than libbz2's first" sh -c "
		test \"\$(awk 'END { print \$1 }' lz.rows)\" = \"\$(head -n 1 bz.rows | cut -d' ' -f1)\" ||
		awk -v a=\"\$(awk 'END { print \$1 }' lz.rows)\" \
		    -v b=\"\$(head -n 1 bz.rows | cut -d' ' -f1)\" 'BEGIN { exit !(a + 0 < b + 0) }'"
	first_b=$(head -n 1 bz.rows | cut -d' ' -f1)
	lz_before=$(awk -v b="$first_b" '$1 + 0 < b + 0 { s += $2 } END { print s + 0 }' lz.rows)
	lz_all=$(awk '{ s += $2 } END { print s + 0 }' lz.rows)
	if test "$lz_before" -gt 0; then
		check "... opreport -l time:-$first_b (before bzip2)" exits 0 seqa \
			--session-dir=s10 -l 'lib-image:*liblzma*' "time:-$first_b"
		check "... liblzma there: the timeline's $lz_before of $lz_all" test \
			"$(awk '/^[0-9]/ { s += $1 } END { print s + 0 }' seqa.out)" = "$lz_before"
	else
		skip '... opreport -l time: before bzip2' 'xz ran within one slice'
	fi
else
	skip 'xz then bzip2 in time order' 'xz or bzip2 is not installed'
fi

# --- lengths, none, append ------------------------------------------------
check 'operf --slice=0.25' profile q -e cpu-clock:250000 --slice=0.25 -d s3 "$spike" 2 1
check '... timeline rows of 0.25 s' sh -c "'$OPREPORT' --session-dir=s3 \
	--format=timeline 2>/dev/null | awk '/^start s/ { t = 1; next }
	t { n++; if (\$2 - \$1 != 0.25) bad = 1 } END { exit bad || n < 7 }'"
check 'operf --slice=100ms: accepted' profile ms --slice=100ms -d s4 "$spike" 0.3 0
check 'operf --slice=0.0001: usage error' sh -c "operf --slice=0.0001 -d s5 true 2>bad.err;
	test \$? = 2 && grep -q 'outside the slice lengths' bad.err"
check 'operf --slice=0 records no slices' profile none --slice=0 -d s6 "$spike" 0.3 0
check '... no slice file' test ! -e s6/samples/current/slices
check '... opreport time:0-1 says why' exits 1 noslices --session-dir=s6 time:0-1
check '... naming the missing file' grep -q 'has no time slices' noslices.err
check 'opreport time:nonsense: usage error' exits 2 badspec --session-dir=s1 time:nonsense
check 'opreport time:9-10: nothing there, exit 1' exits 1 late --session-dir=s1 time:9-10
check '... says what time the slices cover' grep -q 'has samples from 0.000 s to' late.err
cp -R s1 s7
printf 'garbage' | dd of=s7/samples/current/slices bs=1 seek=70 conv=notrunc 2>/dev/null
check 'a damaged slice file: exit 1 naming it' exits 1 damaged --session-dir=s7 time:0-
check '... why' grep -q 'cannot read the time slices' damaged.err
rm -f s7/samples/current/slices
ln -s /etc/passwd s7/samples/current/slices
check 'a symlink in its place: exit 1, not followed' exits 1 link --session-dir=s7 time:0-
check '... not a regular file' grep -q 'not a regular file' link.err
check 'oparchive time:: usage error' sh -c "'$top_builddir/pp/oparchive' --session-dir=s1 \
	-o arch time:0-1 >/dev/null 2>&1; test \$? = 2"

check 'operf ./spike 1 5 then --append ./spike 1 0' sh -c "
	operf -d s8 '$spike' 1 5 >/dev/null 2>&1 && sleep 2 &&
	operf --append -d s8 '$spike' 1 0 >/dev/null 2>&1"
check '... the second run'"'"'s spike_work lies after the first run' sh -c "
	'$OPREPORT' --session-dir=s8 -l 'lib-image:$spike' time:0-1.5 2>/dev/null |
		grep -q ' steady_work\$' &&
	! '$OPREPORT' --session-dir=s8 -l 'lib-image:$spike' time:0-1.5 2>/dev/null |
		grep -q ' spike_work\$' &&
	'$OPREPORT' --session-dir=s8 -l 'lib-image:$spike' time:1.5- 2>/dev/null |
		grep -q ' spike_work\$'"

check 'operf --slice=0, then operf --append with slices' sh -c "
	operf --slice=0 -d s9 '$spike' 0.5 0 >/dev/null 2>&1 &&
	operf --append -d s9 '$spike' 0.5 0 >/dev/null 2>&1"
check '... time:0- warns that the first run is in no slice' exits 0 partial \
	--session-dir=s9 time:0-
check '... in those words' grep -q 'had samples before its time slices began' partial.err
check 'a session sliced from its start does not warn' sh -c "! grep -q 'before its time slices' \
	whole.err"

# --- the daemon -----------------------------------------------------------
if test "$(id -u)" = 0 || test "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0; then
	D=$T/daemon-session
	check 'opcontrol --slice=0.5, --start' \
		sh -c "opcontrol --session-dir='$D' -e cpu-clock:250000 -p none \
			--slice=0.5 >opc.out 2>&1 &&
		       opcontrol --session-dir='$D' --start >>opc.out 2>&1"
	"$spike" 2 1 >/dev/null
	check '... --dump' sh -c "opcontrol --session-dir='$D' --dump >>opc.out 2>&1"
	check '... --status says 0.5 s slices' sh -c "opcontrol --session-dir='$D' --status |
		grep -qx 'Time slices: 0.5 s'"
	check '... oprofiled wrote slices of 0.5 s' sh -c "'$OPREPORT' --session-dir='$D' \
		--format=timeline 'lib-image:$spike' 2>/dev/null | awk '/^start s/ { t = 1; next }
		t { n++; if (\$2 - \$1 != 0.5) bad = 1 } END { exit bad || n < 3 }'"
	check '... spike_work in one second of them' sh -c "'$OPREPORT' --session-dir='$D' \
		--format=timeline 'lib-image:$spike' 2>/dev/null >dtl.out &&
		col=\$(sed -n 's/^  \[\([0-9]*\)\] spike_work (spike)\$/\1/p' dtl.out) &&
		awk -v c=\$((col + 3)) '/^start s/ { t = 1; next }
		t { tot += \$c; v[n++] = \$c }
		END { for (i = 0; i + 1 < n; i++) if (v[i] + v[i + 1] > best) best = v[i] + v[i + 1]
		      exit !(tot > 0 && best * 100 >= tot * 90) }' dtl.out"
	check '... --shutdown' sh -c "opcontrol --session-dir='$D' --shutdown >>opc.out 2>&1"
else
	skip 'oprofiled writes slices' 'system-wide profiling needs root or perf_event_paranoid <= 0'
fi
done_testing
