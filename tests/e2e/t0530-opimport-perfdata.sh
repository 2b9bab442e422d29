#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opimport --perf-data turns perf record's own recordings into sessions:
# file mode (perf record -o FILE) and pipe mode (perf record -o - |
# opimport --perf-data=-), with and without -g.  The oracle is perf on
# the SAME recording: `perf script -F comm,ip,sym,dso` of the file must
# count as many samples of the command as opreport finds in the import,
# and each image's and each of the ten largest named symbols' shares must
# agree within 1 percentage point (tests/tools/perf_oracle.py), on our
# split workload and on a real Debian program (xz, stripped liblzma).
# The same run recorded by perf and by operf (perf record -- operf):
# the import's shares are operf's within a point (or four deviations
# of two samplers' noise).  Two events in one recording become two columns; perf record -a (a
# dummy side-band event, cpus, synthesized processes), --buildid-mmap
# and --call-graph dwarf (user stacks in the samples) import whole.
# This machine's kernel symbols are stored only when the recording's
# kernel text is where this boot has it.  With -g, the arcs of
# tests/workloads/callchain (main -> cg_caller -> cg_leaf) are in the
# {cg} files and in opreport --callgraph.  Bad input (nonexistent,
# empty, garbage, truncated, no samples as a killed perf record leaves,
# a FIFO named as the file, a terminal as the standard input, compressed
# records, an existing profile without --force) fails with exit 1 and a
# clear message, and leaves no session behind.
. "$top_srcdir/tests/lib.sh"
need_perf
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed (Debian package linux-perf)"
perf record -q -e cpu-clock -o probe.data -- true >probe.out 2>&1 ||
	skip_all "perf record cannot sample here: $(tail -n 1 probe.out)"
OPIMPORT=$top_builddir/daemon/opimport
ORACLE_PERF=$top_srcdir/tests/tools/perf_oracle.py

# imp NAME ARGS...: opimport ARGS, output in NAME.out/NAME.err
imp() {
	i_n=$1
	shift
	"$OPIMPORT" "$@" >"$i_n.out" 2>"$i_n.err" && return 0
	sed 's/^/# /' "$i_n.err"
	return 1
}

# oracle NAME COMM: NAME.data (perf's) against the session NAME
oracle() {
	o_n=$1 o_c=$2
	perf script -i "$o_n.data" -F comm,ip,sym,dso >"$o_n.perf" 2>/dev/null &&
	exits 0 "$o_n.apps" --session-dir="$o_n" -n -f &&
	o_app=$(sed -n '1s/^ *[0-9]* *[0-9.]* //p' "$o_n.apps.out") &&
	exits 0 "$o_n.sum" --session-dir="$o_n" -n "image:$o_app" &&
	exits 0 "$o_n.l" --session-dir="$o_n" -l -n "image:$o_app" &&
	python3 "$ORACLE_PERF" "$o_n.perf" "$o_c" "$o_n.sum.out" "$o_n.l.out" &&
	same_total "$o_n" "$o_c"
}

# every sample perf script shows of COMM is in the import: the same count
same_total() {
	t_perf=$(awk -v c="$2" '$1 == c' "$1.perf" | wc -l)
	t_ours=$(sed -n '1s/^ *\([0-9]*\).*/\1/p' "$1.sum.out")
	test "$t_perf" = "$t_ours" && return 0
	say "perf script has $t_perf samples of $2, the import $t_ours"
	return 1
}

split=$WORKLOADS/split
cc=$WORKLOADS/callchain
head -c 1500000 /dev/urandom | od -An -tx1 -v >data.txt || exit 99

# --- file mode -----------------------------------------------------------
check 'perf record -e cpu-clock ./split' \
	perf record -q -e cpu-clock -o split.data -- "$split" >split.run 2>&1
check 'opimport --perf-data=split.data exits 0' \
	imp split.imp --perf-data=split.data --session-dir=split
check 'it says how many samples it wrote' \
	grep -q '^opimport: [0-9]* samples of [0-9]* .* written to' split.imp.err
