#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf as an oracle in the same run: `perf record -e cpu-clock -- operf
# COMMAND` samples one execution with both tools, and opreport's image
# summary and -l agree with perf's samples of the command
# (tests/tools/perf_oracle.py): each image's share, and each of the ten
# largest named symbols, within 1 percentage point or, when wider, four
# standard deviations of two independent samplers' noise.  Real Debian
# programs: xz (stripped liblzma), bzip2 (stripped libbz2), python3 (the
# interpreter's exported functions, libc's).  opreport is given the
# command's application (the one with most samples), as perf is given
# its name: a command run through a script or a shim has other programs
# in the session.  Both sample user space only: on a loaded machine the
# kernel samples around interrupts and context switches differ between
# two samplers by more than a point (each one's interrupts land in the
# other's profile); kernel names are checked against kallsyms by t0186.
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
	perf record -q -e cpu-clock:u -o "$s_n.data" -- \
		operf -e cpu-clock:250000:0:0:1 -d "$s_n" "$@" \
		>"$s_n.run.out" 2>"$s_n.run.err" || { sed 's/^/# /' "$s_n.run.err"; return 1; }
	perf script -i "$s_n.data" -F comm,ip,sym,dso >"$s_n.perf" 2>/dev/null &&
	exits 0 "$s_n.apps" --session-dir="$s_n" -n -f &&
	s_app=$(sed -n '1s/^ *[0-9]* *[0-9.]* //p' "$s_n.apps.out") &&
	exits 0 "$s_n.sum" --session-dir="$s_n" -n "image:$s_app" &&
	exits 0 "$s_n.l" --session-dir="$s_n" -l -n "image:$s_app" &&
	python3 "$ORACLE_PERF" "$s_n.perf" "$s_c" "$s_n.sum.out" "$s_n.l.out"
}

# inputs for 15 000 samples or more each (a share's sampling noise is then
# under 0.4 points), one thread each (fewer context switches, whose
# kernel samples the two samplers split differently on a loaded machine)
head -c 3000000 /dev/urandom | od -An -tx1 -v >data.txt || exit 99
head -c 30000000 /dev/urandom | od -An -tx1 -v >big.txt || exit 99
if command -v xz >/dev/null 2>&1; then
	check 'xz -6: images and named symbols as perf sees them' \
		same_run xz xz xz -6 -T1 -k -c data.txt
else
	skip 'xz against perf' 'xz is not installed'
fi
if command -v bzip2 >/dev/null 2>&1; then
	check 'bzip2 -9: the same' same_run bz bzip2 bzip2 -9 -k -c big.txt
else
	skip 'bzip2 against perf' 'bzip2 is not installed'
fi
if command -v python3 >/dev/null 2>&1; then
	check 'python3 (json): the same' same_run py python3 python3 -c '
import json
for i in range(800000):
    json.dumps({"a": [i] * 50, "b": str(i)})'
else
	skip 'python3 against perf' 'python3 is not installed'
fi

done_testing
