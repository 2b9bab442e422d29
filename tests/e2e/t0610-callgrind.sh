#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport --format=callgrind writes what valgrind's readers read:
#  - a fixture session (mksamples.py) with two events and known arcs: each
#    function's self cost, each call's cost and the totals are exactly the
#    session's, per event column (our own parser of the file, and
#    callgrind_annotate's totals); the whole file is golden; -t and -i
#    select functions but keep the totals; a call into libc, kept with
#    --merge=lib and left out with -x;
#  - --format=xml is -X byte for byte; --format=nonsense is a usage error
#    naming the formats; an -o that cannot be written is exit 1 and leaves
#    nothing;
#  - with operf: callchain under --callgraph and split under two events:
#    callgrind_annotate's totals and top functions are opreport -l's,
#    --inclusive=yes gives main about all of callchain's samples and
#    cg_caller at least cg_leaf's; calls sit at the source lines making them;
#  - an image without debug information: the export opens no dpkg file
#    list (strace), which opannotate does to name the debug package.
. "$top_srcdir/tests/lib.sh"
need_python
test -x "$OPREPORT" || skip_all "opreport is not built"
have_annotate=yes
command -v callgrind_annotate >/dev/null 2>&1 || have_annotate=

# cgsum FILE: the costs of a callgrind file, summed by function name
#   events NAME...          the event columns
#   total C...              its totals: line
#   self FN C...            the self cost of every fn= block of FN
#   call FN CFN CALLS C...  the calls from FN to CFN and their cost
cgsum() {
	python3 - "$1" <<'EOF'
import re, sys
names = {"ob": {}, "fl": {}, "fn": {}}
kind = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl",
        "cfi": "fl", "cfl": "fl", "fn": "fn", "cfn": "fn"}
def name(k, v):
    m = re.match(r"^\((\d+)\)(?: (.*))?$", v)
    if not m:
        return v
    if m.group(2) is not None:
        names[kind[k]][m.group(1)] = m.group(2)
    return names[kind[k]][m.group(1)]
self_, calls, events, total = {}, {}, [], []
fn = cfn = None
ncalls = 0
def add(d, k, v):
    d[k] = [a + b for a, b in zip(d.get(k, [0] * len(v)), v)]
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    m = re.match(r"^(\w+)[=:] ?(.*)$", line)
    if m and m.group(1) in kind:
        v = name(m.group(1), m.group(2))
        if m.group(1) == "fn":
            fn = v
        elif m.group(1) == "cfn":
            cfn = v
    elif m and m.group(1) == "calls":
        ncalls = int(m.group(2).split()[0])
    elif m and m.group(1) == "events":
        events = m.group(2).split()
    elif m and m.group(1) == "totals":
        total = [int(x) for x in m.group(2).split()]
    elif m:
        continue
    elif re.match(r"^\d+( \d+)*$", line):
        cost = [int(x) for x in line.split()[1:]]
        cost += [0] * (len(events) - len(cost))
        if ncalls:
            add(calls, (fn, cfn), [ncalls] + cost)
            ncalls = 0
        else:
            add(self_, fn, cost)
    else:
        sys.exit("bad line: " + line)
print("events", *events)
print("total", *total)
for k in sorted(self_):
    print("self", k, *self_[k])
for k in sorted(calls):
    print("call", *k, *calls[k])
EOF
}

# annotate FILE [OPTIONS...]: callgrind_annotate's function lines, summed
# by name (a function with inlined code has a line per source file):
# "COUNT NAME" most first; its PROGRAM TOTALS in FILE.total.  Run from /:
# callgrind_annotate strips the current directory from fl= names but not
# from cfi= ones, which would split a function in two.
annotate() {
	a_file=$1 a_path=$(pwd -P)/$1; shift
	(cd / && callgrind_annotate --threshold=100 "$@" "$a_path") \
		>"$a_file.ann" 2>"$a_file.ann.err" || return 1
	awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$a_file.ann" \
		>"$a_file.total"
	python3 - "$a_file.ann" "$*" <<'EOF'
import re, sys
inclusive = "--inclusive=yes" in sys.argv[2]
sums = {}
for line in open(sys.argv[1]):
    m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)(?:\s+[\d,]+(?: \(\s*[\d.]+%\))?)*"
                 r"\s+(\S+?):(\S+)( \[.*\])?$", line)
    if not m or m.group(3) == "":
        continue
    n, fn = int(m.group(1).replace(",", "")), m.group(3)
    # inclusive: the function's own entry (inlined files only add self cost)
    sums[fn] = max(sums.get(fn, 0), n) if inclusive else sums.get(fn, 0) + n
