#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a share is of, and what --threshold keeps, in opreport and
# opannotate.
#  - Samples at addresses outside every symbol count in the image summary
#    but not in the shares of symbols: -l, -d, -c and opannotate give each
#    symbol its share of the samples in symbols (exact shares from
#    mksamples.py's expectation, and OProfile 1.4's reports).
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

# shares SESSION FORMAT: a line per symbol of the expectation, most samples
# first, FORMAT given the count, the share of the samples in symbols (as
# opreport prints it) and the name
shares() {
	python3 - "out/$1.expect.json" "$2" <<'EOF'
import json, sys
exp = json.load(open(sys.argv[1]))
syms = {n: c for s in exp["symbols"].values() for n, c in s.items()}
unattributed = sum(exp["unattributed"].values())
assert unattributed > 0, "no samples outside the symbols: nothing to test"
total = sum(syms.values())
for name, count in sorted(syms.items(), key=lambda kv: -kv[1]):
    print(sys.argv[2] % (count, "%7.4f" % (100.0 * count / total), name))
EOF
}

# --- shares of the samples in symbols ---------------------------------
l_shares() {
	shares outside '%-8d %s  %s' >l.want &&
	exits 0 l --session-dir=out/outside -l -n && compare l.want l.out
}
check '-l: shares of the samples in symbols, not of the image (from --expect)' l_shares
check 'the summary: the image has all its samples' mode outside-summary outside
check '-l: as OProfile 1.4' mode outside-l outside -l
check '-d: as OProfile 1.4' mode outside-d outside -d
check '-c: as OProfile 1.4' mode outside-c outside -c
check '-X: as OProfile 1.4' mode outside-X outside -X
# opannotate: the "total:" of each symbol, in both modes
ann_shares() {	# MODE
	python3 - "out/outside.expect.json" >"ann$1.want" <<'EOF' &&
import json, sys
exp = json.load(open(sys.argv[1]))
syms = {n: c for s in exp["symbols"].values() for n, c in s.items()}
total = sum(syms.values())
for name, count in sorted(syms.items(), key=lambda kv: kv[0]):
    print("/* %s total: %6d %7.4f */" % (name, count, 100.0 * count / total))
EOF
	ann_exits 0 "ann$1" --session-dir=out/outside "--$1" &&
	sed -n 's|.*\(/\* [a-z_]* total: .*\)$|\1|p' "ann$1.out" | sort -u >"ann$1.got" &&
	compare "ann$1.want" "ann$1.got"
}
check 'opannotate --source: symbol totals are shares of the samples in symbols' \
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
