#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sample files whose descriptor claims more than the file holds: a table
# bigger than the file, a huge table with hardly a node used, a table
# whose used nodes lie in a hole of a sparse file, and an 8 GiB sparse
# file behind a valid header.  opreport and odb-dump refuse each one
# quickly, naming the file and the reason, without mapping or touching
# gigabytes (oprofile-ng-formats(5), SAMPLE FILES: what readers check).
. "$top_srcdir/tests/lib.sh"
use_fixtures

check 'mksamples.py writes the basic session' mksession basic
cur=samples/current
file=$(cd out/basic/$cur && find . -type f -name 'cpu*')
file=${file#./}
check 'its one sample file is found' test -n "$file"

# The file systems the tests run on must keep holes, or the sparse cases
# would write gigabytes: probe with a 1 GiB file.
truncate -s 1G probe.sparse 2>/dev/null || rm -f probe.sparse
test -f probe.sparse && test "$(du -k probe.sparse | cut -f1)" -lt 1024 ||
	skip_all "the test directory's file system does not keep sparse files"
rm -f probe.sparse

# craft NAME SLOTS USED SIZE: session NAME, basic's with its file's
# descriptor saying SLOTS node slots, USED - 1 used nodes, and the file
# cut or extended (a hole) to SIZE bytes; the header stays valid
craft() {
	rm -rf "$1" && cp -R out/basic "$1" &&
	python3 - "$1/$cur/$file" "$2" "$3" "$4" <<'EOF'
import struct, sys
path, slots, used, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
with open(path, "r+b") as f:
    f.seek(72)
    f.write(struct.pack("<II", slots, used))
    f.truncate(size)
EOF
}
layout() {	# bytes of a file with $1 node slots
	echo $((104 + 20 * $1))
}

# refused NAME WHY: opreport and odb-dump on session NAME's file exit 1
# within 30 s, each naming the file and WHY
refused() {
	timeout 30 "$OPREPORT" --session-dir="$1" >"$1.out" 2>"$1.err"
	r_rc=$?
	test $r_rc = 1 || { say "opreport: exit status $r_rc (124: too slow)"; return 1; }
	printf "opreport: error: cannot read sample file '%s': %s\n" \
		"$T_REAL/tools/$1/$cur/$file" "$2" >"$1.want" &&
	compare "$1.want" "$1.err" && test ! -s "$1.out" || return 1
	timeout 30 "$top_builddir/pp/odb-dump" "$1/$cur/$file" >"$1.dout" 2>"$1.derr"
	r_rc=$?
	test $r_rc = 1 || { say "odb-dump: exit status $r_rc (124: too slow)"; return 1; }
	printf "odb-dump: error: cannot open sample file '%s': %s\n" \
		"$1/$cur/$file" "$2" >"$1.dwant" &&
	compare "$1.dwant" "$1.derr"
}

# 2^28 slots is a 5 GiB table; the file holds one page
craft beyond $((1 << 28)) 1 4096
check 'a table of 2^28 slots in a 4 KiB file: refused' \
	refused beyond 'node table extends past the end of the file'

# a 5 GiB sparse file of 2^28 slots, no node used: walking its buckets
# alone would read 1 GiB of holes
craft empty $((1 << 28)) 1 "$(layout $((1 << 28)))"
check 'a sparse 5 GiB table with no node used: refused' \
	refused empty 'node table larger than twice its used nodes (writers grow only full tables)'

# 2^24 slots all "used", the nodes a hole: 256 MiB of zeros read as samples
craft hole $((1 << 24)) $((1 << 24)) "$(layout $((1 << 24)))"
check 'used nodes in a hole of a sparse file: refused' \
	refused hole 'used nodes lie in a hole of the file (never written)'
# the same with a table a copy would take whole (under 8 MiB)
craft smallhole $((1 << 18)) $((1 << 18)) "$(layout $((1 << 18)))"
check '... also for a file small enough to be copied' \
	refused smallhole 'used nodes lie in a hole of the file (never written)'

# an 8 GiB sparse file behind a valid header of 2^28 slots
craft long $((1 << 28)) 1 $((8 << 30))
check 'an 8 GiB sparse file behind a valid header: refused' \
	refused long 'file is longer than its node table'

# Refused before anything is mapped: with the address space limited to
# 1 GiB, a mapping of the 5 or 8 GiB file would fail with ENOMEM instead
# of the reasons above.  (Sanitizers reserve terabytes of address space:
# where our tools cannot run under the limit at all, this is skipped.)
limited() {
	(ulimit -v 1048576 && "$@")
}
if limited "$OPREPORT" --session-dir=out/basic >probe.out 2>&1; then
	check '... empty, under a 1 GiB address-space limit' limited refused empty \
		'node table larger than twice its used nodes (writers grow only full tables)'
	check '... hole, under the limit' limited refused hole \
		'used nodes lie in a hole of the file (never written)'
	check '... 8 GiB, under the limit' limited refused long \
		'file is longer than its node table'
else
	for what in empty hole '8 GiB'; do
		skip "... $what, under a 1 GiB address-space limit" \
			"opreport cannot run under the limit here (sanitizers?)"
	done
fi

# a real file grown past 128 slots and reopened stays readable: 200 keys
grown() {
	cat >fixtures/grown.json <<'EOF' &&
{"cpu_type": "i386/skylake",
 "profiles": [{"binary": "build/fixture_nopie", "samples": {"0x1000": 1}}]}
EOF
	python3 - fixtures/grown.json <<'EOF' &&
import json, sys
spec = json.load(open(sys.argv[1]))
spec["profiles"][0]["samples"] = {hex(0x1000 + 4 * i): 1 + i for i in range(200)}
json.dump(spec, open(sys.argv[1], "w"))
EOF
	mksession grown &&
	exits 0 grown --session-dir=out/grown && test ! -s grown.err &&
	grep -q '^ *20100 100.000 fixture_nopie$' grown.out
}
check 'a legitimately grown table (200 nodes in 256 slots) still reads' grown

done_testing
