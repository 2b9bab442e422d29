#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Whole call stacks (samples/current/stacks) under operf --callgraph:
#  - callchain (main -> cg_caller -> cg_leaf): the stack file is written,
#    in version 2 and trimmed to its committed records;
#    opreport --format=folded has a line main;cg_caller;cg_leaf, and its
#    counts sum to every sample of the session (each sample has a stack);
#    opreport -c adds self and total per symbol (main's total ~100 %,
#    cg_caller's >= cg_leaf's, self summing to all samples), its blocks
#    unchanged; --format=xml is -X; a differential or an unknown format
#    is a usage error;
#  - frames in the vdso are kept, named as opreport -l names them;
#  - a --separate-thread profile gets no stacks (said), --merge=all does;
#  - operf killed with SIGKILL mid-run leaves a stack file that reads;
#  - operf --append on a session whose stack file is of version 1 (made
#    by hand from version 2) converts it: version 2, the old stacks kept,
#    folded counts summing to the samples of both runs;
#  - a truncated, garbled or bad-magic stack file: a clear error naming
#    it, exit 1 for folded, -c falls back on the arcs; a file that reached
#    its size limit: the samples without stacks are counted in a warning;
#  - OProfile 1.4's opreport ($OPROFILE_ORACLE_BIN) reads the session with
#    the stack file exactly as without it (same stderr, same report);
#  - oprofiled (opcontrol --callgraph) writes the stack file too;
#  - a stripped Debian program (xz, else bzip2): its folded lines sum to
#    its samples in opreport's image summary;
#  - a known stack set beside the callgraph fixture session, written by
#    hand in version 1 and in version 2 (from oprofile-ng-formats(5)):
#    folded is golden for both, also under -i, -e, -x and -t (which select
#    the leaves); -c's self and total exact (recursion counted once).
. "$top_srcdir/tests/lib.sh"
need_perf
cc=$WORKLOADS/callchain
spin=$WORKLOADS/spinner

# folded_sum FILE [PREFIX]: the counts of the lines starting with PREFIX
folded_sum() {
	awk -v p="${2:-}" 'index($0, p) == 1 { s += $NF } END { print s + 0 }' "$1"
}
# app_total FILE APP: the samples of application APP in an image summary
app_total() {
	awk -v a="$2" '/^[ ]*[0-9]/ && $NF == a { print $1; exit }' "$1"
}
# all_total FILE: the samples of every application of an image summary
all_total() {
	awk '/^ *[0-9]+ +[0-9.e+-]+ +[^ ]/ { s += $1 } END { print s + 0 }' "$1"
}
same_number() {
	test "$1" = "$2" && test "$1" -gt 0 && return 0
	say "got '$1' and '$2'"
	return 1
}

check 'operf --callgraph ./callchain' profile cg --callgraph -d cg "$cc"
check '... writes samples/current/stacks' test -s cg/samples/current/stacks
# stack_version FILE VERSION: the stack file is of VERSION and, when
# written by a writer that closed it, no longer than its committed records
stack_version() {
	python3 - "$1" "$2" <<'PY'
import os, struct, sys
path, want = sys.argv[1], int(sys.argv[2])
magic, version, _events, committed = struct.unpack_from("=8sIIQ", open(path, "rb").read(64))
size = os.path.getsize(path)
print("version %d, %d bytes, %d committed" % (version, size, 64 + committed))
sys.exit(magic != b"OPSTACK\n" or version != want or size != 64 + committed)
PY
}
check '... in version 2, trimmed to its committed records' \
	stack_version cg/samples/current/stacks 2
check 'opreport --format=folded exits 0' exits 0 fold --format=folded --session-dir=cg
check '... with a line ...;main;cg_caller;cg_leaf COUNT' \
	grep -Eq '^callchain;(.*;)?main;cg_caller;cg_leaf [0-9]+$' fold.out
check '... and no warning about stacks' sh -c '! grep -qi stack fold.err'
check 'opreport (image summary) exits 0' exits 0 sum -n --session-dir=cg
check '... folded counts sum to the samples of the session' \
	same_number "$(folded_sum fold.out)" "$(all_total sum.out)"
check '... and to those of callchain' \
	same_number "$(folded_sum fold.out 'callchain;')" "$(app_total sum.out callchain)"
