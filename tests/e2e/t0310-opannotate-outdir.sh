#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opannotate --source --output-dir=DIR: one annotated copy per source
# file at DIR/<its absolute path>, holding the annotated lines and then
# the comment blocks (the file's totals, the command line and the rest of
# the header), nothing on stdout; the copies are what --source prints for
# each file; re-running overwrites them.  A directory that contains a
# source file (itself, a parent, /, or a link to one) is refused (exit 1,
# the file named); with --assembly it is a usage error.  The sources are
# never changed.
. "$top_srcdir/tests/lib.sh"
use_fixtures
test -x "$OPANNOTATE" || skip_all "opannotate is not built"
make_multi
check 'mksamples.py writes the multi session' mksession multi
FIXR=$(cd "$FIX" && pwd -P)
sources="$FIXR/multi_main.c $FIXR/multi_b.c $FIXR/multi.h"
md5sum $sources >sources.md5 || exit 99
unchanged() {
	md5sum -c --quiet sources.md5
}

check '-o od exits 0' ann_exits 0 od --session-dir=out/multi -s -o od
check '... with nothing on stdout or stderr' test ! -s od.out -a ! -s od.err
tree() {
	(cd od && find . -type f | sort) >tree.got &&
	printf './%s\n' "${FIXR#/}/multi.h" "${FIXR#/}/multi_b.c" "${FIXR#/}/multi_main.c" >tree.want &&
	compare tree.want tree.got
}
check '... one copy per source file, at od/<its absolute path>' tree
check 'the sources are unchanged' unchanged

# copy_is NAME BASENAME CMD: od's copy of BASENAME is what --source prints
# for that file, the annotated lines first, then its header, then the
# header of the whole output with CMD as its command line
copy_is() {
	c_n=$1 c_b=$2 c_cmd=$3
	ann_exits 0 "$c_n" --session-dir=out/multi -s --include-file="$c_b" &&
	c_end=$(grep -n -m 1 '^ \*/$' "$c_n.out" | cut -d: -f1) &&
	head -n "$c_end" "$c_n.out" | sed "2s|.*| * Command line: $c_cmd |" >"$c_n.info" &&
	tail -n +"$((c_end + 1))" "$c_n.out" >"$c_n.file" &&
	{ tail -n +8 "$c_n.file"; head -n 7 "$c_n.file"; cat "$c_n.info"; } >"$c_n.want" &&
	compare "$c_n.want" "od$FIXR/$c_b"
}
cmd="$OPANNOTATE --session-dir=out/multi -s -o od"
for b in multi_main.c multi_b.c multi.h; do
	check "the copy of $b: its annotated lines, then the comment blocks" \
		copy_is "cp-$b" "$b" "$cmd"
done
counts_in_copy() {	# the copy's counted lines are those of --source
	counted "cp-multi_b.c.out" >c1 && counted "od$FIXR/multi_b.c" >c2 && cmp c1 c2 &&
	test "$(wc -l <c1)" -gt 5
}
check "the copy's counts are those of --source" counts_in_copy

# re-running overwrites (a damaged copy, a removed one)
rerun() {
	echo garbage >>"od$FIXR/multi_b.c" && rm "od$FIXR/multi.h" &&
	ann_exits 0 od2 --session-dir=out/multi -s -o od &&
	copy_is cp2-b multi_b.c "$cmd" && copy_is cp2-h multi.h "$cmd"
}
check 're-running overwrites a changed copy and remakes a removed one' rerun
check '-o with an absolute path, made with its parents' \
	ann_exits 0 abs --session-dir=out/multi -s -o "$T/new/deep/dir"
abs_same() {
	for b in multi_main.c multi_b.c multi.h; do
		sed '/^ \* Command line: /d' "od$FIXR/$b" >a.cp &&
		sed '/^ \* Command line: /d' "$T/new/deep/dir$FIXR/$b" >b.cp &&
		cmp a.cp b.cp || return 1
	done
}
check '... the same copies there (but for the command line)' abs_same
check '-o with a threshold: the files over it only' \
	ann_exits 0 t40 --session-dir=out/multi -s -t 40 -o od40
check '... multi_main.c alone' \
	sh -c "test -f od40$FIXR/multi_main.c && test ! -e od40$FIXR/multi_b.c && test ! -e od40$FIXR/multi.h"
