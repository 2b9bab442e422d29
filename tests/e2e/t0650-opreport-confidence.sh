#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport --confidence and the tests of a differential profile, on
# sessions with known counts (mksamples.py): every interval of the text
# (summary, -l, -d, -c), XML and HTML reports against Python's own Wilson
# interval (tools/stats_check.py), --threshold-lower, the header's sample
# counts; each change of a differential tested and Holm-corrected as
# Python computes it; over 200 symbols, pairs of draws of one profile
# show no significant change beyond the expected false-positive rate,
# and a function made 20 % slower is found in every pair; bad levels and
# options that cannot go together are refused.
. "$top_srcdir/tests/lib.sh"
use_fixtures
CHECK=$top_srcdir/tests/tools/stats_check.py

check 'mksamples.py writes the basic session' mksession basic
check 'mksamples.py writes the callgraph session' mksession callgraph

# basic: compute_alpha 1000, compute_beta 507, compute_gamma 320, main 5,
# helper_delta 2: 1834 samples
stats() {	# WHAT LEVEL ...: stats_check.py, the rows it checked to FILE.n
	python3 "$CHECK" "$@" >stats.n || { sed 's/^/# /' stats.n; return 1; }
}
rows_checked() {	# FILE N: the last stats() on FILE checked N rows
	test "$(tail -n 1 stats.n)" = "$2" || { say "$(tail -n 1 stats.n) rows of $1, not $2"; false; }
}

check '-l --confidence: exit 0' exits 0 l --session-dir=out/basic -l --confidence
check '... the columns low % and high % after %' \
	grep -qx 'samples  %        low %    high %   symbol name' l.out
check '... every interval is Wilson'"'"'s at 95 %' stats text 95 1834 l.out
check '... of all five symbols' rows_checked l.out 5
check '... the header says what the columns hold' grep -qx \
	"Intervals: the low % and high % columns hold each share's 95 % Wilson score interval" l.out
check '... and how many samples the profile holds' \
	grep -q '^Samples: 1834 (cpu_clk_unhalted:100000): a 1 % share is known to 0.62-1.5 %; against a profile of this size a change of 0.92 points in a 1 % share (2.8 in a 10 %) is detectable (80 % power)$' l.out
check '... a symbol of 1000 samples: 52.2396 to 56.7927' \
	grep -q '^1000     54.5256  52.2396  56.7927  compute_alpha$' l.out
check '-l -d --confidence=99.9: exit 0' exits 0 d --session-dir=out/basic -l -d --confidence=99.9
check '... symbols of the profile, details of their symbol, at 99.9 %' stats text 99.9 1834 d.out
check '... 5 symbols and 7 addresses' rows_checked d.out 12
check '--confidence=99%: the level may end in %' exits 0 pct --session-dir=out/basic -l --confidence=99%
check '... the same as --confidence=99' sh -c \
	"'$OPREPORT' --session-dir=out/basic -l --confidence=99 | cmp -s - pct.out"
check 'a bare --confidence leaves the argument after it to the specification' \
	exits 0 bare --session-dir=out/basic -l --confidence fixture_nopie
check '... the same as --confidence=95 before it' sh -c \
	"'$OPREPORT' --session-dir=out/basic -l --confidence=95 fixture_nopie | cmp -s - bare.out"
check 'the summary with --confidence' exits 0 sum --session-dir=out/basic --confidence
check '... its columns' grep -qx '  samples|      %|  low %| high %|' sum.out
check '... its one application' stats text 95 1834 sum.out
check '-c --confidence: exit 0' exits 0 cg --session-dir=out/callgraph -l -c --confidence
check '... every line has the interval columns' \
	grep -q '^samples  %        low %    high %   image name' cg.out
check '... each symbol'"'"'s of the profile, each caller'"'"'s and callee'"'"'s of its list' \
	stats callgraph 95 1728 cg.out
check '... 24 lines of 7 blocks' rows_checked cg.out 24
check '-a -w --confidence: intervals between % and cum. %' exits 0 aw \
	--session-dir=out/basic -a -w --confidence
check '... in that order' grep -q \
	'^0040113f 1000     1000          54.5256  52.2396  56.7927  54.5256    compute_alpha$' aw.out

