#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JIT code named from jitdump files: the jitgen workload generates
# jit_hot and jit_cold into anonymous memory, describes them (names and
# code bytes) in ./jit-PID.dump and maps that file executable, as node
# --perf-prof and the JVM's and .NET's agents do.
#  - operf converts the dump into the session's jit/PID.jo, an ELF file
#    that readelf lists the two functions in;
#  - opreport -l names them, 3:1 within 5 points, also once the dump is
#    gone; opannotate -a disassembles jit_hot's add/dec/jne from it;
#  - opjitconv makes the same image from the dump, into the session or
#    to -o FILE; a dump cut in a record converts what came before it, with
#    a warning;
#  - code loaded again where other code was: the later load wins (all
#    the address's samples are the new function's);
#  - oprofiled (opcontrol) converts at each --dump, warning about a bad
#    dump once;
#  - node --perf-prof (when node is installed): its jitdump names the
#    JavaScript functions V8 compiled, the hotter one first;
#  - bad input: a dump cut in its header, a wrong magic, a symlink, a
#    missing file: opjitconv fails with exit 1 and says why; usage errors
#    exit 2; operf warns about a dump with a wrong magic or owned by
#    another user (with a hint: opjitconv, run by its owner) and leaves
#    the region one anonymous row.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
OPJITCONV=$top_builddir/daemon/opjitconv
jitgen=$WORKLOADS/jitgen
"$jitgen" probe >probe.out 2>&1
test $? = 77 && skip_all "$(cat probe.out)"
have_readelf=; command -v readelf >/dev/null 2>&1 && have_readelf=1

check 'operf ./jitgen' profile run -d s "$jitgen" .
pid=$(sed -n 's/^jitgen: pid \([0-9]*\),.*/\1/p' run.out)
dump=jit-$pid.dump
jo=s/samples/current/jit/$pid.jo
say "pid $pid"
check 'the session has jit/PID.jo' test -f "$jo"
# FILE NAME...: readelf -s lists each NAME as a FUNC of FILE, nothing else
funcs() {
	f_file=$1; shift
	readelf -sW "$f_file" >"$f_file.syms" || return 1
	awk '$4 == "FUNC" { print $8 }' "$f_file.syms" | sort >"$f_file.names"
	printf '%s\n' "$@" | sort | compare - "$f_file.names"
}
if test -n "$have_readelf"; then
	check '... an ELF file with jit_hot and jit_cold' funcs "$jo" jit_hot jit_cold
else
	skip '... an ELF file with jit_hot and jit_cold' 'no readelf'
fi
# NAME: -l names jit_hot and jit_cold, 3:1 ("COUNT ... NAME" rows)
named() {
	exits 0 "$1" --session-dir=s -l -n || return 1
	set -- $(awk '$NF == "jit_hot" { h = $1 } $NF == "jit_cold" { c = $1 }
		      END { print h + 0, c + 0 }' "$1.out")
	say "jit_hot $1, jit_cold $2"
	test "$1" -gt 0 -a "$2" -gt 0 && near "$1" "$2" 75 5
}
check 'opreport -l: jit_hot and jit_cold, 3:1' named l1
# jit_hot's listing: its instructions, and its samples on them
annotated() {
	hot=$(awk '$NF == "jit_hot" { print $1 }' l1.out) &&
	ann_exits 0 a1 --session-dir=s -a &&
	awk '/<jit_hot>:/ { on = 1; next } on && /^ *:$/ { exit } on' a1.out >hot.asm &&
	sed 's/^/#   /' hot.asm &&
	grep -q 'add ' hot.asm && grep -q 'dec ' hot.asm && grep -q 'jne ' hot.asm &&
	awk -v want="$hot" '$1 ~ /^[0-9]+$/ { n += $1 } END { exit n != want }' hot.asm &&
	# the function is shown at the address of its first instruction
	at=$(awk '/<jit_hot>:/ { sub(/^0+/, "", $1); print $1 }' a1.out) &&
	first=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9a-f]+:$/) { print $i; exit } }' \
		hot.asm) &&
	say "jit_hot at $at, its first instruction at $first" &&
	test "$at:" = "$first"
}
check 'opannotate -a: the code of jit_hot with its samples' annotated
listed() {
	printf '%s %s\n' "$pid" "$T_REAL/$dump" | compare - s/samples/current/jit/dumps
}
check 'jit/dumps lists the dump' listed