check 'the sources are unchanged' unchanged

# --- refused directories -----------------------------------------------------
refused() {	# NAME DIR: exit 1, the first source named, nothing written
	r_n=$1 r_dir=$2
	find "$FIX" | sort >"$r_n.before" &&
	ann_exits 1 "$r_n" --session-dir=out/multi -s -o "$r_dir" &&
	test ! -s "$r_n.out" &&
	printf "opannotate: error: refusing the output directory '%s': it contains the source file '%s' (the annotated copies are kept apart from the sources)\n" \
		"$r_dir" "$FIXR/multi_main.c" >"$r_n.want" &&
	compare "$r_n.want" "$r_n.err" &&
	find "$FIX" | sort >"$r_n.after" && compare "$r_n.before" "$r_n.after" &&
	unchanged
}
check 'the directory of the sources is refused' refused r1 "$FIX"
check 'a parent of it is refused' refused r2 "$FIX/.."
check '/ is refused (the copies would be the sources)' refused r3 /
ln -s "$FIX" srclink
check 'a link to the directory of the sources is refused' refused r4 srclink
check 'a relative path to it is refused' refused r5 fixtures/../fixtures
not_dir() {
	echo x >afile &&
	ann_exits 1 nd --session-dir=out/multi -s -o afile/sub &&
	echo "opannotate: error: cannot create the output directory 'afile/sub': Not a directory" >nd.want &&
	compare nd.want nd.err && test ! -s nd.out
}
check 'an output directory that cannot be made: exit 1, said' not_dir
asm_usage() {
	ann_exits 2 oa --session-dir=out/multi -a -o od3 &&
	printf '%s\n' "opannotate: error: --output-dir writes source files: it cannot be used with --assembly" \
		"hint: see 'opannotate --help'" >oa.want &&
	compare oa.want oa.err && test ! -s oa.out && test ! -e od3
}
check '--output-dir with --assembly: exit 2, nothing made' asm_usage

# a source found through a relative path with "..": its copy still goes
# under the output directory, at its absolute path (not onto the source)
up() {
	mkdir -p "$T/src" "$T/work" && cp "$FIX/multi_main.c" "$FIX/multi_b.c" \
		"$FIX/multi.h" "$T/src/" && md5sum "$T"/src/* >src.md5 &&
	(cd "$T/work" && "$OPANNOTATE" --session-dir="$T/tools/out/multi" -s \
		-b "$FIX" -d ../src -o . >"$T/tools/up.out" 2>"$T/tools/up.err") &&
	md5sum -c --quiet src.md5 &&
	(cd "$T/work" && find . -type f | sort) >up.got &&
	printf './%s\n' "${T_REAL#/}/src/multi.h" "${T_REAL#/}/src/multi_b.c" \
		"${T_REAL#/}/src/multi_main.c" >up.want &&
	compare up.want up.got
}
check '-d ../src -o .: the copies at ./<absolute path>, the sources untouched' up

# --- sources that are not found ------------------------------------------
gone_h() {
	mv "$FIX/multi.h" "$T/multi.h.away" &&
	ann od4 --session-dir=out/multi -s -o od4
	g_rc=$?
	mv "$T/multi.h.away" "$FIX/multi.h" &&
	test "$g_rc" = 0 &&
	test -f "od4$FIXR/multi_main.c" -a -f "od4$FIXR/multi_b.c" -a ! -e "od4$FIXR/multi.h" &&
	grep -q "^opannotate: warning: cannot find the source file '$FIXR/multi.h' (tried " od4.err &&
	test ! -s od4.out
}
check 'a source not found: the others are written, it is named (exit 0)' gone_h
none_found() {
	mkdir -p "$T/away" && mv "$FIX"/multi* "$T/away/" &&
	ann od5 --session-dir=out/multi -s -o od5
	n_rc=$?
	mv "$T"/away/multi* "$FIX/" &&
	test "$n_rc" = 1 && test ! -s od5.out &&
	test "$(grep -c '^opannotate: warning: cannot find the source file' od5.err)" = 3 &&
	test "$(tail -n 1 od5.err)" = 'opannotate: error: no source file found to annotate'
}
check 'no source found: exit 1, each named, then why' none_found
check 'the sources are unchanged at the end' unchanged
done_testing
