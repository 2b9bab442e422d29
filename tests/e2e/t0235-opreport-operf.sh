#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport on sessions operf made of the test workloads: the hot function
# first and the 3:1 split within 5 points, the program first in the
# summary, caller -> callee relations of --callgraph, well-formed XML,
# one column per thread, the header naming the event operf used (and the
# cpu-clock fallback when it fell back), ./oprofile_data found by default,
# --session-dir, and session:previous after a second run.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"

split=$WORKLOADS/split
cc=$WORKLOADS/callchain
threads=$WORKLOADS/threads

# --- the default session directory ---------------------------------------
check 'operf ./split (default event, ./oprofile_data)' profile run "$split"
check 'opreport finds ./oprofile_data by itself' exits 0 sum -n
check '... and says so, as OProfile 1.4 does' \
	grep -qx "Using $T_REAL/oprofile_data/samples/ for samples directory." sum.err
same_as() {	# NAME OPTIONS...: the same summary as sum.out, no "Using" line
	exits 0 "$@" -n && cmp sum.out "$1.out" && ! grep -q '^Using ' "$1.err"
}
check '... the same report as with --session-dir=oprofile_data' \
	same_as sd --session-dir=oprofile_data
check '... and as with an absolute --session-dir' \
	same_as sd2 --session-dir="$T/oprofile_data"
check 'the summary lists split first' \
	sh -c 'head -n 1 sum.out | grep -q " split\$"'

# the symbols of split itself (lib-image: selects its own samples)
check 'opreport -l lib-image:split' exits 0 syms -l -n "lib-image:$split"
sym_count() {	# SYMBOL: its count in syms.out
	awk -v s="$1" '$3 == s { print $1; n++ } END { if (!n) print 0 }' syms.out
}
three=$(sym_count split_three)
one=$(sym_count split_one)
check 'split_three is listed first among split'"'"'s symbols' \
	test "$(awk 'NR == 1 { print $3 }' syms.out)" = split_three
check 'split_three has 75% +- 5 of the two functions' near "$three" "$one" 75 5
check 'enough samples to judge (>= 300 in the two)' at_least $((three + one)) 300
# the report's numbers are attribute.py's
attr_same() {
	attribute oprofile_data attr &&
	test "$(attr_sum attr symbol 3="$split" 4=split_three)" = "$three" &&
	test "$(attr_sum attr symbol 3="$split" 4=split_one)" = "$one"
}
check 'the counts are those attribute.py finds in the sample files' attr_same
xml_ok() {
	exits 0 xml -X -l &&
	python3 - xml.out "$split" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "profile" and root.get("schemaversion") == "3.1"
names = {s.get("id"): s.get("name") for s in root.iter("symboldata")}
binaries = [b.get("name") for b in root.findall("binary")]
assert sys.argv[2] in binaries, binaries
assert "split_three" in names.values() and "split_one" in names.values()
EOF
}
check 'opreport -X -l is well-formed XML with split and its functions' xml_ok

# --- the header ------------------------------------------------------------
info=oprofile_data/samples/current/session.info
event=$(sed -n 's/^event \([^ ]*\) .*/\1/p' $info | head -n 1)
header_ok() {
	exits 0 hdr -l &&
	grep -q "^CPU: " hdr.out &&
	grep -q "^Counted $event events" hdr.out &&
	if grep -q '^fallback ' $info; then
		reason=$(sed -n 's/^fallback //p' $info) &&
		grep -qx "Note: operf sampled with a software clock because $reason" hdr.out &&
		grep -q '^Counted cpu-clock events (CPU time clock (software event), sample every [0-9]* ns) count [0-9]*$' hdr.out &&
		grep -q '^CPU: no hardware counter (a software clock)' hdr.out
	else
		! grep -q '^Note: operf sampled' hdr.out
	fi
}
check "the header names the event operf recorded ($event)" header_ok
asked_clock() {
	profile ec -e cpu-clock -d ec "$split" &&
	exits 0 ec-hdr -l --session-dir=ec &&
	grep -q '^Counted cpu-clock events (CPU time clock (software event), sample every [0-9]* ns) count [0-9]*$' ec-hdr.out &&
	if grep -q '^Note: .*sampled with a software clock' ec-hdr.out; then
		sed 's/^/# /' ec-hdr.out
		false
	fi
}
check '-e cpu-clock, asked for: named, and no fallback note' asked_clock

