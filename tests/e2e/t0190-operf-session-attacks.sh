#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Root's operf writing into a session directory another user can write
# to: whatever that user plants there (symlinks to root's files, a lock
# file, a world-writable directory), operf touches nothing outside the
# session, says why it refuses, and what it makes belongs to the user.
# The second user is made by ./setup.sh check (OP_TEST_USER, default
# opng-test); its actions run through setpriv.
. "$top_srcdir/tests/lib.sh"
need_perf

user=${OP_TEST_USER:-opng-test}
test "$(id -u)" = 0 || skip_all "needs root (root's operf is what is attacked)"
command -v setpriv >/dev/null 2>&1 || skip_all "setpriv is not installed"
id "$user" >/dev/null 2>&1 ||
	skip_all "no user '$user' (./setup.sh check creates it; or set OP_TEST_USER)"
as_user() {
	setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups "$@"
}

# the user's part: a directory the user owns, outside root's 0700 $T
base=$(mktemp -d "${TMPDIR:-/tmp}/optest-attack.XXXXXX") || exit 99
chmod 755 "$base"
trap 'rm -rf "$base"; cleanup' EXIT
# root's files that the user would like operf to damage
victim=$T/victim
mkdir -p "$victim/current" "$victim/previous"
echo keep >"$victim/current/file"
echo keep >"$victim/previous/file"
echo keep >"$victim/log"
echo keep >"$victim/abi"
snapshot() { (cd "$victim" && find . -printf '%p %s %m %u\n' | sort && cat log abi current/file) ; }
snapshot >victim.before
victim_intact() { snapshot >victim.after && compare victim.before victim.after; }

# fresh SESSION owned by the user
user_session() {
	rm -rf "$base/$1"
	mkdir "$base/$1" && chown "$user:" "$base/$1"
	S=$base/$1
}

user_session s1
as_user ln -s "$victim" "$S/samples"
check_fail 'samples/ as a symlink to root'"'"'s directory is refused' \
	profile a1 -d "$S" true
check 'the message names the link' grep -q "'$S/samples' is a symbolic link" a1.err
check 'the directory it points to is untouched' victim_intact

user_session s2
as_user mkdir -m 700 "$S/samples"
as_user ln -s "$victim/current" "$S/samples/current"
as_user ln -s "$victim/previous" "$S/samples/previous"
as_user ln -s "$victim/log" "$S/samples/operf.log"
as_user ln -s "$victim/abi" "$S/abi.tmp"
profile a2 -d "$S" "$WORKLOADS/spinner" 0.2 >/dev/null 2>&1
check 'current/, previous/, operf.log and abi.tmp as symlinks: root'"'"'s files untouched' \
	victim_intact
check 'the links are what moved: current/ is a real directory now' \
	test -d "$S/samples/current" -a ! -L "$S/samples/current"
check 'the log that could not be written is named' \
	grep -q "cannot append to '$S/samples/operf.log'" a2.err

user_session s3
as_user mkdir -m 700 "$S/samples"
as_user ln -s "$victim/log" "$S/samples/operf.lock"
check_fail 'a symlink where the lock belongs is refused' profile a3 -d "$S" true
check 'the lock is named with the reason' grep -q "operf.lock.*symbolic link" a3.err
check 'root'"'"'s file behind it is untouched' victim_intact

# --append into a current/ the user fills with links
user_session s4
profile a4 -d "$S" "$WORKLOADS/spinner" 0.2 >/dev/null 2>&1
check 'a first run into the user'"'"'s directory works' test -d "$S/samples/current/{root}"
chown -R "$user:" "$S"
as_user sh -c "rm -rf '$S/samples/current/{root}' && ln -s '$victim' '$S/samples/current/{root}'"
profile a5 -a -d "$S" "$WORKLOADS/spinner" 0.2 >/dev/null 2>&1
check '--append through a planted {root} link: root'"'"'s files untouched' victim_intact
check 'and nothing was created behind the link' test ! -e "$victim/$WORKLOADS"

# a directory others may write without the sticky bit
user_session s5
chmod 0777 "$S"
check_fail 'a world-writable session directory without sticky bit is refused' \
	profile a6 -d "$S" true
check 'the reason is given' grep -q "can be written by other users (mode 0777) and has no sticky bit" a6.err
chmod 0775 "$S"
check_fail 'a group-writable one too' profile a7 -d "$S" true
chmod 1777 "$S"
check 'with the sticky bit it is used' profile a8 -d "$S" true

# the session directory itself a symlink: the user's is not followed, root's is
user_session s6
as_user ln -s "$victim" "$base/s6/link"
check_fail 'a session directory that is another user'"'"'s symlink is refused' \
	profile a9 -d "$base/s6/link" true
check 'the reason is given' grep -q "is a symbolic link of another user" a9.err
check 'root'"'"'s directory is untouched' victim_intact
mkdir "$T/rootdir"
ln -s "$T/rootdir" "$T/rootlink"
check 'root'"'"'s own symlink is followed' profile a10 -d "$T/rootlink" true
check 'into its target' test -d "$T/rootdir/samples/current"

# what root makes in the user's directory is the user's
user_session s7
profile a11 -t -d "$S" "$WORKLOADS/spinner" 0.2 >/dev/null 2>&1
check 'root'"'"'s run into the user'"'"'s directory wrote samples' \
	test -d "$S/samples/current/{root}"
check 'everything under it belongs to the user' \
	test -z "$(find "$S" ! -user "$user" | head -n 3)"
# the user's files are read by root's reports as by the user's
check 'root'"'"'s opreport names the threads from the user'"'"'s comms file' \
	sh -c '"$0" --session-dir="$1" -l 2>/dev/null |
		grep -q "^Processes with a thread ID of [0-9]* (spinner)\$"' "$OPREPORT" "$S"
check 'the user can remove it all' as_user rm -rf "$S/samples" "$S/abi"
# and a new default directory root makes in the user's directory
user_session s8
(cd "$S" && operf "$WORKLOADS/spinner" 0.2 >/dev/null 2>"$T/a12.err")
check 'oprofile_data made by root in the user'"'"'s directory is the user'"'"'s' \
	test -z "$(find "$S/oprofile_data" ! -user "$user" | head -n 3)"

done_testing
