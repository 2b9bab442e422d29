#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opgprof writes a gmon.out that binutils' gprof reads:
#  - a fixture session (mksamples.py) whose bins pass 65535: the counts are
#    scaled, stderr says by how much, gprof still reads the file and puts
#    the hot function first;
#  - bad input: a spec matching no binary, one matching several (the
#    candidates named), an unwritable -o: a clean non-zero exit and no
#    gmon.out, not even a part;
#  - with operf: split's hot function is gprof -p's first and opreport
#    -l's, the shares within 3 points; callchain under operf --callgraph
#    gives gprof -q the arcs main -> cg_caller -> cg_leaf; -t 50 leaves
#    out split_one.
. "$top_srcdir/tests/lib.sh"
command -v gprof >/dev/null 2>&1 || skip_all "gprof (binutils) is not installed"
OPGPROF=$top_builddir/pp/opgprof
test -x "$OPGPROF" || skip_all "opgprof is not built"

# gp NAME ARGS...: opgprof ARGS, NAME.out and NAME.err; its exit status
gp() {
	g_name=$1; shift
	"$OPGPROF" "$@" >"$g_name.out" 2>"$g_name.err"
}
# status WANT NAME ARGS...: gp exits with WANT (stderr shown when not)
status() {
	s_want=$1; shift
	gp "$@"
	s_rc=$?
	test "$s_rc" = "$s_want" && return 0
	say "exit status $s_rc, expected $s_want; its stderr:"
	sed 's/^/#   /' "$1.err"
	return 1
}
# flat BINARY GMON: gprof -p -b's rows "share name", most first
flat() {
	gprof -p -b "$1" "$2" >flat.txt 2>flat.err &&
		awk 'NF >= 4 && $1 ~ /^[0-9.]+$/ && $NF !~ /^[0-9.]+$/ { print $1, $NF }' \
			flat.txt
}
nothing_left() {	# no gmon.out and no temporary beside it
	test ! -e gmon.out && test ! -e gmon.out.tmp
}

# --- scaling, on a fixture session ----------------------------------------
use_fixtures
cat >fixtures/huge.json <<'EOF'
{
  "session_dir": "out/huge",
  "cpu_type": "i386/skylake",
  "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0}],
  "profiles": [
    {"binary": "build/fixture_nopie",
     "samples_vma": {"0x401170": 3000000, "0x40118d": 1000}}
  ]
}
EOF
nopie=$(cd "$FIX/build" && pwd -P)/fixture_nopie
check 'mksamples.py writes a session with 3000000 samples at one address' \
	mksession huge
check 'opgprof on it exits 0' \
	status 0 scaled --session-dir=out/huge -o scaled.gmon "lib-image:$nopie"
check '... says the counts were scaled by 1/46' \
	grep -q 'counts scaled by 1/46 ' scaled.err
check '... and gprof -p reads the file' flat "$nopie" scaled.gmon
first_over() {	# BINARY GMON PERCENT: gprof's first function has more
	flat "$1" "$2" >first.txt &&
		awk -v p="$3" 'NR == 1 && $1 > p { ok = 1 } END { exit !ok }' first.txt
}
check '... with one function at 99% or more' first_over "$nopie" scaled.gmon 99

# --- bad input --------------------------------------------------------------
check 'a spec matching no binary: exit 1' \
	status 1 none --session-dir=out/huge lib-image:/no/such/binary
check '... with a reason' grep -q 'error: no sample files match' none.err
check '... and no gmon.out' nothing_left
mkdir two && python3 "$MKSAMPLES" fixtures/callgraph.json --out two/s \
	>two/log 2>&1 || say "$(cat two/log)"
check 'a spec matching several binaries: exit 2' status 2 several --session-dir=two/s
check '... naming the candidates' \
	sh -c 'grep -q "selects [0-9]* binaries, opgprof needs one: .*libc" several.err'
