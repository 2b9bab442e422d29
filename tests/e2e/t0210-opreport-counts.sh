#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport's text reports give exactly the counts mksamples.py expects:
# every symbol of every image with -l, every application and dependent
# image of the summary, every call-graph arc of -c, and the percentages
# that go with them, on the basic, callgraph, threads, timer and foreign
# fixtures.  The threads fixture also gives its thread and cpu columns and
# the sums of --merge; a second differing axis is an error naming both.
. "$top_srcdir/tests/lib.sh"
use_fixtures

# The foreign fixture (random samples over 300 addresses and an arc) is
# written for opimport in a foreign ABI: here the same spec, native.
python3 - <<'EOF' || exit 99
import json
spec = json.load(open("fixtures/foreign_i386.json"))
spec["layout"] = "native"
json.dump(spec, open("fixtures/foreign.json", "w"))
EOF

# counts.py MODE EXPECT REPORT: REPORT (opreport -f, MODE "summary" or
# "lib" for --merge=lib/all; -l -f, MODE "symbols", or "own" for -x: the
# applications' own images only; -c -f, MODE "arcs") has the counts and
# percentages of mksamples.py's expectation EXPECT
cat >"$T/counts.py" <<'EOF'
import json, re, sys

mode, exp = sys.argv[1], json.load(open(sys.argv[2]))
lines = open(sys.argv[3]).read().split("\n")
bad = []

def pct_ok(text, count, total):
    want = 100.0 * count / total if total else 0.0
    if text == "0":
        return count == 0
    return abs(float(text) - want) <= 0.00005 + 1e-9 * want

def image_key(shown):
    """the expectation's key of an image as the report shows it"""
    if shown in exp["images"]:
        return shown
    for k in exp["images"]:
        if not k.startswith("/") and shown.startswith(k + " ("):
            return k
    return shown

def compare(what, got, want):
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            bad.append("%s %s: got %s, expected %s" % (what, k, got.get(k), want.get(k)))

# a report line: count, percent, then the name columns; image and app
# names are paths or "anon (...)" labels, the symbol is the rest
NAME = r"(/\S+|anon \([^)]*\)|\S+)"
def split_names(rest, nr):
    out = []
    for _ in range(nr):
        m = re.match(NAME + r"\s+", rest)
        out.append(m.group(1))
        rest = rest[m.end():]
    return out + [rest]

def header_columns():
    for l in lines:
        if l.startswith("samples "):
            return ("image name" in l) + ("app name" in l), ("app name" in l)
    sys.exit("no column header")

if mode in ("summary", "lib"):
    total = sum(v["total"] for v in exp["images"].values())
    apps, deps, app = {}, {}, None
    for l in lines:
        m = re.match(r"(\t?) +(\d+) +(\S+) (.*)$", l)
        if not m:
            continue
        count, pc, name = int(m.group(2)), m.group(3), image_key(m.group(4))
        if not m.group(1):
            app = name
            apps[app] = count
            if not pct_ok(pc, count, total):
                bad.append("percent of %s: %s" % (app, pc))
        else:
            deps[app + " > " + name] = count
            if not pct_ok(pc, count, apps[app]):
                bad.append("percent of %s under %s: %s" % (name, app, pc))
    want_apps, want_deps = {}, {}
    for img, v in exp["images"].items():
        for a, n in v["apps"].items():
            key = img if mode == "lib" else a
            want_apps[key] = want_apps.get(key, 0) + n
            if mode != "lib":
                want_deps[a + " > " + img] = n
    # an app whose only image is itself lists no dependents
    for a in want_apps:
        if [k for k in want_deps if k.startswith(a + " > ")] == [a + " > " + a]:
            del want_deps[a + " > " + a]
    compare("application", apps, want_apps)
    compare("dependent image", deps, want_deps)
elif mode in ("symbols", "own"):
    nr_names, has_app = header_columns()
    shown = [i for i in exp["images"]
             if mode == "symbols" or i in exp["images"][i]["apps"]]
    only = shown[0] if len(shown) == 1 else None
    got, rows = {}, []
    for l in lines:
        m = re.match(r"(\d+) +(\S+) +(.*)$", l)
        if not m:
            continue
        names = split_names(m.group(3), nr_names)
        image = image_key(names[0]) if nr_names else only
        sym = image if image_key(names[-1]) == image else names[-1]
        got[image + " | " + sym] = int(m.group(1))
        rows.append((int(m.group(1)), m.group(2)))
    want = {}
    for img in shown:
        syms = exp["symbols"].get(img, {"<image>": exp["images"][img]["total"]})
        for s, n in syms.items():
            # an image without symbols is one symbol named after it
            want[img + " | " + (img if s == "<image>" else s)] = n
    compare("symbol", got, want)
    total = sum(n for n, _ in rows)
    for n, pc in rows:
        if not pct_ok(pc, n, total):
            bad.append("percent %s for %d of %d" % (pc, n, total))
    if [n for n, _ in rows] != sorted((n for n, _ in rows), reverse=True):
        bad.append("not sorted by samples")