# -c: self and total per symbol, in the indented section after the blocks
check 'opreport -c exits 0' exits 0 cgr -c --session-dir=cg
check '... says its self and total come from the stack file' \
	grep -q '^Note: self and total samples per symbol.*stack file' cgr.out
incl() {	# incl SYMBOL FIELD: a column of SYMBOL's line in the section
	sed -n '/^Self and total/,$p' cgr.out |
		awk -v s="$1" -v f="$2" '$NF == s { print $f; exit }'
}
self_sum() {
	sed -n '/^Self and total/,$p' cgr.out | awk 'NR > 2 { s += $1 } END { print s + 0 }'
}
main_total=$(incl main 3)
cc_total=$(app_total sum.out callchain)
check '... the total of main is >= 99% of callchain samples' \
	at_least $((${main_total:-0} * 100)) $((${cc_total:-1} * 99))
check '... the total of cg_caller is at least that of cg_leaf' \
	at_least "$(incl cg_caller 3)" "$(incl cg_leaf 3)"
check '... cg_leaf: self > 0' at_least "$(incl cg_leaf 1)" 1
check '... the self samples sum to the samples of the session' \
	same_number "$(self_sum)" "$(all_total sum.out)"
blocks_kept() {	# a caller line of cg_caller right above cg_leaf's own line
	awk '/^  / { prev = $NF; next } !/^-/ && $NF == "cg_leaf" && prev == "cg_caller" { f = 1 }
	     { prev = "" } END { exit !f }' cgr.out
}
check '... and the blocks as before (cg_caller above cg_leaf)' blocks_kept
check 'an unknown --format: exit 2' exits 2 badfmt --format=nonesuch --session-dir=cg
check 'a differential with --format=folded: exit 2' \
	exits 2 dif --format=folded --session-dir=cg '{' '}' '{' '}'
check '--format=xml is -X' exits 0 fx --format=xml --session-dir=cg
check '... (the same document, but for the command line in its title)' \
	sh -c "'$OPREPORT' -X --session-dir=cg 2>/dev/null | grep -v ' title=' >x1 &&
	       grep -v ' title=' fx.out | cmp -s - x1"

# the vdso: its frames kept, named as -l names them
check 'operf --callgraph python3 (clock_gettime in a loop)' profile vd --callgraph -d vd python3 -c '
import time
for i in range(1000000): time.clock_gettime(time.CLOCK_MONOTONIC)'
check '... folded exits 0' exits 0 vfold --format=folded --session-dir=vd
check '... -l exits 0' exits 0 vsym -l --session-dir=vd
vdso_sym=$(awk '$3 == "[vdso]" { print $NF; exit }' vsym.out)
check "... the vdso's hottest symbol ($vdso_sym) ends stacks in folded" \
	sh -c "test -n '$vdso_sym' && grep -Eq ';$vdso_sym [0-9]+\$' vfold.out"

# per-thread classes: stack files do not tell threads apart
check 'operf --callgraph --separate-thread ./callchain' \
	profile thr --callgraph --separate-thread -d thr "$cc"
check '... folded per thread: exit 1, saying why' \
	sh -c "! '$OPREPORT' --format=folded --session-dir=thr >th.out 2>th.err &&
	       grep -q 'stack files do not tell threads, processes or CPUs apart' th.err"
check '... with --merge=all: main;cg_caller;cg_leaf' \
	sh -c "'$OPREPORT' --format=folded --merge=all --session-dir=thr 2>/dev/null |
	       grep -q ';main;cg_caller;cg_leaf '"

# --- crash safety ---------------------------------------------------------
"$top_builddir/daemon/operf" --callgraph -d killed "$spin" 5 "$T/spin.pid" \
	>killed.out 2>&1 &
opid=$!
kill_at_exit "$opid"
sleep 2
kill -KILL "$opid" 2>/dev/null
reap_within 10 "$opid"
# the workload operf left running, by the pid it wrote
test -s "$T/spin.pid" && kill -KILL "$(cat "$T/spin.pid")" 2>/dev/null
check 'operf killed with SIGKILL mid-run leaves a stack file' \
	test -s killed/samples/current/stacks
check '... that opreport --format=folded reads' \
	exits 0 kfold --format=folded --session-dir=killed
check '... with stacks of the spinner' grep -q '^spinner;' kfold.out

