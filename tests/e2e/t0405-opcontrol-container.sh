#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon profiles a process in its own mount namespace (unshare -m,
# as in a container) whose program is bind-mounted over an empty file:
# the samples go to the program's path as the host sees it, opreport
# names its hot function there, and --status counts the mapping.  The
# daemon never started the process: it follows it from the outside.
. "$top_srcdir/tests/lib.sh"
test "$(id -u)" = 0 || skip_all "needs root for mount namespaces and bind mounts"
command -v unshare >/dev/null 2>&1 || skip_all "unshare (util-linux) is not installed"
unshare -m --propagation private true 2>unshare.err ||
	skip_all "unshare -m is refused here: $(head -n 1 unshare.err)"
: >probe.src && : >probe.dst &&
unshare -m --propagation private mount --bind probe.src probe.dst 2>mount.err ||
	skip_all "cannot bind-mount in a mount namespace here: $(head -n 1 mount.err)"
need_perf

mkdir real target || exit 99
cp "$WORKLOADS/split" real/prog || exit 99
: >target/prog || exit 99
real=$T/real/prog
seen=$T/target/prog
S=$T/sess
opc() { opcontrol --session-dir="$S" "$@"; }

check 'the daemon starts' opc -e cpu-clock:100000 --start
kill_at_exit "$(cat "$S/samples/operf.lock")"
check 'a program bind-mounted in its own namespace runs' sh -c \
	"unshare -m --propagation private sh -c 'mount --bind \"\$1\" \"\$2\" && exec \"\$2\"' sh '$real' '$seen' >run.out"
check '--dump' opc --dump
check 'opreport reads the session' sh -c "opreport --session-dir='$S' -l -f >rep.out 2>rep.err"
samples_of() { awk -v p="$1" '$3 == p { n += $1 } END { print n + 0 }' rep.out; }
hot() { awk -v p="$1" '$3 == p { print $NF; exit }' rep.out; }
say "samples under $real: $(samples_of "$real"), under $seen: $(samples_of "$seen")"
check 'the samples are under the program'"'"'s path on the host' at_least "$(samples_of "$real")" 100
check '... with its hot function named' test "$(hot "$real")" = split_three
check '... none under the path the process saw' test "$(samples_of "$seen")" = 0
opc --status >status.out
check '--status counts the mapping renamed' \
	grep -Eq '^Mappings of other mount namespaces: [1-9][0-9]*, [1-9][0-9]* named by their path here' status.out
check 'the daemon shuts down' opc --shutdown
check 'nothing stays mounted' sh -c "! grep -q ' $seen ' /proc/self/mounts"
done_testing
