#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport -X: sessions made by mksamples.py, whose counts are known, give
# the totals, per-symbol counts and call-graph arcs mksamples.py expects
# (its --check reads our XML as it reads OProfile 1.4's), and the XML is
# well-formed and shaped as oprofile-ng-formats(5), XML REPORT, says, for the options that
# change it.
. "$top_srcdir/tests/lib.sh"
need_python
command -v cc >/dev/null 2>&1 || skip_all "no C compiler for the fixture binaries"

OPREPORT=$top_builddir/pp/opreport
test -x "$OPREPORT" || skip_all "opreport is not built"

# the fixtures are built beside their specs: work on a copy
cp -R "$top_srcdir/tests/tools" "$T/tools" && chmod -R u+w "$T/tools" &&
	cd "$T/tools" || exit 99
fixtures/build.sh >build.log 2>&1 || skip_all "cannot build the fixtures: $(tail -n 1 build.log)"

# the structure oprofile-ng-formats(5), XML REPORT, gives, checked on an -X report on stdin
cat >"$T/xmlshape.py" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET

text = sys.stdin.read()
assert text.startswith('<?xml version="1.0" ?>\n<profile  schemaversion="3.1"'), text[:80]
root = ET.fromstring(text)
order = ["options", "setup", "classes", "process", "binary", "symboltable",
         "detailtable", "bytestable"]
kids = [c.tag for c in root]
pos = [order.index(k) for k in kids]
assert pos == sorted(pos), kids
assert "symboltable" in kids and "setup" in kids and "options" in kids, kids
assert not ("process" in kids and "binary" in kids), kids
for a in ("title", "cputype", "mhz"):
    assert root.get(a) is not None, a
assert re.fullmatch(r"\d+\.\d\d", root.get("mhz")), root.get("mhz")
setup = [c.tag for c in root.find("setup")]
assert setup and (setup == ["timersetup"] or set(setup) == {"eventsetup"}), setup

classes = {c.get("name") for c in root.iter("class")}
def counts(elem):
    n = 0
    for c in elem.findall("count"):
        assert c.text.startswith("\n") and int(c.text) > 0, c.text
        assert (c.get("class") in classes) if classes else c.get("class") is None
        n += int(c.text)
    return n

table = {}
for sd in root.find("symboltable"):
    assert sd.tag == "symboldata" and sd.get("name"), sd.tag
    assert sd.get("id") not in table, sd.get("id")
    table[sd.get("id")] = sd
    addr = sd.get("startingaddr")
    assert addr is None or re.fullmatch(r"[0-9a-f]{8}([0-9a-f]{8})?", addr), addr
assert [int(i) for i in table] == list(range(len(table))), "ids not in order"

details = {}
dt = root.find("detailtable")
if dt is not None:
    for sd in dt:
        details[sd.get("id")] = [int(d.get("id")) for d in sd.findall("detaildata")]
        for d in sd.findall("detaildata"):
            assert re.fullmatch(r"[0-9a-f]{8,16}", d.get("vmaoffset"))
            assert len(d.findall("count")) == 1
for bt in root.iter("bytes"):
    code = bt.text.strip()
    assert re.fullmatch(r"[0-9A-F]*", code), code[:20]
    assert len(code) == 2 * int(table[bt.get("id")].get("codelength"))

def symbol(s, in_list):
    ref = s.get("idref")
    assert ref in table, ref
    tags = [c.tag for c in s]
    assert tags == sorted(tags, key=["callers", "callees", "count"].index), tags
    if not in_list and s.get("detaillo") is not None:
        lo, hi = int(s.get("detaillo")), int(s.get("detailhi"))
        assert lo <= hi and set(range(lo, hi + 1)) <= set(details[ref]), (lo, hi)
    for lst in ("callers", "callees"):
        l = s.find(lst)
        if l is None:
            continue
        selfs = 0
        for e in l:
            if e.tag == "module":
                assert e.get("name") and [c.tag for c in e] == ["symbol"]
                e = e.find("symbol")
            assert e.tag == "symbol", e.tag
            if e.get("self") == "true":
                assert lst == "callees" and e.get("idref") == ref
                selfs += 1
            symbol(e, True)
        assert selfs == (1 if lst == "callees" else 0), (lst, selfs)
    return counts(s)