# --- a version 1 stack file opened for adding ------------------------------
# to_v1 FILE: rewrite a version 2 stack file as version 1, from
# oprofile-ng-formats(5): each node counting samples becomes a STACK record
# of its frames and its ancestors', leaf first
to_v1() {
	python3 - "$1" <<'PY'
import struct, sys
path = sys.argv[1]
b = open(path, "rb").read()
magic, version, nev, committed, limit, dropped = struct.unpack_from("=8sIIQQQ", b)
assert magic == b"OPSTACK\n" and version == 2
off, end, out, nodes, stacks = 64, 64 + committed, b"", [], 0
while off < end:
    tag, word = struct.unpack_from("=II", b, off)
    if tag & 0xff == 4:
        counts = struct.unpack_from("=%dQ" % nev, b, off + 16)
        nodes.append((word, tag >> 8, struct.unpack_from("=Q", b, off + 8)[0]))
        if any(counts):
            frames, n = [], len(nodes) - 1
            while nodes[n][0] != 0xffffffff:
                frames.append(nodes[n][1:])
                n = nodes[n][0]
            body = struct.pack("=II", nodes[n][1], len(frames))
            body += struct.pack("=%dQ" % nev, *counts)
            body += b"".join(struct.pack("=IIQ", im, 0, o) for im, o in frames)
            out += struct.pack("=II", 3, 8 + len(body)) + body
            stacks += 1
        off += 16 + 8 * nev
    else:
        out += b[off:off + word]
        off += word
hdr = b"OPSTACK\n" + struct.pack("=IIQQQ", 1, nev, len(out), limit, dropped) + b"\0" * 24
open(path, "wb").write(hdr + out)
print("%d stacks" % stacks)
PY
}
make_v1() {
	rm -rf old && cp -a cg old && to_v1 old/samples/current/stacks >old.v1 &&
		stack_version old/samples/current/stacks 1
}
check 'a session whose stack file is of version 1 (made by hand)' make_v1
check '... folded reads it as it read version 2' \
	sh -c "'$OPREPORT' --format=folded --session-dir=old >old1.out 2>/dev/null &&
	       cmp -s old1.out fold.out"
check 'operf --callgraph --append on it' profile app --callgraph --append -d old "$cc"
check '... converted it to version 2' stack_version old/samples/current/stacks 2
check '... folded exits 0' exits 0 ofold --format=folded --session-dir=old
check '... image summary exits 0' exits 0 osum -n --session-dir=old
check '... folded counts sum to the samples of both runs' \
	same_number "$(folded_sum ofold.out)" "$(all_total osum.out)"
check '... more than the first run alone' \
	at_least "$(folded_sum ofold.out)" $(($(folded_sum fold.out) + 1))

# --- bad stack files ---------------------------------------------------------
bad() {	# bad NAME: a copy of cg whose stack file the caller spoils
	rm -rf "$1" && cp -a cg "$1"
}
bad trunc
truncate -s 100 trunc/samples/current/stacks
check 'a truncated stack file: --format=folded exits 1' \
	exits 1 tfold --format=folded --session-dir=trunc
check '... with a warning naming the stack file' \
	grep -q 'stack file .*/stacks cannot be read: stack file shorter' tfold.err
check '... and the image summary still reads it' exits 0 tsum --session-dir=trunc
check '... -c too' exits 0 tcg -c --session-dir=trunc
check '... -c warns about the stack file' grep -q 'stack file .*cannot be read' tcg.err
check '... and takes its self and total section from the arcs, and says so' \
	sh -c 'grep -q "^Self and total samples per symbol, from the call-graph arcs" tcg.out &&
	       grep -q "^Note: .* from the call-graph arcs: the session has no readable stack file" tcg.out &&
	       ! grep -q "from whole call stacks" tcg.out'
bad garbled
python3 - garbled/samples/current/stacks <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
for i in range(64, len(b), 7):
    b[i] ^= 0xA5
open(p, 'wb').write(b)
PY
check 'a garbled stack file: --format=folded exits 1' \
	exits 1 gfold --format=folded --session-dir=garbled
check '... saying the record is malformed' \
	grep -q 'cannot be read: malformed record in the stack file' gfold.err
bad dropped	# a full stack file: its dropped samples are said
python3 - dropped/samples/current/stacks <<'PY'
import struct, sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(32)
    f.write(struct.pack('=Q', 5))
