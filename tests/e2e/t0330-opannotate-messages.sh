#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What opannotate says, exactly and once: a binary without debug
# information (named with the build-id path of a debug file, and for a
# system binary the package whose debug symbols to install), for which
# --assembly still works; a binary changed since it was profiled; a
# missing one (and --image-path finding it); usage errors (exit 2):
# neither --source nor --assembly, a differential profile, an unknown
# option or tag; a spec that matches nothing (exit 1, opreport's
# explanation); symbol filters or a threshold that leave nothing (exit 1);
# -q; --version.
. "$top_srcdir/tests/lib.sh"
use_fixtures
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
command -v addr2line >/dev/null 2>&1 || skip_all "no addr2line (binutils) for the oracle"
FIXR=$(cd "$FIX" && pwd -P)

# variant NAME BINARY: a session out/NAME like basic's, on build/BINARY
variant() {
	sed -e "s|build/fixture_nopie|build/$2|" "$FIX/basic.json" >"$FIX/$1.json" &&
	mksession "$1"
}
# said NAME: NAME.err, normalised, is the text on stdin
said() {
	norm >"$1.swant" && norm "$1.err" >"$1.sgot" && compare "$1.swant" "$1.sgot"
}
hint="hint: see 'opannotate --help'"

check 'mksamples.py writes the basic session' mksession basic
check 'opannotate --source on it' ann_exits 0 basic --session-dir=out/basic -s

# --- samples where the debug information has no line (_start, from crt1) ----
cat >"$FIX/unlined.json" <<'EOF'
{"profiles": [{"binary": "build/fixture_nopie",
               "symbol_samples": {"_start": 5, "compute_alpha": 15}}]}
EOF
check 'mksamples.py writes a session with samples in _start' mksession unlined
unl=$(sed -n 's|^ *"\(/[^"]*/fixture_nopie\)": {$|\1|p' out/unlined.expect.json | head -n 1)
check '--source: exit 0' ann_exits 0 unl --session-dir=out/unlined -s
check '... the samples without a line counted and said, once' said unl <<EOF
opannotate: warning: 5 samples (25.00%) in '$unl' are at addresses without line information
EOF
check '... the others on their lines, percentages of all 20' \
	oracle source out/unlined unl.out --strict --total 20
check '--assembly: _start listed with its 5 samples, nothing said' sh -c "
	$OPANNOTATE --session-dir=out/unlined -a >unl-a.out 2>unl-a.err && test ! -s unl-a.err &&
	python3 $ORACLE asm out/unlined unl-a.out --strict --total 20 --objdump _start"

# --- no debug information ----------------------------------------------------
cp "$FIX/build/fixture_nopie" "$FIX/build/nodebug" && strip -g "$FIX/build/nodebug" || exit 99
bid=$(readelf -n "$FIX/build/nodebug" | sed -n 's/^ *Build ID: *//p')
check 'mksamples.py writes a session on a copy without debug information' variant nd nodebug
check 'the copy has a build-id' test -n "$bid"
nd=$(sed -n 's|^ *"\(/[^"]*/nodebug\)": {$|\1|p' out/nd.expect.json | head -n 1)
nd_msg="opannotate: warning: no debug information in '$nd': build it with -g, or install a debug file at /usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
check '--source: exit 1' ann_exits 1 nd-s --session-dir=out/nd -s
check '... the binary named once, with the build-id path; then why nothing' said nd-s <<EOF
$nd_msg
opannotate: error: no sample has source line information
EOF
check '... nothing on stdout' test ! -s nd-s.out
check '--assembly still works (exit 0, no message)' ann_exits 0 nd-a --session-dir=out/nd -a
check '... every symbol, instruction and count' \
	oracle asm out/nd nd-a.out --strict --total 1834 --objdump compute_alpha --objdump compute_gamma
check '... nothing on stderr' test ! -s nd-a.err
check '-s -a: exit 0' ann_exits 0 nd-sa --session-dir=out/nd -s -a
check '... the message once (there are five symbols)' said nd-sa <<EOF
$nd_msg
EOF
check '... and the listing, without source lines' sh -c "
	test \"\$(grep -c '^               :	' nd-sa.out)\" = 0 &&
	test \"\$(grep -c '^ *[0-9][0-9]* .*:  [0-9a-f]*:	' nd-sa.out)\" = 7"
