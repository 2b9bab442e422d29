#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The setup options do what they say: a process already running when the
# daemon starts is profiled (its mappings read from /proc); --image keeps
# only the samples of the binaries listed (the rest counted as left out);
# --cpu-buffer-size sizes the ring buffers; --separate=cpu and
# --callgraph reach the sample files; --list-events lists what counts.
. "$top_srcdir/tests/lib.sh"
need_system_wide

S=$T/sess
opc() { opcontrol --session-dir="$S" "$@"; }
spin=$WORKLOADS/spinner

check '--list-events exits 0' sh -c "opcontrol --list-events >events.out 2>events.err"
check '... listing cpu-clock' grep -q '^cpu-clock: ' events.out
check '... and saying what hardware can count here' \
	grep -Eq '^(Hardware events of this cpu|No hardware PMU is available here )' events.out

# a spinner that runs before the daemon starts
"$spin" 20 spin.pid >/dev/null &
spid=$!
kill_at_exit $spid
check 'the spinner runs' wait_until 10 test -s spin.pid
check 'set up: only the spinner, small rings, per cpu, call graphs' \
	opc -e cpu-clock:100000 --image="$spin" --cpu-buffer-size=2048 -p cpu -c 8
check '... saved' grep -qx "image=$spin" "$S/daemonrc"
check 'the daemon starts' opc --start
kill_at_exit "$(cat "$S/samples/operf.lock")"
check 'samples of the spinner arrive' wait_until 10 sh -c \
	"opcontrol --session-dir='$S' --status | grep -Eq '^Samples written: [1-9][0-9]{2,}'"
check '--dump' opc --dump
opc --status >st.out
check '--status: rings of 2048 samples x 64 bytes = 128 KiB' grep -q 'ring buffer 128 KiB each$' st.out
check '... the image filter' grep -qx "Images: $spin" st.out
check '... samples left out' grep -Eq '^Samples left out \(not of --image\): [1-9]' st.out
check 'attribute.py reads the session' attribute "$S" attr --live
check 'the spinner, running before the start, is profiled' \
	at_least "$(attr_sum attr image 2="$spin" 3="$spin")" 100
check '... and nothing but it' test "$(attr_distinct attr image 2)" = 1
check '... per cpu' sh -c "test \$(awk -F '\t' '\$1 == \"cpu\" && \$2 != \"all\"' attr | wc -l) -ge 1"
check '... with call-graph files' sh -c "find '$S/samples/current' -path '*{cg}*' -type f | grep -q ."
check_fail 'a relative --image path is a usage error' opc -i relative/prog
check 'the daemon shuts down' opc --shutdown
done_testing
