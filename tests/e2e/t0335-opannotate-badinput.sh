#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opannotate on bad input.  A corrupt sample file (bad magic, wrong
# version, cut short, a looping hash chain) is skipped with opreport's
# warning naming it, and the rest is annotated with exactly its counts
# (exit 0); when no file is left: exit 1, each named.  A source file
# shorter than the lines the debug information names (a truncated copy,
# an empty one) is warned about once, and the lines it lacks are shown as
# "<line N>" with their counts.  A source without a final newline, or
# with CRLF line ends, loses no line.  Never a crash.
. "$top_srcdir/tests/lib.sh"
use_fixtures
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
command -v addr2line >/dev/null 2>&1 || skip_all "no addr2line (binutils) for the oracle"
pie=$FIX/build/fixture_pie

check 'mksamples.py writes the callgraph session' mksession callgraph
check 'mksamples.py writes the basic session' mksession basic
cur=samples/current
app_file=$(cd out/callgraph/$cur && find . -path '*fixture_pie/{dep}/{root}*fixture_pie/cpu*' ! -path '*{cg}*')
libc_file=$(cd out/callgraph/$cur && find . -path '*/{dep}/{root}/usr/lib/*libc.so.6/cpu*' ! -path '*{cg}*')
libc=$(sed -n 's|^ *"\(/[^"]*libc\.so\.6\)": {$|\1|p' out/callgraph.expect.json | head -n 1)
check 'the two plain sample files of the callgraph session are found' \
	test -n "$app_file" -a -n "$libc_file" -a -n "$libc"

# corrupt NAME FILE PYTHON: session NAME, a copy of callgraph with FILE
# (of samples/current) changed by PYTHON (tests/lib.sh: corrupt_copy)
corrupt() {
	corrupt_copy out/callgraph "$1" "$cur/$2" "$3"
}

# skipped NAME FILE WHY MODE: opannotate MODE (-s or -a) on session NAME
# exits 0, warns once that FILE cannot be read (WHY), and annotates the
# other image with exactly its counts
skipped() {
	s_n=$1 s_f=$2 s_why=$3 s_mode=$4
	ann_exits 0 "$s_n$s_mode" --session-dir="$s_n" "$s_mode" &&
	printf "opannotate: warning: cannot read sample file 'T/tools/%s/%s/%s': %s\n" \
		"$s_n" "$cur" "${s_f#./}" "$s_why" | norm >"$s_n$s_mode.want" &&
	grep '^opannotate: warning: cannot read sample file' "$s_n$s_mode.err" | norm >"$s_n$s_mode.got" &&
	compare "$s_n$s_mode.want" "$s_n$s_mode.got" &&
	if test "$s_f" = "$libc_file"; then
		s_img=$pie s_tot=1715
	else
		s_img=$libc s_tot=13
	fi &&
	if test "$s_mode" = -a; then
		oracle asm "$s_n" "$s_n$s_mode.out" --strict --image "$s_img" --total "$s_tot"
	elif test "$s_img" = "$pie"; then
		oracle source "$s_n" "$s_n$s_mode.out" --strict --image "$s_img" --total "$s_tot"
	else	# libc's lines: addr2line is no oracle for them (see annotate_oracle.py)
		! grep -q 'fixture' "$s_n$s_mode.out" &&
		test "$(counted "$s_n$s_mode.out" | awk '{ n += $1 } END { print n }')" = 13
	fi
}

for which in app libc; do
	eval "f=\$${which}_file"
	corrupt magic-$which "$f" 'b[0:4] = b"DAF\n"'
	check "$which file with a bad magic: skipped, the rest annotated (-s)" \
		skipped magic-$which "$f" 'bad magic number' -s
	check "... and the rest disassembled (-a)" \
		skipped magic-$which "$f" 'bad magic number' -a
	corrupt version-$which "$f" 'b[4] = 0x12'
	check "$which file of version 0x12: skipped" \
		skipped version-$which "$f" 'unsupported sample file version' -s
	corrupt cut-$which "$f" 'del b[1000:]'
	check "$which file cut inside its node table: skipped" \
		skipped cut-$which "$f" 'node table extends past the end of the file' -a
	corrupt empty-$which "$f" 'del b[:]'
	check "$which file of 0 bytes: skipped" skipped empty-$which "$f" 'empty file' -s
