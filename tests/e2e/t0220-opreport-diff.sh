#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Differential profiles, opreport [shared spec] { spec1 } { spec2 }: the
# second profile's symbols with their share and a "diff %" column (the
# change of the share, in percent of the first share), "+++" for a
# symbol only in the second profile and "---" for one only in the first;
# sessions, events and images as the two sides; the options a
# differential profile cannot show are refused with exit 2.
. "$top_srcdir/tests/lib.sh"
use_fixtures

# the second run of the basic program: alpha halved, beta the same,
# gamma and helper_delta gone, run_all new
cat >fixtures/after.json <<'EOF'
{"cpu_type": "i386/skylake", "cpu_speed": 2400.0,
 "profiles": [{"binary": "build/fixture_nopie",
   "symbol_samples": {"compute_alpha": 500, "compute_beta": 500,
                      "run_all": 100, "main": 5}}]}
EOF
# two events in one session, and two applications
cat >fixtures/twoev.json <<'EOF'
{"cpu_type": "i386/skylake",
 "events": [{"name": "cpu_clk_unhalted", "count": 100000},
            {"name": "inst_retired", "count": 50000, "code": 192}],
 "profiles": [
  {"binary": "build/fixture_nopie", "event": 0,
   "symbol_samples": {"compute_alpha": 300, "compute_beta": 100}},
  {"binary": "build/fixture_nopie", "event": 1,
   "symbol_samples": {"compute_alpha": 100, "compute_beta": 100, "main": 50}},
  {"binary": "build/fixture_pie", "event": 0,
   "symbol_samples": {"compute_alpha": 40, "main": 10}}]}
EOF
for s in basic after twoev; do
	check "mksamples.py writes the $s session" mksession $s
done
# one session directory holding both runs: previous and current
mkdir -p two/samples && cp -R out/basic/samples/current two/samples/previous &&
	cp -R out/after/samples/current two/samples/current || exit 99

# fails_with STATUS NAME OPTIONS...: that exit, nothing on stdout, stderr
# as on stdin
fails_with() {
	fw_rc=$1
	shift
	cat >"$1.want" && exits "$fw_rc" "$@" && compare "$1.want" "$1.err" &&
	test ! -s "$1.out"
}

# diff NAME OPTIONS...: exit 0, nothing on stderr, stdout below its
# header lines (checked once below) as on stdin, without the tests'
# columns "adj. p" and "sig" (characters 29-41; t0650 checks them and
# the header lines on the tests)
diff_is() {
	cat >"$1.want" &&
	exits 0 "$@" && sed -e '/^CPU: /d' -e '/^Counted /d' -e '/^Changes: /d' \
		-e '/^Samples: /d' "$1.out" | cut -c1-28,42- >"$1.body" &&
	compare "$1.want" "$1.body" &&
	{ test ! -s "$1.err" || { sed 's/^/# stderr: /' "$1.err"; false; }; }
}

# alpha: 54.5256% -> 45.2489%, -17.0136%; beta 27.6445% -> 45.2489%,
# +63.6813%; main 0.2726% -> 0.4525%, +65.9729%
check 'previous vs current: diff %, +++ and ---' \
	diff_is sessions --session-dir=two -l { session:previous } { session:current } <<'EOF'
samples  %        diff %    symbol name
500      45.2489  -17.0136  compute_alpha
500      45.2489  +63.6813  compute_beta
320      ---      ---       compute_gamma
100       9.0498  +++       run_all
5         0.4525  +65.9729  main
2        ---      ---       helper_delta
EOF
check 'the header names the cpu and the event of the second profile' \
	test "$(sed -n 1,2p sessions.out)" = "CPU: Intel Skylake microarchitecture, speed 2400 MHz (estimated)
Counted cpu_clk_unhalted events (Count core clock cycles whenever the clock signal on the specific core is running (not halted)) with a unit mask of 0x00 (No unit mask) count 100000"
check 'the shared spec before the braces; sides the other way round' \
	diff_is back --session-dir=two -l image:fixture_nopie { session:current } { session:previous } <<'EOF'
samples  %        diff %    symbol name
1000     54.5256  +20.5016  compute_alpha
507      27.6445  -38.9057  compute_beta
320      17.4482  +++       compute_gamma
100      ---      ---       run_all
5         0.2726  -39.7492  main
2         0.1091  +++       helper_delta
EOF
check 'sessions named by path, without -l' \
	diff_is paths --session-dir=two "{" "session:$T/tools/two/samples/previous" "}" \
		"{" "session:$T/tools/two/samples/current" "}" <<'EOF'