def module(m):
    assert m.get("name")
    own = counts(m)
    syms = sum(symbol(s, False) for s in m.findall("symbol"))
    assert own == syms, (m.get("name"), own, syms)
    return own

total = 0
for b in root.findall("binary"):
    assert b.get("name")
    own = counts(b)
    syms = sum(symbol(s, False) for s in b.findall("symbol"))
    assert own == syms, (b.get("name"), own, syms)
    total += own + sum(module(m) for m in b.findall("module"))
for p in root.findall("process"):
    assert p.get("name") and int(p.get("pid")) >= 0
    pc = counts(p)
    tsum = 0
    for t in p.findall("thread"):
        tc = counts(t)
        assert tc == sum(module(m) for m in t.findall("module")), t.get("tid")
        tsum += tc
    assert pc == tsum, (p.get("pid"), pc, tsum)
    total += pc
print(total)
EOF

# well-formed and shaped as §8 says; prints the sum of the counts
shape() {	# SESSION OPTIONS...
	s=$1; shift
	"$OPREPORT" --session-dir="out/$s" -X "$@" >"$s.xml" 2>"$s.err" &&
	python3 "$T/xmlshape.py" <"$s.xml" >"$s.sum"
}

# mksamples.py --check: its report in SPEC.check, shown when it fails
fixture_check() {	# SPEC
	python3 "$MKSAMPLES" "fixtures/$1.json" --check "$OPREPORT" >"$1.check" 2>&1 ||
	{ sed 's/^/# /' "$1.check"; return 1; }
}

# every fixture: the counts and arcs mksamples.py expects
for s in basic callgraph threads timer; do
	check "-X of the $s fixture has the counts mksamples.py expects" fixture_check $s
done

for s in basic callgraph threads timer; do
	for opts in "-l" "-d" "-g" "-d -g" "-c" "-c -g" "--merge=all -d" "--merge=cpu" \
		    "--merge=lib" "-x" "-r"; do
		check "-X $opts on the $s fixture is well-formed, as oprofile-ng-formats(5) says" \
			shape $s $opts
	done
done

# the header as OProfile writes it
cat >expect.head <<'EOF'
<?xml version="1.0" ?>
<profile  schemaversion="3.1" cputype="i386"
 processor="skylake"
 mhz="2400.00"
 title="opreport --session-dir=out/basic -X -l ">
<options />
<setup>
<eventsetup  id="0" eventname="cpu_clk_unhalted" unitmask="0" setupcount="100000"/>
</setup>

<binary  name="FIX/build/fixture_nopie">
<count>
1834</count>
<symbol  idref="0">
<count>
1000</count>
</symbol>
EOF
head_of_basic() {
	"$OPREPORT" --session-dir=out/basic -X -l >basic-l.xml &&
	head -n 17 basic-l.xml | sed "s|$T/tools/fixtures|FIX|" >basic.head &&
	compare expect.head basic.head &&
	grep -q '^<symboldata  id="0"  name="compute_alpha"  startingaddr="[0-9a-f]\{8\}"/>$' basic-l.xml
}
check "the prolog, <profile>, <setup> and first symbol are OProfile's bytes" head_of_basic

timer_setup() {
	"$OPREPORT" --session-dir=out/timer -X >timer.xml &&
	grep -q '^<profile  schemaversion="3.1" cputype="timer"$' timer.xml &&
	grep -q '^<timersetup  rtcinterrupts="0"/>$' timer.xml &&
	grep -q '^ processor="timer"$' timer.xml
}
check "OProfile's timer mode: <timersetup>, processor \"timer\" (as its schema wants)" timer_setup

