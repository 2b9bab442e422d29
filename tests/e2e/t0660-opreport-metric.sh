#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport --metric: derived metrics over a session with two hardware
# events and known counts (mksamples.py: cpu_clk_unhalted every 100,000
# events, inst_retired every 50,000), in the summary, -l, -d, XML (valid
# against doc/opreport.xsd), HTML and callgrind (a derived event that
# callgrind_annotate reads); presets found by libpfm4's spellings
# (cpu_clk_unhalted counts cycles, inst_retired instructions); rows with
# few samples marked; an event the session lacks and bad expressions
# refused; live, cpu-clock against task-clock of one run is 1.
. "$top_srcdir/tests/lib.sh"
use_fixtures

# alpha 3000 and 1000 samples: CPI 3000 * 100000 / (1000 * 50000) = 6;
# beta 1000 and 2000: 1; gamma 600 and 800: 1.5; main 10 and 50: 0.4,
# from fewer than 30 samples of cpu_clk_unhalted
cat >fixtures/metric.json <<'EOS'
{"cpu_type": "i386/skylake",
 "events": [{"name": "cpu_clk_unhalted", "count": 100000},
            {"name": "inst_retired", "count": 50000, "code": 192}],
 "profiles": [
  {"binary": "build/fixture_nopie", "event": 0,
   "symbol_samples": {"compute_alpha": 3000, "compute_beta": 1000,
                      "compute_gamma": 600, "main": 10}},
  {"binary": "build/fixture_nopie", "event": 1,
   "symbol_samples": {"compute_alpha": 1000, "compute_beta": 2000,
                      "compute_gamma": 800, "main": 50}}]}
EOS
check 'mksamples.py writes the two-event session' mksession metric
S=--session-dir=out/metric

# metric_of FILE SYMBOL COLUMN: the field COLUMN of SYMBOL's line
metric_of() {
	awk -v s="$2" -v c="$3" '$NF == s { print $c; n++ } END { exit n != 1 }' "$1"
}
is() {	# FILE SYMBOL COLUMN VALUE
	m_got=$(metric_of "$1" "$2" "$3") && test "$m_got" = "$4" ||
		{ say "$2: '$m_got', expected '$4'"; false; }
}
check '-l --metric CPI --metric IPC: exit 0' exits 0 l $S -l --metric CPI --metric ipc
check '... the columns' grep -qx 'samples  %        samples  %        CPI       IPC       symbol name' l.out
check '... compute_alpha: CPI 6' is l.out compute_alpha 5 6
check '... compute_beta: CPI 1' is l.out compute_beta 5 1
check '... compute_gamma: CPI 1.5, IPC 0.6667' sh -c \
	'awk '"'"'$NF == "compute_gamma" { exit !($5 == "1.5" && $6 == "0.6667") }'"'"' l.out'
check '... main, from 10 samples: ~0.4, marked imprecise' is l.out main 5 '~0.4'
check 'NAME=EXPR in event units' exits 0 x $S -l \
	--metric 'X=(CPU_CLK_UNHALTED - 2 * inst_retired) / 1000'
# (3000 * 100000 - 2 * 1000 * 50000) / 1000
check '... compute_alpha: 2e+05' is x.out compute_alpha 5 2e+05
check '... compute_beta: -1e+05' is x.out compute_beta 5 -1e+05
check 'a division by zero: -' exits 0 z $S -l --metric 'Z=inst_retired/(cpu_clk_unhalted-cpu_clk_unhalted)'
check '... shown as -' is z.out compute_alpha 5 -
check 'the summary with --metric CPI' exits 0 sum $S --metric CPI
# 4610 * 100000 / (3850 * 50000)
check '... the application: 2.395' sh -c "grep -q ' 2.395 fixture_nopie\$' sum.out"
check '... the metric named in the column titles' grep -q '|      CPI|$' sum.out
check '-d --metric CPI: detail lines too' exits 0 d $S -d --metric CPI
check '... each line with a value' sh -c \
	"test \$(awk 'NF >= 6 && \$6 != \"\"' d.out | grep -c .) -ge 4"
check 'every --metric with --confidence' exits 0 lc $S -l --metric CPI --confidence
check '... after the intervals' grep -q '^samples  %        low %    high %   samples  %        low %    high %   CPI ' lc.out

mkdir -p two/samples && cp -R out/metric/samples/current two/samples/previous &&
	cp -R out/metric/samples/current two/samples/current || exit 99
check 'a differential with --metric CPI' exits 0 diff --session-dir=two -l --metric CPI \
	{ session:previous } { session:current }
check '... after the tests'"'"' columns' grep -q 'sig samples  %        diff %    adj. p   sig CPI       symbol name$' diff.out
check '... compute_alpha: 6' is diff.out compute_alpha 11 6

# XML
check '-X -l --metric CPI: exit 0' exits 0 xml $S -X -l --metric CPI
check '... compute_alpha: <metric name="CPI">6</metric>' grep -q '<metric name="CPI">6</metric>' xml.out
check '... main'"'"'s marked imprecise' grep -q '<metric name="CPI" imprecise="true">0.4</metric>' xml.out
if command -v xmllint >/dev/null 2>&1; then
	check '... valid against doc/opreport.xsd' \
		xmllint --noout --schema "$top_srcdir/doc/opreport.xsd" xml.out
else
	skip '... valid against doc/opreport.xsd' 'xmllint is not installed'
