#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport --format=pprof writes what go tool pprof (Debian's golang-go)
# reads, run with -symbolize=none so that the names come from the file:
#  - the callgraph fixture session with the known stack set of
#    tests/tools/fixture_stacks.py: -top's flat counts per function and
#    its total are exactly opreport -l's, -traces has the known stacks
#    with their counts (as --format=folded has them), also when the
#    leaves are far apart (fixture_stacks.py's WIDE), the comments say
#    the stacks are whole; the same session without the stack file: a
#    warning, a comment saying there are none, the same flat profile;
#    -i keeps one function; the build-id of the binary is the mapping's;
#  - the fixture session with two events: two sample types
#    (-sample_index), each with opreport's counts, the first one shown
#    by default;
#  - a differential is a usage error, an -o that cannot be written is
#    exit 1 and leaves nothing;
#  - operf --callgraph on callchain: -top's flat counts are opreport
#    -l's, its time the run's start and its File: the program, -traces
#    has main -> cg_caller -> cg_leaf, -list cg_leaf shows the lines of
#    callchain.c; split under two events: two sample types with
#    opreport's totals.
. "$top_srcdir/tests/lib.sh"
use_fixtures
command -v go >/dev/null 2>&1 ||
	skip_all 'go is not installed (Debian package golang-go): go tool pprof reads the files'
# go tool pprof wants a home and a build cache it can write
HOME=$T/home GOCACHE=$T/home/gocache GOFLAGS= GOTOOLCHAIN=local
export HOME GOCACHE GOFLAGS GOTOOLCHAIN
mkdir -p "$HOME" || exit 99
go tool pprof -h >"$T/gohelp" 2>&1 ||
	grep -q -- '-top' "$T/gohelp" ||
	skip_all "go tool pprof does not run here: $(head -n 1 "$T/gohelp")"

# gp NAME ARGS...: go tool pprof -symbolize=none ARGS into NAME.gp
gp() {
	g_n=$1; shift
	go tool pprof -symbolize=none "$@" >"$g_n.gp" 2>"$g_n.gperr" && return 0
	say "go tool pprof $* failed:"
	sed 's/^/#   /' "$g_n.gperr"
	return 1
}

# top NAME FILE [ARGS...]: -top's "FLAT FUNCTION" lines summed by
# function, most first, then by name; its total in NAME.total
top() {
	t_n=$1 t_f=$2; shift 2
	gp "$t_n" -top -nodecount=100000 -nodefraction=0 -edgefraction=0 "$@" "$t_f" ||
		return 1
	sed -n 's/^Showing nodes accounting for .* of \([0-9]*\) total$/\1/p' \
		"$t_n.gp" >"$t_n.total"
	awk '/^ *flat  *flat%/ { on = 1; next }
	     on && $1 ~ /^[0-9]+$/ && $1 > 0 { n[$NF] += $1 }
	     END { for (f in n) print n[f], f }' "$t_n.gp" | sort -k1,1nr -k2,2
}

# opl NAME OPTIONS...: opreport -l -n's count of class COL (default 1)
# summed by symbol name, as top prints them; the total in NAME.total
opl() {
	o_n=$1; shift
	exits 0 "$o_n" -l -n "$@" || return 1
	awk -v c="${COL:-1}" '$1 ~ /^[0-9]+$/ { v = $(2 * c - 1); n[$NF] += v; s += v }
	     END { for (f in n) if (n[f] > 0) print n[f], f; print s > "/dev/stderr" }' \
		"$o_n.out" 2>"$o_n.total" | sort -k1,1nr -k2,2
}

# traces NAME: NAME.gp's -traces as folded lines "ROOT;...;LEAF COUNT",
# summed by text, in byte order; one-frame traces left out (names may
# have spaces: "[libc.so.6 0x0-0xff]")
traces() {
	awk '/^-+\+/ { if (nf > 1) print s "\t" c; nf = 0; next }
	     /^ +app:/ { next }
	     /^ +[0-9]+ +[^ ]/ && nf == 0 { c = $1; sub(/^ +[0-9]+ +/, ""); s = $0; nf = 1; next }
	     nf > 0 && /^ +[^ ]/ { f = $0; sub(/^ +/, "", f); s = f ";" s; nf++ }
	     END { if (nf > 1) print s "\t" c }' "$1.gp" |
		awk -F '\t' '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | LC_ALL=C sort
}

same_top() {	# NAME.top NAME.opl, and the totals
	compare "$2" "$1" && test "$(cat "${1%.*}.total")" = "$(cat "${2%.*}.total")" &&
		test -s "$1"
}

# --- the callgraph fixture, with its known stacks ---------------------------
check 'mksamples.py writes the callgraph fixture session' mksession callgraph
C=--session-dir=out/callgraph
check 'opreport --format=pprof without a stack file exits 0' \
	exits 0 ns "$C" --format=pprof -o ns.pb.gz
check '... warns that there are no whole stacks' \
	grep -q 'warning: no whole call stacks: the session has no stack file' ns.err
