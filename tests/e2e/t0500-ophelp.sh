#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ophelp (doc/ophelp.1): the event list opens with the software clocks
# (golden), and says plainly when there is no hardware PMU; --check-events
# accepts and refuses specifications as operf does, with its exit
# statuses; --unit-mask prints one event's unit mask; --get-default-event
# and --get-cpu-type name cpu-clock and timer without a PMU; --xml is
# well-formed and, given OPHELP_XSD, valid against OProfile's schema;
# --check reports one line per fact; --extra-mask prints config1;
# --cpu-type answers from libpfm4's tables of another cpu (Skylake's
# events listed, encoded, in XML; types without tables); --callgraph
# checks call-chain sampling against perf_event_max_stack; usage errors
# exit 2.
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

# --- --extra-mask -----------------------------------------------------------
check '--extra-mask of cpu-clock: exit 0' runs em 0 --extra-mask cpu-clock
check '... 0' has em.out 0
check '-E is --extra-mask' runs em2 0 -E task-clock:20000
check '... 0' has em2.out 0
check 'an unknown event: exit 2' runs em3 2 -E NO_SUCH_EVENT
check 'two events: exit 2' runs em4 2 -E cpu-clock,task-clock
check '... with the reason' has em4.err 'ophelp: error: --extra-mask takes one event, not 2'

# --- --cpu-type: libpfm4's tables of another cpu ----------------------------
if runs sky 0 --cpu-type=i386/skylake; then
	check '--cpu-type=i386/skylake: the software clocks first' eval \
		'head -n 4 sky.out >sky.soft && compare "$srcdir/e2e/golden/t0500-software" sky.soft'
	check '... then the heading of the tables, with the default event' has sky.out \
		"Hardware events of i386/skylake, from libpfm4's tables, not tried on this machine (default cpu_clk_unhalted:100000):"
	check '... INST_RETIRED and its unit masks' eval \
		'grep -q "^INST_RETIRED: " sky.out && grep -q "^	ANY_P (0x[0-9a-f]*): " sky.out'
	check '-c 80 (its number) is the same list' eval \
		'ophelp -c 80 >sky80.out 2>&1 && compare sky.out sky80.out'
	check '... --get-cpu-type names it' eval \
		'ophelp -c i386/skylake -r >skyr.out && has skyr.out i386/skylake'
	check '... --get-default-event: OProfile default of the type' eval \
		'ophelp -c i386/skylake -d >skyd.out && has skyd.out cpu_clk_unhalted:100000'
	check '... and of x86-64/family15h' eval \
		'ophelp -c x86-64/family15h -d >f15.out && has f15.out CPU_CLK_UNHALTED:100000'
	check '... --check-events encodes its events: exit 0' runs skye 0 \
		-c i386/skylake -e INST_RETIRED:200000,cpu-clock
	check '... each ok' eval \
		'printf "INST_RETIRED:200000: ok\ncpu-clock:250000: ok\n" >skye.want && compare skye.want skye.out'
	check '... and says they were not tried here' has skye.err \
		"ophelp: note: checked against i386/skylake's event tables; whether they count on this machine was not tried"
	check '... an event the type lacks: exit 2' runs skyn 2 -c i386/skylake -e NO_SUCH_EVENT:100000
	check '... --unit-mask of one of its events' eval \
		'ophelp -c i386/skylake -u INST_RETIRED:200000:any_p >skyu.out && has skyu.out any_p'
	check '... --extra-mask of an offcore event is not 0' eval \
		'ophelp -c i386/skylake -E OFFCORE_RESPONSE_0:100000 >skyo.out && has_re skyo.out "^[1-9][0-9]*$"'
	check '... --xml: exit 0' runs skyx 0 -c i386/skylake --xml
	check '... titled with the type' has_re skyx.out '<header title="i386/skylake" '
	check '... INST_RETIRED in it' has_re skyx.out '<event event_name="INST_RETIRED" '
	if command -v xmllint >/dev/null 2>&1; then
		check '... well-formed' xmllint --noout skyx.out
	else
		skip '... well-formed' "xmllint is not installed"
	fi
else
	skip '--cpu-type=i386/skylake' "libpfm4 here has no Skylake tables: $(head -n 1 sky.err)"
fi
check '--cpu-type=timer: exit 0' runs tim 0 -c timer
check '... the clocks and no hardware events' has tim.out \
	'timer has no hardware events: only the software clocks above.'
check '... its default event is cpu-clock' eval \
	'ophelp -c timer -d >timd.out && has timd.out cpu-clock:250000'
check '--cpu-type=mips/24K: exit 0' runs mips 0 -c mips/24K
check '... says libpfm4 has no tables' has mips.out \
	'libpfm4 has no event tables for mips/24K: only the software clocks above.'
check 'an unknown cpu type: exit 2' runs badcpu 2 -c i386/no-such
check '... with the reason' has badcpu.err "ophelp: error: unknown cpu type 'i386/no-such'"
check '... and a hint naming the form' has_re badcpu.err '^hint: give OProfile.s name of a cpu type'
check 'a number past the table: exit 2' runs badcpu2 2 -c 88
check '--cpu-type with --check: exit 2' runs cpuchk 2 -c timer --check

# --- --callgraph ------------------------------------------------------------
max_stack=$(cat /proc/sys/kernel/perf_event_max_stack 2>/dev/null)
if test -n "$max_stack"; then
	check '--callgraph=8 -e cpu-clock: exit 0' runs cg 0 --callgraph=8 -e cpu-clock
	check '... ok' has cg.out 'cpu-clock:250000: ok'
	over=$((max_stack + 1))
	check "--callgraph=$over, past perf_event_max_stack: exit 1" runs cgbig 1 \
		--callgraph=$over -e cpu-clock
	check '... with the reason' has cgbig.err \
		"ophelp: error: a call-chain depth of $over is more than this kernel's limit of $max_stack frames"
	check '... and a hint' has_re cgbig.err '^hint: raise /proc/sys/kernel/perf_event_max_stack'
else
	skip '--callgraph' 'this kernel has no /proc/sys/kernel/perf_event_max_stack'
fi
check '--callgraph without --check-events: exit 2' runs cgonly 2 --callgraph=3
check '--callgraph=70000: exit 2' runs cgrange 2 --callgraph=70000 -e cpu-clock
check '--callgraph with --cpu-type: exit 2' runs cgcpu 2 --callgraph=3 -c timer -e cpu-clock

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
