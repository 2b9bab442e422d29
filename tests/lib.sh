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
T=$(mktemp -d "${TMPDIR:-/tmp}/optest.XXXXXX") || exit 99
cleanup() {
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

done_testing() {
	echo "1..$test_count"
	test "$test_failed" -eq 0
}
