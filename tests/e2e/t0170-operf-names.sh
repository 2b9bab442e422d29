#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sample-file names for programs at awkward paths (doc/operf.1, "SAMPLE
# FILE NAMES"): '%', '\' and a leading '{' are escaped, spaces kept; a
# path too long for a name becomes /#long/HASH/BASENAME.  The samples still
# add up to the right program, and the report tools show its real path
# and read its symbols (the session's longnames file).
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

# The report tools resolve /#long/HASH/split back to the program from the
# session's longnames file (oprofile-ng-session(5), LONG NAMES): its path
# is shown, its binary read, and image: selects it by that path.
check 'the session records the long path' \
	grep -qF " $long/split" long/samples/current/longnames
long_report() {
	opreport --session-dir=long -l -f "image:$long/split" >lr.out 2>lr.err
	lr_rc=$?
	test $lr_rc = 0 || { say "opreport: exit status $lr_rc"; sed 's/^/#   /' lr.err; return 1; }
	! grep -q 'cannot find' lr.err || { sed 's/^/#   /' lr.err; return 1; }
	grep -F "$long/split" lr.out | grep -q ' split_three$' &&
	grep -F "$long/split" lr.out | grep -q ' split_one$' &&
	! grep -q '#long' lr.out
}
check 'opreport -l -f shows the real path and its symbols' long_report
long_annotate() {
	opannotate --session-dir=long -a "image:$long/split" >la.out 2>la.err &&
	grep -q 'split_three' la.out && ! grep -q '#long' la.out la.err
}
check 'opannotate -a disassembles it from the real path' long_annotate
done_testing
