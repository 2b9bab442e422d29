#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Set-up for oprofile-ng on Debian 12 (the README's two commands):
#
#   ./setup.sh demo    install what is missing, build, profile the bundled
#                      demo program and print the report
#   ./setup.sh check   install what is missing, build, and run the whole
#                      test suite three times: a normal -Werror build, an
#                      ASan+UBSan build, and a build whose test programs run
#                      under valgrind; ends with "N passed, N failed, N skipped"
#
# Builds go to build/, build-asan/ and build-valgrind/, out of tree.
# Packages are installed with apt-get only when missing (as root, or
# through sudo).  MAKEFLAGS is honoured; the default is -j$(nproc).
set -u

top=$(cd "$(dirname "$0")" && pwd)
mode=${1:-}
jobs=$(nproc 2>/dev/null || echo 2)

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

PACKAGES="build-essential autoconf automake libtool pkg-config git
	libelf-dev libdw-dev elfutils libpopt-dev libpfm4-dev binutils-dev
	libiberty-dev libcmocka-dev python3 libc6-dbg valgrind libxml2-utils
	libprotobuf-c-dev protobuf-c-compiler libdeflate-dev"
# what the tests profile and compare with: real, stripped Debian programs
# and perf as an oracle of the same run; the readers of the exports:
# go tool pprof (golang-go) and a headless browser for the HTML report
TEST_PACKAGES="linux-perf xz-utils bzip2 golang-go chromium"

install_packages() {
	missing=
	for p in $PACKAGES; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
		case $status in *" installed") ;; *) missing="$missing $p" ;; esac
	done
	test -z "$missing" && return 0
	say "installing:$missing"
	if test "$(id -u)" -eq 0; then
		sudo=
	elif command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		die "missing packages:$missing (run as root, or install them)"
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >/dev/null ||
		die "apt-get update failed"
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install$missing failed"
}

# build DIR [configure options...]
build() {
	dir=$1; shift
	if ! test -x "$top/configure"; then
		say "autoreconf"
		(cd "$top" && autoreconf -fi) >/dev/null 2>&1 ||
			(cd "$top" && autoreconf -fi) || return 1
	fi
	mkdir -p "$top/$dir" || return 1
	if ! test -f "$top/$dir/Makefile" || test "$top/configure" -nt "$top/$dir/Makefile"; then
		say "configure $dir $*"
		(cd "$top/$dir" && "$top/configure" -q "$@") || return 1
	fi
	say "make $dir"
	make -s -C "$top/$dir" -j"$jobs" >/dev/null || make -C "$top/$dir" || return 1
}

# count :test-result: lines of the .trs files under DIR: "pass fail skip"
count_results() {
	find "$top/$1" -name '*.trs' -exec cat {} + 2>/dev/null | awk '
		/^:test-result: PASS/ { p++ }
		/^:test-result: (FAIL|ERROR|XPASS)/ { f++ }
		/^:test-result: XFAIL/ { p++ }
		/^:test-result: SKIP/ { s++ }
		END { printf "%d %d %d\n", p, f, s }'
}

run_check() {
	passed=0 failed=0 skipped=0
	for variant in "build --enable-werror" \
		       "build-asan --enable-werror --enable-sanitizers" \
		       "build-valgrind --enable-valgrind"; do
		# shellcheck disable=SC2086
		set -- $variant
		dir=$1
		find "$top/$dir" -name '*.trs' -delete 2>/dev/null
		if ! build "$@"; then
			say "$dir: build failed"
			failed=$((failed + 1))
			continue
		fi
		say "make check in $dir"
		if ! make -s -C "$top/$dir" -j"$jobs" check >"$top/$dir/check.out" 2>&1; then
			grep -E '^(FAIL|ERROR)' "$top/$dir/check.out" >&2
			show_failures "$top/$dir" >&2
			find "$top/$dir" -name 'test-suite.log' -path '*/*' -newer "$top/$dir/Makefile" \
				-exec grep -l -E '^(FAIL|ERROR)' {} + 2>/dev/null |
				while read -r log; do say "see $log"; done
		fi
		set -- $(count_results "$dir")
		say "$dir: $1 passed, $2 failed, $3 skipped"
		if test "$1" -eq 0 && test "$2" -eq 0; then
			say "$dir: no test results at all"
			failed=$((failed + 1))
		fi
		passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
	done
	echo "$passed passed, $failed failed, $skipped skipped"
	test "$failed" -eq 0
}

# what the failed tests said about their failures: the "not ok" lines and
# the "# ..." notes around them, 40 lines a test at most
show_failures() {
	grep -rl --include='*.trs' -E '^:test-result: (FAIL|ERROR)' "$1" 2>/dev/null |
		while read -r trs; do
			log=${trs%.trs}.log
			test -f "$log" || continue
			echo "--- ${log#"$1"/}"
			grep -E '^(not ok|#)' "$log" | grep -v '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' |
				head -n 40
		done
}

# the second user the tests act as (attacks on root's operf), when root
make_test_user() {
	test "$(id -u)" -eq 0 || return 0
	id opng-test >/dev/null 2>&1 && return 0
	say "adding the system user opng-test for the tests"
	useradd --system --no-create-home --shell /usr/sbin/nologin opng-test ||
		say "could not add user opng-test: tests needing a second user skip"
}

run_demo() {
	build build || die "build failed"
	"$top/tests/demo.sh" "$top" "$top/build"
}

case $mode in
demo)
	install_packages
	run_demo ;;
check)
	PACKAGES="$PACKAGES $TEST_PACKAGES"
	install_packages
	make_test_user
	run_check ;;
*)
	echo "usage: ./setup.sh demo | check" >&2
	exit 2 ;;
esac
