# SPDX-License-Identifier: GPL-2.0-or-later
# Shell test library for tests/e2e/tNNNN-*.sh (after git's test-lib.sh and
# elfutils' test-subr.sh).  Source it first; it
#  - makes a fresh temp directory $T, cds into it and removes it on exit
#    (kept when OP_TEST_KEEP is set),
#  - sets $srcdir (tests/ of the source tree), $builddir (the build tree),
#    $PATH with our tools first, $MKSAMPLES,
#  - prints one "ok N - what" / "not ok N - what" line per check, which the
#    test driver counts, and exits non-zero when any check failed.
#
# Checks:   check 'what' CMD...        CMD exits 0
#           check_fail 'what' CMD...   CMD exits non-zero but not by a signal
#           compare EXPECTED ACTUAL    diff -u (inside a check)
#           skip_all 'reason'          nothing here can run: exit 77
#           skip 'what' 'reason'       one check that cannot run here
#
# For operf tests (t01*-operf-*.sh), see "operf tests" below: $WORKLOADS,
# need_perf, need_system_wide, have_hw_pmu, profile, attribute and the attr_* queries on its
# output, near, at_least; for background processes kill_at_exit,
# wait_until (poll with a deadline), gone, reap_within.
set -u

: "${top_srcdir:?run through make check, or set top_srcdir and top_builddir}"
: "${top_builddir:?}"
srcdir=$top_srcdir/tests
builddir=$top_builddir
MKSAMPLES=$top_srcdir/tests/tools/mksamples.py
PATH=$top_builddir/pp:$top_builddir/daemon:$PATH
export PATH
LC_ALL=C
export LC_ALL

test_count=0
test_failed=0
bg_pids=
T=$(mktemp -d "${TMPDIR:-/tmp}/optest.XXXXXX") || exit 99
cleanup() {
	for pid in $bg_pids; do
		# only if it is still our child (not a reused pid)
		test "$(proc_stat "$pid" 2)" = "$$" && kill -KILL "$pid" 2>/dev/null
	done
	if test -z "${OP_TEST_KEEP:-}"; then
		chmod -R u+rwx "$T" 2>/dev/null
		rm -rf "$T"
	else
		echo "# kept $T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$T" || exit 99

say() { printf '# %s\n' "$*"; }

check() {
	what=$1; shift
	test_count=$((test_count + 1))
	if ("$@"); then
		echo "ok $test_count - $what"
	else
		echo "not ok $test_count - $what"
		test_failed=$((test_failed + 1))
	fi
}

# the command fails cleanly: non-zero exit below 128 (not a signal)
fails_cleanly() {
	"$@"
	rc=$?
	if test $rc -eq 0; then
		say "expected failure, got success: $*"
		return 1
	fi
	if test $rc -ge 128; then
		say "killed by signal $((rc - 128)): $*"
		return 1
	fi
	return 0
}

check_fail() {
	what=$1; shift
	check "$what" fails_cleanly "$@"
}

compare() {
	diff -u "$1" "$2"
}

skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count - $1 # SKIP $2"
}

skip_all() {
	echo "1..0 # SKIP $1"
	echo "skipped: $1" >&2
	exit 77
}

need_python() {
	command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
}

# --- operf tests -------------------------------------------------------
# The workloads (tests/workloads/*.c) by their physical path, which is what
# the kernel reports and so what sample-file names hold.
WORKLOADS=$(cd "$top_builddir/tests/workloads" 2>/dev/null && pwd -P)
ATTRIBUTE=$top_srcdir/tests/tools/attribute.py

# Skip the whole test when perf_event_open is refused here (no
# perf_events, a seccomp filter, perf_event_paranoid 3), with operf's reason.
need_perf() {
	need_python
	if operf -e cpu-clock -d "$T/.need-perf" true >"$T/.need-perf.out" 2>&1; then
		rm -rf "$T/.need-perf" "$T/.need-perf.out"
		return 0
	fi
	reason=$(sed -n 's/^operf: error: //p' "$T/.need-perf.out" | head -n 1)
	skip_all "perf_events cannot be used here: ${reason:-operf -e cpu-clock true failed}"
}

