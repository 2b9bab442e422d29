#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# libdb writes the bytes that mksamples.py, the format's reference writer,
# writes for the same keys: at the table sizes where OProfile's growth
# changes the layout, and for a count needing two nodes.
. "$top_srcdir/tests/lib.sh"
need_python

golden=$top_srcdir/libdb/tests/golden
writer=$top_builddir/libdb/tests/odb_golden_write

same_bytes() {	# N [--big]
	python3 "$golden/golden-spec.py" "$@" "$T/s$1" >"spec$1.json" &&
	python3 "$MKSAMPLES" "spec$1.json" --quiet &&
	ref=$(find "$T/s$1/samples/current" -type f) &&
	"$writer" "$@" "ours$1.odb" &&
	cmp "$ref" "ours$1.odb"
}

for n in 1 127 128 129 255 256 1000 5000 70000; do
	check "libdb file with $n keys is byte-identical to mksamples.py's" same_bytes $n
done
check "a 5000000000 count is split as mksamples.py splits it" same_bytes 10 --big
done_testing
