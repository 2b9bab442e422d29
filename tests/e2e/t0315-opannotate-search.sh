#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Finding the source files: with fixture.c moved away from where the
# debug information says, opannotate names it once with every path tried
# and still shows its header and the lines with samples ("<line N>");
# --search-dirs finds it as DIR/<its path>, and with --base-dirs as
# DIR/<its path less the prefix> (-b without -d is a usage error); the
# annotation is then the one of the file in place.  A copy under a search
# dir wins over the file itself; -s -a and --output-dir use what was found.
. "$top_srcdir/tests/lib.sh"
use_fixtures
test -x "$OPANNOTATE" || skip_all "opannotate is not built"

check 'mksamples.py writes the basic session' mksession basic
check 'opannotate --source with fixture.c in place' ann_exits 0 ref --session-dir=out/basic -s
check 'opannotate -s -a with fixture.c in place' ann_exits 0 refsa --session-dir=out/basic -s -a
# the name the debug information gives, and its directory
name=$(sed -n 's/^ \* Total samples for file : "\(.*\)"$/\1/p' ref.out)
dir=${name%/*}
check 'the debug information names fixture.c by its absolute path' \
	test "$name" = "$dir/fixture.c" -a -f "$name"
mkdir -p "$T/moved" "$T/mirror$dir" && cp "$name" "$T/mirror$name" &&
	mv "$name" "$T/moved/fixture.c" || exit 99

# same_as NAME REF: NAME.out is REF.out but for the command line
same_as() {
	sed '/^ \* Command line: /d' "$2.out" >"$1.want" &&
	sed '/^ \* Command line: /d' "$1.out" >"$1.got" && compare "$1.want" "$1.got"
}
hint='; give its directory with --search-dirs (and --base-dirs)'

# --- not found -------------------------------------------------------------
check 'fixture.c moved away: still exit 0' ann_exits 0 nf --session-dir=out/basic -s
check '... one warning, with the path tried' sh -c "
	printf '%s\n' \"opannotate: warning: cannot find the source file '$name' (tried '$name')$hint\" >nf.want &&
	diff -u nf.want nf.err"
check '... the header, then the lines with samples as <line N>' \
	oracle source out/basic nf.out --strict --total 1834
nf_lines() {
	counted nf.out >nf.got &&
	cat >nf.lwant <<'EOF' &&
  1000 54.5256 :<line 14> /* compute_alpha total:   1000 54.5256 */
     7  0.3817 :<line 21>
   500 27.2628 :<line 22> /* compute_beta total:    507 27.6445 */
   300 16.3577 :<line 28> /* compute_gamma total:    320 17.4482 */
    20  1.0905 :<line 30>
     2  0.1091 :<line 41> /* helper_delta total:      2  0.1091 */
     5  0.2726 :<line 53> /* main total:      5  0.2726 */
EOF
	compare nf.lwant nf.got &&
	grep -qx '(source not found: the lines with samples follow)' nf.out &&
	grep -qx " \* Total samples for file : \"$name\"" nf.out &&
	test "$(grep -c '' nf.out)" = $((10 + 7 + 1 + 7))
}
check '... exactly these lines' nf_lines

# --- --search-dirs -----------------------------------------------------------
check '-d mirror: found as mirror/<its path>' ann_exits 0 d1 --session-dir=out/basic -s -d "$T/mirror"
check '... no warning' test ! -s d1.err
check '... the annotation of the file in place' same_as d1 ref
check '-d with a relative directory' ann_exits 0 d2 --session-dir=out/basic -s -d ../mirror
check '... the same' same_as d2 ref
check '-d nowhere,mirror: the second directory' \
	ann_exits 0 d3 --session-dir=out/basic -s -d "$T/nowhere,$T/mirror"
check '... the same' same_as d3 ref
tried_d() {
	ann_exits 0 d4 --session-dir=out/basic -s -d "$T/nowhere,$T/moved" &&
	printf '%s\n' "opannotate: warning: cannot find the source file '$name' (tried '$T/nowhere$name', '$T/moved$name', '$name')" >d4.want &&
	compare d4.want d4.err
}
check '-d without the file: every path tried is named (no hint)' tried_d

# --- --base-dirs -------------------------------------------------------------
check "-b DIR -d moved: found as moved/fixture.c" \
	ann_exits 0 b1 --session-dir=out/basic -s -b "$dir" -d "$T/moved"
check '... no warning' test ! -s b1.err
check '... the annotation of the file in place' same_as b1 ref
check '-b DIR/ (a trailing slash)' ann_exits 0 b2 --session-dir=out/basic -s -b "$dir/" -d "$T/moved"
check '... the same' same_as b2 ref
check '-b /nonexistent,DIR -d nowhere,moved: the second of each' \
	ann_exits 0 b3 --session-dir=out/basic -s -b "/nonexistent,$dir" -d "$T/nowhere,$T/moved"