# -t 17: compute_gamma's 17.4482 % passes, its low end 15.7798 % does not
check '-t 17 shows three symbols' exits 0 t --session-dir=out/basic -l -t 17
check '... compute_gamma among them' grep -q ' compute_gamma$' t.out
check '-t 17 --threshold-lower: exit 0' exits 0 tl --session-dir=out/basic -l -t 17 --threshold-lower
check '... leaves compute_gamma out' sh -c '! grep -q compute_gamma tl.out'
check '... keeps compute_alpha and compute_beta' \
	test "$(grep -c ' compute_\(alpha\|beta\)$' tl.out)" = 2
check '... and says so in the header' grep -q '; --threshold 17 applies to the low end$' tl.out

# XML: attributes low and high (percent of the class) on every <count>
check '-X -l -d --confidence=99: exit 0' exits 0 x --session-dir=out/basic -X -l -d --confidence=99
check '... every <count> with its interval' stats xml 99 1834 x.out
check '... of the binary, 5 symbols and 7 details' rows_checked x.out 13
check '... <options confidence="99">' grep -q '<options .*confidence="99"' x.out
if command -v xmllint >/dev/null 2>&1; then
	check '... valid against doc/opreport.xsd' \
		xmllint --noout --schema "$top_srcdir/doc/opreport.xsd" x.out
else
	skip '... valid against doc/opreport.xsd' 'xmllint is not installed'
fi
check '-X without --confidence has no intervals' exits 0 xn --session-dir=out/basic -X -l
check '... no low= or confidence=' sh -c '! grep -q "low=\|confidence=" xn.out'

# HTML: two cells per class after the share
check '--format=html --confidence: exit 0' exits 0 h --session-dir=out/basic --format=html --confidence
check '... the interval cells of compute_alpha' grep -q \
	'<td class="n">1000</td><td class="n">54.5256</td><td class="n">52.2396</td><td class="n">56.7927</td>' h.out
check '... and their titles' grep -q '>low %</th><th data-type="num">high %</th>' h.out

# refusals
bad_level() {	# LEVEL
	printf '%s\n' "opreport: error: --confidence takes a level in percent, above 50 and below 100 (e.g. 95 or 99.9), not '$1'" \
		"hint: see 'opreport --help'" >lvl.want &&
	exits 2 lvl --session-dir=out/basic -l "--confidence=$1" && compare lvl.want lvl.err &&
	test ! -s lvl.out
}
for lvl in 50 100 0.95 abc 95x -1 ''; do
	check "--confidence='$lvl': exit 2" bad_level "$lvl"
done
check '--confidence with --format=pprof: exit 2' exits 2 pp --session-dir=out/basic \
	--format=pprof --confidence
check '... says why' grep -q 'confidence applies to text, XML and HTML reports' pp.err
check '--significant-only without a differential: exit 2' exits 2 so \
	--session-dir=out/basic -l --significant-only
mkdir -p two/samples && cp -R out/basic/samples/current two/samples/previous &&
	cp -R out/basic/samples/current two/samples/current || exit 99
check '--threshold-lower in a differential: exit 2' exits 2 dtl --session-dir=two \
	-t 1 --threshold-lower { session:previous } { }

# --- differentials ------------------------------------------------------
cat >fixtures/after.json <<'EOS'
{"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
 "profiles": [{"binary": "build/fixture_nopie",
   "symbol_samples": {"compute_alpha": 500, "compute_beta": 500,
                      "run_all": 100, "main": 5}}]}
EOS
check 'mksamples.py writes the after session' mksession after
cp -R out/after/samples/current two/samples/current2 || exit 99
before='compute_alpha=1000 compute_beta=507 compute_gamma=320 main=5 helper_delta=2'
check 'a differential: exit 0' exits 0 diff --session-dir=two -l \
	{ session:previous } { session:current2 }
check '... the columns adj. p and sig after diff %' \
	grep -qx 'samples  %        diff %    adj. p   sig symbol name' diff.out
# shellcheck disable=SC2086
check '... each change tested and Holm-corrected as Python does it' \
	stats diff 95 1834 1105 diff.out $before
check '... all six rows' rows_checked diff.out 6
check '... main: 5 samples before and after, within noise' \
	grep -q '^5         0.4525  +65.9729  1        ~   main$' diff.out
