#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opannotate --source on sessions with exactly known samples: every line
# of every file has the count that addr2line gives for the session's
# addresses (tools/annotate_oracle.py), and no other line has one; the
# text of each line is the file's; the "NAME total:" comments sit on the
# line of each function's first address and the "NAME inlined here:"
# comments on each call site of inlined code, with its samples; the file
# totals, percentages and the order of files.  The basic fixture also
# gives OProfile 1.4's opannotate --source lines exactly.  The header comment block, and
# the filters: -t, --include-file, --exclude-file, -i, -e, -x.
. "$top_srcdir/tests/lib.sh"
use_fixtures
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
command -v addr2line >/dev/null 2>&1 || skip_all "no addr2line (binutils) for the oracle"

make_multi

# --- basic ---------------------------------------------------------------
check 'mksamples.py writes the basic session' mksession basic
check 'opannotate --source exits 0' ann_exits 0 src --session-dir=out/basic --source
check '... with nothing on stderr' test ! -s src.err
check 'every line has the count addr2line gives for the samples, no other line has one' \
	oracle source out/basic src.out --strict --total 1834

# OProfile 1.4's opannotate --source on this session
excerpt() {
	cat >excerpt.want <<EOF &&
 * Total samples for file : "$FIX/fixture.c"
 *   1834 100.000
  1000 54.5256 :	for (unsigned long i = 0; i < n; i++) /* compute_alpha total:   1000 54.5256 */
     7  0.3817 :	unsigned long acc = 1;
   500 27.2628 :	for (unsigned long i = 1; i < n; i++) /* compute_beta total:    507 27.6445 */
   300 16.3577 :{ /* compute_gamma total:    320 17.4482 */
    20  1.0905 :	for (unsigned long i = 0; i < n; i++) {
     2  0.1091 :	return x * x + 7; /* helper_delta total:      2  0.1091 */
     5  0.2726 :{ /* main total:      5  0.2726 */
EOF
	{ grep -e '^ \* Total samples for file' -e '^ \*  *[0-9]' src.out &&
	  counted src.out; } >excerpt.got &&
	compare excerpt.want excerpt.got
}
check "OProfile 1.4's lines, exactly" excerpt
whole_file() {	# every line of fixture.c, in order, after the columns
	sed -n '/^ \* Total samples for file/,$p' src.out | sed -n '7,$p' |
		cut -c17- | sed 's| /\* [a-z_]* total: .*\*/$||' >body.got &&
	compare "$FIX/fixture.c" body.got
}
check 'the whole file follows its header, line by line' whole_file

# header NAME SESSION INTERPRETATION-LINES...: NAME.out starts with the
# comment block: NAME.cmd, those lines, opreport's CPU and event lines
header() {
	h_name=$1 h_session=$2
	shift 2
	opr "$h_name-opreport" --session-dir="$h_session" -l || return 1
	{
		echo '/* '
		printf ' * Command line: %s \n' "$(cat "$h_name.cmd")"
		echo ' * '
		echo ' * Interpretation of command line:'
		for l in "$@"; do echo " * $l"; done
		echo ' * '
		sed -n '/^samples /q; s/^/ * /p' "$h_name-opreport.out"
		echo ' */'
	} >"$h_name.hwant" &&
	head -n "$(wc -l <"$h_name.hwant")" "$h_name.out" >"$h_name.hgot" &&
	compare "$h_name.hwant" "$h_name.hgot"
}
echo "$OPANNOTATE --session-dir=out/basic --source" >src.cmd
check 'the header: command line, interpretation, CPU and event lines' \
	header src out/basic 'Output annotated source file with samples' 'Output all files'

# a control: the oracle sees a count off by one, a misplaced total and a
# changed line of text
wrong() {	# SED-SCRIPT
	sed "$1" src.out >wrong.out &&
	! oracle source out/basic wrong.out --strict --total 1834 >wrong.log
}
check 'control: a count changed by one is caught' wrong 's/^  1000 54.5256 :/  1001 54.5256 :/'
check 'control: a count on a line of its own is caught' \
	wrong 's/^               :	return acc;$/     1  0.0545 :	return acc;/'
check 'control: a function total moved a line down is caught' \
	wrong '/main total/{s| /\* main total:.*||;n;s|$| /* main total:      5  0.2726 */|}'
check 'control: a wrong percentage is caught' wrong 's/ 0.3817 :/ 0.3818 :/'

# --- multi: three files, inlined code at its own lines and call sites ----
check 'mksamples.py writes the multi session' mksession multi
check 'opannotate --source on it exits 0' ann_exits 0 multi --session-dir=out/multi -s
check 'every count, comment, total and percentage of the three files' \
	oracle source out/multi multi.out --strict --total 3700
inline_sums() {	# the call-site summaries add up to what is shown inside
	mix_twice=$(sed -n 's|.*return mix(x) + mix(x + 1); /\* mix inlined here: *\([0-9]*\) .*|\1|p' multi.out) &&
	twice_b=$(sed -n 's|.*acc = twice(acc + i); /\* twice inlined here: *\([0-9]*\) .*|\1|p' multi.out) &&
	twice_line=$(sed -n 's|^ *\([0-9]*\) .*:	return mix(x) + mix(x + 1);.*|\1|p' multi.out) &&
	test -n "$mix_twice" -a -n "$twice_b" &&
	test "$twice_b" = $((mix_twice + ${twice_line:-0})) ||
	{ say "twice: $twice_b, mix in it: $mix_twice + ${twice_line:-0}"; return 1; }
}
check '"twice inlined here" = its own line + "mix inlined here" inside it' inline_sums
check 'files come most samples first' sh -c \
	"grep '^ \* Total samples for file' multi.out | sed 's|.*/||' | tr -d '\"' | tr '\n' ' ' | grep -qx 'multi_main.c multi_b.c multi.h '"

# --- -t: files under the threshold are left out ---------------------------
# (multi_main.c 1793 = 48.5 %, multi_b.c 989 = 26.7 %, multi.h 918 = 24.8 %)
check '-t 25 exits 0' ann_exits 0 t25 --session-dir=out/multi -s -t 25
check '... and shows the two files over 25 %, with every count' \
	oracle source out/multi t25.out --strict --total 3700 --threshold 25
check '... of which there are two' test "$(grep -c '^ \* Total samples for file' t25.out)" = 2
echo "$OPANNOTATE --session-dir=out/multi -s -t 25" >t25.cmd
check '... its header says the threshold' header t25 out/multi \
	'Output annotated source file with samples' \
	'Output files where samples count reach 25% of the samples'
check '-t 40: only multi_main.c' ann_exits 0 t40 --session-dir=out/multi -s -t 40
check '... with every count' \
	oracle source out/multi t40.out --strict --total 3700 --threshold 40
t_none() {
	ann_exits 1 t60 --session-dir=out/multi -s -t 60 && test ! -s t60.out &&
	echo 'opannotate: error: no source file passes the threshold and file filters' >t60.want &&
	compare t60.want t60.err
}
check '-t 60: no file passes: exit 1, said' t_none

# --- --include-file / --exclude-file --------------------------------------
files_only() {	# NAME GLOB... -- OPTIONS: the files matching GLOBs, every count
	fo_name=$1; shift
	fo_globs=
	while test "$1" != --; do fo_globs="$fo_globs --only-file $1"; shift; done
	shift
	ann_exits 0 "$fo_name" --session-dir=out/multi -s "$@" &&
	oracle source out/multi "$fo_name.out" --strict --total 3700 $fo_globs &&
	test -s "$fo_name.out"
}
set -f
check '--include-file=multi_b.c (a base name)' \
	files_only if1 multi_b.c -- --include-file=multi_b.c
check '--include-file=*.h,*_b.c (globs, two files)' \
	files_only if2 '*.h' '*_b.c' -- '--include-file=*.h,*_b.c'
check "--include-file with the file's path" \
	files_only if3 "$FIX/multi_main.c" -- "--include-file=$FIX/multi_main.c"
check '--include-file=*/fixtures/multi_* (a path glob)' \
	files_only if4 'multi_*' -- '--include-file=*/fixtures/multi_*'
check '--exclude-file=multi.h' \
	files_only xf1 '*.c' -- --exclude-file=multi.h
check '--include-file=multi*  --exclude-file=*_b.c' \
	files_only xf2 multi_main.c multi.h -- '--include-file=multi*' '--exclude-file=*_b.c'
set +f
no_file() {
	ann_exits 1 if0 --session-dir=out/multi -s --include-file=nothing.c &&
	test ! -s if0.out &&
	echo 'opannotate: error: no source file passes the threshold and file filters' >if0.want &&
	compare if0.want if0.err
}
check '--include-file matching no file: exit 1, said' no_file

# --- -i / -e: symbols -----------------------------------------------------
# percentages of the selected symbols' samples (the oracle's default with
# --symbol), as OProfile 1.4's opannotate gives them
syms_only() {	# NAME SYMBOL... -- OPTIONS: the samples of SYMBOLs only
	so_name=$1; shift
	so_syms=
	while test "$1" != --; do so_syms="$so_syms --symbol $1"; shift; done
	shift
	ann_exits 0 "$so_name" --session-dir=out/basic -s "$@" &&
	oracle source out/basic "$so_name.out" --strict $so_syms
}
set -f
check '-i compute_alpha,main' syms_only i1 compute_alpha main -- -i compute_alpha,main
check '-i compute_[ab]* (a glob)' syms_only i2 compute_alpha compute_beta -- -i 'compute_[ab]*'
check '-e compute_* (a glob)' syms_only e1 helper_delta main -- -e 'compute_*'
check '-i compute_* -e compute_beta' \
	syms_only ie compute_alpha compute_gamma -- -i 'compute_*' -e compute_beta
check '-i on the multi session: func_b alone (its inlined code in multi.h too)' \
	sh -c "$OPANNOTATE --session-dir=out/multi -s -i func_b >ib.out 2>ib.err &&
	       python3 $ORACLE source out/multi ib.out --strict --symbol func_b &&
	       grep -q 'multi.h' ib.out"
set +f

# --- PIE, a library, -x -----------------------------------------------------
check 'mksamples.py writes the callgraph session' mksession callgraph
pie=$FIX/build/fixture_pie
check 'opannotate --source on the PIE session exits 0' \
	ann_exits 0 pie --session-dir=out/callgraph --source
check "fixture.c's lines have the counts of fixture_pie's samples" \
	oracle source out/callgraph pie.out --image "$pie" --total 1728
check 'fixture.c comes first (1715 of 1728 samples)' \
	sh -c "grep -m 1 '^ \* Total samples for file' pie.out | grep -q '/fixture.c\"\$'"
libc=$(sed -n 's|^ *"\(/[^"]*libc\.so\.6\)": {$|\1|p' out/callgraph.expect.json | head -n 1)
if test -n "$libc" && grep -q '"printf": 9' out/callgraph.expect.json &&
	grep -q 'printf total:      9  0.5208 \*/' pie.out; then
	check "libc's printf: its total on a line of libc's own source file" \
		sh -c "grep -B 12 'printf total:' pie.out | grep -q '^ \* Total samples for file : .*printf.c\"\$'"
else
	skip "libc's printf: its total on a line of libc's own source file" \
		'no debug information for libc here (libc6-dbg)'
fi
check '-x: only the application (libc is a dependent image)' \
	ann_exits 0 pie-x --session-dir=out/callgraph --source -x
check '... every count, and percentages of its 1715 samples' \
	oracle source out/callgraph pie-x.out --image "$pie" --total 1715 --strict

# --- two columns (one per cpu) ----------------------------------------------
check 'mksamples.py writes the threads session' mksession threads
check 'opannotate -s --merge=tid,tgid exits 0 (one column per cpu)' \
	ann_exits 0 cols --session-dir=out/threads -s --merge=tid,tgid
columns() {
	grep -E '^ *[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+ +:' cols.out >cols.got &&
	cat >cols.want <<'EOF' &&
   100 100.000    50 67.5676   :	for (unsigned long i = 0; i < n; i++) /* compute_alpha total:    100 100.000    50 67.5676 */
     0       0    10 13.5135   :	for (unsigned long i = 1; i < n; i++) /* compute_beta total:      0       0    10 13.5135 */
     0       0     7  9.4595   :{ /* main total:      0       0     7  9.4595 */
EOF
	compare cols.want cols.got && grep -q '^ \*    100 100.000    67 90.5405$' cols.out
}
check '... each line and total with a count per cpu' columns
check '... and the header names each column' \
	sh -c "grep -qx ' \* Samples on CPU 0' cols.out && grep -qx ' \* Samples on CPU 1' cols.out"
done_testing