PY
check 'a stack file that dropped stacks: folded exits 0' \
	exits 0 dfull --format=folded --session-dir=dropped
check '... and warns how many samples have no stack' \
	grep -q 'warning: 5 samples have no stack: the stack file reached its size limit' dfull.err
bad magic
printf 'NOTSTACK' | dd of=magic/samples/current/stacks conv=notrunc 2>/dev/null
check 'a stack file with a bad magic: exit 1, bad magic number' \
	sh -c "! '$OPREPORT' --format=folded --session-dir=magic >m.out 2>m.err &&
	       grep -q 'bad magic number' m.err"

# --- OProfile 1.4 -------------------------------------------------------
# its bin directory: $OPROFILE_ORACLE_BIN, else $OP_TEST_ORACLE (lib.sh's)
ORACLE_BIN=${OPROFILE_ORACLE_BIN:-${OP_TEST_ORACLE:-}}
if test -n "$ORACLE_BIN" && test -x "$ORACLE_BIN/opreport"; then
	bad nostacks
	rm nostacks/samples/current/stacks
	orc() {	# orc NAME SESSION: OProfile 1.4's opreport -l
		"$ORACLE_BIN/opreport" -l --session-dir="$PWD/$2" \
			>"$1.out" 2>"$1.err"
	}
	check 'OProfile 1.4 opreport -l reads the session with stacks' orc o1 cg
	check '... and without' orc o2 nostacks
	check '... the same stderr (no word about the stack file)' \
		sh -c "sed 's|/nostacks/|/cg/|g' o2.err | cmp -s - o1.err"
	check '... and the same report' cmp -s o1.out o2.out
else
	skip 'OProfile 1.4 reads the session' 'neither OPROFILE_ORACLE_BIN nor OP_TEST_ORACLE names its bin directory'
fi

# --- the daemon (one engine with operf) ------------------------------------
if test "$(id -u)" = 0 || test "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0; then
	D=$T/daemon-session
	opc() { opcontrol --session-dir="$D" "$@" >opc.out 2>opc.err; }
	check 'opcontrol --callgraph=32, --start' \
		sh -c "opcontrol --session-dir='$D' -e cpu-clock:100000 -p none \
			--callgraph=32 >opc.out 2>&1 &&
		       opcontrol --session-dir='$D' --start >>opc.out 2>&1"
	"$cc" >/dev/null
	check '... --dump' opc --dump
	check '... oprofiled wrote the stack file' test -s "$D/samples/current/stacks"
	check '... folded has main;cg_caller;cg_leaf of callchain' \
		sh -c "'$OPREPORT' --format=folded --session-dir='$D' 2>/dev/null |
		       grep -Eq '^callchain;(.*;)?main;cg_caller;cg_leaf [0-9]+\$'"
	check '... --shutdown' opc --shutdown
else
	skip 'oprofiled writes stacks' 'system-wide profiling needs root or perf_event_paranoid <= 0'
fi

# --- a stripped Debian program ---------------------------------------------
prog=
for c in xz bzip2; do
	p=$(command -v "$c" 2>/dev/null) || continue
	prog=$(readlink -f "$p")
	break
done
if test -n "$prog"; then
	head -c 3000000 /dev/urandom >input.bin
	base=$(basename "$prog")
	case $base in
	xz) args='-6 -T1 -c' ;;
	*) args='-9 -c' ;;
	esac
	# shellcheck disable=SC2086
	check "operf --callgraph $base" \
		sh -c "operf --callgraph -d deb '$prog' $args input.bin >/dev/null 2>deb.err"
	check '... opreport --format=folded' exits 0 dfold --format=folded --session-dir=deb
	check '... image summary' exits 0 dsum -n --session-dir=deb
	check "... folded lines of $base sum to its samples in the summary" \
		same_number "$(folded_sum dfold.out "$base;")" "$(app_total dsum.out "$base")"
else
	skip 'a stripped Debian program' 'neither xz nor bzip2 is installed'
fi

