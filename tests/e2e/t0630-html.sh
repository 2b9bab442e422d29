#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport --format=html (issue 13), the page loaded in headless Chromium
# (Debian's chromium; skipped without it):
#  - the callgraph fixture session (no stack file): the page says its
#    flame graph is from call-graph arcs only; the trie splits
#    compute_alpha's 1000 samples between its callers run_all (40 calls)
#    and compute_gamma (12): 770 and 230; its total is every sample; the
#    symbol table is opreport -l's, row for row; the image table has the
#    image summary's lines of the application's images; -t 10 keeps the
#    rows -l -t 10 keeps, and the flame graph its total; two events are
#    two columns of counts, as -l has them; what a session lost (samples,
#    arcs, throttled events) is in the header; asked (in the address) to
#    search and zoom, the page matches compute_alpha's 1000 samples and
#    zooms into run_all; to filter and sort the symbol table, it shows the
#    rows that match, in the order asked;
#  - nothing in the page points outside it (no http(s)://, src=, href=
#    or url() but '#' anchors and data:);
#  - Chromium runs the page's scripts without an error: #errors stays
#    empty and its log has no console error; a page with a broken script
#    shows both (the checks can fail);
#  - a stack file of 100000 distinct stacks beside the fixture session:
#    the page renders (the times go to the log), its trie has every stack;
#  - operf --callgraph ./callchain (main -> cg_caller -> cg_leaf): the
#    page says "from whole call stacks", the frame drawn with most samples
#    of its own is cg_leaf, a search for ^cg_ matches the samples of the
#    stacks through them, the symbol table's counts are opreport -l's
#    exactly, the header lines (CPU, event, the note of a fallback on
#    cpu-clock) are -l's, a 1400x1000 screenshot is a picture (more than
#    50 colours); operf without --callgraph: "call-graph arcs"; per
#    thread: arcs, saying why, and with --merge=all stacks again; a C++
#    program's template names are escaped in the page, and the DOM's
#    symbol table and flame graph have them as -l names them;
#  - a differential profile with --format=html is a usage error.
. "$top_srcdir/tests/lib.sh"
need_python
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip_all "chromium is not installed (Debian's chromium)"
PAGE="python3 $top_srcdir/tests/tools/html_page.py"

# render HTML NAME [#HASH]: Chromium runs the page (#HASH: what it asks
# the page for: search=RE, zoom=NAME, bench): NAME.dom is the DOM after
# its scripts, NAME.log Chromium's log (console messages included); with
# bench in real time (virtual time would make the page's timings up)
render() {
	r_time=--virtual-time-budget=5000
	case ${3:-} in *bench*) r_time=--run-all-compositor-stages-before-draw ;; esac
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$T/chromium" --no-first-run \
		--enable-logging=stderr --v=0 "$r_time" \
		--window-size=1400,1000 --dump-dom "file://$(pwd -P)/$1${3:-}" \
		>"$2.dom" 2>"$2.log" && test -s "$2.dom"
}
# no_page_errors NAME: #errors of NAME.dom is empty, the log has no
# uncaught error or console message of the page
no_page_errors() {
	e=$($PAGE errors "$1.dom")
	if test -n "$e"; then
		say "the page's errors: $e"
		return 1
	fi
	if grep -E 'Uncaught|CONSOLE' "$1.log" >&2; then
		say "console errors in $1.log"
		return 1
	fi
}
# nothing_outside FILE: no reference out of the page
nothing_outside() {
	$PAGE outside "$1" >"$1.refs" || return 1
	test -s "$1.refs" || return 0
	say "references outside the page:"
	sed 's/^/#   /' "$1.refs"
	return 1
}
state() {	# NAME ATTR
	$PAGE state "$1.dom" "$2"
}
# same_rows HTMLDOM LOUT [K]: the symbol table (count and % of each of K
# events, default 1, and the symbol) of the page is that of opreport -l's
# output LOUT, in the same order
same_rows() {
	$PAGE rows "$1" symbols-table | awk -F '\t' -v k="${3:-1}" '{
		l = ""; for (i = 1; i <= 2 * k; i++) l = l $i "\t"; print l $NF
	}' >"$1.rows" &&
	awk -v k="${3:-1}" '/^[0-9]+ +[0-9.e+-]+ / {
		l = ""; for (i = 1; i <= 2 * k; i++) { l = l $i "\t"; $i = "" }
		if (img) $(2 * k + 1) = ""
		sub(/^ +/, ""); print l $0
	}
	/^samples .*image name/ { img = 1 }' "$2" >"$2.rows" &&
	test -s "$2.rows" && compare "$2.rows" "$1.rows"
}