check '-q: no message' ann_exits 0 nd-q --session-dir=out/nd -s -a -q
check '... the same listing' sh -c 'test ! -s nd-q.err && sed 2d nd-sa.out >q1 && sed 2d nd-q.out >q2 && cmp q1 q2'

# --- a system binary whose debug symbols are not installed -------------------
sys_bin=
for b in /usr/bin/true /usr/bin/sort /bin/true; do
	test -x "$b" || continue
	id=$(readelf -n "$b" 2>/dev/null | sed -n 's/^ *Build ID: *//p')
	dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
	pkg=$( (dpkg-query -S "$b" || dpkg-query -S "/bin/${b##*/}") 2>/dev/null | sed -n '1s/:.*//p')
	if test -n "$id" -a -n "$pkg" -a ! -e "$dbg" && ! readelf -S "$b" | grep -q ' \.symtab'; then
		sys_bin=$b
		break
	fi
done
if test -n "$sys_bin"; then
	say "system binary $sys_bin of package $pkg, build-id $id"
	# the .text section: its address and file offset
	set -- $(readelf -SW "$sys_bin" | sed -n 's/.* \.text  *PROGBITS  *\([0-9a-f]*\)  *\([0-9a-f]*\) .*/\1 \2/p')
	vma=$(printf '%x' $((0x$1)))
	k1=$(printf '0x%x' $((0x$2)))
	cat >"$FIX/sys.json" <<EOF
{"profiles": [{"binary": "$sys_bin", "samples": {"$k1": 10}}]}
EOF
	check "mksamples.py writes a session on $sys_bin" mksession sys
	check '--source: exit 1' ann_exits 1 sys-s --session-dir=out/sys -s
	check '... the package to install and the build-id path, once each' said sys-s <<EOF
opannotate: warning: no debug information in '$sys_bin': install the debug symbols of package $pkg ($pkg-dbgsym or $pkg-dbg), or a debug file at $dbg
opannotate: error: no sample has source line information
EOF
	check '--assembly: exit 0' ann_exits 0 sys-a --session-dir=out/sys -a
	sys_asm() {	# .text is one gap, its sampled instruction as objdump's
		test "0x$vma" = "$k1" || { say ".text at 0x$vma, file offset $k1"; return 1; }
		want=$(objdump -d --no-show-raw-insn --start-address=0x$vma \
			--stop-address=$((0x$vma + 16)) "$sys_bin" |
			sed -n "s/^ *$vma:\t//p") &&
		g="\\[${sys_bin##*/} 0x$vma-0x[0-9a-f]*\\]" &&
		grep -qx "0*$vma <$g>: /\\* $g total:     10 100.000 \\*/" sys-a.out &&
		grep -qx "    10 100.000 :  $vma:	$want" sys-a.out &&
		test "$(counted sys-a.out | wc -l)" = 1
	}
	check '... .text as one gap, its sampled instruction as objdump decodes it' sys_asm
	check '... the header says all samples are outside named symbols, with the hint' \
		grep -qx " \\* Note: 10 of them in ${sys_bin##*/}: no debug information in '$sys_bin': install the debug symbols of package $pkg ($pkg-dbgsym or $pkg-dbg), or a debug file at $dbg" sys-a.out
	check '... and nothing on stderr' test ! -s sys-a.err
else
	skip 'a system binary: the package with its debug symbols is named' \
		'no stripped binary of a dpkg package without its debug file here'
fi

# --- a binary changed since profiling ------------------------------------------
cp -p "$FIX/build/fixture_nopie" "$FIX/build/changed" || exit 99
check 'mksamples.py writes a session on a copy' variant ch changed
ch=$(sed -n 's|^ *"\(/[^"]*/changed\)": {$|\1|p' out/ch.expect.json | head -n 1)
touch -d '2020-01-01 00:00' "$FIX/build/changed"
ch_msg="opannotate: warning: the binary '$ch' was modified after it was profiled: its symbols may not match the samples"
check 'touched since: --source exits 0' ann_exits 0 ch-s --session-dir=out/ch -s
check '... warned about once' said ch-s <<EOF
$ch_msg
EOF
check '... the annotation as before (same binary)' \
	oracle source out/ch ch-s.out --strict --total 1834
