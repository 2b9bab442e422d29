#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's demo: build the bundled demo program, profile it with operf
# and show the result.  Until opreport exists this is a minimal dump of
# the demo's own sample file: its hottest offsets, with the function each
# falls in (from nm).
# usage: tests/demo.sh SRCDIR BUILDDIR
set -eu
src=$1 build=$2
out=$build/demo
mkdir -p "$out"
cc -O1 -g -fno-omit-frame-pointer -o "$out/demo" "$src/tests/workloads/demo.c"
cd "$out"
"$build/daemon/operf" ./demo 1
file=$(find oprofile_data/samples/current -path '*{dep}/{root}*/demo/demo/*' -type f | head -n 1)
"$build/pp/odb-dump" --limit 8 "$file" >dump.txt
nm -n demo | awk '$2 ~ /^[tT]$/ { print $1, $3 }' >symbols.txt
# annotate each key with the function it falls in
awk 'NR == FNR { addr[NR] = strtonum_hex($1); name[NR] = $2; n = NR; next }
     function strtonum_hex(h,   i, c, v) { v = 0; h = tolower(h); sub(/^0x/, "", h)
	for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)) - 1; v = v * 16 + c }
	return v }
     /^  0x/ { k = strtonum_hex($1); f = "?"
	for (i = 1; i <= n; i++) if (addr[i] <= k) f = name[i]
	printf "%s  %s\n", $0, f; next }
     { print }' symbols.txt dump.txt
