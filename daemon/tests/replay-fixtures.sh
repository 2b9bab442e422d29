#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Recorded raw streams (operf --lazy-conversion of the demo program, one
# plain, one with -g -t) replay through the engine deterministically: the
# same sample files and counts every time, equal to the checked-in
# expectation, with every sample record accounted for.
. "$top_srcdir/tests/lib.sh"

fix=$top_srcdir/daemon/tests/fixtures
replay=$top_builddir/daemon/tests/opd_replay

replays_as_expected() {	# name [options]
	name=$1; shift
	"$replay" "$@" --dump "$fix/$name.stream" "$T/s-$name.1" >"$name.1" 2>"$name.log" &&
	"$replay" "$@" --dump "$fix/$name.stream" "$T/s-$name.2" >"$name.2" 2>>"$name.log" &&
	compare "$name.1" "$name.2" &&
	compare "$fix/$name.expect" "$name.1"
}

# samples in the files + samples lost == sample records in the stream
all_counted() {	# name [options]
	name=$1; shift
	"$replay" "$@" --dump "$fix/$name.stream" "$T/s-$name.c" >dump 2>log &&
	total=$(awk '$0 !~ /\{cg\}/ { s += $3 } END { print s }' dump) &&
	lost=$(sed -n 's/.* samples, \([0-9]*\) lost.*/\1/p' log) &&
	records=$(sed -n 's/^opd_replay: \([0-9]*\) samples.*/\1/p' log) &&
	say "$name: $total in files, $lost lost, $records records" &&
	test "$records" -gt 100 &&
	test $((total + lost)) -ge "$records"
}

# the recording's split: checksum_blocks (3 units of work) above 60 %
split_holds() {
	lo=$((0x$(awk '/checksum_blocks/ { print $1 }' "$fix/demo.symbols")))
	hi=$((0x$(awk '/sort_words/ { print $1 }' "$fix/demo.symbols")))
	hot=0 all=0
	while read -r path key n; do
		case $path in
		*'{dep}/{root}/tmp/demo/cpu-clock'*) ;;
		*) continue ;;
		esac
		all=$((all + n))
		if test $((key)) -ge $lo && test $((key)) -lt $hi; then
			hot=$((hot + n))
		fi
	done <"$fix/demo.expect"
	say "checksum_blocks $hot of $all"
	test $((hot * 10)) -gt $((all * 6))
}

check "plain stream replays to the same files twice and as expected" replays_as_expected demo
check "-g -t stream replays to the same files twice and as expected" replays_as_expected demo-cg -g -t
check "every sample record of the plain stream is counted" all_counted demo
check "every sample record of the -g stream is counted" all_counted demo-cg -g -t
check "the recorded profile keeps the demo's 3:1 split" split_holds
done_testing
