#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon follows a fork storm of 10,000 short-lived processes: at
# least 95% of the samples perf record -a takes in the storm's binary, at
# the same rate on the same run, are in the daemon's profile under that
# binary (and not many more).
. "$top_srcdir/tests/lib.sh"
need_system_wide
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed (Debian package linux-perf)"
perf record -a -q -e cpu-clock:u -o probe.data -- true >probe.out 2>&1 ||
	skip_all "perf record -a cannot sample here: $(tail -n 1 probe.out)"

S=$T/sess
storm=$WORKLOADS/forkstorm
opc() { opcontrol --session-dir="$S" "$@"; }

check 'set up: user-space cpu-clock every 250 us, as perf below' \
	opc -e cpu-clock:250000:0:0:1 -p none
check 'the daemon starts' opc --start
kill_at_exit "$(cat "$S/samples/operf.lock")"
check 'the storm runs under perf record -a' sh -c \
	"perf record -a -q -e cpu-clock:u -c 250000 -o storm.data -- '$storm' 10000 >storm.out 2>storm.err"
check '... all 10,000 children' grep -qx 'forkstorm: 10000 children, 0 failed' storm.out
check '--dump' opc --dump
check 'attribute.py reads the live session' attribute "$S" attr --live
perf script -i storm.data -F comm,ip,dso >perf.txt 2>/dev/null
theirs=$(grep -c "($storm)\$" perf.txt)
# on a busy machine perf may miss a child's mmap (its samples then have
# no dso) or its comm: the most there can be is every sample of either
any=$(awk -v dso="($storm)" '$1 == "forkstorm" || $NF == dso { n++ } END { print n + 0 }' perf.txt)
ours=$(attr_sum attr image 2="$storm" 3="$storm")
say "samples in forkstorm: perf record -a $theirs ($any of its process or binary), the daemon $ours"
check 'perf saw the storm' at_least "$theirs" 4000
check 'the daemon has >= 95% of them under the storm'"'"'s binary' \
	at_least $((ours * 100)) $((theirs * 95))
check '... and not more than 105% of what perf saw of the storm' \
	at_least $((any * 105)) $((ours * 100))
check 'the daemon shuts down' opc --shutdown
done_testing
