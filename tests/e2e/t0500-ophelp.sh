#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ophelp (doc/ophelp.1): the event list opens with the software clocks
# (golden), and says plainly when there is no hardware PMU; --check-events
# accepts and refuses specifications as operf does, with its exit
# statuses; --unit-mask prints one event's unit mask; --get-default-event
# and --get-cpu-type name cpu-clock and timer without a PMU; --xml is
# well-formed and, given OPHELP_XSD, valid against OProfile's schema;
# --check reports one line per fact; usage errors exit 2.
. "$top_srcdir/tests/lib.sh"

# runs NAME STATUS ARGS...: ophelp ARGS exits STATUS, output in NAME.out/.err
runs() {
	r_name=$1 r_want=$2
	shift 2
	ophelp "$@" >"$r_name.out" 2>"$r_name.err"
	r_rc=$?
	test $r_rc = "$r_want" && return 0
	say "exit status $r_rc, expected $r_want; its stderr:"
	sed 's/^/#   /' "$r_name.err"
	return 1
}
has() {	# FILE LINE: FILE has the line
	grep -qxF -- "$2" "$1" || { say "no line '$2' in $1:"; sed 's/^/#   /' "$1"; return 1; }
}
has_re() {	# FILE RE
	grep -q -- "$2" "$1" || { say "no line like '$2' in $1:"; sed 's/^/#   /' "$1"; return 1; }
}
hw=0
have_hw_pmu && hw=1

# --- the list -----------------------------------------------------------
check 'the list: exit 0' runs list 0
check '... opens with the software clocks' eval \
	'head -n 4 list.out >list.soft && compare "$srcdir/e2e/golden/t0500-software" list.soft'
if test $hw = 0; then
	check '... says there is no hardware PMU and cpu-clock is used' has_re list.out \
		'^No hardware PMU is available here (.*): operf and opcontrol use cpu-clock instead\.$'
else
	check '... lists the hardware events' has_re list.out '^Hardware events of this cpu'
fi
check 'opcontrol --list-events prints the same list' eval \
	'opcontrol --list-events >oc.out 2>oc.err && compare list.out oc.out'

# --- --check-events -----------------------------------------------------
check 'good specs: exit 0' runs good 0 --check-events cpu-clock:100000,task-clock
check '... each reported ok' eval \
	'printf "cpu-clock:100000: ok\ntask-clock:250000: ok\n" >good.want && compare good.want good.out'
check '-e is --check-events' runs good2 0 -e cpu-clock:20000:0:1:1
check 'an unknown event: exit 2' runs unknown 2 -e NO_SUCH_EVENT
check '... with the reason and a hint naming ophelp' eval 'cat >unknown.want <<EOF2
ophelp: error: unknown event '"'"'NO_SUCH_EVENT'"'"': event not found
hint: use an event libpfm4 knows on this machine (ophelp lists them), or cpu-clock
EOF2
compare unknown.want unknown.err'
check 'a bad count: exit 2' runs count 2 -e cpu-clock:x
check '... with the reason' has count.err "ophelp: error: bad sample count 'x' in 'cpu-clock:x'"
check 'a count out of range: exit 2' runs range 2 -e cpu-clock:100
check '... with the reason' has range.err \
	"ophelp: error: sample count 100 of 'cpu-clock' is out of range (10000 to 2147483647 ns)"
check 'a bad flag: exit 2' runs flag 2 -e cpu-clock:20000:0:2
check 'an empty list: exit 2' runs empty 2 -e ''
if test $hw = 0; then
	check 'a hardware event without a PMU: non-zero, cleanly' \
		fails_cleanly ophelp -e CPU_CLK_UNHALTED:100000
fi

# --- --unit-mask -----------------------------------------------------------
check '--unit-mask of cpu-clock: exit 0' runs um 0 --unit-mask cpu-clock
check '... 0' has um.out 0
check '-u is --unit-mask' runs um2 0 -u cpu-clock:20000:0
check '... 0' has um2.out 0
check 'a unit mask a clock cannot have: exit 2' runs um3 2 -u task-clock:20000:5
check '... with the reason' has um3.err \
	"ophelp: error: bad unit mask for event 'task-clock': perf's generic events have none"