# the tool
cp "$jo" good.jo || exit 99
rm -f "$jo"
anon() {
	exits 0 "$1" --session-dir=s -l -n &&
	! grep -q 'jit_hot' "$1.out" && grep -q "anon (tgid:$pid range:" "$1.out"
}
check 'without jit/PID.jo: the anonymous region as one row' anon l3
# a cut image, or a symlink to a good one, is not read either
head -c 200 good.jo >"$jo"
check '... and so with a jit/PID.jo cut short' anon l3b
rm -f "$jo"
ln -s "$T/good.jo" "$jo" || exit 99
check '... or a jit/PID.jo that is a symlink' anon l3c
rm -f "$jo"
check 'opjitconv --session-dir=s: the listed dumps again' "$OPJITCONV" --session-dir=s
check '... which names them again' named l4
cp "$dump" keep.dump || exit 99
rm -f "$dump"
check '... also with the dump gone (the session copy)' named l2
gone() {
	"$OPJITCONV" --session-dir=s 2>gone.err &&
	grep -q "warning: '.*$dump' is gone: jit/$pid.jo stays as it was" gone.err &&
	test -f "$jo"
}
check '... when opjitconv finds the listed dump gone: a warning, the image kept' gone
rm -f "$jo"
check 'opjitconv --session-dir=s DUMP stores jit/PID.jo' "$OPJITCONV" --session-dir=s keep.dump
check '... which names them again' named l5
# an image of code elsewhere (the corpus' dump at 0x7f0000001000...) names
# nothing in this region, which stays one row
elsewhere() {
	"$OPJITCONV" --session-dir=s --pid="$pid" "$top_srcdir/tests/fuzz/corpus/jitdump/sparse" &&
	{ test -z "$have_readelf" || funcs "$jo" f0 f1 f2 f3 f4 f5 f6 f7; } &&
	anon l6
}
check 'opjitconv --pid: an image of code outside the region names nothing there' elsewhere
check 'opjitconv -o FILE' "$OPJITCONV" -o out.jo keep.dump
"$OPJITCONV" --session-dir=s keep.dump || exit 99
check '... the same image' cmp out.jo "$jo"
# a dump cut in jit_cold's record: jit_hot only, and a warning
head -c 138 keep.dump >cut.dump
cut_ok() {
	"$OPJITCONV" -o cut.jo cut.dump 2>cut.err &&
	grep -q "warning: 'cut.dump' ends in the middle of a record" cut.err &&
	{ test -z "$have_readelf" || funcs cut.jo jit_hot; }
}
check 'a dump cut in a record: what came before, with a warning' cut_ok
# CASE FILE WORDS: opjitconv FILE exits 1 saying WORDS, and writes nothing
refused() {
	"$OPJITCONV" -o "$1.jo" "$2" 2>"$1.err"
	r_rc=$?
	sed 's/^/#   /' "$1.err"
	test "$r_rc" = 1 && grep -q "opjitconv: error: cannot convert '$2': $3" "$1.err" &&
	test ! -e "$1.jo" && ! ls "$1".jo.* >/dev/null 2>&1
}
head -c 20 keep.dump >short.dump
check 'a dump cut in its header: exit 1' refused short short.dump 'the jitdump header is cut short'
{ printf 'XXXX'; tail -c +5 keep.dump; } >magic.dump
check 'a wrong magic: exit 1' refused magic magic.dump 'not a jitdump file'
ln -s keep.dump link.dump || exit 99
check 'a symlink: exit 1' refused link link.dump ''
check 'a missing file: exit 1' refused missing none.dump 'No such file'
usage() {
	"$OPJITCONV" "$@" >usage.out 2>usage.err
	u_rc=$?
	test "$u_rc" = 2 || { say "exit $u_rc"; return 1; }
}
check '-o without a jitdump: exit 2' usage -o x.jo
check '-o with two dumps: exit 2' usage -o x.jo keep.dump keep.dump
check '--pid not a number: exit 2' usage --pid=x keep.dump

# operf and dumps it must not read
bad_run() {	# NAME MODE WORDS: operf warns, the region stays one row
	profile "$1" -d "s_$1" "$jitgen" . "$2" || return 1
	b_pid=$(sed -n 's/^jitgen: pid \([0-9]*\),.*/\1/p' "$1.out")
	sed 's/^/#   /' "$1.err"
	grep -q "operf: warning: JIT code in '.*jit-$b_pid.dump' is left unnamed: $3" "$1.err" &&
	{ test "$2" != foreign ||
	  grep -q "hint: its owner can convert it: opjitconv --session-dir=" "$1.err"; } &&
	test ! -e "s_$1/samples/current/jit/$b_pid.jo" &&
	"$OPREPORT" --session-dir="s_$1" -l -n >"$1.l" 2>&1 &&
	! grep -q jit_hot "$1.l" && grep -q "anon (tgid:$b_pid range:" "$1.l"
}
check 'operf: a dump with a wrong magic: a warning, no names' bad_run badmagic badmagic \
	'not a jitdump file'
