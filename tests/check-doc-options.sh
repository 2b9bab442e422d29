#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every long option a tool's --help lists appears in its man page
# doc/TOOL.1.in, and every tool has a man page (git's t0450 idea).
. "$top_srcdir/tests/lib.sh"

TOOLS="pp/odb-dump daemon/operf pp/opannotate pp/opreport"

documented() {	# tool-path
	name=${1##*/}
	page=$top_srcdir/doc/$name.1.in
	test -f "$page" || { say "no man page $page"; return 1; }
	"$top_builddir/$1" --help >help.txt 2>&1 || { say "$name --help failed"; return 1; }
	sed 's/\\-/-/g' "$page" >page.txt
	bad=0
	for opt in $(grep -o -- '--[a-z][a-z0-9-]*' help.txt | sort -u); do
		if ! grep -q -- "$opt" page.txt; then
			say "$name: $opt is in --help but not in doc/$name.1.in"
			bad=1
		fi
	done
	test $bad -eq 0
}

for tool in $TOOLS; do
	check "${tool##*/}: every --help option is in its man page" documented "$tool"
done
done_testing
