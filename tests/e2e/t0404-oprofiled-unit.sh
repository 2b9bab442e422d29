#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make install puts oprofiled.service where systemd looks, naming the
# installed oprofiled; the command it runs (in the foreground, --no-daemon,
# as systemd does) profiles, answers opcontrol, logs to stderr (the
# journal: a SIGHUP has no file to reopen and does no harm) and writes
# everything and exits 0 on SIGTERM (systemctl stop).
. "$top_srcdir/tests/lib.sh"
need_system_wide
grep -q '^HAVE_SYSTEMD_UNIT_TRUE = #' "$top_builddir/daemon/Makefile" &&
	skip_all 'configured --without-systemdsystemunitdir'

install_daemon() {
	make -s -C "$top_builddir/daemon" install DESTDIR="$T/stage" >inst.log 2>&1 ||
		{ sed 's/^/# /' inst.log; return 1; }
}
check 'make install' install_daemon
unit=$(find "$T/stage" -name oprofiled.service -path '*/systemd/system/*')
check 'oprofiled.service is installed in a systemd/system directory' test -n "$unit"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
bin=${exec_start%% *}
say "ExecStart=$exec_start"
check '... naming the installed oprofiled' test -x "$T/stage$bin"
check '... in the foreground (Type=simple), profiling at once' \
	sh -c "grep -qx 'Type=simple' '$unit' && test '$exec_start' != '${exec_start#*--no-daemon --start}'"
check '... with the default session directory' \
	test "$exec_start" != "${exec_start#*--session-dir=/var/lib/oprofile}"

# the unit's command, but into our own session directory
S=$T/sess
set -- $(echo "$exec_start" | sed "s|--session-dir=/var/lib/oprofile|--session-dir=$S|")
fg_bin=$1
shift
"$T/stage$fg_bin" "$@" 2>fg.err &
dpid=$!
kill_at_exit $dpid
check 'the foreground daemon answers opcontrol' \
	wait_until 20 sh -c "opcontrol --session-dir='$S' --status >st.out 2>/dev/null &&
		grep -q '^Daemon running' st.out"
check '... profiling' grep -qx 'Profiling: running' st.out
check '... as the pid systemd would watch' grep -q "^Daemon running: pid $dpid," st.out
check 'it logs to stderr (the journal)' grep -q 'oprofiled .* started, pid' fg.err
kill -HUP $dpid
check 'SIGHUP: no log file to reopen, said' wait_until 10 grep -q 'SIGHUP: no log file to reopen' fg.err
check '... and the daemon goes on' opcontrol --session-dir="$S" --dump
"$WORKLOADS/spinner" 1 >/dev/null
kill -TERM $dpid
reap_within 30 $dpid
check 'SIGTERM: it exits 0' test "$status" = 0
check '... writing the samples first' grep -q 'signal 15: writing the samples and exiting' fg.err
check '... which opreport reads' sh -c "opreport --session-dir='$S' >rep.out 2>/dev/null && grep -q spinner rep.out"
check '... leaving no socket or lock' test ! -e "$S/oprofiled.sock" -a ! -e "$S/samples/operf.lock"
done_testing