# Skip the whole test unless this user may profile every cpu (the
# daemon, operf --system-wide): root, or perf_event_paranoid <= 0.
need_system_wide() {
	need_perf
	if test "$(id -u)" != 0 &&
	   test "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0; then
		skip_all 'system-wide profiling needs root or perf_event_paranoid <= 0'
	fi
}

# Does a hardware cycles event count here?  Tests that need one call
# skip 'what' 'no hardware PMU' when it does not.
have_hw_pmu() {
	operf -e CPU_CLK_UNHALTED:100000 -d "$T/.hw-probe" true >/dev/null 2>&1
	hw_rc=$?
	rm -rf "$T/.hw-probe"
	return $hw_rc
}

# wait_until SECONDS CMD...: run CMD every 50 ms until it succeeds; fails
# (with a message) when SECONDS have passed.  Wait for events this way,
# never with a bare sleep.
wait_until() {
	wait_limit=$1; shift
	wait_end=$(($(date +%s) + wait_limit))
	while ! "$@"; do
		if test "$(date +%s)" -gt "$wait_end"; then
			say "gave up after ${wait_limit} s waiting for: $*"
			return 1
		fi
		sleep 0.05
	done
}

# kill_at_exit PID: SIGKILL this background process when the test ends
# (if it is still running and still ours).
kill_at_exit() {
	bg_pids="$bg_pids $1"
}

# proc_stat PID N: field N after the command name in /proc/PID/stat
# (1 state, 2 ppid), empty if there is no such process
proc_stat() {
	sed -n 's/^.*) //p' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f "$2"
}

# gone PID: the process has ended (it may be a zombie not yet waited for)
gone() {
	case $(proc_stat "$1" 1) in
	''|Z|X) return 0 ;;
	esac
	return 1
}

# reap_within SECONDS PID: wait for our background process PID to end and
# set $status to its exit status; 'hung' (and SIGKILL it) if it has not
# ended after SECONDS.  Not inside check: wait needs the parent shell.
reap_within() {
	if wait_until "$1" gone "$2"; then
		wait "$2"
		status=$?
	else
		kill -KILL "$2" 2>/dev/null
		wait "$2"
		status=hung
	fi
}

# profile OUT ARGS...: operf ARGS, its stdout in OUT.out, stderr in OUT.err
profile() {
	p_out=$1; shift
	operf "$@" >"$p_out.out" 2>"$p_out.err"
}

# attribute SESSION OUT [OPTIONS...]: attribute.py's report on SESSION in
# OUT; fails when a sample file breaks the format
attribute() {
	a_dir=$1 a_out=$2
	shift 2
	python3 "$ATTRIBUTE" "$@" "$a_dir" >"$a_out"
}

# Queries on attribute.py's output (tab-separated, kind first; see the
# tool's help for the columns):
#   attr_sum FILE KIND [COL=VALUE...]        sum of the counts of matching lines
#   attr_first FILE KIND COL [COL=VALUE...]  column COL of the first (largest) one
#   attr_distinct FILE KIND COL [COL=VALUE...]  how many values column COL takes
attr_query() {
	q_mode=$1 q_file=$2 q_kind=$3 q_col=$4
	shift 4
	awk -F '\t' -v mode="$q_mode" -v kind="$q_kind" -v want="$q_col" '
	BEGIN {
		n = 0
		for (i = 2; i < ARGC; i++) {
			eq = index(ARGV[i], "=")
			col[n] = substr(ARGV[i], 1, eq - 1) + 0
			val[n++] = substr(ARGV[i], eq + 1)
		}
		ARGC = 2
	}
	$1 != kind { next }
	{
		for (j = 0; j < n; j++)
			if ($(col[j]) != val[j])
				next
		if (mode == "sum")
			sum += $NF
		else if (mode == "first" && !done) {
			print $want
			done = 1
		} else if (mode == "distinct" && !($want in seen)) {
			seen[$want] = 1
			nr++
		}
	}
	END {
		if (mode == "sum")
			print sum + 0
		else if (mode == "distinct")
			print nr + 0
	}' "$q_file" "$@"
}
attr_sum() {
	f=$1 k=$2; shift 2
	attr_query sum "$f" "$k" 0 "$@"
}
attr_first() {
	f=$1 k=$2 c=$3; shift 3
	attr_query first "$f" "$k" "$c" "$@"
}
attr_distinct() {
	f=$1 k=$2 c=$3; shift 3
	attr_query distinct "$f" "$k" "$c" "$@"
}