# --- a known stack set: folded is golden, -c's self and total exact ---------
use_fixtures
check 'mksamples.py writes the callgraph fixture session' mksession callgraph
# write_stacks SESSION VERSION: a stack file for fixture_pie's session,
# frames at its symbols (mksamples.py's own lookup), and one of an image
# and one of an application the profile does not have; in version 1 a
# STACK record per stack, in version 2 the nodes of their prefix tree
write_stacks() {
	python3 "$top_srcdir/tests/tools/fixture_stacks.py" "$1" "$FIX/build/fixture_pie" "$2" ${3:-}
}
cat >gfold.want <<'GOLD'
fixture_pie;[libx.so];compute_beta 1
fixture_pie;main;printf 4
fixture_pie;main;run_all;compute_alpha 9
fixture_pie;main;run_all;compute_alpha;compute_gamma;compute_alpha 3
GOLD
check '... with a stack file of known stacks, version 2' write_stacks out/callgraph 2
check '... (version 2 indeed)' stack_version out/callgraph/samples/current/stacks 2
check 'opreport --format=folded on it exits 0' exits 0 gfold --format=folded --session-dir=out/callgraph
check '... is the golden folded text' compare gfold.want gfold.out
# version 1 (sessions recorded before version 2): read the same; the
# checks below run on it
check 'the same stacks in version 1' write_stacks out/callgraph 1
check 'opreport --format=folded on it exits 0' exits 0 gfold1 --format=folded --session-dir=out/callgraph
check '... is the golden folded text' compare gfold.want gfold1.out
# the leaves are the rows shown: -t, -i, -e and -x select them as for -l
# (the rows: compute_alpha 1000, compute_beta 500, compute_gamma 200,
# run_all 10, main 5; printf 9 and strtoul 4 in libc)
folded_sel() {	# NAME OPTION... : the golden lines of NAME.want
	fs_name=$1; shift
	"$OPREPORT" --format=folded --session-dir=out/callgraph "$@" >"$fs_name.out" 2>"$fs_name.err" &&
		compare "$fs_name.want" "$fs_name.out"
}
grep compute_alpha gfold.want >galpha.want
check '... -i compute_alpha: the stacks sampled in compute_alpha' folded_sel galpha -i compute_alpha
grep -v compute_beta gfold.want >gnobeta.want
check '... -e compute_beta: all but the stack sampled in it' folded_sel gnobeta -e compute_beta
grep -v printf gfold.want >gown.want
check "... -x: all but the stack sampled in libc's printf" folded_sel gown -x
grep -v printf gfold.want >gthr.want
check '... -t 10: the stacks sampled in the symbols over 10 %' folded_sel gthr -t 10
echo 'fixture_pie;[libx.so];compute_beta 1' >gthr30.want
check '... -t 20 -e compute_alpha: the one stack sampled in compute_beta' \
	folded_sel gthr30 -t 20 -e compute_alpha
check 'opreport -c on it exits 0' exits 0 gcg -c --session-dir=out/callgraph
cgcol() {	# SYMBOL FIELD of -c's self and total section
	sed -n '/^Self and total/,$p' gcg.out | awk -v s="$1" -v f="$2" '$NF == s { print $f; exit }'
}
check '... compute_alpha: self 12, total 12 (its recursion counted once)' \
	test "$(cgcol compute_alpha 1) $(cgcol compute_alpha 3)" = "12 12"
check '... compute_gamma: self 0, total 3' test "$(cgcol compute_gamma 1) $(cgcol compute_gamma 3)" = "0 3"
check '... main: self 0, total 16' test "$(cgcol main 1) $(cgcol main 3)" = "0 16"

# a big stack file (20 000 more distinct stacks in compute_alpha, one
# sample each) is read by two threads, each half the stacks: the same
# folded text and -c totals as one thread would give
check 'the same stacks and 20 000 more' write_stacks out/callgraph 2 20000
sed 's/^fixture_pie;main;run_all;compute_alpha 9$/fixture_pie;main;run_all;compute_alpha 20009/' \
	gfold.want >gbig.want
check 'opreport --format=folded on it exits 0' exits 0 gbig --format=folded --session-dir=out/callgraph
check '... is the golden folded text, with 20009 in the line of those stacks' compare gbig.want gbig.out
check 'opreport -c on it exits 0' exits 0 gcg -c --session-dir=out/callgraph
check '... compute_alpha: self 20012, total 20012' \
	test "$(cgcol compute_alpha 1) $(cgcol compute_alpha 3)" = "20012 20012"
check '... main: self 0, total 20016' test "$(cgcol main 1) $(cgcol main 3)" = "0 20016"

done_testing
