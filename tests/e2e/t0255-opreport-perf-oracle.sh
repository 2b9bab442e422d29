#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf as an oracle in the same run: `perf record -e cpu-clock -- operf
# COMMAND` samples one execution with both tools, and opreport's image
# summary and -l agree with perf's samples of the command
# (tests/tools/perf_oracle.py): each image's share, and each of the ten
# largest named symbols, within 1 percentage point.  Real, stripped Debian
# programs: xz (liblzma), bzip2 (libbz2), sort (libc's named functions).
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed (Debian package linux-perf)"
perf record -q -e cpu-clock -o probe.data -- true >probe.out 2>&1 ||
	skip_all "perf record cannot sample here: $(tail -n 1 probe.out)"
ORACLE_PERF=$top_srcdir/tests/tools/perf_oracle.py

# same_run NAME COMM COMMAND...: both tools on one execution, compared
same_run() {
	s_n=$1 s_c=$2
	shift 2
	perf record -q -e cpu-clock -o "$s_n.data" -- operf -d "$s_n" "$@" \
		>"$s_n.run.out" 2>"$s_n.run.err" || { sed 's/^/# /' "$s_n.run.err"; return 1; }
	perf script -i "$s_n.data" -F comm,ip,sym,dso >"$s_n.perf" 2>/dev/null &&
	exits 0 "$s_n.sum" --session-dir="$s_n" -n &&
	exits 0 "$s_n.l" --session-dir="$s_n" -l -n &&
	python3 "$ORACLE_PERF" "$s_n.perf" "$s_c" "$s_n.sum.out" "$s_n.l.out"
}

# inputs for several thousand samples each: 1 percentage point is then
# well beyond the sampling noise between the two tools
head -c 3000000 /dev/urandom | od -An -tx1 -v >data.txt || exit 99
head -c 12000000 /dev/urandom | od -An -tx1 -v >big.txt || exit 99
seq 1 4000000 | sort -R >lines.txt || exit 99
if command -v xz >/dev/null 2>&1; then
	check 'xz -6: images and named symbols as perf sees them' \
		same_run xz xz xz -6 -k -c data.txt
else
	skip 'xz against perf' 'xz is not installed'
fi
if command -v bzip2 >/dev/null 2>&1; then
	check 'bzip2 -9: the same' same_run bz bzip2 bzip2 -9 -k -c big.txt
else
	skip 'bzip2 against perf' 'bzip2 is not installed'
fi
check 'sort: the same' same_run sort sort sort -S 50M -o sorted.txt lines.txt

done_testing