samples  %        diff %    symbol name
500      45.2489  -17.0136  compute_alpha
500      45.2489  +63.6813  compute_beta
320      ---      ---       compute_gamma
100       9.0498  +++       run_all
5         0.4525  +65.9729  main
2        ---      ---       helper_delta
EOF
check '-r: least samples first' \
	diff_is rev --session-dir=two -l -r { session:previous } { } <<'EOF'
samples  %        diff %    symbol name
2        ---      ---       helper_delta
5         0.4525  +65.9729  main
100       9.0498  +++       run_all
320      ---      ---       compute_gamma
500      45.2489  +63.6813  compute_beta
500      45.2489  -17.0136  compute_alpha
EOF
# -e and -i: each side's shares are of its selected symbols (605 and 1327
# samples without compute_beta), so run_all reaches 10%
check '-t 10 and -e leave rows out' \
	diff_is thresh --session-dir=two -l -t 10 -e compute_beta { session:previous } { } <<'EOF'
samples  %        diff %    symbol name
500      82.6446  +9.6694   compute_alpha
320      ---      ---       compute_gamma
100      16.5289  +++       run_all
EOF
check '-n: no column header' \
	diff_is nohdr --session-dir=two -l -n -i main { session:previous } { } <<'EOF'
5        100.000        0   main
EOF

# nopie under cpu_clk_unhalted: alpha 75%, beta 25%; under inst_retired
# 40%, 40%, main 20%
check 'two events of one application' \
	diff_is events --session-dir=out/twoev -l image:fixture_nopie \
		{ event:cpu_clk_unhalted } { event:inst_retired } <<'EOF'
samples  %        diff %    symbol name
100      40.0000  -46.6667  compute_alpha
100      40.0000  +60.0000  compute_beta
50       20.0000  +++       main
EOF
check 'two applications: no symbol in common' \
	diff_is images --session-dir=out/twoev -l event:cpu_clk_unhalted \
		{ fixture_nopie } { fixture_pie } <<'EOF'
samples  %        diff %    image name               symbol name
300      ---      ---       fixture_nopie            compute_alpha
100      ---      ---       fixture_nopie            compute_beta
40       80.0000  +++       fixture_pie              compute_alpha
10       20.0000  +++       fixture_pie              main
EOF
check 'sides with different columns: exit 1, both named' \
	fails_with 1 cols --session-dir=out/twoev -l { } { event:cpu_clk_unhalted } <<'EOF'
opreport: error: the two profiles of the differential have different columns: cpu_clk_unhalted:100000, inst_retired:50000 against cpu_clk_unhalted:100000
hint: select the same events, cpus or threads on both sides, or --merge them
EOF

# what a differential profile cannot show: exit 2 and a message
refused() {	# OPTION NAME
	printf '%s\n' "opreport: error: a differential profile cannot be shown with $2" \
		"hint: see 'opreport --help'" >"refused$1.want" &&
	exits 2 "refused$1" --session-dir=two "$1" { session:previous } { } &&
	compare "refused$1.want" "refused$1.err" && test ! -s "refused$1.out"
}
check '-X with a differential profile: exit 2' refused -X --xml
check '-c with a differential profile: exit 2' refused -c --callgraph
check '-d with a differential profile: exit 2' refused -d --details

# malformed differential specifications: usage errors
bad_braces() {	# EXPECTED-MESSAGE ARGS...
	b_msg=$1; shift
	printf '%s\n' "opreport: error: $b_msg" "hint: see 'opreport --help'" >braces.want &&
	exits 2 braces --session-dir=two "$@" && compare braces.want braces.err
}
check 'one side only: exit 2' bad_braces \
	"one side in braces: a differential profile is '{ SPEC } { SPEC }'" { session:previous }
check 'a third side: exit 2' bad_braces \
	"a third '{': a differential profile has two sides" { } { } { }
check "'{' without '}': exit 2" bad_braces "'{' without '}'" { session:previous
check "'}' without '{': exit 2" bad_braces "'}' without '{'" }
check 'braces inside an argument: exit 2' bad_braces \
	"'{ } x': braces must be arguments of their own, as in '{ image:a } { image:b }'" '{ } x'
done_testing