check 'an unknown event: exit 2' runs um4 2 -u NO_SUCH_EVENT
check '... with a hint' has um4.err 'hint: ophelp without options lists the events of this machine'
check 'two events: exit 2' runs um5 2 -u cpu-clock,task-clock
check '... with the reason' has um5.err 'ophelp: error: --unit-mask takes one event, not 2'

# --- default event, cpu type ----------------------------------------------
check '--get-default-event: exit 0' runs def 0 --get-default-event
check '-d is --get-default-event' runs def2 0 -d
check '... the same' compare def.out def2.out
check '--get-cpu-type: exit 0' runs cpu 0 --get-cpu-type
check '-r is --get-cpu-type' runs cpu2 0 -r
if test $hw = 0; then
	check '... cpu-clock here' has def.out 'cpu-clock:250000'
	check '... timer here' has cpu.out 'timer'
else
	check '... a hardware event' has_re def.out '^[A-Za-z_]*:[0-9]*$'
	check '... a cpu type' has_re cpu.out '/'
fi

# --- --check ----------------------------------------------------------------
check '--check: exit 0' runs chk 0 --check
check '... PMU line' has_re chk.out '^hardware PMU: \(available\|not available (.*)\)$'
check '... perf_event_paranoid line' has_re chk.out '^perf_event_paranoid: '
check '... kptr_restrict line' has_re chk.out '^kptr_restrict: '
check '... call-graph line' has_re chk.out '^call graphs: '
check '... default event line' has_re chk.out "^default event: $(cat def.out)\$"
if test $hw = 0; then
	check '... a hint for the missing PMU' has_re chk.out '^hint: cpu-clock is used instead'
fi
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
if test -n "$paranoid" && test "$paranoid" -ge 2; then
	check '... a hint for perf_event_paranoid' has_re chk.out '^hint: kernel samples .*perf_event_paranoid'
fi
check '... nothing on stderr' test ! -s chk.err

# --- --xml -----------------------------------------------------------------
check '--xml: exit 0' runs xml 0 --xml
check '-X is --xml' runs xml2 0 -X
check '... the same' compare xml.out xml2.out
check '... lists cpu-clock with its minimum' has_re xml.out \
	'<event event_name="cpu-clock" counter_mask="0" min_count="10000" '
what='... well-formed'
if command -v xmllint >/dev/null 2>&1; then
	check "$what" xmllint --noout xml.out
else
	skip "$what" "xmllint is not installed"
fi
what="... valid against OProfile 1.4's ophelp.xsd"
if ! command -v xmllint >/dev/null 2>&1; then
	skip "$what" "xmllint is not installed"
elif test -z "${OPHELP_XSD:-}"; then
	skip "$what" "OPHELP_XSD is not set (the path of OProfile 1.4's ophelp.xsd)"
elif ! test -r "$OPHELP_XSD"; then
	skip "$what" "OPHELP_XSD='$OPHELP_XSD' cannot be read"
else
	check "$what" xmllint --noout --schema "$OPHELP_XSD" xml.out
fi

# --- usage ------------------------------------------------------------------
check 'an unknown option: exit 2' runs opt 2 --no-such-option
check '... with the reason' eval 'printf "%s\n" "ophelp: error: unknown option '"'"'--no-such-option'"'"'" \
	"hint: see '"'"'ophelp --help'"'"'" >opt.want && compare opt.want opt.err'
check 'an argument: exit 2' runs arg 2 CPU_CLK_UNHALTED
check 'two actions: exit 2' runs two 2 -d -r
check 'a missing --check-events argument: exit 2' runs miss 2 -e
check '--version: exit 0' runs ver 0 --version
check '... names ophelp' has_re ver.out '^ophelp '
check '-v is --version' runs ver2 0 -v
check '--help: exit 0' runs help 0 --help

done_testing