# --- the callgraph fixture: a flame graph from arcs -----------------------
use_fixtures
check 'mksamples.py writes the callgraph fixture session' mksession callgraph
check 'opreport --format=html -o FILE exits 0' \
	exits 0 fx --format=html -o fx.html --session-dir=out/callgraph
check '... and writes nothing to standard output' test ! -s fx.out
check '-o: a write that fails leaves the old file, no temporary' \
	half_written --format=html --session-dir=out/callgraph
check '... the page says its flame graph is from call-graph arcs only' \
	grep -q 'from call-graph arcs only' fx.html
check '... nothing in it points outside the page' nothing_outside fx.html
check '... its trie: the data says source arcs' grep -q '"source":"arcs"' fx.html
check '... the trie reads' sh -c "$PAGE folded fx.html >fx.folded"
check "... compute_alpha's samples split between its callers: 770 under run_all" \
	grep -qx 'all;fixture_pie;run_all;compute_alpha 770' fx.folded
check '... 230 under compute_gamma' \
	grep -qx 'all;fixture_pie;compute_gamma;compute_alpha 230' fx.folded
check 'opreport -l exits 0' exits 0 fxl -l --session-dir=out/callgraph
check "... the flame graph's total is every sample of -l" \
	test "$(sed -n 's/^total //p' fx.folded)" = \
	     "$(awk '/^[0-9]+ +[0-9.e+-]+ / { s += $1 } END { print s }' fxl.out)"
check 'Chromium renders the page' render fx.html fx
check '... without errors' no_page_errors fx
check '... the flame graph was drawn from arcs' test "$(state fx source)" = arcs
check '... with frames' test "$(state fx frames)" -gt 5
check '... the frame with most samples of its own is compute_alpha' \
	test "$(state fx top)" = compute_alpha
check '... its symbol table is opreport -l' same_rows fx.dom fxl.out
check '... searched for compute_alpha and zoomed into run_all, it renders' \
	render fx.html fxs '#search=compute_alpha&zoom=run_all'
check '... without errors' no_page_errors fxs
check '... the search matched the 1000 samples of compute_alpha' \
	test "$(state fxs matched)" = 1000
check '... the zoomed frame is run_all' test "$(state fxs zoom)" = run_all
check '... filtered by "compute_" and sorted by symbol name, it renders' \
	render fx.html fxf '#filter=symbols-table:compute_&sort=symbols-table:3'
check '... without errors' no_page_errors fxf
check '... the rows shown are the compute_ ones, in name order' \
	test "$($PAGE shown fxf.dom symbols-table | cut -f 4 | tr '\n' ' ')" = \
	     "compute_alpha compute_beta compute_gamma "
check '... sorted twice by samples, fewest first' \
	render fx.html fxr '#sort=symbols-table:0&sort=symbols-table:0'
check '... the rows are in the order of -l reversed' sh -c "
	$PAGE shown fxr.dom symbols-table | cut -f 1 >fxr.counts &&
	$PAGE rows fx.dom symbols-table | cut -f 1 | tac >fx.counts &&
	diff -u fx.counts fxr.counts"
check '--confidence --metric: exit 0' exits 0 fxc --format=html --session-dir=out/callgraph \
	--confidence --metric 'M=1000000000-cycles' -o fxc.html
check '... sorted by the metric, most first, it renders' \
	render fxc.html fxcs '#sort=symbols-table:4'
