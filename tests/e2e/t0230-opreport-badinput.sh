#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport on bad input: a corrupt sample file (bad magic, wrong version,
# truncated, too long, a bad node table or hash chain) is skipped with a
# warning naming it and the rest is reported (exit 0); when no file is
# left it exits 1; a malformed file name is skipped too; never a crash.
# Binaries: a missing or unusable one is reported once however many
# profiles use it, and its samples count under a symbol named after it;
# one changed since profiling gets a warning; --image-path and --root
# find moved ones.
. "$top_srcdir/tests/lib.sh"
use_fixtures

check 'mksamples.py writes the callgraph session' mksession callgraph
check 'mksamples.py writes the basic session' mksession basic
cur=samples/current
app_file=$(cd out/callgraph/$cur && find . -path '*fixture_pie/{dep}/{root}*fixture_pie/cpu*' ! -path '*{cg}*')
libc_file=$(cd out/callgraph/$cur && find . -path '*/{dep}/{root}/usr/lib/*libc.so.6/cpu*' ! -path '*{cg}*')
check 'the two plain sample files of the callgraph session are found' \
	test -n "$app_file" -a -n "$libc_file"

# corrupt NAME FILE PYTHON: session NAME, a copy of callgraph with FILE
# (of samples/current) changed by PYTHON (tests/lib.sh: corrupt_copy)
corrupt() {
	corrupt_copy out/callgraph "$1" "$cur/$2" "$3"
}

# skipped NAME FILE WHY: opreport -l on session NAME exits 0, warns once
# that FILE cannot be read (WHY) and reports the other image's symbols
# with exactly their counts
skipped() {
	exits 0 "$1" --session-dir="$1" -l -n &&
	printf "opreport: warning: cannot read sample file 'T/tools/%s/%s/%s': %s\n" \
		"$1" "$cur" "${2#./}" "$3" | norm >"$1.want" &&
	norm "$1.err" >"$1.got" && compare "$1.want" "$1.got" &&
	if test "$2" = "$app_file"; then
		# only libc's rows: the image column names it (not the app's)
		printf '%s\n' '9        69.2308  libc.so.6                printf' \
			'4        30.7692  libc.so.6                strtoull'
	else
		printf '%s\n' '1000     58.3090  compute_alpha' '500      29.1545  compute_beta' \
			'200      11.6618  compute_gamma' '10        0.5831  run_all' \
			'5         0.2915  main'
	fi >"$1.rest" && compare "$1.rest" "$1.out"
}

# each corruption in the application's own file (the first one listed)
# and in the library's
for which in app libc; do
	eval "f=\$${which}_file"
	corrupt magic-$which "$f" 'b[0:4] = b"DAF\n"'
	check "$which file with a bad magic: skipped, rest reported" \
		skipped magic-$which "$f" 'bad magic number'
	corrupt version-$which "$f" 'b[4] = 0x12'
	check "$which file of version 0x12: skipped, rest reported" \
		skipped version-$which "$f" 'unsupported sample file version'
	corrupt short-$which "$f" 'del b[40:]'
	check "$which file cut inside its header: skipped" \
		skipped short-$which "$f" 'file too short for a sample file header'
	corrupt cut-$which "$f" 'del b[1000:]'
	check "$which file cut inside its node table: skipped" \
		skipped cut-$which "$f" 'node table extends past the end of the file'
	corrupt long-$which "$f" 'b += bytes(20)'
	check "$which file 20 bytes too long: skipped" \
		skipped long-$which "$f" 'file is longer than its node table'
	corrupt used-$which "$f" 'struct.pack_into("<I", b, 76, 100000)'
	check "$which file with a used-node count past its table: skipped" \
		skipped used-$which "$f" 'used-node count outside the node table'
	corrupt size-$which "$f" 'struct.pack_into("<I", b, 72, 100)'
	check "$which file whose table size is not a power of two: skipped" \
		skipped size-$which "$f" 'node table size is not a power of two from 128 to 2^31'
	corrupt hash-$which "$f" 'struct.pack_into("<128I", b, 72 + 32 + 16 * 128, *[0xdeadbeef] * 128)'
	check "$which file with bucket heads past the used nodes: skipped" \
		skipped hash-$which "$f" 'hash bucket points outside the used nodes'
	corrupt empty-$which "$f" 'del b[:]'
	check "$which file of 0 bytes: skipped" skipped empty-$which "$f" 'empty file'
done

# 19 bytes of slack are OProfile's tolerance (oprofile-ng-formats(5), SAMPLE FILES)
corrupt slack "$app_file" 'b += bytes(19)'
check 'a file with 19 bytes after its table is read as usual' \
	exits 0 slack --session-dir=slack -l
