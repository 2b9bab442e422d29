#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a share is of, and what --threshold keeps, in opreport and
# opannotate.
#  - Samples at addresses outside every symbol are shown as a gap row,
#    named by image and address range, in -l, -d, -c and -X, and every
#    share is of all samples, so the rows add up to the image summary
#    (exact shares from mksamples.py's expectation).  OProfile 1.4 leaves
#    them out and gives shares of the samples in symbols: opreport(1)
#    documents the difference.
#  - --threshold keeps what has at least PERCENT (opreport(1),
#    opannotate(1)): a row at exactly the threshold stays, in the summary,
#    -l, -c, -X and both opannotate modes; one just under it goes.
. "$top_srcdir/tests/lib.sh"
use_fixtures
make_multi

# 1000 samples in three symbols and 1000 at the ELF header of the binary,
# outside every symbol; an arc so that -c has callers and callees
cat >fixtures/outside.json <<'EOF'
{"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
 "profiles": [{"binary": "build/fixture_nopie",
   "symbol_samples": {"compute_alpha": 600, "compute_beta": 300, "main": 100},
   "samples": {"0x10": 1000},
   "callgraph": [
     {"from_symbol": "compute_beta", "to_symbol": "compute_alpha", "count": 10}]}]}
EOF
# two applications: fixture_nopie 75% (compute_alpha 50%, compute_beta
# exactly 25%), fixture_pie exactly 25% (compute_gamma 20%, main 5%)
cat >fixtures/thr.json <<'EOF'
{"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
 "profiles": [
  {"binary": "build/fixture_nopie",
   "symbol_samples": {"compute_alpha": 500, "compute_beta": 250},
   "callgraph": [
     {"from_symbol": "compute_beta", "to_symbol": "compute_alpha", "count": 10}]},
  {"binary": "build/fixture_pie",
   "symbol_samples": {"compute_gamma": 200, "main": 50}}]}
EOF
# two source files: multi_main.c 75%, multi_b.c exactly 25%
cat >fixtures/srcthr.json <<'EOF'
{"cpu_type": "i386/skylake",
 "profiles": [{"binary": "build/multi",
   "symbol_samples": {"func_a": 600, "main": 150, "func_b": 250}}]}
EOF
for s in outside thr srcthr; do
	check "mksamples.py writes the $s session" mksession $s
done
check 'the symbol addresses of the fixtures are known' symbol_addrs
GOLDEN=t0245

# shares SESSION FORMAT: a line per symbol of the expectation and one for
# the samples outside every symbol (named "GAP"), most samples first,
# FORMAT given the count, the share of all samples (as opreport prints
# it) and the name
shares() {
	python3 - "out/$1.expect.json" "$2" <<'EOF'
import json, sys
exp = json.load(open(sys.argv[1]))
syms = {n: c for s in exp["symbols"].values() for n, c in s.items()}
unattributed = sum(exp["unattributed"].values())
assert unattributed > 0, "no samples outside the symbols: nothing to test"
syms["GAP"] = unattributed
total = sum(syms.values())
for name, count in sorted(syms.items(), key=lambda kv: -kv[1]):
    print(sys.argv[2] % (count, "%7.4f" % (100.0 * count / total), name))
EOF
}
# the gap row's name, its range left out
gap_name() {
	sed 's/\[fixture_nopie 0x[0-9a-f]*-0x[0-9a-f]*\]/GAP/' "$@"
}

