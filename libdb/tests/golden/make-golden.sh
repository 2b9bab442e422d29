#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate the checked-in golden sample files with mksamples.py (the
# reference writer of the OProfile 1.4 format).  Run from anywhere.
set -e
here=$(cd "$(dirname "$0")" && pwd)
mk=$here/../../../tests/tools/mksamples.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() {	# name N [--big]
	python3 "$here/golden-spec.py" "$2" $3 "$tmp/s" >"$tmp/spec.json"
	python3 "$mk" "$tmp/spec.json" --quiet
	cp "$(find "$tmp/s/samples/current" -type f)" "$here/$1.odb"
	rm -rf "$tmp/s"
}
gen n1 1
gen n127 127
gen n128 128
gen n1000 1000
gen big 3 --big