check '... without errors' no_page_errors fxcs
# M is 1e9 less 100,000 per sample: rows of fewer than 30 samples, shown
# "~1e+09", have the biggest values, and come first when the page reads
# past the "~"
check '... rows with imprecise values (~1e+09) first' sh -c "
	$PAGE shown fxcs.dom symbols-table | head -n 1 | cut -f 5 | grep -qx '~1e+09'"
check '... each row with its interval' sh -c "
	$PAGE rows fxcs.dom symbols-table | awk -F '\t' '\$1 == 1000 { f = \$3 == \"55.5273\" && \$4 == \"60.1785\" } END { exit !f }'"
check '... a malformed address is no error' render fx.html fxm '#zoom=%E0%A4%A&search=run_all'
check '... without errors' no_page_errors fxm
check '... and what it asks for rightly is done' \
	test "$(state fxm matched)" = "$($PAGE folded fx.html |
		awk '/;run_all[; ]/ { s += $NF } END { print s + 0 }')"
check '... a filter text with an escaped & in it renders' \
	render fx.html fxa '#filter=symbols-table:a%26b'
check '... and shows no row' test -z "$($PAGE shown fxa.dom symbols-table)"
check 'opreport (image summary) exits 0' exits 0 fxsum --session-dir=out/callgraph
# the summary's lines of fixture_pie's images: count, %, image
check "... the page's image table has its images' lines" sh -c "
	$PAGE rows fx.html images-table | awk -F '\t' '{ print \$1, \$2, \$NF }' >fx.images &&
	awk '/^\t *[0-9]/ { print \$1, \$2, \$3 }' fxsum.out >fxsum.images &&
	test -s fxsum.images && diff -u fxsum.images fx.images"
check 'with -t 10, opreport --format=html exits 0' \
	exits 0 fxt --format=html -t 10 -o fxt.html --session-dir=out/callgraph
check '... opreport -l -t 10 exits 0' exits 0 fxtl -l -t 10 --session-dir=out/callgraph
check '... the symbol table is that of -l -t 10' same_rows fxt.html fxtl.out
check "... and the flame graph's total is still every sample" \
	test "$($PAGE folded fxt.html | tail -n 1)" = "$(tail -n 1 fx.folded)"

# two events: two columns of counts
cat >fixtures/twocounts.json <<'EOF'
{
  "session_dir": "out/twocounts",
  "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0},
             {"name": "cpu_clk_unhalted", "count": 200000, "unitmask": 0}],
  "profiles": [
    {"binary": "build/fixture_nopie", "event": 0,
     "symbol_samples": {"main": 3, "compute_alpha": 10}},
    {"binary": "build/fixture_nopie", "event": 1,
     "symbol_samples": {"main": 4, "compute_beta": 7}}
  ]
}
EOF
check 'mksamples.py writes a session of two events' mksession twocounts
check 'opreport --format=html on it exits 0' \
	exits 0 two --format=html -o two.html --session-dir=out/twocounts
check '... opreport -l exits 0' exits 0 twol -l --session-dir=out/twocounts
check '... the symbol table has both columns of opreport -l' \
	same_rows two.html twol.out 2

# what the recorder lost, in the header as opreport warns of it
cat >fixtures/lost.json <<'EOF'
{
  "session_dir": "out/lost",
  "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0}],
  "stats": {"total_samples": 1000, "lost_no_mapping": 30, "lost_bt_no_mapping": 2,
            "throttled": ["cpu_clk_unhalted"]},
  "profiles": [
    {"binary": "build/fixture_nopie", "symbol_samples": {"main": 3}}
  ]
}
EOF
check 'mksamples.py writes a session that lost samples' mksession lost
check 'opreport --format=html on it exits 0' \
	exits 0 lost --format=html -o lost.html --session-dir=out/lost