check 'split: images and symbols as perf script of the same file' oracle split split
check 'session.info names opimport and the event' \
	sh -c 'grep -q "^tool opimport .* --perf-data" split/samples/current/session.info &&
	       grep -q "^event cpu-clock software 250000 " split/samples/current/session.info'
# one run sampled by perf and by operf: the import of perf's recording
# has operf's own shares of split (tests/tools/session_compare.py)
views() {	# SESSION: its application's summary and symbols, -n
	exits 0 "$1.apps" --session-dir="$1" -n -f &&
	v_app=$(sed -n '1s/^ *[0-9]* *[0-9.]* //p' "$1.apps.out") &&
	exits 0 "$1.sum" --session-dir="$1" -n "image:$v_app" &&
	exits 0 "$1.l" --session-dir="$1" -l -n "image:$v_app"
}
same_as_operf() {
	views both-operf && views both &&
	python3 "$top_srcdir/tests/tools/session_compare.py" both-operf.sum.out \
		both-operf.l.out both.sum.out both.l.out
}
check 'perf record -- operf ./split: one run, two recorders' \
	perf record -q -e cpu-clock:u -o both.data -- \
	operf -e cpu-clock:250000:0:0:1 -d both-operf "$split" >both.run 2>&1
check 'opimport of that recording' imp both.imp --perf-data=both.data --session-dir=both
check "split: the import's image and symbol shares are operf's" same_as_operf
if command -v xz >/dev/null 2>&1; then
	check 'perf record -e cpu-clock xz -6 -T1' \
		perf record -q -e cpu-clock -o xz.data -- xz -6 -T1 -k -c data.txt >xz.run 2>&1
	check 'opimport of the xz recording' imp xz.imp --perf-data=xz.data --session-dir=xz
	check 'xz: images and symbols as perf script of the same file' oracle xz xz
else
	skip 'xz from perf.data' 'xz is not installed'
fi
check 'recorded here: the kernel symbols are stored with the profile' \
	test -f split/samples/current/kernel/kallsyms
# the same recording as if made before a reboot: the kernel's text moved
moved_kernel() {
	python3 - <<'PY' || return 1
import struct
d = bytearray(open("split.data", "rb").read())
i = d.find(b"[kernel.kallsyms]")
if i < 40:
    raise SystemExit("no kernel mapping in split.data")
start = struct.unpack_from("<Q", d, i - 24)[0]
struct.pack_into("<Q", d, i - 24, start + 0x200000)
open("moved.data", "wb").write(d)
PY
	imp moved.imp --perf-data=moved.data --session-dir=moved &&
	grep -q 'not this boot of this machine: kernel samples go to no-vmlinux' moved.imp.err &&
	test ! -e moved/samples/current/kernel/kallsyms
}
check 'kernel text elsewhere (another boot): no kernel symbols of this boot' moved_kernel
check 'two events (cpu-clock,task-clock) in one recording' \
	perf record -q -e cpu-clock,task-clock -o two.data -- "$split" >two.run 2>&1
check 'opimport of two events' imp two.imp --perf-data=two.data --session-dir=two
both_events() {
	exits 0 two.l --session-dir=two -l "image:$split" &&
	grep -q '^Counted cpu-clock events' two.l.out &&
	grep -q '^Counted task-clock events' two.l.out
}
check 'opreport shows both events as columns' both_events

# perf record -a: a dummy side-band event beside cpu-clock, the cpu in
# each sample, the processes already running synthesized from /proc
sys_written() {
	w_perf=$(perf script -i sys.data -F comm 2>/dev/null | wc -l)
	w_ours=$(sed -n 's/^opimport: \([0-9]*\) samples of.*/\1/p' sys.imp.err)
	say "perf script: $w_perf samples, opimport wrote ${w_ours:-none}"
	at_least $((${w_ours:-0} * 100)) $((w_perf * 99))
}
if perf record -q -a -e cpu-clock -o sys.data -- sleep 0.3 >sys.run 2>&1; then
	check 'perf record -a: imported' imp sys.imp --perf-data=sys.data --session-dir=sys
	check 'perf record -a: >= 99% of the samples perf script shows are written' sys_written
else
	skip 'perf record -a' "it cannot sample every cpu here: $(tail -n 1 sys.run)"