check '... the header names the tests and their number' \
	grep -q '^Changes: .*Holm-corrected over 6 tests at 5 %' diff.out
check '... and the samples of both sides' \
	grep -q '^Samples: 1834 then 1105 (cpu_clk_unhalted:100000): the smallest change' diff.out
check '--significant-only: exit 0' exits 0 sig --session-dir=two -l --significant-only \
	{ session:previous } { session:current2 }
check '... the rows marked * and no other' sh -c \
	"test \"\$(grep -c '  \\*   ' sig.out)\" = 4 && ! grep -q '  ~   ' sig.out"
check '--confidence=99.99 in a differential: tests at 0.01 %' exits 0 d9 \
	--session-dir=two -l --confidence=99.99 { session:previous } { session:current2 }
# shellcheck disable=SC2086
check '... marked at that level, with intervals' stats diff 99.99 1834 1105 d9.out $before
check '... the interval columns' grep -q '^samples  %        low %    high %   diff %' d9.out

# --- many rows: the false-positive rate, and a change found -------------
python3 - <<'EOS' || exit 99
import json
with open('many.c', 'w') as f:
    for i in range(200):
        f.write('int f%d(int x) { return x * %d + %d; }\n' % (i, i + 3, i))
    f.write('int main(void) { return 0; }\n')
EOS
cc -O0 -o many many.c || exit 99
# PAIR NAME SLOWER SEED: two sessions of 40,000 samples drawn from one
# Zipf profile over f0..f199, f2's weight 1.2 times in the second when
# SLOWER is 1; as previous and current of NAME
python3 - <<'EOS' || exit 99
import json, random
names = ['f%d' % i for i in range(200)]
w = [1.0 / (i + 1) for i in range(200)]
def spec(seed, slower):
    r = random.Random(seed)
    ww = list(w)
    if slower:
        ww[2] *= 1.2
    counts = {}
    for n in r.choices(names, ww, k=40000):
        counts[n] = counts.get(n, 0) + 1
    return {"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
            "profiles": [{"binary": "../many", "symbol_samples": counts}]}
for k in range(20):
    for side, slower in (('a', 0), ('b', 0), ('c', 1)):
        with open('fixtures/m%d%s.json' % (k, side), 'w') as f:
            json.dump(spec(1000 * k + ord(side), slower), f)
EOS
made=0
k=0
while test $k -lt 20; do
	for side in a b c; do
		mksession "m$k$side" || break 2
	done
	mkdir -p "m$k/samples" && cp -R "out/m${k}a/samples/current" "m$k/samples/previous" &&
		cp -R "out/m${k}b/samples/current" "m$k/samples/current" &&
		cp -R "out/m${k}c/samples/current" "m$k/samples/slower" || exit 99
	made=$((made + 1))
	k=$((k + 1))
done
check 'mksamples.py writes 20 triples of 40,000-sample sessions of 200 symbols' test $made = 20
same_pairs=0 found=0 false_alarms=0 k=0
while test $k -lt 20; do
	"$OPREPORT" --session-dir="m$k" -l { session:previous } { session:current } >"same$k.out" 2>&1
	grep -q '  \*   ' "same$k.out" && same_pairs=$((same_pairs + 1))
	"$OPREPORT" --session-dir="m$k" -l --significant-only { session:previous } \
		{ session:slower } >"slow$k.out" 2>&1
	grep -q '  \*   f2$' "slow$k.out" && found=$((found + 1))
	false_alarms=$((false_alarms + $(grep '  \*   ' "slow$k.out" | grep -vc '  \*   f2$')))
	k=$((k + 1))
done
say "pairs of one profile with a significant row: $same_pairs of 20;" \
	"f2 made 20 % slower found in $found of 20, with $false_alarms other rows"
check 'draws of one profile: a pair with a significant row at most 3 times in 20' \
	test "$same_pairs" -le 3
check 'f2 made 20 % slower: found in all 20 pairs' test "$found" = 20
check '... with at most 2 other rows marked in all' test "$false_alarms" -le 2
check '... the tests over 200 rows' grep -q 'Holm-corrected over 200 tests' same0.out
done_testing
