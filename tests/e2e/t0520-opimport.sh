#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opimport converts whole sessions written in foreign ABIs (big-endian
# x86-64, i386, big-endian i386, made by mksamples.py with known counts)
# into native ones that opreport and odb-dump read exactly as the same
# session written natively: same keys, counts and header fields, the full
# 64-bit anon_start and the cpu_speed included.  Importing again adds the
# counts.  A bad abi file, a truncated sample file and an output that
# cannot be written fail with exit 1 and a message naming the file, and
# leave the output as it was with no temporary behind.  A samples/NAME
# directory converts with --abi, and is a usage error without it.  A
# session operf wrote converts with --force, its other files copied.
. "$top_srcdir/tests/lib.sh"
use_fixtures
OPIMPORT=$top_builddir/daemon/opimport
ODBDUMP=$top_builddir/pp/odb-dump

# SPEC LAYOUT OUT: fixtures/foreign_SPEC.json in LAYOUT, plus an anon
# region above 4 GiB, a cpu speed and a stats file, as fixtures/OUT.json
variant() {
	python3 - "$@" <<'PY'
import json, sys
spec = json.load(open("fixtures/foreign_%s.json" % sys.argv[1]))
spec["layout"] = sys.argv[2]
spec["session_dir"] = "out/" + sys.argv[3]
spec["cpu_speed"] = 2394.5
spec["stats"] = {"lost_no_mapping": 3}
spec["profiles"].append({"binary": "anon", "app": "build/fixture_pie",
    "tgid": 1234, "anon": {"name": "anon", "start": "0x7f1234560000",
    "end": "0x7f123456ffff"}, "samples": {"0x10": 5, "0x2000": 9}})
json.dump(spec, open("fixtures/%s.json" % sys.argv[3], "w"))
PY
}

# DIR: odb-dump of every sample file under DIR/samples, by key, names
# relative to DIR
dump_all() {
	(cd "$1" && find samples -type f -path '*{root}*' | LC_ALL=C sort >files &&
	 for f in $(cat files); do "$ODBDUMP" -k "$f" || exit 1; done) >"$2"
}

# LAYOUT: opreport -l of the imported session is the native one's,
# warnings included (with the session's name made the same)
same_report() {
	"$OPREPORT" --session-dir="out/n_$1" -l >"n_$1.l" 2>"n_$1.err" &&
	"$OPREPORT" --session-dir="out/c_$1" -l >"c_$1.l" 2>"c_$1.err" &&
	sed -i "s|/c_$1/|/n_$1/|g" "c_$1.err" &&
	compare "n_$1.l" "c_$1.l" && compare "n_$1.err" "c_$1.err"
}

same_dump() {
	dump_all "out/n_$1" "n_$1.dump" && dump_all "out/c_$1" "c_$1.dump" &&
	compare "n_$1.dump" "c_$1.dump"
}

# LAYOUT: a second import doubles every count of the first
doubled() {
	"$OPIMPORT" -o "out/c_$1" "out/f_$1" &&
	dump_all "out/c_$1" "c2_$1.dump" &&
	awk '/^  0x/ { print "  " $1, $2 * 2; next } !/ samples [0-9]*$/' \
		"c_$1.dump" >"want_$1" &&
	awk '!/ samples [0-9]*$/' "c2_$1.dump" >"got_$1" &&
	compare "want_$1" "got_$1" && test -s "want_$1"
}

no_tmp() {
	left=$(find out -name '*.tmp' | head -n 1)
	test -z "$left" || { say "left behind: $left"; return 1; }
}

for lay in x86_64-be i386 i386-be; do
	variant "$lay" "$lay" "f_$lay" && variant "$lay" native "n_$lay" ||
		exit 99
	mksession "f_$lay" && mksession "n_$lay" || exit 99
	check "$lay: the session converts" \
		"$OPIMPORT" -o "out/c_$lay" "out/f_$lay"
	check "$lay: opreport -l of the import is the native session's" \
		same_report "$lay"
	check "$lay: odb-dump (keys, counts, headers) is the native session's" \
		same_dump "$lay"
	check "$lay: anon_start keeps 64 bits and cpu_speed is converted" \
		grep -q 'cpu_speed 2394.50 MHz  mtime 0  anon_start 0x7f1234560000' \
		"c_$lay.dump"
	check "$lay: stats are copied and a native abi written" sh -c "
		cmp out/f_$lay/samples/current/stats/lost_no_mapping \
			out/c_$lay/samples/current/stats/lost_no_mapping &&
		cmp out/n_$lay/abi out/c_$lay/abi"
	check "$lay: importing again doubles every count" doubled "$lay"
done

# one file, the OProfile way; the output's directory must exist
f=$(cd out/f_i386 && find samples -type f -path '*{anon*' | head -n 1)
check "one file: -a ABI -o FILE" sh -c "
	'$OPIMPORT' -a out/f_i386/abi -o one.odb 'out/f_i386/$f' &&
	'$ODBDUMP' -k one.odb >one.dump &&
	grep -q 'anon_start 0x7f1234560000' one.dump && grep -q '0x0000000000002000 9' one.dump"
check "one file without --abi is a usage error" sh -c "
	'$OPIMPORT' -o x.odb 'out/f_i386/$f' 2>err; test \$? = 2"
check "no --output is a usage error" sh -c "
	'$OPIMPORT' out/f_i386 2>err; test \$? = 2"

