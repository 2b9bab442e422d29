#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's demo: build the bundled demo program, profile it with operf
# into ./oprofile_data, and report with opreport: the image summary, then
# the symbols holding at least 0.5% of the samples.
# usage: tests/demo.sh SRCDIR BUILDDIR
set -eu
src=$1 build=$2
out=$build/demo
mkdir -p "$out"
cc -O1 -g -fno-omit-frame-pointer -o "$out/demo" "$src/tests/workloads/demo.c"
cd "$out"
rm -rf oprofile_data
"$build/daemon/operf" ./demo 1
echo
echo '$ opreport'
"$build/pp/opreport"
echo
echo '$ opreport --symbols --threshold=0.5'
"$build/pp/opreport" --symbols --threshold=0.5