elif mode == "arcs":
    nr_names, _ = header_columns()
    only = list(exp["images"])[0] + "|" if len(exp["images"]) == 1 else ""
    got_in, got_out, cur, before = {}, {}, None, []
    for l in lines:
        if l.startswith("----"):
            cur, before = None, []
            continue
        m = re.match(r"( *)(\d+) +(\S+) +(.*)$", l)
        if not m:
            continue
        names = split_names(m.group(4), nr_names)
        sym = names[-1]
        key = (names[0] + "|" if nr_names else only) + sym
        if not m.group(1):
            cur = key
            for k, n in before:
                got_in[k + "|" + cur] = n
        elif cur is None:
            before.append((key, int(m.group(2))))
        elif not sym.endswith(" [self]"):
            got_out[cur + "|" + key] = int(m.group(2))
    compare("arc (callee's callers)", got_in, exp["arcs"])
    compare("arc (caller's callees)", got_out, exp["arcs"])
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
EOF

# counts MODE SESSION OPTIONS...: opreport -f OPTIONS on out/SESSION has
# the counts out/SESSION.expect.json gives
counts() {
	c_mode=$1 c_s=$2
	shift 2
	opr "$c_s-$c_mode" --session-dir="out/$c_s" -f "$@" &&
	python3 "$T/counts.py" "$c_mode" "out/$c_s.expect.json" "$c_s-$c_mode.out"
}

for s in basic callgraph timer foreign; do
	check "$s: mksamples.py writes the session" mksession $s
	check "$s: the image summary has every count and percentage expected" \
		counts summary $s
	check "$s: -l has every symbol's count and percentage expected" \
		counts symbols $s -l
	check "$s: -l -x has the counts of the applications' own images" \
		counts own $s -l -x
done
check 'callgraph: -c lists every arc, under its caller and its callee' \
	counts arcs callgraph -c
check 'foreign: -c lists its arc, under its caller and its callee' \
	counts arcs foreign -c
check 'callgraph: --merge=lib lists the images on their own' \
	counts lib callgraph --merge=lib
check 'callgraph: --merge=lib -l has the same symbols' \
	counts symbols callgraph --merge=lib -l

# a control: the checker finds a count that is off by one
off_by_one() {
	sed 's/^1000 /1001 /' basic-symbols.out >basic-wrong.out &&
	! python3 "$T/counts.py" symbols out/basic.expect.json basic-wrong.out >/dev/null
}
check 'control: a count changed by one is caught' off_by_one

# --- profile specifications select the files they name ---------------
selects() {	# NAME SPEC...: the summary of callgraph is the text on stdin
	cat >"$1.want" &&
	opr "$@" --session-dir=out/callgraph -n && compare "$1.want" "$1.out"
}
whole='     1728 100.000 fixture_pie
	     1715 99.2477 fixture_pie
	       13  0.7523 libc.so.6'
set -f	# the specs are split into words, not globbed here
for spec in fixtures/build/fixture_pie ./fixtures/build/fixture_pie \
	    "$FIX/build/fixture_pie" 'fixture_p?e' 'image:*pie' \
	    'event:cpu_clk_unhalted count:100000 unit-mask:0' unit-mask:0x0 \
	    tgid:all session:current session-exclude:previous; do
	check "the spec $(printf %s "$spec" | norm) selects every file" selects sel $spec <<EOF
$whole
EOF
done
set +f
check 'lib-image: selects the library under its app' \
	selects lib 'lib-image:*/libc.so.?' <<'EOF'
       13 100.000 fixture_pie
	       13 100.000 libc.so.6
EOF
check 'lib-image-exclude: leaves the library out' \
	selects nolib lib-image-exclude:/usr/lib/x86_64-linux-gnu/libc.so.6 <<'EOF'
     1715 100.000 fixture_pie
EOF

# --- threads: per-process, per-thread and per-cpu files ---------------
check 'threads: mksamples.py writes the session' mksession threads
check 'threads: --merge=all summary has the expected counts' \
	counts lib threads --merge=all