check '... opreport -l exits 0' exits 0 lostl -l --session-dir=out/lost
# each of -l's warnings about the stats, in the page's #lost
lost_lines() {
	$PAGE text lost.html lost >lost.page &&
	sed -n 's/^opreport: warning: //p' lostl.err | sed 's/; see .*//' |
		grep -E 'lost|arc|throttled' >lost.want &&
	test "$(wc -l <lost.want)" -ge 3 &&
	while IFS= read -r l; do
		grep -qF "${l%% (*}" lost.page || { say "not in the page: $l"; return 1; }
	done <lost.want
}
check "... the page's header has -l's warnings on lost samples, arcs, throttling" \
	lost_lines

# a broken script shows in #errors and in the log: the checks can fail
sed 's|<script>|<script>nosuchfunction();</script><script>|' fx.html >broken.html
check 'a page with a broken script: Chromium renders it' render broken.html broken
check '... #errors holds the error' sh -c "$PAGE errors broken.dom | grep -q nosuchfunction"
check '... and no_page_errors says so' fails_cleanly no_page_errors broken

# --- 100000 distinct stacks ------------------------------------------------
cp -R out/callgraph out/big
check 'a stack file of 100000 distinct stacks beside the fixture session' \
	$PAGE stacks out/big "$FIX/build/fixture_pie" 100000
check 'opreport --format=html on it exits 0' \
	exits 0 big --format=html -o big.html --session-dir=out/big
check '... the flame graph is from whole call stacks' \
	grep -q 'from whole call stacks' big.html
check '... its trie holds 100000 distinct stacks' \
	test "$($PAGE folded big.html | grep -c '^all;')" = 100000
check 'Chromium renders it (timing one zoom in and out)' render big.html big '#bench'
check '... without errors' no_page_errors big
check '... drawn from stacks' test "$(state big source)" = stacks
check '... with frames' test "$(state big frames)" -gt 100
check '... and grey boxes for runs of frames too narrow to draw' \
	test "$(state big merged)" -gt 0
say "100000 stacks, $(state big nodes) trie nodes: first render $(state big render-ms) ms" \
    "(trie $(state big trie-ms) ms, drawing $(state big draw-ms) ms)," \
    "zoom redraw $(state big zoom-ms) ms," \
    "page $(wc -c <big.html) bytes"

# --- operf --callgraph ./callchain ----------------------------------------
cd "$T" || exit 99
if operf -e cpu-clock -d "$T/.perf" true >perf.out 2>&1; then
	check 'operf --callgraph ./callchain' profile cg --callgraph -d cg "$WORKLOADS/callchain"
	check 'opreport --format=html exits 0' exits 0 cgh --format=html --session-dir=cg
	mv cgh.out cg.html
	check '... the page says its flame graph is from whole call stacks' \
		grep -q 'from whole call stacks' cg.html
	check '... nothing in it points outside the page' nothing_outside cg.html
	check 'Chromium renders the page' render cg.html cg
	check '... without errors' no_page_errors cg
	check '... the frame drawn with most samples of its own is cg_leaf' \
		test "$(state cg top)" = cg_leaf
	check '... cg_caller and main are among the widest frames' \
		sh -c "$PAGE widest cg.dom | grep -qx cg_caller && $PAGE widest cg.dom | grep -qx main"
	check 'searched for ^cg_ and zoomed into cg_caller, it renders' \
		render cg.html cgs '#search=^cg_&zoom=cg_caller'
	check '... without errors' no_page_errors cgs
	check '... the search matched the samples of the stacks through cg_*' \
		test "$(state cgs matched)" = "$($PAGE folded cg.html |
			awk '/;cg_/ { s += $NF } END { print s + 0 }')"
	check '... the zoomed frame is cg_caller' test "$(state cgs zoom)" = cg_caller
	check '... and cg_leaf is drawn in it' sh -c "$PAGE widest cgs.dom | grep -qx cg_leaf"
	check 'opreport -l exits 0' exits 0 cgl -l --session-dir=cg
	check "... the page's symbol table has its counts exactly" same_rows cg.dom cgl.out
	check "... the page's header is its header (CPU, event, fallback note)" \
		sh -c "$PAGE text cg.html run-header >cg.head &&
		       sed '/^samples /,\$d' cgl.out >cgl.head && grep -q '^Counted' cg.head &&
		       diff -u cgl.head cg.head"
	check 'a 1400x1000 screenshot' \
		timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$T/chromium" --no-first-run --hide-scrollbars \
		--virtual-time-budget=5000 --window-size=1400,1000 \
		--screenshot="$T/cg.png" "file://$T/cg.html" >shot.log 2>&1
	check '... is a picture of more than 50 colours' \
		test "$($PAGE colours cg.png)" -gt 50
	check 'operf without --callgraph ./callchain' profile flat -d flat "$WORKLOADS/callchain"
	check '... opreport --format=html exits 0' \
		exits 0 flath --format=html -o flat.html --session-dir=flat
	check '... the page says the flame graph is from call-graph arcs' \
		grep -q 'call-graph arcs only: the session has no stack file' flat.html
	check '... Chromium renders it' render flat.html flat
	check '... without errors' no_page_errors flat
	check '... drawn from arcs' test "$(state flat source)" = arcs
	check 'operf --callgraph --separate-thread ./callchain' \
		profile thr --callgraph --separate-thread -d thr "$WORKLOADS/callchain"
	check '... opreport --format=html per thread exits 0' \
		exits 0 thrh --format=html -o thr.html --session-dir=thr
	check '... the page says stack files do not tell threads apart (arcs)' \
		grep -q 'arcs only: stack files do not tell threads, processes or CPUs apart' thr.html
	check '... with --merge=all, from whole call stacks' sh -c "
		'$OPREPORT' --format=html --merge=all -o thrm.html --session-dir=thr 2>/dev/null &&
		grep -q 'from whole call stacks' thrm.html"
	# C++: names with < > & ( ) and blanks, through to the DOM
	if command -v c++ >/dev/null 2>&1; then
		cat >tmpl.cc <<'EOF'