# near A B EXPECTED TOLERANCE: A / (A + B) is within TOLERANCE percentage
# points of EXPECTED percent (says what it got when not)
near() {
	awk -v a="$1" -v b="$2" -v want="$3" -v tol="$4" 'BEGIN {
		if (a + b == 0) { print "# no samples at all"; exit 1 }
		got = 100 * a / (a + b)
		if (got < want - tol || got > want + tol) {
			printf "# %.1f%% (%d of %d), expected %s%% +- %s\n", got, a, a + b, want, tol
			exit 1
		}
	}'
}

# at_least A B: A >= B, saying both when not
at_least() {
	test "$1" -ge "$2" || { say "$1 < $2"; return 1; }
}

done_testing() {
	echo "1..$test_count"
	test "$test_failed" -eq 0
}

# half_written ARGS...: opreport ARGS -o hw/out over an old hw/out, the
# file size limit (0: a full disk's) reached at the first write, SIGXFSZ
# ignored so that write() fails: exit 1, hw/out as it was, no temporary
# file beside it
half_written() {
	rm -rf hw && mkdir hw && echo old >hw/out || return 1
	# what it says goes through a pipe: the limit is on files
	(trap '' XFSZ; ulimit -f 0; "$OPREPORT" "$@" -o hw/out 2>&1; echo "exit $?") |
		cat >hw.err
	grep -qx 'exit 1' hw.err && grep -q "cannot write 'hw/out'" hw.err &&
	test "$(cat hw/out)" = old && test "$(ls hw)" = out
}

# --- opreport tests (t02*-opreport-*.sh) -------------------------------
# On sessions made by mksamples.py, whose counts are known:
#   use_fixtures              copy tests/tools to $T/tools, build the fixture
#                             binaries and cd there ($FIX: its fixtures/)
#   mksession SPEC [ARGS...]  session out/SPEC from fixtures/SPEC.json, its
#                             expectation in out/SPEC.expect.json
#   opr NAME ARGS...          opreport ARGS: NAME.out, NAME.err, status
#   exits STATUS NAME ARGS... the same, and it exits with STATUS
#   norm FILE...              FILEs with the test directory written as T
#
# Reports against OProfile 1.4's (t0215, t0245):
#   body                      stdin without the header lines that open a
#                             report (CPU:, Counted, the timer line), which
#                             differ from OProfile's and t0240 checks
#   symbol_addrs              addrs.sed: {name} for the address of each
#                             symbol of the fixture binaries
#   golden_filter             stdin's body with {name} for addresses: what
#                             of our report and OProfile's is compared
#   golden NAME FILE [FILTER] FILE, normalised, is tests/e2e/golden/NAME
#                             (passed through the command FILTER, which
#                             applies a stated difference)
#   oracle_golden NAME TOOL ARGS...
#                             only when $OP_TEST_ORACLE names a directory
#                             holding OProfile 1.4's tools: run its TOOL
#                             ARGS here, pass its stdout through
#                             golden_filter, normalise it and write it as
#                             tests/e2e/golden/NAME; otherwise nothing.
#                             The goldens are OProfile's output, never ours
#                             (see tests/e2e/golden/README).
#   vs NAME SESSION ORACLE FILTER OPTIONS...
#                             opreport OPTIONS on out/SESSION exits 0 with
#                             nothing on stderr, and its report body is
#                             golden/$GOLDEN-NAME passed through the command
#                             FILTER ('cat': as it is).  The golden is
#                             OProfile's report body on the session with
#                             the options ORACLE, split at blanks ('=':
#                             OPTIONS themselves).  FILTER applies one
#                             difference between our report and OProfile's,
#                             stated where vs is called.
#   mode NAME SESSION OPTIONS...
#                             the same, with OProfile's report as it is
OPREPORT=$top_builddir/pp/opreport
T_REAL=$(cd "$T" && pwd -P)