for fn, n in sorted(sums.items(), key=lambda x: (-x[1], x[0])):
    print(n, fn)
EOF
}

# --- exact counts, on a fixture session -----------------------------------
use_fixtures
cat >fixtures/cg2.json <<'EOF'
{
  "session_dir": "out/cg2",
  "cpu_type": "i386/skylake",
  "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0},
             {"name": "inst_retired", "count": 200000, "unitmask": 0, "code": 192}],
  "profiles": [
    {"binary": "build/fixture_nopie", "event": 0,
     "symbol_samples": {"compute_alpha": 1000, "compute_beta": 500,
                        "compute_gamma": 200, "run_all": 10, "main": 5},
     "callgraph": [
        {"from_symbol": "main", "to_symbol": "run_all", "count": 50},
        {"from_symbol": "run_all", "to_symbol": "compute_alpha", "count": 40},
        {"from_symbol": "run_all", "to_symbol": "compute_beta", "count": 30},
        {"from_symbol": "compute_gamma", "to_symbol": "compute_alpha", "count": 12}
     ]},
    {"binary": "build/fixture_nopie", "event": 1,
     "symbol_samples": {"compute_alpha": 300, "main": 7},
     "callgraph": [
        {"from_symbol": "main", "to_symbol": "run_all", "count": 9}
     ]}
  ]
}
EOF
check 'mksamples.py writes a two-event session with arcs' mksession cg2
S=--session-dir=out/cg2
check 'opreport --format=callgrind -o fx.cg exits 0' exits 0 fx "$S" --format=callgrind -o fx.cg
check '... and writes nothing to stdout' test ! -s fx.out
check '... the events line has both events' grep -qx 'events: cpu_clk_unhalted inst_retired' fx.cg
cgsum fx.cg >fx.sum 2>fx.sum.err
check 'the file parses (name compression resolved)' test -s fx.sum
cat >fx.want <<'EOF'
events cpu_clk_unhalted inst_retired
total 1715 307
self compute_alpha 1000 300
self compute_beta 500 0
self compute_gamma 200 0
self main 5 7
self run_all 10 0
call compute_gamma compute_alpha 12 12 0
call main run_all 50 50 9
call run_all compute_alpha 40 40 0
call run_all compute_beta 30 30 0
EOF
check '... self costs, calls and totals are exactly the session'"'"'s' compare fx.want fx.sum
check 'the source file of compute_alpha is fixture.c (debug info)' \
	sh -c 'grep -q "^fl=([0-9]*) .*/fixture\.c$" fx.cg'
check 'compute_alpha'"'"'s cost is on a line of its own (not line 0)' \
	python3 -c '
import re, sys
lines = open("fx.cg").read().split("\n")
i = next(i for i, l in enumerate(lines) if re.match(r"^fn=\(\d+\) compute_alpha$", l))
m = re.match(r"^(\d+) 1000 300$", lines[i + 1])
sys.exit(0 if m and int(m.group(1)) > 0 else 1)'
sed 's/^creator: oprofile-ng opreport .*/creator: oprofile-ng opreport VERSION/' fx.cg >fx.gold
check 'the file matches the golden one (the version aside)' golden t0610-callgrind fx.gold
t20_keeps_two() {
	exits 0 t20 "$S" --format=callgrind -t 20 -o t20.cg &&
		test "$(grep -c "^fn=" t20.cg)" = 2 && grep -qx "totals: 1715 307" t20.cg
}
check '-t 20 keeps compute_alpha and compute_beta, the totals stay whole' \
	t20_keeps_two
include_run_all() {
	exits 0 inc "$S" --format=callgrind -i run_all -o inc.cg &&
		test "$(grep -c "^fn=" inc.cg)" = 1 &&
		test "$(grep -c "^calls=" inc.cg)" = 2
}
check '-i run_all: its block alone, with its calls' \
	include_run_all
# one event at two counts: two columns, two names
cat >fixtures/twocounts.json <<'EOF'
{
  "session_dir": "out/twocounts",
  "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0},
             {"name": "cpu_clk_unhalted", "count": 200000, "unitmask": 0}],
  "profiles": [
    {"binary": "build/fixture_nopie", "event": 0, "symbol_samples": {"main": 3}},
    {"binary": "build/fixture_nopie", "event": 1, "symbol_samples": {"main": 4}}
  ]
}
EOF
two_counts() {
	mksession twocounts &&
		exits 0 tc --session-dir=out/twocounts --format=callgrind -o tc.cg &&
		grep -qx 'events: cpu_clk_unhalted cpu_clk_unhalted_2' tc.cg &&
		grep -qx 'totals: 3 4' tc.cg
}
check 'one event at two counts: columns cpu_clk_unhalted and cpu_clk_unhalted_2' two_counts