# a samples/NAME directory: its files under the output, stats copied
check "a samples/current directory with -a converts" sh -c "
	'$OPIMPORT' -a out/f_i386/abi -o out/cur out/f_i386/samples/current &&
	test -f out/cur/stats/lost_no_mapping && test ! -e out/cur/abi &&
	mkdir -p out/curs/samples && mv out/cur out/curs/samples/current &&
	'$OPREPORT' --session-dir=out/curs -l >cur.l 2>/dev/null && diff -u n_i386.l cur.l"
check "a samples directory without --abi is a usage error" sh -c "
	'$OPIMPORT' -o out/cur2 out/f_i386/samples/current 2>err; test \$? = 2 &&
	test ! -e out/cur2"

# a native abi is refused without --force, converted with it
check "a native abi without --force: exit 1" sh -c "
	'$OPIMPORT' -o out/nat out/n_i386 2>nat.err; test \$? = 1 &&
	grep -q 'identical to native' nat.err && test ! -e out/nat"
check "a native abi with --force converts" sh -c "
	'$OPIMPORT' -f -o out/nat out/n_i386 &&
	'$OPREPORT' --session-dir=out/nat -l >nat.l 2>/dev/null && diff -u n_i386.l nat.l"

# a session operf wrote, which has comms, build ids, long names and
# session.info beside the sample files: those are copied, not taken for
# sample files (they were, and --force failed on 'buildids')
if operf -e cpu-clock -d out/live sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' \
	>live.out 2>&1; then
	check "an operf session with --force converts" sh -c "
		'$OPIMPORT' -f -o out/live2 out/live 2>live2.err || { cat live2.err; exit 1; }"
	check "... its report is the original's" sh -c "
		'$OPREPORT' --session-dir=out/live -l >live.l 2>/dev/null &&
		'$OPREPORT' --session-dir=out/live2 -l >live2.l 2>/dev/null &&
		test -s live.l && diff -u live.l live2.l"
	check "... the files beside the samples are the same bytes" sh -c "
		for f in comms buildids session.info; do
			cmp out/live/samples/current/\$f out/live2/samples/current/\$f || exit 1
		done"
	check "... its samples/current directory with -a converts too" sh -c "
		'$OPIMPORT' -f -a out/live/abi -o out/live3 out/live/samples/current 2>live3.err ||
			{ cat live3.err; exit 1; }
		test -s out/live3/comms"
else
	skip "an operf session with --force" "operf cannot sample here: $(tail -n 1 live.out)"
fi

# bad abi files: a missing key, an impossible size
cp -R out/f_i386 out/badabi
grep -v '^offsetof_header_anon_start ' out/f_i386/abi >out/badabi/abi
check_fail "an abi file without a key fails" "$OPIMPORT" -o out/bad1 out/badabi 2>bad1.err
check "... naming the file and the key, nothing written" sh -c "
	grep -q \"^opimport: error: bad abi file 'out/badabi/abi': missing key 'offsetof_header_anon_start'\" bad1.err &&
	test ! -e out/bad1"
sed 's/^sizeof_u32 4/sizeof_u32 3/' out/f_i386/abi >out/badabi/abi
check "an abi file with an impossible size fails, nothing written" sh -c "
	'$OPIMPORT' -o out/bad2 out/badabi 2>bad2.err; test \$? = 1 &&
	grep -q 'bad abi file' bad2.err && test ! -e out/bad2"

# a truncated sample file: exit 1 naming it, an existing output untouched
cp -R out/f_i386 out/trunc
t=$(cd out/trunc && find samples -type f -path '*fixture_pie/cpu_clk*' | head -n 1)
head -c 150 "out/f_i386/$t" >"out/trunc/$t"
(cd out/c_i386 && find . -type f -exec cksum {} + | LC_ALL=C sort) >before
check "a truncated sample file fails with exit 1" sh -c "
	'$OPIMPORT' -o out/c_i386 out/trunc 2>trunc.err; test \$? = 1"
check "... naming the file" grep -q "cannot convert sample file 'out/trunc/samples/current/.*': node table extends past the end" trunc.err
check "... and the existing output is untouched" sh -c "
	(cd out/c_i386 && find . -type f -exec cksum {} + | LC_ALL=C sort) >after &&
	diff -u before after"
check "... and a new output is not made" sh -c "
	'$OPIMPORT' -o out/tnew out/trunc 2>/dev/null; test \$? = 1 && test ! -e out/tnew"
head -c 20 "out/f_i386/$t" >"out/trunc/$t"
check "a file shorter than its header fails" sh -c "
	'$OPIMPORT' -o out/tnew out/trunc 2>short.err; test \$? = 1 &&
	grep -q 'too short' short.err && test ! -e out/tnew"

# an output that cannot be written
: >notadir
check "an output below a regular file fails with exit 1" sh -c "
	'$OPIMPORT' -o notadir/x out/f_i386 2>nd.err; test \$? = 1 &&
	grep -q \"opimport: error: cannot create directory 'notadir/x'\" nd.err"
if test "$(id -u)" != 0; then
	mkdir ro && cp -R out/c_i386 ro/c && chmod -R a-w ro
	check "an unwritable output directory fails with exit 1" sh -c "
		'$OPIMPORT' -o ro/c out/f_i386 2>ro.err; test \$? = 1 &&
		grep -q 'Permission denied' ro.err"
	chmod -R u+w ro
else
	say "running as root: the read-only output directory case is not checked"
fi
check "no temporary file is left anywhere" no_tmp

done_testing