use_fixtures() {
	need_python
	command -v cc >/dev/null 2>&1 || skip_all "no C compiler for the fixture binaries"
	test -x "$OPREPORT" || skip_all "opreport is not built"
	cp -R "$top_srcdir/tests/tools" "$T/tools" && chmod -R u+w "$T/tools" &&
		cd "$T/tools" && mkdir -p out || exit 99
	fixtures/build.sh >build.log 2>&1 ||
		skip_all "cannot build the fixtures: $(tail -n 1 build.log)"
	FIX=$T/tools/fixtures
}

mksession() {
	m_spec=$1; shift
	python3 "$MKSAMPLES" "fixtures/$m_spec.json" --out "out/$m_spec" \
		--expect "out/$m_spec.expect.json" "$@" >"out/$m_spec.log" 2>&1 ||
	{ sed 's/^/# /' "out/$m_spec.log"; return 1; }
}

opr() {
	o_name=$1; shift
	"$OPREPORT" "$@" >"$o_name.out" 2>"$o_name.err"
	o_rc=$?
	echo "$o_rc" >"$o_name.rc"
	return "$o_rc"
}

exits() {
	e_want=$1; shift
	opr "$@"
	e_rc=$?
	test "$e_rc" = "$e_want" && return 0
	say "exit status $e_rc, expected $e_want; its stderr:"
	sed 's/^/#   /' "$1.err"
	return 1
}

norm() {
	sed -e "s|$T_REAL|T|g" -e "s|$T|T|g" "$@"
}

body() {
	awk 'head && /^(CPU: |Counted |Profiling through timer interrupt)/ { next }
	     { head = 0; print }' head=1
}

symbol_addrs() {
	for sa_b in fixture_nopie fixture_pie; do
		python3 "$MKSAMPLES" --symbols "$FIX/build/$sa_b" || return 1
	done | python3 -c '
import sys
for l in sys.stdin:
    f = l.split()
    if f[0].startswith("0x"):
        print("s/\\<%08x\\>/{%s}/g" % (int(f[1], 16), f[3]))
' >addrs.sed && test -s addrs.sed
}

# (without -c's section of self and total samples and its note, which
# OProfile 1.4 does not have; t0215 checks them on their own)
golden_filter() {
	body | awk '/^Note: self and total samples per symbol/ { next }
		    /^Self and total samples per symbol/ { exit } { print }' |
		sed -f addrs.sed
}

golden() {
	norm "$2" >"$2.norm" || return 1
	eval "${3:-cat}" <"$srcdir/e2e/golden/$1" >"$2.want" || return 1
	compare "$2.want" "$2.norm"
}

oracle_golden() {
	test -n "${OP_TEST_ORACLE:-}" || return 0
	og_name=$1 og_tool=$2
	shift 2
	"$OP_TEST_ORACLE/$og_tool" "$@" >"$og_name.oracle" 2>"$og_name.oracle.err" || {
		say "OProfile's $og_tool $* failed:"
		sed 's/^/#   /' "$og_name.oracle.err"
		return 1
	}
	test ! -s "$og_name.oracle.err" || sed "s/^/# OProfile's stderr: /" "$og_name.oracle.err"
	golden_filter <"$og_name.oracle" >"$og_name.oracle.txt" &&
	norm "$og_name.oracle.txt" >"$srcdir/e2e/golden/$og_name"
}

vs() {
	v_n=$1 v_s=$2 v_o=$3 v_f=$4
	shift 4
	if test "$v_o" = =; then
		oracle_golden "$GOLDEN-$v_n" opreport --session-dir="out/$v_s" "$@"
	else
		set -f
		# shellcheck disable=SC2086
		oracle_golden "$GOLDEN-$v_n" opreport --session-dir="out/$v_s" $v_o
	fi &&
	exits 0 "$v_n" --session-dir="out/$v_s" "$@" &&
	golden_filter <"$v_n.out" >"$v_n.txt" &&
	golden "$GOLDEN-$v_n" "$v_n.txt" "$v_f" &&
	{ test ! -s "$v_n.err" || { sed 's/^/# stderr: /' "$v_n.err"; false; }; }
}

mode() {
	m_n=$1 m_s=$2
	shift 2
	vs "$m_n" "$m_s" = cat "$@"
}