check '... the same' same_as b3 ref
tried_b() {
	ann_exits 0 b4 --session-dir=out/basic -s -b "$dir" -d "$T/nowhere" &&
	printf '%s\n' "opannotate: warning: cannot find the source file '$name' (tried '$T/nowhere/fixture.c', '$name')" >b4.want &&
	compare b4.want b4.err
}
check '-b DIR -d nowhere: the paths tried are named' tried_b
tried_nb() {
	ann_exits 0 b5 --session-dir=out/basic -s -b /elsewhere -d "$T/moved" &&
	printf '%s\n' "opannotate: warning: cannot find the source file '$name' (tried '$T/moved$name', '$name')" >b5.want &&
	compare b5.want b5.err
}
check '-b with a prefix the name does not have: the name under -d' tried_nb
b_alone() {
	ann_exits 2 b6 --session-dir=out/basic -s -b "$dir" && test ! -s b6.out &&
	printf '%s\n' "opannotate: error: --base-dirs needs --search-dirs, where the stripped paths are looked for" \
		"hint: see 'opannotate --help'" >b6.want &&
	compare b6.want b6.err
}
check '-b without -d: exit 2' b_alone

# --- -s -a and --output-dir use the file found ----------------------------------
check '-s -a -b DIR -d moved' ann_exits 0 sa --session-dir=out/basic -s -a -b "$dir" -d "$T/moved"
check '... the interleaved source lines of the file in place' same_as sa refsa
check '-s -a without it: each source line as FILE:LINE' ann_exits 0 sanf --session-dir=out/basic -s -a
check '... e.g. the first instruction of compute_alpha' \
	sh -c "grep -A 1 '<compute_alpha>:' sanf.out | tail -n 1 | grep -qx '               :$name:14'"
check '-o od -b DIR -d moved' ann_exits 0 o1 --session-dir=out/basic -s -o od -b "$dir" -d "$T/moved"
check '... the copy mirrors where the file was found' \
	sh -c "test -f od$T_REAL/moved/fixture.c && test \"\$(find od -type f | wc -l)\" = 1"
same_counts() {
	counted "od$T_REAL/moved/fixture.c" >o1.got && counted ref.out >o1.want &&
	compare o1.want o1.got
}
check '... and is the annotation of the file in place' same_counts

# --- a copy under a search dir comes before the file itself -------------------
mv "$T/moved/fixture.c" "$name" || exit 99
sed '1s|.*|/* THE MIRROR COPY */|' "$name" >"$T/mirror$name"
first() {
	ann_exits 0 m1 --session-dir=out/basic -s -d "$T/mirror" &&
	grep -qx '               :/\* THE MIRROR COPY \*/' m1.out &&
	! grep -q 'Small test program' m1.out
}
check 'the copy under -d wins over the file at its own path' first
check 'without -d, the file itself' \
	sh -c "$OPANNOTATE --session-dir=out/basic -s >m2.out && ! grep -q 'THE MIRROR COPY' m2.out && cmp m2.out ref.out"
# --- a relative compilation directory (distributions: -fdebug-prefix-map) ----
# built in tree/app with the tree's path mapped to ".": the debug
# information names fixture.c by "./app"; opannotate names it from the top
# of the tree, "app/fixture.c", which -d finds under the tree
mkdir -p "$T/tree/app" && cp "$name" "$T/tree/app/fixture.c" || exit 99
relbin() {
	(cd "$T/tree/app" && cc -O1 -g -fno-omit-frame-pointer -no-pie \
		-fdebug-prefix-map="$T/tree=." -o "$T/relbin" fixture.c) &&
	printf '%s\n' '{"cpu_type": "i386/skylake",' \
		" \"profiles\": [{\"binary\": \"$T/relbin\"," \
		'  "symbol_samples": {"compute_alpha": 30, "compute_beta": 10}}]}' \
		>fixtures/rel.json &&
	mksession rel
}
check 'a binary built with a relative compilation directory, and its session' relbin
check '... its file is named from the top of the tree, and not found there' \
	sh -c "$OPANNOTATE --session-dir=out/rel -s >rel1.out 2>rel1.err;
		grep -qx ' \\* Total samples for file : \"app/fixture.c\"' rel1.out &&
		grep -q \"cannot find the source file 'app/fixture.c'\" rel1.err"
rel_found() {
	ann_exits 0 rel2 --session-dir=out/rel -s -d "$T/tree" && test ! -s rel2.err &&
	grep -q '^    30 75.0000 :.* /\* compute_alpha total:     30 75.0000 \*/$' rel2.out
}
check '... -d TREE finds it, and annotates it' rel_found
done_testing
