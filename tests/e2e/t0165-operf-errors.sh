#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# operf's exit statuses and messages (doc/operf.1, EXIT STATUS), compared
# with golden text: usage errors exit 2, a command that cannot be started
# 3, a session directory that cannot be written 1 before the command
# runs; --help and --version exit 0.
. "$top_srcdir/tests/lib.sh"

# fails_with STATUS NAME ARGS...: operf ARGS exits STATUS, stderr in NAME.err
fails_with() {
	f_want=$1 f_name=$2
	shift 2
	operf "$@" >"$f_name.out" 2>"$f_name.err"
	f_rc=$?
	test $f_rc = "$f_want" || { say "exit status $f_rc, expected $f_want"; return 1; }
}
# golden NAME: NAME.err is the text on stdin, but for the notice that
# perf_event_paranoid keeps kernel samples out (it depends on the machine)
golden() {
	cat >"$1.expect" &&
	grep -v '^operf: notice: kernel samples excluded ' "$1.err" >"$1.cmp"
	compare "$1.expect" "$1.cmp"
}

# --- usage: exit 2, before anything is opened ------------------------------
check 'no target: exit 2' fails_with 2 none
check '... with the reason' golden none <<'EOF2'
operf: error: nothing to profile: give a command, --pid or --system-wide
hint: see 'operf --help'
EOF2
check 'an unknown option: exit 2' fails_with 2 opt --no-such-option true
check '... with the reason' golden opt <<'EOF2'
operf: error: unknown option '--no-such-option'
hint: see 'operf --help'
EOF2
check 'a command and --pid: exit 2' fails_with 2 two --pid 1 true
check '... with the reason' golden two <<'EOF2'
operf: error: a command, --pid and --system-wide cannot be combined
hint: see 'operf --help'
EOF2
check 'a negative pid: exit 2' fails_with 2 neg --pid -5
check '... with the reason' golden neg <<'EOF2'
operf: error: --pid needs a positive process id
hint: see 'operf --help'
EOF2
check '--vmlinux naming a missing file: exit 2' fails_with 2 kmiss -k "$T/no-such-vmlinux" true
check '... with the reason' golden kmiss <<EOF2
operf: error: --vmlinux '$T/no-such-vmlinux': No such file or directory
hint: see 'operf --help'
EOF2
echo 'not a kernel' >notelf || exit 99
check '--vmlinux naming a file that is not ELF: exit 2' fails_with 2 knotelf -k notelf true
check '... with the reason' golden knotelf <<'EOF2'
operf: error: --vmlinux 'notelf': not an ELF file (give the uncompressed vmlinux, not a vmlinuz)
hint: see 'operf --help'
EOF2
check 'an empty --session-dir: exit 2' fails_with 2 sdempty --session-dir= true
check '... with the reason' golden sdempty <<'EOF2'
operf: error: --session-dir is empty: give a directory
hint: see 'operf --help'
EOF2
check 'a bad --verbose level: exit 2' fails_with 2 verb -V bogus true
check '... with the reason' golden verb <<'EOF2'
operf: error: unknown --verbose level 'bogus' (debug, perf_events, misc, sfile, arcs, all)
hint: see 'operf --help'
EOF2
check 'a missing option argument: exit 2' fails_with 2 miss -e
check '... with the reason' golden miss <<'EOF2'
operf: error: missing argument '-e'
hint: see 'operf --help'
EOF2
check 'an unknown event: exit 2' fails_with 2 ev -e NO_SUCH_EVENT -d ev true
check '... with the reason' golden ev <<'EOF2'
operf: error: unknown event 'NO_SUCH_EVENT': event not found
hint: use an event libpfm4 knows on this machine (ophelp lists them), or cpu-clock
EOF2
check 'a period out of range: exit 2' fails_with 2 period -e cpu-clock:100 -d period true
check '... with the reason' golden period <<'EOF2'
operf: error: sample count 100 of 'cpu-clock' is out of range (10000 to 2147483647 ns)
EOF2
# a count of 0 is no period: refused with the event's minimum, never the
# default in silence (leaving the count out is how to ask for that)
check 'cpu-clock:0: exit 2' fails_with 2 zero -e cpu-clock:0 -d zero true
check '... naming the event and its minimum' golden zero <<'EOF2'
operf: error: sample count 0 of 'cpu-clock' is below its minimum of 10000 ns (leave the count out for the default, 250000 ns)
EOF2
check 'task-clock:000, in a list: exit 2' \
	fails_with 2 zero2 -e cpu-clock:20000,task-clock:000 -d zero2 true
check '... naming that event' golden zero2 <<'EOF2'
operf: error: sample count 0 of 'task-clock' is below its minimum of 10000 ns (leave the count out for the default, 250000 ns)
EOF2
check 'cycles:0 (a hardware event, whether or not it counts here): exit 2' \
	fails_with 2 zero3 -e cycles:0 -d zero3 true
check '... with the minimum in events' golden zero3 <<'EOF2'
operf: error: sample count 0 of 'cycles' is below its minimum of 1000 events (leave the count out for the default, 100000 events)
EOF2
check 'cpu-clock:1: exit 2 with the range' fails_with 2 one -e cpu-clock:1 -d one true
check '... with the reason' golden one <<'EOF2'
operf: error: sample count 1 of 'cpu-clock' is out of range (10000 to 2147483647 ns)
EOF2
check 'no session was made for usage errors' \
	test ! -e ev -a ! -e period -a ! -e zero -a ! -e zero2 -a ! -e zero3 -a ! -e one -a ! -e oprofile_data

