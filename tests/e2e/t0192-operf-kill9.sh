#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf killed with SIGKILL at random moments, 20 times each for a plain
# run, a --callgraph run and a --lazy-conversion run: every sample file
# left is whole (odb-dump reads it), opreport reads every session, and
# every recording a lazy run left converts with operf --convert.  A
# lazy run killed once its command has run 3 s of CPU time (two threads)
# keeps all but the last second of it: at most 2 s of CPU time lost.
. "$top_srcdir/tests/lib.sh"
need_perf

TRIALS=${OP_KILL_TRIALS:-20}
spinner=$WORKLOADS/spinner

# a pseudo-random delay in [0.05, 1.25) s for trial $1 of kind $2
delay() {
	awk -v t="$1" -v k="$2" 'BEGIN { srand(t * 7919 + length(k) * 104729);
		printf "%.2f", 0.05 + rand() * 1.2 }'
}

# kill_run DIR ARGS...: operf ARGS into DIR, SIGKILLed after a delay
kill_run() {
	k_dir=$1; shift
	operf -d "$k_dir" "$@" "$spinner" 3 >"$k_dir.out" 2>"$k_dir.err" &
	k_pid=$!
	sleep "$k_delay"
	k_child=$(pgrep -P $k_pid)
	kill -KILL $k_pid 2>/dev/null
	wait $k_pid 2>/dev/null
	test -n "$k_child" && kill -KILL $k_child 2>/dev/null
	return 0
}

# every sample file under DIR is read whole by odb-dump; counts in $nr_files
files_whole() {
	find "$1/samples" -type f -name '*.all.all.all' >files.list
	while read -r f; do
		odb-dump "$f" >/dev/null 2>odb.err || { say "unreadable: $f"; cat odb.err; return 1; }
		nr_files=$((nr_files + 1))
	done <files.list
	return 0
}

# opreport reads the session (or says there is no session yet)
report_reads() {
	opreport --session-dir="$1" >rep.out 2>rep.err
	rc=$?
	test $rc = 0 && return 0
	# killed before current/ was made: "no sample files" is the truth
	test $rc = 1 && grep -q 'no sample files' rep.err && return 0
	say "opreport on $1 exited $rc"; cat rep.err
	return 1
}

for kind in plain callgraph lazy; do
	case $kind in
	plain) opts= ;;
	callgraph) opts=-g ;;
	lazy) opts=-l ;;
	esac
	bad=0 nr_files=0 converted=0 before=0
	i=0
	while test $i -lt "$TRIALS"; do
		i=$((i + 1))
		k_delay=$(delay $i $kind)
		d=$kind$i
		# shellcheck disable=SC2086
		kill_run "$d" $opts
		if test $kind = lazy; then
			if test -f "$d/samples/operf.data"; then
				if operf --convert -d "$d" >conv.out 2>conv.err; then
					converted=$((converted + 1))
				else
					say "trial $i (killed after $k_delay s): --convert failed"
					cat conv.err; bad=$((bad + 1))
				fi
			else
				before=$((before + 1))
			fi
		fi
		files_whole "$d" || { say "trial $i (killed after $k_delay s)"; bad=$((bad + 1)); }
		report_reads "$d" || { say "trial $i (killed after $k_delay s)"; bad=$((bad + 1)); }
		rm -rf "$d"
	done
	extra=
	test $kind = lazy && extra=", $converted converted, $before killed before recording"
	say "$kind: $TRIALS kills, $nr_files sample files checked, $bad failed$extra"
	check "$kind: $TRIALS runs killed at random moments leave whole, readable files" \
		test $bad = 0
done

# how much a killed lazy run keeps
operf -l -d keep "$spinner" 20 >keep.out 2>keep.err &
opid=$!
kill_at_exit $opid
wait_until 10 pgrep -P $opid >/dev/null
child=$(pgrep -P $opid)
hz=$(getconf CLK_TCK)
# the command's CPU time so far, in clock ticks (utime + stime, both threads)
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$child/stat"; }
ran_3s() { test "$(cpu_ticks)" -ge $((3 * hz)); }
wait_until 30 ran_3s
ticks=$(cpu_ticks)
kill -KILL $opid; wait $opid 2>/dev/null; kill -KILL "$child" 2>/dev/null
check 'the recording of a killed lazy run is on disk' test -s keep/samples/operf.data
check 'operf --convert converts it' profile conv --convert -d keep
check '... saying that it was cut short' grep -q 'recording was cut short' conv.err
# the samples written, whether or not some were lost
samples=$(sed -n -e 's/^operf: \([0-9]*\) samples (.*) written to .*/\1/p' \
	-e 's/^operf: [0-9]* samples taken: \([0-9]*\) written to .*/\1/p' conv.err)
# 250 us per sample: what the command ran, less a second of its two threads
want=$(awk -v t="$ticks" -v hz="$hz" 'BEGIN { w = (t / hz - 2) * 4000 * 0.9; print (w > 0 ? int(w) : 0) }')
say "command ran $ticks ticks of $hz/s; $samples samples converted, at least $want wanted"
check 'all but the last second of the run is kept' at_least "${samples:-0}" "$want"
check_fail 'a second --convert has nothing to convert' profile conv2 --convert -d keep
check '... and says so' grep -q "no recording to convert: '$T/keep/samples/operf.data' does not exist" conv2.err
check 'the report reads the converted run' opr rep --session-dir=keep

done_testing
