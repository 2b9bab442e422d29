#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every file of a session (session.info, stats/*, the kernel copies,
# comms, buildids, longnames, abi, a sample file) replaced in turn by a FIFO, a
# symlink (to a good copy: never followed), a character device, a socket
# and a directory: opreport (the summary and -l) never hangs or crashes,
# reports what is left and names the file it skipped.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"

check 'a session to spoil' profile run -d good "$WORKLOADS/spinner" 0.3
cur=good/samples/current
mkdir -p $cur/stats && printf 5 >$cur/stats/lost_kernel && printf 1000 >$cur/stats/total_samples
sample=$(cd $cur && find '{root}' -type f -path "*spinner/{dep}/{root}*spinner/*" | head -n 1)
check 'the session has a sample file of the program' test -n "$sample"
mkdir elsewhere

# the files, relative to the session directory
set -- samples/current/session.info samples/current/stats/lost_kernel \
	samples/current/stats/total_samples samples/current/kernel/kallsyms \
	samples/current/kernel/vdso.so samples/current/comms \
	samples/current/buildids samples/current/longnames abi \
	"samples/current/$sample"
files=$#
kinds='fifo symlink device socket directory'
test "$(id -u)" = 0 || kinds='fifo symlink socket directory'

# spoil KIND FILE: in a copy of the session, FILE becomes a KIND
spoil() {
	rm -rf case && cp -R good case || return 1
	s_path=case/$2
	case $1 in
	fifo) rm -f "$s_path" && mkfifo "$s_path" ;;
	symlink) mv "$s_path" "elsewhere/$$.$(basename "$s_path")" &&
		 ln -s "$T/elsewhere/$$.$(basename "$s_path")" "$s_path" ;;
	device) rm -f "$s_path" && mknod "$s_path" c 1 3 ;;
	socket) rm -f "$s_path" && (cd "$(dirname "$s_path")" && python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$(basename "$s_path")") ;;
	directory) rm -f "$s_path" && mkdir "$s_path" ;;
	esac
}

# one case: both reports end by themselves, exit 0 or 1, and name the file
one_case() {
	for args in '' '-l'; do
		# shellcheck disable=SC2086
		timeout 30 "$OPREPORT" --session-dir=case $args >c.out 2>c.err
		rc=$?
		case $rc in
		0|1) ;;
		124) say "opreport $args hung"; return 1 ;;
		*) say "opreport $args exited $rc"; cat c.err; return 1 ;;
		esac
		grep -qF "$(basename "$2")" c.err || {
			say "opreport $args did not name $2"; cat c.err; return 1; }
	done
}

nr_cases=0 bad=0
for kind in $kinds; do
	for f; do
		# a directory where a sample file was is walked as one (empty)
		test $kind = directory && test "$f" = "samples/current/$sample" && continue
		nr_cases=$((nr_cases + 1))
		spoil $kind "$f" || { say "cannot make $f a $kind"; bad=$((bad + 1)); continue; }
		one_case $kind "$f" || { say "^ $f as a $kind"; bad=$((bad + 1)); }
	done
done
say "$nr_cases cases ($files files x kinds: $kinds), $bad failed"
check 'no hang, no crash, every odd file named' test $bad = 0

done_testing