# --- --help, --version: exit 0, never open an event --------------------------
check '--help exits 0' profile help --help
help_ok() {
	test ! -s help.err && head -n 1 help.out | grep -q '^Usage: operf ' &&
	for o in events callgraph separate-thread separate-cpu session-dir append \
		 vmlinux lazy-conversion verbose version system-wide pid help; do
		grep -q -- "--$o" help.out || { say "--$o missing"; return 1; }
	done
}
check '--help lists every option on stdout' help_ok
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
check '--version exits 0' profile version --version
check '--version prints the version, nothing else' \
	sh -c "test ! -s version.err && test \"\$(cat version.out)\" = 'operf (oprofile-ng) $version'"

# --- the rest needs perf_events ---------------------------------------------
if operf -e cpu-clock -d probe true >/dev/null 2>&1; then
	perf=yes
else
	perf=no
fi
# with_perf 'what' CMD...: check, or skip where perf_events is refused
with_perf() {
	if test $perf = yes; then
		check "$@"
	else
		skip "$1" 'perf_events cannot be used here'
	fi
}

with_perf 'a missing command: exit 3' fails_with 3 enoent -e cpu-clock -d enoent ./no-such-program
with_perf '... with the reason, no PATH hint for a path' golden enoent <<'EOF2'
operf: error: cannot execute './no-such-program': No such file or directory
EOF2
# with a PATH of directories anyone may search (one we may not search
# would turn ENOENT into EACCES)
not_in_path() {
	PATH=$top_builddir/daemon:/usr/bin:/bin
	export PATH
	fails_with 3 path -e cpu-clock -d path no-such-program-in-path
}
with_perf 'a command not in PATH: exit 3' not_in_path
with_perf '... with the reason and a hint' golden path <<'EOF2'
operf: error: cannot execute 'no-such-program-in-path': No such file or directory
hint: is 'no-such-program-in-path' in your PATH?
EOF2
echo 'not a program' >data.txt
chmod 644 data.txt
with_perf 'a file that is not executable: exit 3' fails_with 3 eacces -e cpu-clock -d eacces ./data.txt
with_perf '... with the reason' golden eacces <<'EOF2'
operf: error: cannot execute './data.txt': Permission denied
EOF2

# the session directory cannot be made: exit 1 and the command never runs
: >file
with_perf 'a session directory under a file: exit 1' \
	fails_with 1 notdir -e cpu-clock -d "$T/file/sess" touch marker
with_perf '... with the reason' golden notdir <<EOF2
operf: error: cannot create session directory '$T/file/sess': Not a directory
hint: choose another directory with --session-dir
EOF2
with_perf '... before the command ran' test ! -e marker
mkdir s2
: >s2/samples
here=$(pwd -P)	# operf makes -d absolute with getcwd()
with_perf 'samples/ is a file: exit 1' fails_with 1 samples -e cpu-clock -d s2 touch marker
with_perf '... with the reason' golden samples <<EOF2
operf: error: cannot create '$here/s2/samples': Not a directory
hint: choose another directory with --session-dir
EOF2
with_perf '... before the command ran' test ! -e marker

# A read-only directory stops nobody who is root (as CI runs the suite):
# root runs that case as the user nobody (setpriv, else runuser), in a
# directory nobody owns; anyone else runs it as themselves.
as_user=
no_user=
if test "$(id -u)" != 0; then
	as_user=env
elif ! id nobody >/dev/null 2>&1; then
	no_user='running as root, and there is no user nobody to run as'
elif command -v setpriv >/dev/null 2>&1; then
	as_user="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups"
elif command -v runuser >/dev/null 2>&1; then
	as_user="runuser -u nobody --"
else
	no_user='running as root, without setpriv or runuser to become nobody'
fi
user_dir=$T/user
mkdir "$user_dir" "$user_dir/ro" "$user_dir/rs" "$user_dir/rs/samples" || exit 99
if test "$(id -u)" = 0 && test -z "$no_user"; then
	# nobody must reach its directory inside ours
	chmod 711 "$T" && chown -R nobody "$user_dir" || exit 99
fi
chmod 555 "$user_dir/ro" "$user_dir/rs/samples"
# as_other NAME ARGS...: operf ARGS as that user in $user_dir, exits 1
as_other() {
	a_name=$1; shift
	(cd "$user_dir" && $as_user operf "$@") >"$a_name.out" 2>"$a_name.err"
	a_rc=$?
	test $a_rc = 1 || { say "exit status $a_rc, expected 1"; sed 's/^/# /' "$a_name.err"; return 1; }
}
if test -n "$no_user"; then
	for what in 'the other user may write its directory (control)' \
		    'a read-only parent directory: exit 1' '... with the reason' \
		    '... before the command ran' 'a read-only samples/: exit 1' \
		    '... with the reason' '... before the command ran'; do
		skip "$what" "$no_user"
	done
else
	with_perf 'the other user may write its directory (control)' \
		sh -c "cd '$user_dir' && $as_user touch control"
	with_perf 'a read-only parent directory: exit 1' \
		as_other ro -e cpu-clock -d ro/sess touch marker
	with_perf '... with the reason' golden ro <<EOF2
operf: error: cannot create session directory '$user_dir/ro/sess': Permission denied
hint: choose another directory with --session-dir
EOF2
	with_perf '... before the command ran' test ! -e "$user_dir/marker"
	with_perf 'a read-only samples/: exit 1' \
		as_other rs -e cpu-clock -d rs touch marker
	with_perf '... with the reason' golden rs <<EOF2
operf: error: cannot write to '$user_dir/rs/samples': Permission denied
hint: choose another directory with --session-dir
EOF2
	with_perf '... before the command ran' test ! -e "$user_dir/marker"
fi

with_perf 'no such process for --pid: exit 1' fails_with 1 nopid -e cpu-clock -d nopid --pid 2147483647
with_perf '... with the reason' golden nopid <<'EOF2'
operf: error: no process with pid 2147483647
EOF2
done_testing