check '... and the file is gzip' sh -c 'gzip -t ns.pb.gz'
top_of() {	# NAME FILE [ARGS...]: top's lines into NAME.top
	to_n=$1; shift
	top "$to_n" "$@" >"$to_n.top"
}
opl_of() {	# NAME OPTIONS...: opl's lines into NAME.opl
	ol_n=$1; shift
	opl "$ol_n" "$@" >"$ol_n.opl"
}
check 'go tool pprof -top reads it' top_of ns ns.pb.gz
check '... a comment says there are no whole stacks' \
	grep -q '^No whole call stacks: the session has no stack file' ns.gp
check 'opreport -l on it' opl_of nsl "$C"
check '... flat counts and total are opreport -l'"'"'s' same_top ns.top nsl.opl
check '... compute_alpha first with 1000' grep -qx '1000 compute_alpha' ns.top

check 'with a stack file of known stacks' \
	python3 "$top_srcdir/tests/tools/fixture_stacks.py" out/callgraph "$FIX/build/fixture_pie"
check 'opreport --format=pprof exits 0' exits 0 st "$C" --format=pprof -o st.pb.gz
check '... without a warning' test ! -s st.err
check '... and writes nothing to stdout' test ! -s st.out
check 'go tool pprof -top reads it' top_of st st.pb.gz
check '... a comment says the stacks are whole' \
	grep -q "^Samples are the whole call stacks of the session's stack file" st.gp
check '... flat counts and total are still opreport -l'"'"'s' same_top st.top nsl.opl
check 'opreport --format=folded on it' exits 0 fo "$C" --format=folded
check 'go tool pprof -traces reads it' gp st -traces st.pb.gz
sed 's/^fixture_pie;//' fo.out | LC_ALL=C sort >fo.want
known_traces() {
	traces st >st.traces && test -s fo.want && compare fo.want st.traces
}
check '... the stacks of several frames are the known ones, with their counts' \
	known_traces
check '... main;run_all;compute_alpha 9 among them' grep -qx 'main;run_all;compute_alpha 9' st.traces
# the same with stacks at addresses whose images span more than 64 bits
# between them (the locations are then sorted by image and address apart)
check 'a copy whose stack file has leaves far apart' \
	sh -c 'rm -rf out/wide && cp -a out/callgraph out/wide &&
	       python3 "$1/tests/tools/fixture_stacks.py" out/wide "$2" 2 0 1' \
	sh "$top_srcdir" "$FIX/build/fixture_pie"
check 'opreport --format=pprof on it' exits 0 wi --session-dir=out/wide --format=pprof -o wi.pb.gz
check 'opreport --format=folded on it' exits 0 wf --session-dir=out/wide --format=folded
wide_traces() {
	gp wi -traces wi.pb.gz && traces wi >wi.traces &&
		sed 's/^fixture_pie;//' wf.out | LC_ALL=C sort >wf.want &&
		test "$(wc -l <wf.want)" -eq "$(($(wc -l <fo.want) + 3))" && compare wf.want wi.traces
}
check '... its -traces are the folded stacks, the three far ones too' wide_traces
check '... each sample has its application as a label' grep -q '^ *app: *fixture_pie$' st.gp
cum_main() {	# main's cumulative count: the stacks through it
	gp cum -top -cum -nodecount=100 -nodefraction=0 st.pb.gz &&
		awk '$NF == "main" { print $4 }' cum.gp | grep -qx 21
}
check '... main'"'"'s cumulative count is its 5 samples and the 16 of stacks through it' cum_main
build_id() {
	want=$(LC_ALL=C readelf -n "$FIX/build/fixture_pie" |
		sed -n 's/^ *Build ID: *//p') &&
		test -n "$want" && grep -qx "Build ID: $want" st.gp
}
if command -v readelf >/dev/null 2>&1; then
	check 'the mapping has the binary'"'"'s build-id' build_id
else
	skip 'the mapping has the build-id' 'readelf is not installed'
fi
include_one() {
	exits 0 inc "$C" --format=pprof -i compute_beta -o inc.pb.gz &&
		top inc inc.pb.gz >inc.top && test "$(cat inc.top)" = '500 compute_beta'
}
check '-i compute_beta: that function alone, with its samples' include_one
threshold() {
	exits 0 thr "$C" --format=pprof -t 20 -o thr.pb.gz && top thr thr.pb.gz >thr.top &&
		test "$(cut -d' ' -f2 thr.top | tr '\n' ' ')" = 'compute_alpha compute_beta '
}
check '-t 20: compute_alpha and compute_beta' threshold