check '... with no warning' test ! -s slack.err

# a hash chain that loops (node 1 -> node 1)
corrupt loop "$libc_file" 'struct.pack_into("<I", b, 72 + 32 + 16 + 12, 1)'
check 'a hash chain that loops: skipped, no hang' \
	skipped loop "$libc_file" 'hash chain loops back on itself'

# nothing usable left: exit 1, each file named, then why
all_bad() {
	corrupt allbad "$app_file" 'b[0:4] = b"XXXX"' &&
	python3 - "allbad/$cur/$libc_file" <<'EOF' &&
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[4] = 0x99
open(sys.argv[1], "wb").write(b)
EOF
	exits 1 allbad --session-dir=allbad -l &&
	test ! -s allbad.out &&
	norm allbad.err >allbad.got &&
	tail -n 1 allbad.got >allbad.last &&
	echo "opreport: error: no sample file could be read (2 skipped)" >allbad.want &&
	compare allbad.want allbad.last &&
	grep -c "^opreport: warning: cannot read sample file 'T/tools/allbad/" allbad.got >allbad.nr &&
	test "$(cat allbad.nr)" = 2
}
check 'every file corrupt: exit 1, each named, no report' all_bad
only_bad() {
	rm -rf onlybad && cp -R out/basic onlybad &&
	f=$(find onlybad/$cur -type f -name 'cpu*') &&
	printf 'XXXX' | dd of="$f" conv=notrunc 2>/dev/null &&
	exits 1 onlybad --session-dir=onlybad &&
	norm onlybad.err >onlybad.got &&
	echo "opreport: error: cannot read sample file 'T/tools/$f': bad magic number" |
		norm >onlybad.want &&
	compare onlybad.want onlybad.got && test ! -s onlybad.out
}
check 'the only file has a bad header: exit 1, the file named' only_bad
only_bad_file() {
	exits 1 onlybadx --session-dir=onlybad -o report.txt && test ! -e report.txt
}
check '... and -o FILE does not create FILE' only_bad_file

# sessions written in a foreign ABI (for opimport): refused, not misread
foreign() {	# LAYOUT WHY
	mksession foreign_$1 &&
	exits 1 foreign-$1 --session-dir=out/foreign_$1 -l &&
	test ! -s foreign-$1.out && norm foreign-$1.err >foreign-$1.got &&
	grep -q "^opreport: .*cannot read sample file 'T/tools/out/foreign_$1/$cur/{root}.*': $2\$" foreign-$1.got
}
check 'an i386 session: exit 1, its file named' \
	foreign i386 'node table size is not a power of two from 128 to 2^31'
check 'a big-endian x86-64 session: exit 1, its file named' \
	foreign x86_64-be 'unsupported sample file version'
# ... and why, from the session's abi file (oprofile-ng-session(5), ABI FILE)
foreign_said() {	# LAYOUT KEY VALUE NATIVE
	norm foreign-$1.err >foreign-$1.all &&
	grep -qx "opreport: warning: session 'T/tools/out/foreign_$1' was written on a machine with another sample-file layout: its abi file has $2 $3, this machine $4" foreign-$1.all &&
	grep -qx "hint: report it on a machine of that layout, or convert its sample files to this one's first" foreign-$1.all &&
	test "$(grep -c 'another sample-file layout' foreign-$1.all)" = 1
}
check '... the i386 session said to have another layout, once' \
	foreign_said i386 sizeof_struct_opd_header 64 72
check '... the big-endian one too' foreign_said x86_64-be little_endian 0 1
# an abi file that cannot be parsed, or agrees, says nothing
abi_quiet() {
	rm -rf abiq && cp -R out/basic abiq &&
	printf 'sizeof_double eight\nnonsense\n\0\377\n' >abiq/abi &&
	exits 0 abiq --session-dir=abiq && test ! -s abiq.err &&
	printf 'little_endian 1\nsizeof_u64 8\n' >abiq/abi &&
	exits 0 abiq2 --session-dir=abiq && test ! -s abiq2.err
}
check 'a garbled or partial abi file that agrees: nothing said' abi_quiet