check '--assembly: warned about once' sh -c "
	$OPANNOTATE --session-dir=out/ch -a >ch-a.out 2>ch-a.err && grep -cxF \"$ch_msg\" ch-a.err | grep -qx 1 &&
	test \"\$(wc -l <ch-a.err)\" = 1"
check '-s -a: warned about once' sh -c "
	$OPANNOTATE --session-dir=out/ch -s -a >ch-sa.out 2>ch-sa.err && grep -cxF \"$ch_msg\" ch-sa.err | grep -qx 1 &&
	test \"\$(wc -l <ch-sa.err)\" = 1"
(cd "$FIX" && cc -O0 -g -no-pie -o build/changed fixture.c) || exit 99
check 'rebuilt differently since: --source exits 0' ann_exits 0 ch2 --session-dir=out/ch -s
check '... warned about once' sh -c "grep -cxF \"$ch_msg\" ch2.err | grep -qx 1"

# --- a missing binary ----------------------------------------------------------
cp -p "$FIX/build/fixture_nopie" "$FIX/build/gone" || exit 99
check 'mksamples.py writes a session on a copy' variant gone gone
gone=$(sed -n 's|^ *"\(/[^"]*/gone\)": {$|\1|p' out/gone.expect.json | head -n 1)
mkdir -p "$T/elsewhere" && mv "$FIX/build/gone" "$T/elsewhere/" || exit 99
gone_msg="opannotate: warning: cannot find '$gone'; its samples are counted under the image (moved? --image-path DIR or --root DIR finds it)"
check 'missing: --source exits 1' ann_exits 1 gone-s --session-dir=out/gone -s
check '... the binary named once, then why nothing' said gone-s <<EOF
$gone_msg
opannotate: error: no sample has source line information
EOF
check 'missing: --assembly exits 0' ann_exits 0 gone-a --session-dir=out/gone -a
check '... the binary named, and why there is no code' said gone-a <<EOF
$gone_msg
opannotate: warning: no disassembly for '$gone': cannot find '$gone': --image-path or --root can say where it is
EOF
gone_list() {	# the sampled keys (file offsets) with their counts, "(no code)"
	grep -qx "0000000000000000 <$gone>: /\* $gone total:   1834 100.000 \*/" gone-a.out &&
	counted gone-a.out | sed 's/:  [0-9a-f]*:	/ /' >gone.got &&
	cat >gone.want <<'EOF' &&
     2  0.1091  (no code)
  1000 54.5256  (no code)
   500 27.2628  (no code)
     7  0.3817  (no code)
   300 16.3577  (no code)
    20  1.0905  (no code)
     5  0.2726  (no code)
EOF
	compare gone.want gone.got
}
check '... each sampled address with its count' gone_list
check '-p finds it elsewhere: --source exits 0, no message' \
	sh -c "$OPANNOTATE --session-dir=out/gone -s -p '$T/elsewhere' >gone-p.out 2>gone-p.err && test ! -s gone-p.err"
same_counts() {
	counted basic.out >b1 && counted gone-p.out >b2 && compare b1 b2
}
check '... the annotation of the basic session' same_counts
check '... and --assembly too' sh -c "
	$OPANNOTATE --session-dir=out/gone -a -p '$T/elsewhere' >gone-pa.out 2>gone-pa.err && test ! -s gone-pa.err &&
	grep -qx '  1000 54.5256 :  40113f:	test   %rdi,%rdi' gone-pa.out"