done
corrupt loop "$libc_file" 'struct.pack_into("<I", b, 72 + 32 + 16 + 12, 1)'
check 'a hash chain that loops: skipped, no hang' \
	skipped loop "$libc_file" 'hash chain loops back on itself' -s

all_bad() {	# MODE: nothing usable left: exit 1, each file named, then why
	corrupt allbad "$app_file" 'b[0:4] = b"XXXX"' &&
	corrupt allbad2 "$libc_file" 'b[4] = 0x99' &&
	cp "allbad2/$cur/$libc_file" "allbad/$cur/$libc_file" &&
	ann_exits 1 "allbad$1" --session-dir=allbad "$1" && test ! -s "allbad$1.out" &&
	test "$(tail -n 1 "allbad$1.err")" = 'opannotate: error: no sample file could be read (2 skipped)' &&
	test "$(grep -c "^opannotate: warning: cannot read sample file '" "allbad$1.err")" = 2
}
check 'every file corrupt: exit 1, each named, nothing annotated (-s)' all_bad -s
check '... (-a)' all_bad -a

# --- source files that changed ------------------------------------------------
FIXR=$(cd "$FIX" && pwd -P)
check 'opannotate -s on the basic session' ann_exits 0 ref --session-dir=out/basic -s
name=$(sed -n 's/^ \* Total samples for file : "\(.*\)"$/\1/p' ref.out)
dir=${name%/*}
mkdir -p short empty nonl crlf &&
	head -n 20 "$name" >short/fixture.c && : >empty/fixture.c &&
	printf '%s' "$(cat "$name")" >nonl/fixture.c &&
	sed 's/$/\r/' "$name" >crlf/fixture.c || exit 99
md5sum short/fixture.c >short.md5
short() {	# DIR LINES: the copy in DIR has LINES lines
	ann_exits 0 "sh-$1" --session-dir=out/basic -s -b "$dir" -d "$1" &&
	printf "opannotate: warning: the source file '%s' has %s lines but the debug information names line 53: it changed since the binary was built\n" \
		"$1/fixture.c" "$2" >"sh-$1.want" &&
	compare "sh-$1.want" "sh-$1.err" &&
	oracle source out/basic "sh-$1.out" --strict --total 1834 --src-path "$name=$1/fixture.c"
}
check 'a source cut to 20 lines: warned once; its lines, then the others as <line N>' short short 20
lines_beyond() {
	counted sh-short.out | sed -n 's/^\( *[0-9]* *[0-9.]* :<line [0-9]*>\).*/\1/p' >lb.got &&
	cat >lb.want <<'EOF' &&
     7  0.3817 :<line 21>
   500 27.2628 :<line 22>
   300 16.3577 :<line 28>
    20  1.0905 :<line 30>
     2  0.1091 :<line 41>
     5  0.2726 :<line 53>
EOF
	compare lb.want lb.got &&
	test "$(grep -c '^               :' sh-short.out)" = 19 &&
	! grep -q 'source not found' sh-short.out
}
check '... exactly: 20 lines of text (one with samples), six beyond' lines_beyond
check 'an empty source: warned once, every sampled line as <line N>' short empty 0
check "... not called missing" sh -c "! grep -q 'source not found' sh-empty.out"
check 'with --output-dir too: warned, the copy has the <line N> lines' sh -c "
	$OPANNOTATE --session-dir=out/basic -s -b '$dir' -d short -o od >od.out 2>od.err &&
	test ! -s od.out && grep -q 'has 20 lines but the debug information names line 53' od.err &&
	grep -q '^   500 27.2628 :<line 22> /\* compute_beta total:    507 27.6445 \*/\$' 'od$T_REAL/tools/short/fixture.c'"
check 'the short copy is unchanged' md5sum -c --quiet short.md5
no_newline() {
	ann_exits 0 nonl --session-dir=out/basic -s -b "$dir" -d nonl && test ! -s nonl.err &&
	sed '/Command line/d' ref.out >nonl.want && sed '/Command line/d' nonl.out >nonl.got &&
	compare nonl.want nonl.got
}
check 'a source without its last newline: the same annotation, no warning' no_newline
crlf() {
	ann_exits 0 crlf --session-dir=out/basic -s -b "$dir" -d crlf && test ! -s crlf.err &&
	test "$(grep -c '' crlf.out)" = "$(grep -c '' ref.out)" &&
	oracle source out/basic crlf.out --strict --total 1834 --src-path "$name=crlf/fixture.c"
}
check 'a source with CRLF line ends: every line, each count' crlf
done_testing
