#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every long option a tool's --help lists appears in its man page
# doc/TOOL.1.in (doc/TOOL.8.in for the daemon), and every tool has a
# man page (git's t0450 idea).
# make install installs the pages with the version filled in, the XML
# schema, the README and the licence (COPYING, the GPL the SPDX headers
# name).
. "$top_srcdir/tests/lib.sh"

# TOOL-PATH[:SECTION], section 1 unless given
TOOLS="daemon/ocount pp/odb-dump daemon/opcontrol daemon/ophelp daemon/opimport daemon/opjitconv daemon/operf daemon/oprofiled:8 pp/opannotate pp/oparchive pp/opgprof pp/opreport pp/optop"

documented() {	# tool-path section
	name=${1##*/}
	page=$top_srcdir/doc/$name.$2.in
	test -f "$page" || { say "no man page $page"; return 1; }
	"$top_builddir/$1" --help >help.txt 2>&1 || { say "$name --help failed"; return 1; }
	sed 's/\\-/-/g' "$page" >page.txt
	bad=0
	for opt in $(grep -o -- '--[a-z][a-z0-9-]*' help.txt | sort -u); do
		if ! grep -q -- "$opt" page.txt; then
			say "$name: $opt is in --help but not in doc/$name.$2.in"
			bad=1
		fi
	done
	test $bad -eq 0
}

for tool in $TOOLS; do
	case $tool in
	*:*) section=${tool##*:} tool=${tool%:*} ;;
	*) section=1 ;;
	esac
	check "${tool##*/}: every --help option is in its man page" \
		documented "$tool" "$section"
done

version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
install_docs() {
	make -s -C "$top_builddir/doc" install DESTDIR="$T/stage" >inst.log 2>&1 &&
	make -s -C "$top_builddir" install-dist_docDATA DESTDIR="$T/stage" >>inst.log 2>&1 ||
		{ sed 's/^/# /' inst.log; return 1; }
}
check 'make install: the documents' install_docs
pages() {
	n=0
	for p in $(find "$T/stage" -path '*/man[1578]/*' -type f); do
		n=$((n + 1))
		grep -q '@VERSION@' "$p" && { say "$p keeps @VERSION@"; return 1; }
		grep -q "^\.TH .*\"oprofile-ng $version\"" "$p" ||
			{ say "$p: no version $version in .TH"; return 1; }
	done
	say "$n man pages"
	test "$n" -ge 9
}
check "... man pages with the version ($version) filled in" pages
docs() {
	d=$(find "$T/stage" -type d -path '*/doc/oprofile-ng') &&
	test -f "$d/opreport.xsd" -a -f "$d/README.md" -a -f "$d/COPYING" &&
	grep -q 'GNU GENERAL PUBLIC LICENSE' "$d/COPYING" &&
	grep -q 'Version 2, June 1991' "$d/COPYING"
}
check '... the schema, the README and the licence (GPL version 2)' docs
spdx() {	# every SPDX header names the licence COPYING holds
	git -C "$top_srcdir" grep -h -o 'SPDX-License-[I]dentifier: [A-Za-z0-9.+-]*' |
		sort -u >spdx.txt &&
	test -s spdx.txt && test "$(cut -d' ' -f2 spdx.txt | sort -u)" = GPL-2.0-or-later
}
if git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
	check 'every SPDX header says GPL-2.0-or-later' spdx
else
	skip 'every SPDX header says GPL-2.0-or-later' 'not a git checkout'
fi
done_testing
