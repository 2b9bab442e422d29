#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf -c (--separate-cpu): sample files per cpu, numbered as the online
# cpus are; with -t as well, per thread and cpu.
. "$top_srcdir/tests/lib.sh"
need_perf

threads=$WORKLOADS/threads
forker=$WORKLOADS/forker
online=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
	for (c = r[1]; c <= r[n]; c++) printf "%d ", c } }' /sys/devices/system/cpu/online)

# names_like SESSION ERE: every sample file's SPEC matches ERE
names_like() {
	find "$1/samples/current" -type f -path '*{dep}*' | sed 's|.*/||' >"$1.names" &&
	test -s "$1.names" && ! grep -Ev "$2" "$1.names"
}
# cpus_online ATTR: every cpu of the cpu lines is online
cpus_online() {
	for c in $(awk -F '\t' '$1 == "cpu" { print $2 }' "$1"); do
		case " $online" in *" $c "*) ;; *) say "cpu $c is not online ($online)"; return 1 ;; esac
	done
}

# cpus_add_up SESSION ATTR: the per-cpu files hold what operf says it
# wrote (operf.log), and that is every sample it received but lost
# (stats/: lost samples, less those the kernel lost before sending them)
cpus_add_up() {
	log=$1/samples/operf.log
	received=$(sed -n 's/^samples received: //p' "$log" | tail -n 1)
	written=$(sed -n 's/^samples written to sample files: //p' "$log" | tail -n 1)
	lost=0
	for f in "$1"/samples/current/stats/lost_*; do
		case $f in
		*/lost_bt_no_mapping|*/lost_records_by_kernel) continue ;;
		esac
		test -f "$f" && lost=$((lost + $(cat "$f")))
	done
	cpus=$(attr_sum "$2" cpu)
	say "per cpu: $cpus; operf received $received, wrote $written, lost $lost"
	test -n "$received" && test "$cpus" = "$written" &&
	test $((written + lost)) = "$received"
}

check 'operf --separate-cpu ./threads exits 0' profile run -c -d sess "$threads"
check 'attribute.py reads every sample file' attribute sess attr
check 'every file name has a cpu number and tgid, tid all' \
	names_like sess '^[^.]+\.[0-9]+\.[0-9]+\.all\.all\.[0-9]+$'
check 'the cpus are online cpus' cpus_online attr
check 'thread_three is hottest summed over cpus' \
	test "$(attr_first attr symbol 4 3="$threads")" = thread_three
check 'the cpu totals add up to what operf received and did not lose' \
	cpus_add_up sess attr
three=$(attr_sum attr symbol 4=thread_three)
one=$(attr_sum attr symbol 4=thread_one)
check 'the split summed over cpus is 75% +- 5' near "$three" "$one" 75 5

check 'operf -t -c ./forker exits 0' profile tc -t -c -d tc "$forker"
check 'attribute.py reads every sample file (-t -c)' attribute tc tc.attr
check 'every file name has tgid, tid and cpu numbers' \
	names_like tc '^[^.]+\.[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$'
check 'the cpus are online cpus (-t -c)' cpus_online tc.attr
check 'child_work in two processes' \
	test "$(attr_distinct tc.attr thread 2 6=child_work)" = 2
done_testing
