#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The disk fills up while operf writes (a small tmpfs, filled once the
# run is under way): operf stops making new sample files, keeps every
# file it wrote whole, exits 1 naming the file and the errno, says what
# share of the samples was lost and why, counts only the sample files
# that exist, mentions operf.log only if it wrote it, and still writes
# stats/ (from the room it kept), so that opreport warns of the loss in
# the same words later.
. "$top_srcdir/tests/lib.sh"
need_perf

test "$(id -u)" = 0 || skip_all "needs root to mount a small tmpfs"
mkdir small || exit 99
mount -t tmpfs -o size=24m tmpfs small 2>mount.err ||
	skip_all "cannot mount a tmpfs here: $(cat mount.err)"
trap 'umount "$T/small" 2>/dev/null; cleanup' EXIT
S=small/s

# 3000 short processes, each with its own sample files (-t): new files
# keep coming after the disk is full
operf -t -d $S "$WORKLOADS/forkstorm" 3000 >run.out 2>run.err &
opid=$!
kill_at_exit $opid
check 'operf writes sample files' wait_until 20 test -d "$S/samples/current/{root}"
dd if=/dev/zero of=small/filler bs=64k >/dev/null 2>&1
check 'the disk is full' sh -c '! dd if=/dev/zero of=small/filler2 bs=4k count=1 2>/dev/null'
reap_within 120 $opid
check 'operf exits 1' test "$status" = 1
check '... naming the file it could not write and the errno' \
	grep -q "^operf: error: cannot write sample file '$T/$S/samples/current/.*': No space left on device$" run.err
check '... and the share lost, by cause' \
	grep -Eq "^operf: warning: [0-9]+ of [0-9]+ samples \([0-9.]+%\) were lost: [0-9]+ whose sample file could not be written" run.err
log_named() {
	grep -q 'see .*operf.log' run.err || return 0
	test -s $S/samples/operf.log
}
check 'operf.log is named only if it was written' log_named
find "$S/samples/current/{root}" "$S/samples/current/{kern}" -type f >files.list 2>/dev/null
nr_files=$(wc -l <files.list)
claimed=$(sed -n 's/^operf: .* written to \([0-9]*\) sample files*[;,].*/\1/p' run.err)
say "$nr_files sample files on disk, $claimed claimed"
check 'the summary counts the sample files that exist' test "$claimed" = "$nr_files"
whole() {
	while read -r f; do
		odb-dump "$f" >/dev/null 2>odb.err || { say "$f: $(cat odb.err)"; return 1; }
	done <files.list
}
check 'every sample file is whole' whole
check 'no temporary file is left' test -z "$(find $S -name '*.tmp' | head -n 1)"
check 'stats/ records the loss (written from the room operf kept)' \
	test -s $S/samples/current/stats/lost_samplefile
check 'session.info is written' test -s $S/samples/current/session.info
check 'opreport reads the session, exit 0' opr rep --session-dir=$S
sed -n 's/^operf: warning: \(.* were lost: [^;]*\).*/\1/p' run.err >lost.operf
sed -n 's/^opreport: warning: \(.* were lost: [^;]*\).*/\1/p' rep.err >lost.opreport
check 'opreport warns of the same loss in the same words' \
	sh -c 'test -s lost.operf && diff -u lost.operf lost.opreport'

# a lazy run on a full disk: its recording cannot be written
rm -f small/filler small/filler2
rm -rf $S
operf -l -d $S "$WORKLOADS/spinner" 20 >lazy.out 2>lazy.err &
opid=$!
kill_at_exit $opid
check 'a lazy run records' wait_until 20 test -s $S/samples/operf.data
dd if=/dev/zero of=small/filler bs=64k >/dev/null 2>&1
kill -INT $opid
reap_within 60 $opid
check 'a lazy run whose recording filled the disk exits 1' test "$status" = 1
check '... saying so' grep -q "^operf: error: cannot write '$T/$S/samples/operf.data': No space left on device" lazy.err

done_testing
