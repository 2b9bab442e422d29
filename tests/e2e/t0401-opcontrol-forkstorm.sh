#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The daemon follows a fork storm of 10,000 short-lived processes: at
# least 95% of the samples perf record -a takes in the storm's binary, at
# the same rate on the same run, are in the daemon's profile under that
# binary (and not many more).  Then a stripped distribution program,
# xz, the same way: its samples in all and its top image's share.
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
# a stripped distribution program in the same way: xz, whose work is in
# liblzma; samples of the process in all, and the share of its top image
xz=$(command -v xz)
if test -n "$xz"; then
	head -c 3000000 /dev/urandom | od -An -tx1 -v >data.txt || exit 99
	check 'xz -6 runs under perf record -a' sh -c \
		"perf record -a -q -e cpu-clock:u -c 250000 -o xz.data -- xz -6 -T1 -k -c data.txt >/dev/null 2>xz.err"
	check '--dump' opc --dump
	check 'attribute.py reads the live session' attribute "$S" xzattr --live --app "$xz"
	perf script -i xz.data -F comm,ip,dso >xzperf.txt 2>/dev/null
	p_all=$(awk '$1 == "xz"' xzperf.txt | wc -l)
	top=$(awk '$1 == "xz" { n[$NF]++ } END { for (d in n) print n[d], d }' xzperf.txt |
		sort -rn | head -n 1)
	p_top=${top%% *}
	top_dso=${top#* }
	top_dso=${top_dso#(}
	top_dso=${top_dso%)}
	o_all=$(attr_sum xzattr image 2="$xz")
	o_top=$(attr_sum xzattr image 2="$xz" 3="$top_dso")
	say "xz: perf $p_all samples ($p_top in $top_dso), the daemon $o_all ($o_top)"
	check 'perf saw xz' at_least "$p_all" 2000
	check 'the daemon has 95-105% of perf'"'"'s samples of xz' sh -c \
		"test $((o_all * 100)) -ge $((p_all * 95)) -a $((o_all * 100)) -le $((p_all * 105))"
	check '... and the top image'"'"'s share within 2 points' \
		near "$o_top" $((o_all - o_top)) "$((p_top * 100 / p_all))" 2
else
	skip 'xz against perf record -a' 'xz is not installed'
fi
check 'the daemon shuts down' opc --shutdown
done_testing