if test "$(id -u)" = 0; then
	check "operf: a dump owned by another user: a warning and a hint, no names" bad_run \
		foreign foreign 'owned by another user, not read'
	# as the hint says: opjitconv reads the listed dump as its owner would
	owner() {
		"$OPJITCONV" --session-dir=s_foreign &&
		"$OPREPORT" --session-dir=s_foreign -l -n >foreign2.l 2>&1 &&
		grep -q jit_hot foreign2.l && grep -q jit_cold foreign2.l
	}
	check '... which opjitconv --session-dir then converts' owner
else
	skip 'operf: a dump owned by another user' 'needs root to give the file away'
fi

# code loaded again where other code was: the later load names it all
reload() {
	profile reload -d s_reload "$jitgen" . reload || return 1
	"$OPREPORT" --session-dir=s_reload -l -n >reload.l 2>&1 || return 1
	set -- $(awk '$NF == "jit_hot" { h = $1 } $NF == "jit_new" { n = $1 }
		      $NF == "jit_cold" { c = $1 } END { print h + 0, n + 0, c + 0 }' reload.l)
	say "jit_hot $1, jit_new $2, jit_cold $3"
	# jit_new has jit_cold's samples and its own: 2 units to jit_hot's 6,
	# the two run in turn in both halves
	test "$3" = 0 && near "$1" "$2" 75 6
}
check 'code loaded again at one address: the later load names its samples' reload

# the daemon converts at each --dump, a dump it refused only once
daemon_run() {
	D=$T/d
	opcontrol --session-dir="$D" -e cpu-clock:100000 >/dev/null &&
	opcontrol --session-dir="$D" --start >start.out 2>&1 || return 1
	"$jitgen" . >d1.out && "$jitgen" . badmagic >d2.out &&
	opcontrol --session-dir="$D" --dump && opcontrol --session-dir="$D" --dump &&
	opcontrol --session-dir="$D" --shutdown >/dev/null || return 1
	d_pid=$(sed -n 's/^jitgen: pid \([0-9]*\),.*/\1/p' d1.out)
	d_bad=$(sed -n 's/^jitgen: pid \([0-9]*\),.*/\1/p' d2.out)
	test -f "$D/samples/current/jit/$d_pid.jo" &&
	test ! -e "$D/samples/current/jit/$d_bad.jo" &&
	"$OPREPORT" --session-dir="$D" -l -n >d.l 2>&1 &&
	grep -q "tgid:$d_pid .* jit_hot\$" d.l && grep -q "tgid:$d_pid .* jit_cold\$" d.l &&
	test "$(grep -c "jit-$d_bad.dump' is left unnamed" "$D/samples/oprofiled.log")" = 1
}
if test "$(id -u)" = 0 || test "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0; then
	check 'oprofiled: --dump converts, a bad dump is warned about once' daemon_run
	opcontrol --session-dir="$T/d" --shutdown >/dev/null 2>&1	# if it failed
else
	skip 'oprofiled' 'system-wide profiling needs root or perf_event_paranoid <= 0'
fi

# a real runtime: V8 writes ./jit-PID.dump with --perf-prof
cat >hot.js <<'JS'
function hotLoop(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003; return s; }
function coldLoop(n) { let s = 1; for (let i = 0; i < n; i++) s = (s * 3 + i) % 999983; return s; }
let t = 0;
for (let k = 0; k < 40; k++) { t += hotLoop(3000000); t += coldLoop(1000000); }
console.log(t);
JS
node_named() {
	profile node -d s_node node --perf-prof hot.js || { sed 's/^/#   /' node.err; return 1; }
	"$OPREPORT" --session-dir=s_node -l -n >node.l 2>&1 || return 1
	sed -n '1,6s/^/#   /p' node.l
	set -- $(awk '/JS:\*?hotLoop/ { h += $1 } /JS:\*?coldLoop/ { c += $1 }
		      END { print h + 0, c + 0 }' node.l)
	say "hotLoop $1, coldLoop $2"
	test "$1" -gt "$2" -a "$2" -gt 0
}
if command -v node >/dev/null 2>&1 && node --perf-prof -e 0 >/dev/null 2>&1; then
	check 'node --perf-prof: hotLoop and coldLoop named, hotLoop first' node_named
else
	skip 'node --perf-prof' 'node is not installed'
fi

done_testing