#include <vector>
volatile unsigned long sink;
template <typename T>
__attribute__((noinline)) void spin_in(std::vector<T> &v, bool (*cmp)(int, int))
{
	unsigned long x = 1;
	for (long i = 0; i < 100000000L; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		if (cmp(x & 1, 0))
			v[0] = (T)x;
	}
	sink = x;
}
bool operator_and_less(int a, int b) { return a < b && b > a; }
int main()
{
	std::vector<long> v(1);
	spin_in(v, operator_and_less);
	return 0;
}
EOF
		tmpl='void spin_in<long>(std::vector<long, std::allocator<long> >&, bool (*)(int, int))'
		check 'a C++ program with templates' \
			c++ -O1 -g -fno-omit-frame-pointer -o tmpl tmpl.cc
		check '... operf --callgraph' profile cxx --callgraph -d cxx ./tmpl
		check '... opreport --format=html exits 0' \
			exits 0 cxxh --format=html -o cxx.html --session-dir=cxx
		check '... the template name is escaped in the page' sh -c "
			grep -qF 'spin_in&lt;long&gt;(std::vector&lt;long, std::allocator&lt;long&gt; &gt;&amp;' cxx.html &&
			! sed '/<script/,/<\/script>/d' cxx.html | grep -qF 'spin_in<long>'"
		check '... Chromium renders it' render cxx.html cxx
		check '... without errors' no_page_errors cxx
		check '... opreport -l exits 0' exits 0 cxxl -l --session-dir=cxx
		check "... the page's symbol table is -l's, names and all" same_rows cxx.dom cxxl.out
		check '... the template function is a frame of the flame graph' \
			sh -c "$PAGE widest cxx.dom | grep -qxF '$tmpl'"
	else
		skip 'a C++ program with templates' 'no C++ compiler'
	fi
	check 'a differential with --format=html: exit 2' \
		exits 2 dif --format=html --session-dir=cg '{' '}' '{' '}'
else
	skip 'operf --callgraph ./callchain' \
		"perf_events cannot be used here: $(sed -n 's/^operf: error: //p' perf.out | head -n 1)"
fi

done_testing