# a call into a library (tests/tools/fixtures/callgraph.json: main calls
# libc's printf 3 times), with -x and --merge=lib
check 'mksamples.py writes the callgraph session' mksession callgraph
C=--session-dir=out/callgraph
lib_call() {	# NAME OPTIONS...: NAME.sum has main -> printf and printf's self cost
	l_n=$1; shift
	exits 0 "$l_n" "$C" --format=callgrind -o "$l_n.cg" "$@" &&
		cgsum "$l_n.cg" >"$l_n.sum" && grep -qx 'call main printf 3 3' "$l_n.sum" &&
		grep -qx 'self printf 9' "$l_n.sum" &&
		grep -q '^c\{0,1\}ob=([0-9]*) .*/libc\.so\.6$' "$l_n.cg"
}
check 'a call from main into libc'"'"'s printf: 3, libc named' lib_call lib
check '... the same with --merge=lib' lib_call mlib --merge=lib
no_lib() {
	exits 0 x "$C" --format=callgrind -x -o x.cg && cgsum x.cg >x.sum &&
		grep -qx 'call main run_all 50 50' x.sum && ! grep -q printf x.sum &&
		! grep -q libc x.cg
}
check '-x: no libc, no call to printf' no_lib
if test -n "$have_annotate"; then
	annotate_fixture() {
		annotate fx.cg >fx.ann.sum && test "$(cat fx.cg.total)" = 1715 &&
			head -n 1 fx.ann.sum | grep -qx "1000 compute_alpha"
	}
	check 'callgrind_annotate reads it: totals 1715, compute_alpha first' \
		annotate_fixture
	annotate_second() {
		annotate fx.cg --show=inst_retired --sort=inst_retired >/dev/null &&
			test "$(cat fx.cg.total)" = 307
	}
	check '... and the second event: totals 307' \
		annotate_second
	annotate_inclusive() {
		annotate fx.cg --inclusive=yes >fx.inc &&
			grep -qx "50 run_all" fx.inc && grep -qx "55 main" fx.inc
	}
	check '... --inclusive=yes: run_all 50 (the calls to it), main 55 (self and call)' \
		annotate_inclusive
else
	skip 'callgrind_annotate reads the fixture file' 'callgrind_annotate (valgrind) is not installed'
fi

# --- the option ---------------------------------------------------------
xml_same() {
	exits 0 x1 "$S" -X && exits 0 x2 "$S" --format=xml &&
		test "$(grep -c ' title="opreport --session-dir=out/cg2 -X ">' x1.out)" = 1 &&
		sed 's/ title=.*/ title/' x1.out >x1.cut && sed 's/ title=.*/ title/' x2.out >x2.cut &&
		cmp x1.cut x2.cut
}
check '--format=xml is byte-identical to -X (but the command line in the title)' \
	xml_same
text_same() {
	exits 0 t1 "$S" -l && exits 0 t2 "$S" -l --format=text && cmp t1.out t2.out
}
check '--format=text is the default report' \
	text_same
check '--format=nonsense exits 2' exits 2 bad "$S" --format=nonsense
check '... naming the formats' grep -q 'text, xml, callgrind' bad.err
check '--format=callgrind -X exits 2' exits 2 bad2 "$S" --format=callgrind -X
: >afile
check '-o under a file (not a directory) exits 1' \
	exits 1 unw "$S" --format=callgrind -o afile/out.cg
check '... says why' grep -q 'afile/out.cg' unw.err
check '... and leaves nothing' sh -c 'test -z "$(ls -A afile* | grep -v "^afile$")"'
check '-o: a write that fails leaves the old file, no temporary' \
	half_written "$S" --format=callgrind
mkdir ro && chmod 555 ro
if test "$(id -u)" != 0; then
	ro_refused() {
		exits 1 ro "$S" --format=callgrind -o ro/out.cg && test -z "$(ls -A ro)"
	}
	check '-o into a read-only directory exits 1, nothing left' \
		ro_refused
	# a file it may write, in a directory it may not: written in place
	in_place() {
		chmod 755 ro && echo old >ro/old.cg && chmod 555 ro &&
		exits 0 inplace "$S" --format=callgrind -o ro/old.cg &&
		grep -q '^events:' ro/old.cg && test "$(ls ro)" = old.cg
	}
	check '-o over a writable file in a read-only directory writes it in place' \
		in_place