check '... with a hint' grep -q '^hint: name one binary with lib-image:' several.err
check '... and no gmon.out' nothing_left
check 'an unwritable output path: exit 1' \
	status 1 unwritable --session-dir=out/huge -o no/such/dir/gmon.out "lib-image:$nopie"
check '... saying so' \
	grep -q "error: cannot write 'no/such/dir/gmon.out': No such file" unwritable.err
mkdir ro && echo old >ro/gmon.out && chmod a-w ro
if test "$(id -u)" = 0; then
	skip 'a read-only directory keeps its gmon.out' 'root writes anyway'
else
	check 'a read-only directory: exit 1' \
		status 1 ro --session-dir=out/huge -o ro/gmon.out "lib-image:$nopie"
	check '... the old gmon.out untouched' grep -qx old ro/gmon.out
fi
chmod u+w ro

# --- live profiles ------------------------------------------------------------
if ! operf -e cpu-clock -d .need-perf true >need-perf.out 2>&1; then
	skip 'opgprof on operf sessions' "perf_events cannot be used here"
	done_testing
	exit
fi
split=$WORKLOADS/split
cc=$WORKLOADS/callchain

check 'operf ./split' profile run -d split-sess "$split"
check 'opgprof lib-image:split' \
	status 0 split --session-dir=split-sess "lib-image:$split"
check '... writes gmon.out (the default name)' test -s gmon.out
check 'opreport -l lib-image:split' \
	exits 0 syms -l -n --session-dir=split-sess "lib-image:$split"
gflat() { flat "$split" gmon.out >gflat; }
check 'gprof -p reads it' gflat
check 'the hottest function is the same for gprof and opreport' \
	test "$(awk 'NR == 1 { print $2 }' gflat)" = \
	     "$(awk 'NR == 1 { print $NF }' syms.out)"
share_agrees() {	# SYMBOL: gprof's share within 3 points of opreport's
	g=$(awk -v s="$1" '$2 == s { print $1 }' gflat)
	o=$(awk -v s="$1" '$NF == s { print $2 }' syms.out)
	total=$(awk '{ n += $1 } END { print n }' syms.out)
	awk -v g="${g:-0}" -v o="${o:-0}" -v s="$1" 'BEGIN {
		d = g - o; if (d < 0) d = -d
		if (d > 3) { printf "# %s: gprof %s%%, opreport %s%%\n", s, g, o; exit 1 }
	}'
}
for f in split_three split_one; do
	check "$f: gprof's share within 3 points of opreport's" share_agrees $f
done
check 'opgprof -t 50: only the symbols with half the samples' \
	status 0 split50 --session-dir=split-sess -t 50 -o t50.gmon "lib-image:$split"
t50() { flat "$split" t50.gmon >t50.txt && test "$(awk '{ print $2 }' t50.txt)" = split_three; }
check '... so gprof -p lists split_three alone' t50

check 'operf --callgraph ./callchain' profile run --callgraph -d cg-sess "$cc"
check 'opgprof -o cg.gmon lib-image:callchain' \
	status 0 cg --session-dir=cg-sess -o cg.gmon "lib-image:$cc"
graph() { gprof -q -b "$cc" cg.gmon >graph.txt 2>graph.err; }
check 'gprof -q reads it' graph
# the lines under a function's "[N] ... name [N]" line, up to the next
# "---", are its callees
callee_of() {	# CALLER CALLEE: the graph has the arc
	awk -v a="$1" -v b="$2" '
		/^\[[0-9]+\]/ { entry = $(NF - 1) == a; next }
		/^---/ { entry = 0 }
		entry && $(NF - 1) == b { found = 1 }
		END { exit !found }' graph.txt
}
not_callee_of() { ! callee_of "$@"; }
check 'gprof -q shows main -> cg_caller' callee_of main cg_caller
check 'gprof -q shows cg_caller -> cg_leaf' callee_of cg_caller cg_leaf
check 'and no cg_leaf -> cg_caller' not_callee_of cg_leaf cg_caller
done_testing