# --- usage errors and empty results ------------------------------------------------
usage() {	# NAME MESSAGE OPTIONS...: exit 2, MESSAGE then the hint
	u_n=$1 u_msg=$2
	shift 2
	ann_exits 2 "$u_n" "$@" && test ! -s "$u_n.out" &&
	printf '%s\n' "opannotate: error: $u_msg" "$hint" >"$u_n.want" &&
	compare "$u_n.want" "$u_n.err"
}
check 'neither --source nor --assembly: exit 2' \
	usage u1 'give --source, --assembly or both' --session-dir=out/basic
check 'a differential profile: exit 2' \
	usage u2 'opannotate takes no differential profile { } { }' \
	--session-dir=out/basic -s '{' 'image:*nopie' '}' '{' 'image:*nopie' '}'
check '... also when a side matches nothing (refused before reading)' \
	usage u3 'opannotate takes no differential profile { } { }' \
	--session-dir=out/basic -s '{' image:nothing '}' '{' image:none '}'
check 'an unknown option: exit 2' usage u4 "unknown option '--bogus'" --session-dir=out/basic -s --bogus
check 'an unknown tag: exit 2' usage u5 \
	"unknown tag 'imgae' in 'imgae:x' (valid tags: archive, session, session-exclude, image, image-exclude, lib-image, lib-image-exclude, event, count, unit-mask, cpu, tgid, tid, time)" \
	--session-dir=out/basic -s imgae:x
check 'a bad threshold: exit 2' usage u6 "invalid numeric value 'abc'" --session-dir=out/basic -s -t abc
levels='all, arcs, bfd, convert, debug, level1, misc, record, sfile, stats or xml'
check 'an unknown --verbose level: exit 2, the levels listed' usage u7 \
	"unknown --verbose level 'bogus' ($levels)" --session-dir=out/basic -s --verbose=bogus
check '... with -V too, after a known one' usage u8 \
	"unknown --verbose level 'bogus' ($levels)" --session-dir=out/basic -s -V debug,bogus
check 'an empty --verbose level list: exit 2' usage u9 \
	"empty --verbose level in '' ($levels)" --session-dir=out/basic -s --verbose=
check 'an empty --verbose level between two: exit 2' usage u10 \
	"empty --verbose level in 'all,,misc' ($levels)" --session-dir=out/basic -s -V all,,misc
nothing() {	# a spec matching nothing: exit 1, opreport's explanation
	ann_exits 1 n1 --session-dir=out/basic -s image:nothing && test ! -s n1.out &&
	exits 1 n1r --session-dir=out/basic image:nothing &&
	sed 's/^opreport: /opannotate: /' n1r.err >n1.want && compare n1.want n1.err &&
	grep -qx 'excluded everything: image:nothing (no application matches)' n1.err
}
check 'a spec that matches nothing: exit 1, explained as opreport explains it' nothing
filtered() {	# NAME MESSAGE OPTIONS...: exit 1, MESSAGE alone
	f_n=$1 f_msg=$2
	shift 2
	ann_exits 1 "$f_n" --session-dir=out/basic "$@" && test ! -s "$f_n.out" &&
	echo "opannotate: error: $f_msg" >"$f_n.want" && compare "$f_n.want" "$f_n.err"
}
check '-i matching no symbol: exit 1' filtered f1 'no symbol with samples passes the filters' -s -i nothing
check '... with --assembly too' filtered f2 'no symbol with samples passes the filters' -a -i 'no*thing'
check '-e excluding every symbol: exit 1' filtered f3 'no symbol with samples passes the filters' -s -e '*'
check '-a -t 60 (no symbol holds 60 %): exit 1' filtered f4 \
	'no symbol with samples passes the filters and the threshold' -a -t 60
check 'an empty session directory: exit 1' sh -c "
	mkdir -p empty && $OPANNOTATE --session-dir=empty -s >e.out 2>e.err; test \$? = 1 && test ! -s e.out &&
	grep -q '^opannotate: error: session .current. not found' e.err"
check '--version' sh -c "$OPANNOTATE --version >v.out && grep -q '^opannotate (oprofile-ng) [0-9]' v.out"
check '--help lists --source and --assembly' sh -c "
	$OPANNOTATE --help >h.out && grep -q -- '--source' h.out && grep -q -- '--assembly' h.out"
done_testing