# --- shares of all samples; the gap row -------------------------------
l_shares() {
	shares outside '%-8d %s  %s' >l.want &&
	exits 0 l --session-dir=out/outside -l -n && gap_name l.out >l.got &&
	compare l.want l.got
}
check '-l: shares of all samples, the gap a row of its own (from --expect)' l_shares
check 'the summary: the image has all its samples' mode outside-summary outside
# the gap's range holds the sampled address (0x10 into the file: the
# first PT_LOAD's address + 0x10) and stops below the first symbol
gap_range() {
	g_alpha=$(python3 "$MKSAMPLES" --symbols "$FIX/build/fixture_nopie" |
		awk '$4 == "compute_alpha" { print $2 }') &&
	python3 - l.out "$g_alpha" <<'EOF'
import re, sys
m = re.search(r"\[fixture_nopie 0x([0-9a-f]+)-0x([0-9a-f]+)\]", open(sys.argv[1]).read())
first, last = int(m.group(1), 16), int(m.group(2), 16)
assert first + 0x10 <= last, (hex(first), hex(last))
assert last < int(sys.argv[2], 16), "the gap covers a symbol"
EOF
}
check '... named by the range that holds the sampled address' gap_range
l_note() {
	exits 0 l-note --session-dir=out/outside -l &&
	grep -qx 'Note: 1000 of 2000 samples (50.00%) are outside every named symbol: shown as \[IMAGE 0xFIRST-0xLAST\], a row per gap between symbols' l-note.out
}
check '-l: the header says how much is outside named symbols' l_note
d_gap() {
	exits 0 d --session-dir=out/outside -d -n &&
	grep -A1 'fixture_nopie 0x' d.out | tail -n 1 | grep -q '^  0*400010 1000  *100\.000$'
}
check '-d: the gap lists its sampled address' d_gap
c_gap() {
	exits 0 c --session-dir=out/outside -c -n &&
	grep -q '^1000  *50\.0000  \[fixture_nopie 0x' c.out &&
	grep -q '^  1000  *100\.000  \[fixture_nopie 0x.*\] \[self\]$' c.out
}
check '-c: the gap has a block of its own' c_gap
x_gap() {
	exits 0 x --session-dir=out/outside -X &&
	grep -q 'name="\[fixture_nopie 0x' x.out && xmllint --noout x.out
}
check '-X: the gap is a symbol of the XML' x_gap
# opannotate: the "total:" of each symbol, in both modes: shares of all
# samples, as in opreport
ann_shares() {	# MODE
	python3 - "out/outside.expect.json" >"ann$1.want" <<'EOF' &&
import json, sys
exp = json.load(open(sys.argv[1]))
syms = {n: c for s in exp["symbols"].values() for n, c in s.items()}
total = sum(syms.values()) + sum(exp["unattributed"].values())
for name, count in sorted(syms.items(), key=lambda kv: kv[0]):
    print("/* %s total: %6d %7.4f */" % (name, count, 100.0 * count / total))
EOF
	ann_exits 0 "ann$1" --session-dir=out/outside "--$1" &&
	sed -n 's|.*\(/\* [a-z_]* total: .*\)$|\1|p' "ann$1.out" | sort -u >"ann$1.got" &&
	compare "ann$1.want" "ann$1.got"
}
check 'opannotate --source: symbol totals are shares of all samples' \
	ann_shares source
check 'opannotate --assembly: the same' ann_shares assembly

# --- a row at exactly the threshold stays -----------------------------
check '-t 25: the application with exactly 25% stays' mode t-summary thr -t 25
check '... and says so' grep -q '^ *250 25\.0000 fixture_pie$' t-summary.out
check '-t 25.0001: it goes' mode t-summary-over thr -t 25.0001
check '-l -t 25: the symbol with exactly 25% stays' mode t-l thr -l -t 25
check '... and says so' grep -q '^250  *25\.0000 .* compute_beta$' t-l.out
check '-X -t 25: the symbol with exactly 25% stays' mode t-X thr -X -t 25
x_beta() {
	grep -q 'name="compute_beta"' t-X.out && ! grep -q 'name="compute_gamma"' t-X.out
}
check '... and compute_gamma (20%) does not' x_beta
# -c: the blocks of compute_alpha (50%) and compute_beta (25%), no other
c_blocks() {
	exits 0 t-c --session-dir=out/thr -c -t 25 -n &&
	grep '^[0-9]' t-c.out | awk '{ print $NF }' >t-c.entries &&
	printf '%s\n' compute_alpha compute_beta >t-c.want &&
	compare t-c.want t-c.entries
}
check '-c -t 25: the blocks of the symbols with 50% and exactly 25%' c_blocks
check '-c -t 25: as OProfile 1.4 (callers and callees under 25% of their list go too)' \
	mode t-c thr -c -t 25
# opannotate --assembly: symbols; --source: source files
ann_asm() {
	ann_exits 0 t-asm --session-dir=out/thr --assembly -t 25 &&
	grep -q '<compute_beta>: /\* compute_beta total: *250 25\.0000 \*/$' t-asm.out &&
	! grep -q '<compute_gamma>:' t-asm.out
}
check 'opannotate --assembly -t 25: the symbol with exactly 25% stays' ann_asm
ann_src() {	# THRESHOLD WANT
	ann_exits 0 "t-src$1" --session-dir=out/srcthr --source -t "$1" &&
	sed -n 's|^ \* Total samples for file : "\(.*\)"$|\1|p' "t-src$1.out" | norm |
		sed 's|^T/tools/fixtures/||' >"t-src$1.files" &&
	printf '%s\n' $2 >"t-src$1.want" &&
	compare "t-src$1.want" "t-src$1.files"
}
check 'opannotate --source -t 25: the file with exactly 25% stays' \
	ann_src 25 'multi_main.c multi_b.c'
check 'opannotate --source -t 25.0001: it goes' ann_src 25.0001 multi_main.c
done_testing
