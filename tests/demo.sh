#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's demo: build the bundled demo program, run it, and show a
# sample file for it.  Until operf exists (issue 3) the sample file is
# written by the format's reference generator from the demo's symbols,
# with the demo's intended 3:1 split; operf replaces this with a profile.
# usage: tests/demo.sh SRCDIR BUILDDIR
set -eu
src=$1 build=$2
out=$build/demo
mkdir -p "$out"
cc -O1 -g -fno-omit-frame-pointer -o "$out/demo" "$src/tests/workloads/demo.c"
"$out/demo" 0.5
cat >"$out/spec.json" <<JSON
{"session_dir": "$out/oprofile_data",
 "profiles": [{"binary": "$out/demo",
   "symbol_samples": {"checksum_blocks": 3000, "sort_words": 1000, "main": 10}}]}
JSON
python3 "$src/tests/tools/mksamples.py" "$out/spec.json" --quiet
find "$out/oprofile_data/samples/current" -type f -name '*.all' \
	-exec "$build/pp/odb-dump" {} +