fi

# MMAP2 records with a build id where the device and inode would be
if perf record -q --buildid-mmap -e cpu-clock -o bid.data -- "$split" >bid.run 2>&1; then
	check '--buildid-mmap: imported' imp bid.imp --perf-data=bid.data --session-dir=bid
	check '--buildid-mmap: the same as perf script of the file' oracle bid split
else
	skip 'perf record --buildid-mmap' "this perf cannot: $(tail -n 1 bid.run)"
fi

# --- pipe mode -----------------------------------------------------------
# tee keeps perf's stream for perf script; the pipeline's status is opimport's
check 'perf record -o - ./split | opimport --perf-data=-' \
	sh -c 'perf record -q -e cpu-clock -o - -- "$1" 2>pipe.run |
	       tee pipe.data | "$2" --perf-data=- --session-dir=pipe >pipe.imp.out 2>pipe.imp.err' \
	sh "$split" "$OPIMPORT"
check 'pipe: the same as perf script of the stream' oracle pipe split

# --- call graphs ---------------------------------------------------------
check 'perf record -g ./callchain' \
	perf record -q -g -e cpu-clock -o cg.data -- "$cc" >cg.run 2>&1
check 'opimport of the -g recording' imp cg.imp --perf-data=cg.data --session-dir=cg
check 'perf record -g -o - ./callchain | opimport --perf-data=-' \
	sh -c 'perf record -q -g -e cpu-clock -o - -- "$1" 2>cgp.run |
	       "$2" --perf-data=- --session-dir=cgp >cgp.imp.out 2>cgp.imp.err' \
	sh "$cc" "$OPIMPORT"
for s in cg cgp; do
	check "$s: attribute.py reads every sample file" attribute "$s" "$s.attr"
	leaf=$(attr_sum "$s.attr" symbol 3="$cc" 4=cg_leaf)
	to_leaf=$(attr_sum "$s.attr" arc 2="$cc" 3="$cc" 4=cg_caller 5="$cc" 6=cg_leaf)
	to_caller=$(attr_sum "$s.attr" arc 2="$cc" 3="$cc" 4=main 5="$cc" 6=cg_caller)
	check "$s: enough leaf samples to judge (>= 300)" at_least "$leaf" 300
	check "$s: arcs cg_caller -> cg_leaf: >= 90% of the leaf samples" \
		at_least $((to_leaf * 100)) $((leaf * 90))
	check "$s: arcs main -> cg_caller: as many" \
		at_least $((to_caller * 100)) $((leaf * 90))
	check "$s: no arc from cg_leaf into the program" \
		test "$(attr_sum "$s.attr" arc 3="$cc" 4=cg_leaf 5="$cc")" = 0
	check "$s: session.info records callgraph 1" \
		grep -qx 'callgraph 1' "$s/samples/current/session.info"
done
# in a -c block, callers are indented above the symbol's own line
leaf_called() {
	exits 0 cgrep -c -n --session-dir=cg "lib-image:$cc" &&
	awk '/^-/ { c = 0; next }
	     /^  / && $NF == "cg_caller" { c = 1; next }
	     !/^ / && $NF == "cg_leaf" && c { f = 1 }
	     END { exit !f }' cgrep.out
}
check 'opreport --callgraph shows cg_caller calling cg_leaf' leaf_called

# --call-graph dwarf: user stacks and registers in every sample, which the
# engine does not use: the samples are all imported all the same
dwarf_whole() {
	d_perf=$(perf script -i dw.data -F comm 2>/dev/null | wc -l)
	grep -q "^opimport: $d_perf samples of $d_perf " dw.imp.err && return 0
	say "perf script: $d_perf samples; opimport said:"
	sed 's/^/#   /' dw.imp.err
	return 1
}
if perf record -q --call-graph dwarf -e cpu-clock -o dw.data -- "$split" >dw.run 2>&1; then
	check '--call-graph dwarf: imported' imp dw.imp --perf-data=dw.data --session-dir=dw
	check '--call-graph dwarf: every sample perf script shows is written' dwarf_whole