# malformed sample-file names are skipped with a warning, the rest reported
bad_names() {
	rm -rf names && cp -R out/basic names &&
	d=$(dirname "$(find names/$cur -type f -name 'cpu*')") &&
	cp "$d/cpu_clk_unhalted.100000.0.all.all.all" "$d/cpu_clk_unhalted.100000.0.all.all" &&
	mkdir -p "names/$cur/{root}/x/{nodep}" &&
	cp "$d/cpu_clk_unhalted.100000.0.all.all.all" "names/$cur/{root}/x/{nodep}/" &&
	exits 0 names --session-dir=names -n &&
	echo '     1834 100.000 fixture_nopie' >names.want && compare names.want names.out &&
	norm names.err >names.got &&
	grep -q "^opreport: warning: skipping 'T/tools/names/$cur/{root}.*/cpu_clk_unhalted.100000.0.all.all': last component 'cpu_clk_unhalted.100000.0.all.all' is not EVENT.COUNT.UNITMASK.TGID.TID.CPU\$" names.got &&
	grep -q "^opreport: warning: skipping 'T/tools/names/$cur/{root}/x/{nodep}/cpu_clk_unhalted.100000.0.all.all.all': '{nodep}' after the application where {dep} belongs\$" names.got &&
	test "$(wc -l <names.got)" = 2
}
check 'malformed file names: skipped with a warning each' bad_names

# a sample file with no nodes: the image is listed with 0 samples
zero_nodes() {
	corrupt zero "$libc_file" 'struct.pack_into("<I", b, 76, 1); b[2152:] = bytes(512)' &&
	exits 0 zero --session-dir=zero -n &&
	printf '%s\n' '     1715 100.000 fixture_pie' \
		'	     1715 100.000 fixture_pie' '	        0       0 libc.so.6' >zero.want &&
	compare zero.want zero.out && test ! -s zero.err
}
check 'a file without samples: its image shows 0' zero_nodes

# --- binaries -------------------------------------------------------------
# libgone.so (a copy of the PIE build) is used by two applications, on
# two cpus: four profiles, one binary that goes missing
cp -p fixtures/build/fixture_nopie fixtures/app1 && cp -p fixtures/build/fixture_pie fixtures/app2 &&
	cp -p fixtures/build/fixture_pie fixtures/libgone.so || exit 99
cat >fixtures/gone.json <<'EOF'
{"cpu_type": "i386/skylake", "separate_cpu": true,
 "profiles": [
  {"binary": "app1", "cpu": 0, "symbol_samples": {"compute_alpha": 10}},
  {"binary": "libgone.so", "app": "app1", "cpu": 0,
   "symbol_samples": {"compute_beta": 6, "main": 1}},
  {"binary": "libgone.so", "app": "app1", "cpu": 1, "symbol_samples": {"compute_beta": 2}},
  {"binary": "libgone.so", "app": "app2", "cpu": 1, "symbol_samples": {"run_all": 5}},
  {"binary": "app2", "cpu": 1, "symbol_samples": {"main": 3}}]}
EOF
check 'mksamples.py writes the gone session' mksession gone
rm fixtures/libgone.so
gone_once() {	# NAME OPTIONS...
	exits 0 "$@" --session-dir=out/gone &&
	echo "opreport: warning: cannot find 'T/tools/fixtures/libgone.so'; its samples are counted under the image (moved? --image-path DIR or --root DIR finds it)" >"$1.want" &&
	norm "$1.err" >"$1.got" && compare "$1.want" "$1.got"
}
check 'a missing binary is reported once by -l' gone_once gone-l -l
check '... once by -c' gone_once gone-c -c
check '... once by -X' gone_once gone-x -X
check '... once by -d' gone_once gone-d -d --merge=cpu
check '... once in a differential profile' gone_once gone-diff -l { cpu:0 } { cpu:1 }
gone_quiet() {
	exits 0 goneq --session-dir=out/gone -l -q && test -s goneq.out && test ! -s goneq.err
}
check '-q: the report without the warning' gone_quiet
# (sorted by the first column; its ties by image name, then app name)
gone_counts() {
	exits 0 gonel --session-dir=out/gone -l -n &&
	norm gonel.out >gonel.got && cat >gonel.want <<'EOF' &&
10       58.8235  0              0  app1                     app1                     compute_alpha
7        41.1765  2        20.0000  libgone.so               app1                     T/tools/fixtures/libgone.so
0              0  3        30.0000  app2                     app2                     main
0              0  5        50.0000  libgone.so               app2                     T/tools/fixtures/libgone.so
EOF
	compare gonel.want gonel.got
}
check "its samples count under a symbol named after it, per app and cpu" gone_counts
gone_lib() {
	exits 0 gonelib --session-dir=out/gone -l -n --merge=lib -i '*libgone*' &&
	norm gonelib.out >gonelib.got &&
	# each image is an app of its own: a cpu's column has two, so the app
	# column names them (OProfile 1.4's rule)
	echo '7        100.000  7        100.000  libgone.so               T/tools/fixtures/libgone.so' >gonelib.want &&
	compare gonelib.want gonelib.got
}
check '... summed over the apps with --merge=lib' gone_lib
gone_summary() {
	exits 0 gones --session-dir=out/gone -n &&
	test ! -s gones.err
}
check 'the image summary needs no binary: no warning' gone_summary