check 'threads: --merge=all -l has the expected counts' \
	counts symbols threads --merge=all -l

# the threads fixture's counts come from its spec (no compiler involved)
columns() {	# NAME OPTIONS...; expected lines on stdin
	cat >"$1.want" &&
	opr "$@" --session-dir=out/threads -n &&
	compare "$1.want" "$1.out"
}
check 'threads: --merge=tid,tgid gives one column per cpu' columns tidtgid --merge=tid,tgid <<'EOF'
      100 100.000        74 100.000 fixture_nopie
	      100 100.000        67 90.5405 fixture_nopie
	        0       0         7  9.4595 anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff)
EOF
check 'threads: --merge=tid,tgid -l sums each cpu' columns tidtgid-l --merge=tid,tgid -l <<'EOF'
100      100.000  50       67.5676  fixture_nopie            compute_alpha
0              0  7         9.4595  anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff) anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff)
0              0  10       13.5135  fixture_nopie            compute_beta
0              0  7         9.4595  fixture_nopie            main
EOF
check 'threads: --merge=cpu,tid -l gives one column per process' columns tgidcols --merge=cpu,tid -l <<'EOF'
150      93.7500  0              0  fixture_nopie            compute_alpha
10        6.2500  0              0  fixture_nopie            compute_beta
0              0  7        50.0000  anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff) anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff)
0              0  7        50.0000  fixture_nopie            main
EOF
check 'threads: --merge=cpu in one process gives one column per thread' \
	columns tidcols --merge=cpu -l tgid:1234 <<'EOF'
100      100.000  50       83.3333  compute_alpha
0              0  10       16.6667  compute_beta
EOF
check 'threads: --merge=all gives one column with every sample' \
	columns all --merge=all <<'EOF'
      167 95.9770 fixture_nopie
        7  4.0230 anon (tgid:2000 range:0x7f1234560000-0x7f1234570fff)
EOF
check 'threads: a row stays when any column reaches --threshold' \
	columns thresh --merge=cpu -l tgid:1234 -t 15 <<'EOF'
100      100.000  50       83.3333  compute_alpha
0              0  10       16.6667  compute_beta
EOF
check 'threads: ... and goes when none does' \
	columns thresh2 --merge=cpu -l tgid:1234 -t 20 <<'EOF'
100      100.000  50       83.3333  compute_alpha
EOF
headers() {
	opr hdr --session-dir=out/threads --merge=cpu tgid:1234 -l &&
	sed -n '3,5p' hdr.out >hdr.got &&
	cat >hdr.want <<'EOF' &&
Processes with a thread ID of 1234
Processes with a thread ID of 1240
samples  %        samples  %        symbol name
EOF
	compare hdr.want hdr.got
}
check 'threads: the header names each column' headers

# two differing axes: an error that names both and how to resolve it
conflict() {	# NAME EXPECTED-STDERR OPTIONS...
	c_n=$1 c_want=$2
	shift 2
	printf '%s\n' "$c_want" >"$c_n.want" &&
	exits 1 "$c_n" --session-dir=out/threads "$@" &&
	compare "$c_n.want" "$c_n.err" && test ! -s "$c_n.out"
}
check 'threads: tgid and tid differ: exit 1, both named, fixes suggested' conflict tt \
"opreport: error: the samples differ by tgid (1234, 2000) and by tid (1234, 1240, 2000); a report can show only one of them as columns
hint: use 'tgid:' or --merge=tgid, or 'tid:' or --merge=tid" -l
check 'threads: --merge=cpu leaves tgid and tid differing' conflict tt2 \
"opreport: error: the samples differ by tgid (1234, 2000) and by tid (1234, 1240, 2000); a report can show only one of them as columns
hint: use 'tgid:' or --merge=tgid, or 'tid:' or --merge=tid" --merge=cpu
check 'threads: --merge=tid leaves tgid and cpu differing' conflict tc \
"opreport: error: the samples differ by tgid (1234, 2000) and by cpu (0, 1); a report can show only one of them as columns
hint: use 'tgid:' or --merge=tgid, or 'cpu:' or --merge=cpu" --merge=tid
check 'threads: one process still differs by thread and cpu' conflict tidcpu \
"opreport: error: the samples differ by tid (1234, 1240) and by cpu (0, 1); a report can show only one of them as columns
hint: use 'tid:' or --merge=tid, or 'cpu:' or --merge=cpu" tgid:1234
check 'threads: following the hint (tid:1240) resolves it' \
	exits 0 hint --session-dir=out/threads tgid:1234 tid:1240 -l
done_testing