# --- two events -------------------------------------------------------------
# tests/tools/fixtures/twoevents.json: fixture_nopie's samples under two events
check 'mksamples.py writes a session of two events' mksession twoevents
E=--session-dir=out/twoevents
check 'opreport --format=pprof on it' exits 0 ev "$E" --format=pprof -o ev.pb.gz
# sample_type NAME FILE INDEX TYPE SESSION: -sample_index=INDEX is TYPE,
# with the counts of opreport -l's column INDEX + 1
sample_type() {
	top_of "$1" "$2" -sample_index="$3" && COL=$(($3 + 1)) opl_of "$1l" "$5" &&
		grep -qx "Type: $4" "$1.gp" && same_top "$1.top" "$1l.opl"
}
check '-sample_index=0 is cpu_clk_unhalted, with opreport'"'"'s counts' \
	sample_type ev0 ev.pb.gz 0 cpu_clk_unhalted "$E"
check '-sample_index=1 is inst_retired, with opreport'"'"'s counts' \
	sample_type ev1 ev.pb.gz 1 inst_retired "$E"
check '... main has its 7 samples there' grep -qx '7 main' ev1.top
check 'without -sample_index, go tool pprof shows the first event' \
	sh -c 'go tool pprof -symbolize=none -top ev.pb.gz 2>/dev/null | grep -qx "Type: cpu_clk_unhalted"'


# --- bad cases --------------------------------------------------------------
check 'a differential profile is a usage error' \
	exits 2 diff --format=pprof "$C" '{' '}' '{' '}'
check '... naming the format' grep -q 'cannot be shown with --format=pprof' diff.err
check '--format=pprof -X is a usage error' exits 2 px "$C" --format=pprof -X
: >afile
check '-o under a file (not a directory) exits 1' \
	exits 1 unw "$C" --format=pprof -o afile/out.pb.gz
check '... says why' grep -q "cannot write 'afile/out.pb.gz'" unw.err
check '... and leaves nothing' sh -c 'test -z "$(ls -A afile* | grep -v "^afile$")"'
check '-o: a write that fails leaves the old file, no temporary' \
	half_written "$C" --format=pprof

# --- operf sessions ---------------------------------------------------------
if ! operf -e cpu-clock -d "$T/.np" true >np.out 2>&1; then
	skip 'pprof files of operf sessions' "perf_events cannot be used here: $(head -n 1 np.out)"
	done_testing
	exit
fi
cc=$WORKLOADS/callchain
check 'operf --callgraph ./callchain' profile cgrun --callgraph -d cg "$cc"
check 'opreport --format=pprof on it' exits 0 cc --session-dir=cg --format=pprof -o cc.pb.gz
check 'go tool pprof -top reads it' top_of cc cc.pb.gz
check 'opreport -l on it' opl_of ccl --session-dir=cg
check '... flat counts and total are opreport -l'"'"'s' same_top cc.top ccl.opl
check '... cg_leaf first, over 100 samples' \
	sh -c 'head -n 1 cc.top | grep -q " cg_leaf$" && test "$(cat cc.total)" -gt 100'
started_time() {	# -top's Time: is session.info's start, as go prints it
	s=$(sed -n 's/^started //p' cg/samples/current/session.info 2>/dev/null) &&
		test -n "$s" && want=$(date -d "$s" '+%b %-d, %Y at %-I:%M%P (%Z)') &&
		grep -qxF "Time: $want" cc.gp
}
check '... its time is when the run started' started_time
check '... its first mapping (go tool pprof'"'"'s File:) is the program' \
	grep -qx 'File: callchain' cc.gp
check 'go tool pprof -traces reads it' gp cc -traces cc.pb.gz
chain_trace() {
	traces cc >cc.traces && grep -q 'main;cg_caller;cg_leaf [0-9]*$' cc.traces
}
check '... a stack main -> cg_caller -> cg_leaf' chain_trace
check '... most samples are in such stacks' \
	sh -c 's=$(awk "/main;cg_caller;cg_leaf [0-9]*\$/ { s += \$NF } END { print s + 0 }" cc.traces) &&
		test $((s * 100)) -ge $(($(cat cc.total) * 80))'
check 'go tool pprof -list cg_leaf reads it' \
	gp ccl -list '^cg_leaf$' cc.pb.gz
list_lines() {	# cg_leaf's source, its samples on the line calling burn()
	grep -q '^ROUTINE =* cg_leaf in .*/callchain\.c$' ccl.gp &&
		grep -Eq '^ +[0-9]+ +[0-9]+ +[0-9]+:.*burn\(' ccl.gp
}
check '... shows callchain.c, the samples of inlined burn() at its call' list_lines

split=$WORKLOADS/split
check 'operf -e cpu-clock:250000,task-clock:500000 ./split' \
	profile tworun -e cpu-clock:250000,task-clock:500000 -d two "$split"
check 'opreport --format=pprof on it' exits 0 tw --session-dir=two --format=pprof -o tw.pb.gz
check '... two sample types: -sample_index=0 is cpu_clock, opreport'"'"'s counts' \
	sample_type tw0 tw.pb.gz 0 cpu_clock --session-dir=two
check '... -sample_index=1 is task_clock, opreport'"'"'s counts' \
	sample_type tw1 tw.pb.gz 1 task_clock --session-dir=two
done_testing