# found elsewhere: --image-path by base name (a directory that does not
# exist is warned about), --root under a copy
moved() {
	mkdir -p elsewhere && cp -p fixtures/build/fixture_pie elsewhere/libgone.so &&
	exits 0 moved --session-dir=out/gone -l -n --merge=all -p "$T/nothere,$T/tools/elsewhere" &&
	norm moved.err >moved.errn &&
	echo "opreport: warning: --image-path: 'T/nothere' is not a directory: no binary is looked for there" >moved.errw &&
	compare moved.errw moved.errn &&
	printf '%s\n' '10       37.0370  app1                     compute_alpha' \
		'8        29.6296  libgone.so               compute_beta' \
		'5        18.5185  libgone.so               run_all' \
		'3        11.1111  app2                     main' \
		'1         3.7037  libgone.so               main' >moved.want &&
	compare moved.want moved.out
}
check '--image-path finds a moved binary by its base name' moved
rooted() {
	mkdir -p "root$T/tools/fixtures" &&
	cp -p fixtures/build/fixture_pie "root$T/tools/fixtures/libgone.so" &&
	exits 0 rooted --session-dir=out/gone -l -n --merge=all -R "$T/tools/root" &&
	test ! -s rooted.err && compare moved.want rooted.out
}
check '--root finds it under another root' rooted

# a file that is not ELF where the binary was: named, once
not_elf() {
	echo 'not a program' >fixtures/libgone.so &&
	exits 0 notelf --session-dir=out/gone -l -n &&
	echo "opreport: warning: cannot use the binary 'T/tools/fixtures/libgone.so': not an ELF file; its samples are counted under the image" >notelf.want &&
	norm notelf.err >notelf.got && compare notelf.want notelf.got &&
	rm fixtures/libgone.so
}
check 'a binary that is not ELF is named once, samples kept' not_elf

# changed since profiling: a warning, once; the report as before
changed() {
	exits 0 before --session-dir=out/callgraph -l &&
	touch -d '2001-02-03 04:05:06' fixtures/build/fixture_pie &&
	exits 0 changed --session-dir=out/callgraph -l &&
	echo "opreport: warning: the binary 'T/tools/fixtures/build/fixture_pie' was modified after it was profiled: its symbols may not match the samples" >changed.want &&
	norm changed.err >changed.got && compare changed.want changed.got &&
	compare before.out changed.out
}
check 'a binary modified after profiling: warned once, report unchanged' changed
check '... the summary does not open it: no warning' \
	sh -c '"$0" --session-dir=out/callgraph >/dev/null 2>s.err && test ! -s s.err' "$OPREPORT"
# FIFOs where session files belong: never opened for a blocking read
# (each report would hang for ever), each named
fifos() {
	rm -rf fifo && cp -R out/basic fifo && cur=fifo/samples/current &&
	rm -f $cur/session.info && mkfifo $cur/session.info &&
	mkdir -p $cur/stats $cur/kernel && mkfifo $cur/stats/lost_kernel &&
	mkfifo $cur/kernel/kallsyms || return 1
	timeout 30 "$OPREPORT" --session-dir=fifo -l >ff.out 2>ff.err
	ff_rc=$?
	test $ff_rc = 0 || { say "exit status $ff_rc (124: it hung)"; return 1; }
	grep -q "^opreport: warning: skipping '.*/session.info': a FIFO, not a regular file\$" ff.err &&
	grep -q "^opreport: warning: skipping '.*/stats/lost_kernel': a FIFO, not a regular file\$" ff.err &&
	grep -q "^opreport: warning: skipping '.*/kernel/kallsyms': a FIFO, not a regular file\$" ff.err &&
	grep -q ' compute_alpha$' ff.out
}
check 'FIFOs as session.info, stats and kallsyms: named, skipped, no hang' fifos
odb_fifo() {
	mkfifo sample.fifo || return 1
	timeout 30 "$top_builddir/pp/odb-dump" sample.fifo >od.out 2>od.err
	od_rc=$?
	test $od_rc = 1 && grep -q "not a regular file" od.err
}
check 'odb-dump on a FIFO: exit 1, said, no hang' odb_fifo

done_testing