# --- call graph ------------------------------------------------------------
check 'operf --callgraph ./callchain' profile cg --callgraph -d cg "$cc"
check 'opreport -c lib-image:callchain' exits 0 cgrep -c -n --session-dir=cg "lib-image:$cc"
# arcs.out: "caller callee count" from the blocks of a -c report
cg_arcs() {
	awk '
	/^-/ { n = 0; cur = ""; next }
	/^  / { if (cur == "") { who[n] = $NF; cnt[n++] = $1 }
		else if ($NF != "[self]") print cur, $NF, $1
		next }
	{ cur = $NF; for (i = 0; i < n; i++) print who[i], cur, cnt[i] }
	' cgrep.out | sort -u >arcs.out
}
cg_arcs
arc() {	# CALLER CALLEE: the count of that arc in arcs.out (0 if none)
	awk -v a="$1" -v b="$2" '$1 == a && $2 == b { print $3; f = 1 } END { if (!f) print 0 }' arcs.out | head -n 1
}
leaf=$(awk '!/^ / && !/^-/ && $NF == "cg_leaf" { print $1 }' cgrep.out)
check 'cg_leaf has its own samples (>= 200)' at_least "${leaf:-0}" 200
check 'cg_caller -> cg_leaf: nearly every leaf sample (>= 90%)' \
	at_least $(($(arc cg_caller cg_leaf) * 100)) $((${leaf:-1} * 90))
check 'main -> cg_caller as well (>= 90% of the leaf samples)' \
	at_least $(($(arc main cg_caller) * 100)) $((${leaf:-1} * 90))
check 'the caller and callee views agree on cg_caller -> cg_leaf' \
	sh -c 'test "$(grep -c "^cg_caller cg_leaf " arcs.out)" = 1'
check 'no arc from cg_leaf back into the program' \
	test "$(arc cg_leaf cg_caller)$(arc cg_leaf main)" = 00
cg_xml() {
	exits 0 cgxml -X -c --session-dir=cg "lib-image:$cc" &&
	python3 - cgxml.out <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
names = {s.get("id"): s.get("name") for s in root.iter("symboldata")}
for s in root.iter("symbol"):
    if names.get(s.get("idref")) != "cg_leaf" or s.find("callers") is None:
        continue
    callers = [names[c.get("idref")] for c in s.find("callers").iter("symbol")]
    assert "cg_caller" in callers, callers
    break
else:
    sys.exit("no cg_leaf with callers")
EOF
}
check 'opreport -X -c: cg_leaf has cg_caller among its callers' cg_xml

# --- one column per thread ---------------------------------------------------
check 'operf --separate-thread ./threads' profile th --separate-thread -d th "$threads"
thread_cols() {
	exits 0 thr -l --session-dir=th "lib-image:$threads" &&
	test "$(grep -c '^Processes with a thread ID of [0-9]* ([a-z]*)$' thr.out)" -ge 2 &&
	grep -q '^samples  %        samples  %  ' thr.out
}
check 'per-thread files: one column per thread' thread_cols

# --- session:previous --------------------------------------------------------
check 'a second operf run into the same session dir' profile run2 -d cg "$split"
prev() {
	exits 0 prev -n --session-dir=cg session:previous &&
	head -n 1 prev.out | grep -q ' callchain$' &&
	exits 0 cur -n --session-dir=cg &&
	head -n 1 cur.out | grep -q ' split$'
}
check 'session:previous is the first run, current the second' prev
prev_diff() {
	exits 0 pd -l -n --session-dir=cg { session:previous } { } &&
	grep -q '^[0-9]* *[0-9.]* *+++ .*split_three$' pd.out &&
	grep -q '^[0-9]* *--- *--- .*cg_leaf$' pd.out
}
check 'previous vs current: split_three +++, cg_leaf ---' prev_diff
done_testing
