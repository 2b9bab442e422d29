#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What OProfile 1.4's opreport refuses as meaningless, refused with the
# reason (exit 2, nothing on stdout): -l -%, -i/-e and -s vma in the image
# summary, an unknown --verbose level.  Where ours does more, what it does:
# -w/-g/-a without -l imply it; a missing --image-path directory is warned
# about; -i/-e that select no symbol with samples fail in opreport as in
# opannotate (exit 1); -f names the kernel /no-vmlinux; --session-dir at
# the parent of oprofile_data, or at its samples/, and archive: of a
# missing directory get messages that say what to give.
. "$top_srcdir/tests/lib.sh"
use_fixtures
check 'mksamples.py writes the basic session' mksession basic

refused() {	# NAME REASON ARGS...: exit 2, REASON on stderr, no report
	r_n=$1 r_why=$2
	shift 2
	exits 2 "$r_n" --session-dir=out/basic "$@" &&
	test ! -s "$r_n.out" &&
	grep -q "^opreport: error: $r_why" "$r_n.err"
}
check '-l -%: refused' refused lg '--global-percent has no effect with --symbols' -l -%
check '-i without -l: refused' refused i '--include-symbols and --exclude-symbols need --symbols' \
	-i compute_alpha
check '-e without -l: refused' refused e '--include-symbols and --exclude-symbols need --symbols' \
	-e compute_alpha
check '-s vma without -l: refused' refused s '--sort=vma needs --symbols' -s vma
check '-V nonsense: refused, the levels named' refused v "unknown --verbose level 'nonsense' (all, " \
	-V nonsense
levels='all, arcs, bfd, convert, debug, level1, misc, record, sfile, stats or xml'
verbose_said() {	# NAME LEVEL ARGS...: exit 2, exactly that level refused
	v_n=$1 v_msg=$2
	shift 2
	exits 2 "$v_n" --session-dir=out/basic "$@" && test ! -s "$v_n.out" &&
	printf '%s\n' "opreport: error: $v_msg ($levels)" \
		"hint: see 'opreport --help'" >"$v_n.want" &&
	compare "$v_n.want" "$v_n.err"
}
check '--verbose=bogus: refused with every level and the hint' \
	verbose_said vb "unknown --verbose level 'bogus'" --verbose=bogus
check "--verbose= (no level): refused" \
	verbose_said ve "empty --verbose level in ''" --verbose=
check "-V , (empty levels): refused" verbose_said vc "empty --verbose level in ','" -V ,
check "-V sfile, (a trailing comma): refused" \
	verbose_said vt "empty --verbose level in 'sfile,'" -V sfile,
check '-V all,sfile: taken' exits 0 va --session-dir=out/basic -V all,sfile -n
check '-d -% and -c -%: taken' sh -c '"$0" --session-dir=out/basic -d -% >/dev/null &&
	"$0" --session-dir=out/basic -c -% >/dev/null' "$OPREPORT"
implies() {	# OPT: OPT alone is -l OPT
	exits 0 "imp$1" --session-dir=out/basic "$1" -n &&
	exits 0 "impl$1" --session-dir=out/basic -l "$1" -n &&
	cmp "imp$1.out" "impl$1.out"
}
check '-w without -l: the symbols with addresses' implies -w
check '-g without -l: the symbols with source lines' implies -g
check '-a without -l: the symbols with running totals' implies -a
nothing() {	# OUTPUT OPTIONS: exit 1, the reason, no report
	exits 1 "n$1" --session-dir=out/basic "$@" -i no_such_symbol &&
	grep -q '^opreport: error: no symbol with samples passes the filters$' "n$1.err"
}
check '-l -i no_such_symbol: exit 1, said' nothing -l
check '-X -i no_such_symbol: the same' nothing -X
check '-c -e "*": the same' sh -c '"$0" --session-dir=out/basic -c -e "*" >ce.out 2>ce.err;
	test $? = 1 && grep -q "no symbol with samples passes" ce.err' "$OPREPORT"
ann_nothing() {
	ann_exits 1 an --session-dir=out/basic -a -i no_such_symbol &&
	grep -q 'no symbol with samples passes the filters' an.err
}
check 'opannotate -i no_such_symbol: exit 1 as well' ann_nothing
ip() {
	exits 0 ip --session-dir=out/basic -l -n -p /no/such/dir &&
	grep -qx "opreport: warning: --image-path: '/no/such/dir' is not a directory: no binary is looked for there" ip.err
}
check '-p /no/such/dir: warned about, the report made' ip

# session directories given one level off: said, with the option to give
mkdir -p project && cp -R out/basic project/oprofile_data || exit 99
parent() {
	exits 1 par --session-dir=project &&
	grep -q "^opreport: error: '.*/project' holds no session, but its oprofile_data does: give --session-dir=.*/project/oprofile_data\$" par.err
}
check '--session-dir at the parent of oprofile_data: the right one named' parent
samples() {
	exits 1 smp --session-dir=project/oprofile_data/samples &&
	grep -q "^opreport: error: '.*/samples' is the samples directory of a session: give --session-dir=.*/project/oprofile_data, the directory above it\$" smp.err
}
check '--session-dir at its samples/: the directory above named' samples
archive() {
	exits 1 arc archive:/no/such/archive &&
	grep -q "^opreport: error: cannot use archive '/no/such/archive': No such file or directory (an archive is the directory" arc.err
}
check 'archive: of a missing directory: said what an archive is' archive

done_testing
