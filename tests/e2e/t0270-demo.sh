#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's demo does what the README says: tests/demo.sh builds the
# bundled demo program, profiles it with operf and reports; its CPU time
# is split about 3:1 between checksum_blocks and sort_words (within 7
# points: the program measures both and sizes the work to that split).
. "$top_srcdir/tests/lib.sh"
need_perf
command -v cc >/dev/null 2>&1 || skip_all "no C compiler for the demo"

mkdir -p build/daemon build/pp || exit 99
ln -s "$top_builddir/daemon/operf" build/daemon/operf &&
	ln -s "$top_builddir/pp/opreport" build/pp/opreport || exit 99
check 'tests/demo.sh: build, profile, report' \
	sh -c '"$0" "$1" "$2" >demo.out 2>demo.err' "$top_srcdir/tests/demo.sh" "$top_srcdir" "$T/build"
split() {
	c=$(awk '$NF == "checksum_blocks" { print $1 }' demo.out) &&
	s=$(awk '$NF == "sort_words" { print $1 }' demo.out) &&
	say "checksum_blocks $c, sort_words $s" &&
	test -n "$c" -a -n "$s" && near "$c" "$s" 75 7
}
check 'its symbols: checksum_blocks and sort_words about 3:1' split
check 'the README promises that split' grep -q 'split about 3:1 between two functions' "$top_srcdir/README.md"

done_testing