else
	skip '-o into a read-only directory' 'root writes there anyway'
	skip '-o over a writable file in a read-only directory' 'root writes there anyway'
fi

# --- no debug information: its reason (the dpkg package) is not looked up
# A callgrind file has no place for why an image has no lines, and naming
# the package reads every dpkg file list, once per image (bench/exports
# found it was most of the export's time on a build's session): only a
# tool that says it (opannotate) reads them.
nodebug_bin=
for c in /usr/bin/xz /usr/bin/bzip2 /usr/bin/gzip; do
	if test -f "$c" && ! readelf -S "$c" 2>/dev/null | grep -q '\.debug_info'; then
		nodebug_bin=$c
		break
	fi
done
if ! command -v strace >/dev/null 2>&1; then
	skip 'callgrind reads no dpkg file list' 'strace is not installed'
elif ! test -d /var/lib/dpkg/info; then
	skip 'callgrind reads no dpkg file list' 'not a dpkg system'
elif test -z "$nodebug_bin"; then
	skip 'callgrind reads no dpkg file list' 'no xz, bzip2 or gzip without DWARF'
else
	cat >nodebug.json <<EOF
{"session_dir": "out/nodebug", "cpu_type": "i386/skylake",
 "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0}],
 "profiles": [{"binary": "$nodebug_bin", "event": 0, "samples": {"0x3000": 40}}]}
EOF
	# traced TRACE CMD...: the files CMD opens, in TRACE (no LeakSanitizer:
	# it cannot run under ptrace)
	traced() {
		t_out=$1; shift
		ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat,open -o "$t_out" "$@"
	}
	nodebug_cg() {
		python3 mksamples.py nodebug.json --quiet &&
			traced nd.trace "$OPREPORT" --session-dir=out/nodebug \
				--format=callgrind -o nd.cg 2>nd.err &&
			grep -q '^totals: 40$' nd.cg
	}
	# dpkg's lists are opened by name in their directory, opened first
	lists_re='"/var/lib/dpkg/info[/"]|\.list"'
	no_lists() {
		grep -Eq "$lists_re" nd.trace || return 0
		say "it opened $(grep -Ec "$lists_re" nd.trace) dpkg files"
		return 1
	}
	# the control: opannotate says the reason, so it reads the lists
	nodebug_ann() {
		traced nda.trace "$OPANNOTATE" --session-dir=out/nodebug --source >nda.out 2>&1
		grep -q '\.list"' nda.trace && grep -Eq "$lists_re" nda.trace &&
			grep -q 'no debug information' nda.out
	}
	check "callgrind of a session of $nodebug_bin (no DWARF)" nodebug_cg
	check '... opens no dpkg file list' no_lists
	check '... which opannotate --source does, to name the package' nodebug_ann
fi

# --- operf sessions -----------------------------------------------------
if ! operf -e cpu-clock -d "$T/.np" true >np.out 2>&1; then
	skip 'callgrind files of operf sessions' "perf_events cannot be used here: $(head -n 1 np.out)"
	done_testing
	exit
fi
if test -z "$have_annotate"; then
	skip 'callgrind_annotate on operf sessions' 'callgrind_annotate (valgrind) is not installed'
	done_testing
	exit
fi

# opl NAME OPTIONS...: opreport -l's "COUNT... NAME" per symbol, summed by
# name, most first (first event); its total in NAME.total
opl() {
	o_n=$1; shift
	exits 0 "$o_n" -l -n "$@" || return 1
	python3 - "$o_n.out" "$o_n.total" <<'EOF'
import sys
sums, total = {}, []
for line in open(sys.argv[1]):
    f = line.split()
    cols = []
    for i in range(0, len(f) - 1, 2):
        if not f[i].isdigit():
            break
        cols.append(int(f[i]))
    if not cols:
        continue
    total = [a + b for a, b in zip(total or [0] * len(cols), cols)]
    # a name with blanks (operator new(unsigned long)) is not one token
    # of callgrind_annotate's lines either: left out of both sides' tops
    if len(f) > 2 * len(cols) + 2:
        continue
    sums[f[-1]] = sums.get(f[-1], 0) + cols[0]
open(sys.argv[2], "w").write(" ".join(map(str, total)) + "\n")
for fn, n in sorted(sums.items(), key=lambda x: (-x[1], x[0])):
    print(n, fn)
EOF
}

