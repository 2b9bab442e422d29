#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Recorded raw streams (operf --lazy-conversion of the demo program, one
# plain, one with -g -t) replay through the engine deterministically: the
# same sample files and counts every time, equal to the checked-in
# expectation, with every sample record accounted for (counted in the
# stream file itself) and the demo's split in the replayed samples.
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

# stream_counts STREAM: "SAMPLES LOST" read from the stream file itself
# (opd_stream.h's layout): the PERF_RECORD_SAMPLE records in its data
# chunks, and the samples its PERF_RECORD_LOST records say the kernel lost
stream_counts() {
	python3 - "$1" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
(magic, _ver, hsize, _st, _cpus, nr_events, nr_ids, layout_len,
 event_size) = struct.unpack_from("<8sIIQIIIII", data, 0)
assert magic == b"OPNGRAW\0", magic
off = hsize + nr_events * event_size + nr_ids * 16 + layout_len
samples = lost = 0
while off < len(data):
    ctype, _cpu, clen = struct.unpack_from("<IIQ", data, off)
    off += 16
    if ctype == 3:
        break
    if ctype == 1:
        p, end = off, off + clen
        while p < end:
            rtype, _misc, rsize = struct.unpack_from("<IHH", data, p)
            if rtype == 9:
                samples += 1
            elif rtype == 2:
                lost += struct.unpack_from("<QQ", data, p + 8)[1]
            p += rsize
    off += clen
print(samples, lost)
EOF
}

# every sample record of the stream is in a sample file or counted lost,
# once: samples in the plain files + lost samples the engine received ==
# sample records; the kernel's LOST records are the rest of the lost
# samples; the arcs in {cg} files are the arcs the engine counted
all_counted() {	# name [options]
	name=$1; shift
	"$replay" "$@" --dump "$fix/$name.stream" "$T/s-$name.c" >dump 2>log &&
	set -- $(stream_counts "$fix/$name.stream") &&
	records=$1 by_kernel_stream=$2 &&
	total=$(awk '$0 !~ /\{cg\}/ { s += $3 } END { print s + 0 }' dump) &&
	arcs=$(awk '$0 ~ /\{cg\}/ { s += $3 } END { print s + 0 }' dump) &&
	lost=$(sed -n 's/.* samples, \([0-9]*\) lost.*/\1/p' log) &&
	stored=$(sed -n 's/.*: \([0-9]*\) stored,.*/\1/p' log) &&
	by_kernel=$(sed -n 's/.* stored, \([0-9]*\) lost by the kernel.*/\1/p' log) &&
	counted_arcs=$(sed -n 's/.* \([0-9]*\) arcs, .*/\1/p' log) &&
	say "$name: $records sample records, $total in files ($stored stored)," \
	    "$lost lost ($by_kernel by the kernel), $arcs arcs ($counted_arcs counted)" &&
	test "$records" -gt 100 &&
	test "$total" = "$stored" &&
	test "$by_kernel" = "$by_kernel_stream" &&
	test $((total + lost - by_kernel)) = "$records" &&
	test "$arcs" = "$counted_arcs"
}

# the replay's split: checksum_blocks (3 units of work) above 60 % of the
# demo program's own samples
split_holds() {
	"$replay" --dump "$fix/demo.stream" "$T/s-split" >split.dump 2>split.log || return 1
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
	done <split.dump
	say "checksum_blocks $hot of $all"
	test "$all" -gt 0 && test $((hot * 10)) -gt $((all * 6))
}

check "plain stream replays to the same files twice and as expected" replays_as_expected demo
check "-g -t stream replays to the same files twice and as expected" replays_as_expected demo-cg -g -t
if command -v python3 >/dev/null 2>&1; then
	check "every sample record of the plain stream is counted" all_counted demo
	check "every sample record of the -g stream is counted" all_counted demo-cg -g -t
else
	skip "every sample record of the plain stream is counted" "python3 is not installed"
	skip "every sample record of the -g stream is counted" "python3 is not installed"
fi
check "the recorded profile keeps the demo's 3:1 split" split_holds
done_testing