fi
check 'mksamples.py writes the threads session' mksession threads
check '-X of processes and threads with --metric' exits 0 thr --session-dir=out/threads -X -l \
	--metric 'C=2*cycles'
# thread 1234: 100 samples of cpu_clk_unhalted every 100000 events, twice
check '... each thread'"'"'s metric from its own samples' \
	sh -c "grep -A3 '<thread  tid=\"1234\">' thr.out | grep -q '<metric name=\"C\">2e+07</metric>'"
if command -v xmllint >/dev/null 2>&1; then
	check '... valid against doc/opreport.xsd' \
		xmllint --noout --schema "$top_srcdir/doc/opreport.xsd" thr.out
else
	skip '... valid against doc/opreport.xsd' 'xmllint is not installed'
fi
# HTML
check '--format=html --metric CPI: exit 0' exits 0 h $S --format=html --metric CPI
check '... a CPI column with the preset'"'"'s expression' \
	grep -q '<th data-type="num" title="cycles / instructions">CPI</th>' h.out
check '... compute_alpha'"'"'s cell' grep -q '<td class="n">25.9740</td><td class="n">6</td>' h.out
# callgrind: a sum of events is a derived event; a ratio is not
check '--format=callgrind with two metrics: exit 0' exits 0 cg $S --format=callgrind \
	--metric CPI --metric 'STALLS=cpu_clk_unhalted - inst_retired'
check '... STALLS a derived event in event units' grep -qx \
	'event: STALLS = 100000 cpu_clk_unhalted - 50000 inst_retired : STALLS = cpu_clk_unhalted - inst_retired (events)' cg.out
check '... CPI left out, with a comment' grep -q '^# --metric CPI = cycles / instructions: not a sum' cg.out
check '... and a warning' grep -q 'warning: --metric CPI (cycles / instructions) is left out of the callgrind export' cg.err
if command -v callgrind_annotate >/dev/null 2>&1; then
	check '... callgrind_annotate reads it' sh -c 'callgrind_annotate cg.out >cga.out 2>&1'
else
	skip '... callgrind_annotate reads it' 'callgrind_annotate (valgrind) is not installed'
fi

# refusals
check 'a preset whose event the session lacks: exit 1' exits 1 miss $S -l --metric LLC_MPKI
check '... names the event and the session'"'"'s events' grep -qx \
	"opreport: error: --metric 'LLC_MPKI' (1000 \* cache_misses / instructions): no event of the profile counts 'cache_misses' (it has cpu_clk_unhalted, inst_retired): record one with operf --events" miss.err
bad_metric() {	# DEF MESSAGE
	printf '%s\n' "opreport: error: $2" "hint: see 'opreport --help'" >bm.want &&
	exits 2 bm $S -l --metric "$1" && compare bm.want bm.err && test ! -s bm.out
}
check "--metric 'CPI=': exit 2" bad_metric 'CPI=' "--metric '': the expression ends early at column 1"
check "--metric 'A=(b': exit 2" bad_metric 'A=(b' "--metric '(b': ')' expected at column 3"
check "--metric 'A=b c': exit 2" bad_metric 'A=b c' "--metric 'b c': an operator expected at column 3"
check "--metric 'A=1/': exit 2" bad_metric 'A=1/' "--metric '1/': the expression ends early at column 3"
check "--metric '=b': exit 2" bad_metric '=b' \
	"--metric '=b': a name is letters, digits, '_', '.' and '-', before the '='"
check "--metric NOPE: exit 2" bad_metric NOPE \
	"--metric 'NOPE': not NAME=EXPRESSION, and no preset has that name (the presets: CPI, IPC, LLC_MPKI, LLC_MISS_PCT, BRANCH_MPKI, BRANCH_MISS_PCT)"
check "--metric 'A=b\$': exit 2" bad_metric 'A=b$' "--metric 'b\$': an operator expected at column 2"
deep=$(python3 -c 'print("(" * 200 + "cycles" + ")" * 200)')
check '200 nested parentheses: exit 2' exits 2 deep $S -l --metric "A=$deep"
check '... nested too deeply' grep -q 'nested too deeply at column 101$' deep.err
long=$(python3 -c 'print("1+" * 3000 + "cycles")')
check '3,000 terms: exit 2' exits 2 long $S -l --metric "A=$long"
check '... too long an expression' grep -q 'too long an expression at column' long.err
check '--metric with --format=pprof: exit 2' exits 2 pp $S --format=pprof --metric CPI

# live: two software clocks of one run count the same time
if operf -e cpu-clock -d "$T/probe" true >probe.out 2>&1; then
	trio=$WORKLOADS/trio
	check 'operf -e cpu-clock,task-clock trio' profile live --session-dir="$T/live" \
		-e cpu-clock:100000,task-clock:100000 "$trio"
	check '--metric R=cpu_clock/task_clock: exit 0' exits 0 r --session-dir="$T/live" -l \
		--metric 'R=cpu_clock/task_clock' "lib-image:$trio"
	check '... trio_a, trio_b and trio_c: within 10 % of 1' sh -c \
		"awk '/ trio_[abc]\$/ { n++; if (\$5 < 0.9 || \$5 > 1.1) bad++ } END { exit !(n == 3 && !bad) }' r.out" ||
		sed 's/^/# /' r.out
else
	skip 'live: cpu-clock against task-clock' \
		"perf_events cannot be used here: $(sed -n 's/^operf: error: //p' probe.out | head -n 1)"
fi
done_testing