# per-thread files, not merged: processes and threads, one class per cpu
threads_tree() {
	"$OPREPORT" --session-dir=out/threads -X -l >threads.xml &&
	python3 - threads.xml <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.get("separatedcpus") == "2"
assert [(c.get("name"), c.get("cpu")) for c in root.iter("class")] == [("c0", "0"), ("c1", "1")]
procs = {p.get("pid"): [t.get("tid") for t in p.findall("thread")] for p in root.findall("process")}
assert procs == {"1234": ["1234", "1240"], "2000": ["2000"]}, procs
t1240 = [t for t in root.iter("thread") if t.get("tid") == "1240"][0]
assert [(c.get("class"), c.text.strip()) for c in t1240.findall("count")] == [("c1", "60")]
anon = [m for m in root.iter("module") if m.get("name").startswith("anon (tgid:2000 range:0x7f1234560000-")]
assert len(anon) == 1 and anon[0].find("count").text.strip() == "7"
EOF
}
check "a profile separated by thread is <process>/<thread>/<module>" threads_tree

# call graph: printf in libc, called by main, lists its caller in a <module>
libc_caller() {
	"$OPREPORT" --session-dir=out/callgraph -X -c >cg.xml &&
	python3 - cg.xml <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
names = {s.get("id"): s.get("name") for s in root.iter("symboldata")}
mod = [m for m in root.find("binary").findall("module") if m.get("name").endswith("/libc.so.6")][0]
printf = [s for s in mod.findall("symbol") if names[s.get("idref")] == "printf"][0]
caller = printf.find("callers").find("module")
assert caller.get("name").endswith("/fixture_pie"), caller.get("name")
assert names[caller.find("symbol").get("idref")] == "main"
assert caller.find("symbol").find("count").text.strip() == "3"
EOF
}
check "-X -c: a library symbol's callers are wrapped in <module>" libc_caller

# -x leaves libc out: its symbols appear only as callees of the program's
no_dependent() {
	"$OPREPORT" --session-dir=out/callgraph -X -c -x >cgx.xml &&
	python3 - cgx.xml <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
names = {s.get("id"): s.get("name") for s in root.iter("symboldata")}
binary = root.find("binary")
assert binary.findall("module") == [], [m.get("name") for m in binary.findall("module")]
callees = [names[s.get("idref")] for s in binary.iter("symbol") if s.get("self") is None]
assert "printf" not in callees, callees
assert "printf" not in names.values(), names
EOF
}
check "-X -c -x: no library <module>, no calls into libraries (as OProfile 1.4)" no_dependent

debug_attrs() {
	"$OPREPORT" --session-dir=out/basic -X -d -g >dg.xml &&
	grep -q '^<options  debuginfo="true" details="true"/>$' dg.xml &&
	grep -q '^<symboldata  id="0"  name="compute_alpha" file="[^"]*/fixture\.c" line="[0-9]*"  startingaddr="[0-9a-f]\{8\}" codelength="[0-9]*"/>$' dg.xml &&
	grep -q '^<count  class="">$' dg.xml &&
	grep -q '^<bytes  id="0">$' dg.xml
}
check "-X -d -g: file, line, codelength, details and bytes" debug_attrs

# names are escaped: a binary in a directory called odd&<dir>"q
odd_names() {
	mkdir -p 'fixtures/odd&<dir>"q' &&
	cp fixtures/build/fixture_nopie 'fixtures/odd&<dir>"q/fix ture' &&
	cat >fixtures/odd.json <<'EOF' &&
{"session_dir": "out/odd", "cpu_type": "i386/skylake",
 "profiles": [{"binary": "odd&<dir>\"q/fix ture",
               "symbol_samples": {"compute_alpha": 10, "main": 3}}]}
EOF
	fixture_check odd &&
	"$OPREPORT" --session-dir=out/odd -X -i 'compute_alpha,a&b' >odd.xml &&
	grep -q 'name="[^"]*/odd&amp;&lt;dir&gt;&quot;q/fix ture"' odd.xml &&
	grep -q '^<options  includesymbols="compute_alpha,a&amp;b"/>$' odd.xml &&
	python3 "$T/xmlshape.py" <odd.xml >odd.sum &&
	test "$(cat odd.sum)" = 10
}
check "special characters in names are escaped" odd_names

done_testing