else
	skip '--call-graph dwarf' "perf cannot record it here: $(tail -n 1 dw.run)"
fi

# --- bad input -----------------------------------------------------------
# bad NAME INPUT MESSAGE: exit 1, MESSAGE on stderr, no session made
bad() {
	b_n=$1 b_in=$2 b_msg=$3
	"$OPIMPORT" --perf-data="$b_in" --session-dir="bad.$b_n" >"$b_n.out" 2>"$b_n.err" </dev/null
	b_rc=$?
	test "$b_rc" = 1 || { say "exit status $b_rc, expected 1"; return 1; }
	grep -q "$b_msg" "$b_n.err" || { say "no '$b_msg' in:"; sed 's/^/#   /' "$b_n.err"; return 1; }
	test ! -e "bad.$b_n/samples/current" || { say "bad.$b_n/samples/current was made"; return 1; }
}
size=$(wc -c <split.data)
head -c $((size / 2)) split.data >half.data
head -c 60 split.data >short.data
head -c 5000 /dev/urandom >garbage.data
printf 'PERFILE2\020\0\0\0\0\0\0\0\001\0\0\0\0\0\100\0' >past.pipe
cp split.data nodata.data &&
	dd if=/dev/zero of=nodata.data bs=1 seek=48 count=8 conv=notrunc 2>/dev/null || exit 99
mkfifo fifo
: >empty.data
check 'nonexistent file: exit 1, named' bad none nosuch.data "cannot read 'nosuch.data'"
check 'empty file: exit 1' bad empty empty.data "'empty.data' is empty"
check 'empty standard input: exit 1' bad stdin - "'the standard input' is empty"
check 'garbage: exit 1, not perf.data' bad garbage garbage.data 'not a perf.data file'
check 'truncated in the data: exit 1, says where' bad half half.data \
	"cannot import 'half.data': .*offset [0-9]*"
check 'truncated in the header: exit 1' bad short short.data 'truncated'
check 'a record reaching past the end: exit 1, names its offset' bad past past.pipe \
	'record at offset 16 has size 64, past the end'
check 'a data size of 0 (perf record killed): exit 1, no samples, hint' bad nodata \
	nodata.data "'nodata.data' holds no samples"
check '... and the hint says why' grep -q 'size of its data at 0' nodata.err
check 'a FIFO named as the file: exit 1 at once, hint to use -' bad fifo fifo \
	'hint: a pipe is read from the standard input'
# script(1) gives opimport a terminal as its standard input
tty_refused() {
	script -qec "$OPIMPORT --perf-data=- --session-dir=bad.tty" /dev/null >tty.out 2>&1
	t_rc=$?
	test "$t_rc" = 1 && grep -q 'standard input is a terminal' tty.out &&
		test ! -e bad.tty/samples/current && return 0
	say "exit status $t_rc; output:"
	sed 's/^/#   /' tty.out
	return 1
}
if command -v script >/dev/null 2>&1; then
	check 'a terminal as the standard input: exit 1 at once, not a wait' tty_refused
else
	skip 'a terminal as the standard input' 'script(1) is not installed (bsdutils)'
fi
if perf record -q -z -e cpu-clock -o z.data -- "$split" >z.run 2>&1; then
	check 'compressed records (perf record -z): exit 1, said' bad z z.data \
		'compressed records at offset [0-9]* (perf record -z) are not handled'
else
	skip 'perf record -z' "this perf cannot compress: $(tail -n 1 z.run)"
fi
check 'an existing profile is kept without --force' \
	sh -c '! "$1" --perf-data=split.data --session-dir=split >again.out 2>again.err &&
	       grep -q "already holds a profile" again.err &&
	       test ! -d split/samples/previous' sh "$OPIMPORT"
check '--force replaces it (the old one becomes previous/)' \
	sh -c '"$1" -f --perf-data=split.data --session-dir=split >force.out 2>force.err &&
	       test -d split/samples/previous' sh "$OPIMPORT"
check '--perf-data with an input argument is a usage error (2)' \
	sh -c '"$1" --perf-data=split.data x >usage.out 2>usage.err; test $? = 2' sh "$OPIMPORT"

done_testing
