#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sample-file names for programs at awkward paths (doc/operf.1, "SAMPLE
# FILE NAMES"): '%', '\' and a leading '{' are escaped, spaces kept; a
# path too long for a name becomes /#long/HASH/BASENAME.  The samples still
# add up to the right program.
. "$top_srcdir/tests/lib.sh"
need_perf

# the physical path: the one the kernel reports
here=$(pwd -P)
odd="$here/odd dir/50%/{braces}/back\\slash"
mkdir -p "$odd"
cp "$WORKLOADS/split" "$odd/split"
esc=$(printf '%s' "$odd/split" | sed -e 's/%/%25/g' -e 's/\\/%5C/g' -e 's|/{|/%7B|g')

check 'operf on a program at an odd path exits 0' profile odd -d odd "$odd/split"
check 'its files are named with the escaped path' \
	test -d "odd/samples/current/{root}$esc/{dep}/{root}$esc"
check 'attribute.py reads every sample file' attribute odd odd.attr
three=$(attr_sum odd.attr symbol 2="$odd/split" 3="$odd/split" 4=split_three)
one=$(attr_sum odd.attr symbol 2="$odd/split" 3="$odd/split" 4=split_one)
check 'unescaped, the app is the program: split_three hottest' \
	test "$(attr_first odd.attr symbol 4 3="$odd/split")" = split_three
check 'with its 3:1 split (75% +- 5)' near "$three" "$one" 75 5

# five 250-byte components: over the 1024 bytes an image part may take
long=$here
for c in a b c d e; do
	long=$long/$(printf "%0250d" 0 | tr 0 "$c")
done
mkdir -p "$long"
cp "$WORKLOADS/split" "$long/split"
check 'operf on a program at a 1250-byte path exits 0' profile long -d long "$long/split"
long_names() {
	find long/samples/current -type f -path '*{dep}*' >long.files &&
	test -s long.files &&
	! grep -Ev '^long/samples/current/\{root\}/#long/[0-9a-f]{16}/split/\{dep\}/' long.files >long.other ||
	{ say "elsewhere:"; head -n 5 long.other | while read -r f; do say "  $f"; done; return 1; }
}
check 'its files are under {root}/#long/HASH/split' long_names
short_components() {
	find long/samples/current | tr / '\n' | awk 'length($0) > 255 { bad = 1 } END { exit bad }'
}
check 'no path component is longer than 255 bytes' short_components
check 'attribute.py reads every sample file' attribute long long.attr
one_app() {
	test "$(attr_distinct long.attr image 2)" = 1 ||
	{ awk -F '\t' '$1 == "image" { print "# " $2 " " $3 " " $4 }' long.attr; return 1; }
}
check 'all samples are under that one app (kernel ones while exec loads it too)' one_app
check 'with the samples of the program (>= 400 in its own image)' \
	at_least "$(attr_sum long.attr symbol 4='(missing)')" 400
done_testing