cc=$WORKLOADS/callchain
check 'operf --callgraph ./callchain' profile cgrun --callgraph -d cg "$cc"
ccl_report() {
	opl ccl --session-dir=cg >ccl.sum
}
check 'opreport --format=callgrind on it' exits 0 cc --session-dir=cg --format=callgrind -o cc.cg
cc_annotate() {
	annotate cc.cg >cc.sum
}
check 'opreport -l on it' ccl_report
check 'callgrind_annotate reads it' cc_annotate
check '... PROGRAM TOTALS is opreport -l'"'"'s total' \
	sh -c 'test "$(cat cc.cg.total)" = "$(cat ccl.total)" && test "$(cat cc.cg.total)" -gt 100'
cc_top_same() {
	head -n 3 cc.sum >a && head -n 3 ccl.sum >b && compare b a &&
		head -n 1 a | grep -q " cg_leaf$"
}
check '... the same top functions with the same counts (cg_leaf first)' \
	cc_top_same
cc_main_inclusive() {
	annotate cc.cg --inclusive=yes >cc.inc &&
		m=$(awk "\$2 == \"main\" { print \$1 }" cc.inc) &&
		test -n "$m" && test $((m * 100)) -ge $(($(cat cc.cg.total) * 95))
}
check '--inclusive=yes: main has at least 95 % of the samples' \
	cc_main_inclusive
check '... cg_caller'"'"'s inclusive cost is at least cg_leaf'"'"'s' \
	sh -c 'c=$(awk "\$2 == \"cg_caller\" { print \$1 }" cc.inc) &&
		l=$(awk "\$2 == \"cg_leaf\" { print \$1 }" cc.inc) &&
		test -n "$c" && test -n "$l" && test "$c" -ge "$l" && test "$l" -gt 0'
cc_arcs() {
	cgsum cc.cg >cc.parsed && grep -q "^call main cg_caller " cc.parsed &&
		grep -q "^call cg_caller cg_leaf " cc.parsed
}
check '... and main calls cg_caller, which calls cg_leaf' \
	cc_arcs
check 'cmd: is the command operf ran' grep -qx "cmd: $cc" cc.cg
# call_line CALLER CALLEE: the line the calls from CALLER to CALLEE are at
call_line() {
	python3 - "$1" "$2" cc.cg <<'EOF'
import re, sys
names, fn, cfn, want = {}, None, None, False
for line in open(sys.argv[3]):
    m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if m:
        if m.group(3) is not None:
            names[m.group(2)] = m.group(3)
        if m.group(1) == "fn":
            fn = names[m.group(2)]
        else:
            cfn = names[m.group(2)]
    elif line.startswith("calls="):
        want = fn == sys.argv[1] and cfn == sys.argv[2]
    elif want:
        print(line.split()[0])
        want = False
EOF
}
calls_at_call_sites() {
	l1=$(grep -n 'acc += cg_leaf(' "$top_srcdir/tests/workloads/callchain.c" | cut -d: -f1) &&
		l2=$(grep -n '= cg_caller(11)' "$top_srcdir/tests/workloads/callchain.c" | cut -d: -f1) &&
		test -n "$l1" && test -n "$l2" &&
		test "$(call_line cg_caller cg_leaf)" = "$l1" &&
		test "$(call_line main cg_caller)" = "$l2"
}
check 'the calls are at the lines of callchain.c that make them' calls_at_call_sites

split=$WORKLOADS/split
check 'operf -e cpu-clock:250000,task-clock:500000 ./split' \
	profile tworun -e cpu-clock:250000,task-clock:500000 -d two "$split"
check 'opreport --format=callgrind on it' exits 0 tw --session-dir=two --format=callgrind -o tw.cg
twl_report() {
	opl twl --session-dir=two >twl.sum
}
check '... events: both, side by side' grep -qx 'events: cpu_clock task_clock' tw.cg
check 'opreport -l on it' twl_report
tw_totals() {
	cgsum tw.cg >tw.parsed &&
		test "$(sed -n "s/^total //p" tw.parsed)" = "$(cat twl.total)"
}
check '... each column'"'"'s total is opreport'"'"'s' \
	tw_totals
tw_top_same() {
	annotate tw.cg >tw.sum && head -n 3 tw.sum >a && head -n 3 twl.sum >b &&
		compare b a && head -n 1 a | grep -q " split_three$"
}
check 'callgrind_annotate: the top functions of split as opreport -l' \
	tw_top_same
tw_second_total() {
	annotate tw.cg --show=task_clock --sort=task_clock >/dev/null &&
		test "$(cat tw.cg.total)" = "$(cut -d" " -f2 twl.total)"
}
check '... the second column'"'"'s PROGRAM TOTALS' \
	tw_second_total
done_testing