# --- opannotate tests (t03*-opannotate-*.sh) ---------------------------
#   ann NAME ARGS...            opannotate ARGS: NAME.out, NAME.err, status
#   ann_exits STATUS NAME ARGS... the same, and it exits with STATUS
#   oracle MODE SESSION OUTPUT [OPTIONS...]
#                               tools/annotate_oracle.py: OUTPUT is what the
#                               session's samples, addr2line and objdump say
#   counted FILE                the lines of opannotate output FILE that
#                               carry counts (one column)
OPANNOTATE=$top_builddir/pp/opannotate
ORACLE=$top_srcdir/tests/tools/annotate_oracle.py

ann() {
	a_name=$1; shift
	"$OPANNOTATE" "$@" >"$a_name.out" 2>"$a_name.err"
	a_rc=$?
	echo "$a_rc" >"$a_name.rc"
	return "$a_rc"
}

ann_exits() {
	ae_want=$1; shift
	ann "$@"
	ae_rc=$?
	test "$ae_rc" = "$ae_want" && return 0
	say "opannotate exit status $ae_rc, expected $ae_want; its stderr:"
	sed 's/^/#   /' "$1.err"
	return 1
}

oracle() {
	python3 "$ORACLE" "$@"
}

counted() {
	grep -E '^ *[0-9]+ +[0-9.e+-]+ :' "$1"
}

# make_multi (after use_fixtures): fixtures/build/multi, a non-PIE program
# of three source files (multi_main.c, multi_b.c and multi.h, whose
# always_inline helpers are inlined into functions of both .c files, one
# through the other), and fixtures/multi.json: 3000 samples at 200 random
# addresses of its four functions plus 700 at two functions' first bytes
make_multi() {
	cat >"$FIX/multi.h" <<'EOF'
/* helpers inlined into the functions of multi_main.c and multi_b.c */
static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x * 31;
}

static inline __attribute__((always_inline)) unsigned long twice(unsigned long x)
{
	return mix(x) + mix(x + 1);
}
EOF
	cat >"$FIX/multi_main.c" <<'EOF'
#include "multi.h"

unsigned long func_b(unsigned long n);
unsigned long func_c(unsigned long n);

__attribute__((noinline)) unsigned long func_a(unsigned long n)
{
	unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += mix(i);
	return acc;
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)(func_a(argc * 1000ul) + func_b(argc) + func_c(argc));
}
EOF
	cat >"$FIX/multi_b.c" <<'EOF'
#include "multi.h"

__attribute__((noinline)) unsigned long func_b(unsigned long n)
{
	unsigned long acc = 1;

	for (unsigned long i = 0; i < n; i++)
		acc = twice(acc + i);
	return acc;
}

__attribute__((noinline)) unsigned long func_c(unsigned long n)
{
	unsigned long acc = n;

	while (acc > 1)
		acc = acc & 1 ? 3 * acc + 1 : acc / 2;
	return acc;
}
EOF
	# 3000 samples at 200 random addresses inside the four functions, plus
	# 700 at two functions' first bytes
	cat >"$FIX/multi.json" <<'EOF'
{"cpu_type": "i386/skylake",
 "profiles": [{"binary": "build/multi",
   "symbol_samples": {"func_a": 600, "main": 100},
   "random": {"total": 3000, "addresses": 200, "seed": 7,
              "symbols": ["func_a", "func_b", "func_c", "main"]}}]}
EOF
	(cd "$FIX" && cc -O1 -g -fno-omit-frame-pointer -no-pie -o build/multi \
		multi_main.c multi_b.c) || exit 99
}

# corrupt_copy FROM TO FILE PYTHON: TO, a copy of session FROM whose FILE
# (relative to the session) is changed by PYTHON, run on its bytes b (a
# bytearray): "b[0] ^= 1", "del b[100:]", ...
corrupt_copy() {
	rm -rf "$2" && cp -R "$1" "$2" &&
	python3 - "$2/$3" "$4" <<'EOF'
import struct, sys
path, code = sys.argv[1], sys.argv[2]
b = bytearray(open(path, "rb").read())
exec(code)
open(path, "wb").write(b)
EOF
}
