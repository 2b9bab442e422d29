#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport -X against doc/opreport.xsd, our schema of what it writes
# (oprofile-ng-formats(5), "XML REPORT"): every report of the mksamples.py
# fixture sessions (with and without classes, processes and threads, call
# graphs, details, debug info, filters) and of real
# operf sessions (separated by thread and cpu, with call graphs; two
# software events) validates, and reports broken in one place each are
# rejected, so the schema has teeth.
#
# As a second reader, when OPROFILE_XSD names OProfile 1.4's own
# doc/opreport.xsd, every report must also validate against it, with no
# exception (OProfile 1.4's own reports do not: no processor for the
# timer cpu type, one <timersetup> per software event, empty tables).
. "$top_srcdir/tests/lib.sh"
need_python
command -v xmllint >/dev/null 2>&1 ||
	skip_all "xmllint is not installed (Debian package libxml2-utils)"
command -v cc >/dev/null 2>&1 || skip_all "no C compiler for the fixture binaries"

OPREPORT=$top_builddir/pp/opreport
test -x "$OPREPORT" || skip_all "opreport is not built"
XSD=$top_srcdir/doc/opreport.xsd

cp -R "$top_srcdir/tests/tools" "$T/tools" && chmod -R u+w "$T/tools" &&
	cd "$T/tools" || exit 99
fixtures/build.sh >build.log 2>&1 || skip_all "cannot build the fixtures: $(tail -n 1 build.log)"
mkdir xml || exit 99

valid() {	# FILE
	xmllint --noout --schema "$XSD" "$1" 2>"$1.xsd-err" ||
	{ sed 's/^/# /' "$1.xsd-err"; return 1; }
}

# report NAME SESSION OPTIONS...: opreport -X into xml/NAME.xml (listed in
# xml.list with its session and options), which must validate
report() {
	r=$1 s=$2
	shift 2
	"$OPREPORT" --session-dir="$s" -X "$@" >"xml/$r.xml" 2>"xml/$r.err" ||
	{ sed 's/^/# /' "xml/$r.err"; return 1; }
	echo "xml/$r.xml $s $*" >>xml.list
	valid "xml/$r.xml"
}

# the option sets each session is reported with, after none; NAME.N is
# the Nth (the checks that break reports below pick some by number)
OPTION_SETS='-l
-d
-g
-d -g
-c
-c -g
-d -c
--merge=all -d
--merge=all -c
--merge=cpu
--merge=lib
-x
-c -x
-r
-l --threshold=10
-e no_such_symbol
-d --threshold=30
-e compute_alpha -c
-w -l'

reports() {	# NAME SESSION
	i=0 bad=0
	report "$1.0" "$2" || bad=1
	while read -r opts; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		report "$1.$i" "$2" $opts || { say "opreport -X $opts: not valid"; bad=1; }
	done <<EOF
$OPTION_SETS
EOF
	return $bad
}

mk() {	# SPEC
	python3 "$MKSAMPLES" "fixtures/$1.json" >"$1.mk" 2>&1 ||
	{ sed 's/^/# /' "$1.mk"; return 1; }
}

# a binary in a directory whose name needs escaping in XML
mkdir -p 'fixtures/odd&<dir>"q' &&
cp fixtures/build/fixture_nopie 'fixtures/odd&<dir>"q/fix ture' &&
cat >fixtures/odd.json <<'EOF' || exit 99
{"session_dir": "out/odd", "cpu_type": "i386/skylake",
 "profiles": [{"binary": "odd&<dir>\"q/fix ture",
               "symbol_samples": {"compute_alpha": 10, "main": 3}}]}
EOF

for s in basic callgraph threads timer odd; do
	check "mksamples.py writes the $s fixture" mk $s
	check "opreport -X on the $s fixture, with each option set, validates" \
		reports $s "out/$s"
done

# real sessions: per thread (and cpu) with call graphs; two software
# events at once
if operf -e cpu-clock -d probe true >probe.out 2>&1; then
	why=
else
	why=$(sed -n 's/^operf: error: //p' probe.out | head -n 1)
	why="perf_events cannot be used here: ${why:-operf -e cpu-clock true failed}"
fi
rm -rf probe probe.out
live() {	# NAME OPERF-OPTIONS...
	l=$1
	shift
	operf "$@" -d "$l" "$WORKLOADS/threads" >"$l.out" 2>&1 ||
	{ sed 's/^/# /' "$l.out"; return 1; }
	reports "$l" "$l"
}
n=0
for opts in "-t --callgraph" "-t -c --callgraph" "-e cpu-clock,task-clock"; do
	n=$((n + 1))
	what="operf $opts: opreport -X with each option set validates"
	if test -n "$why"; then
		skip "$what" "$why"
	else
		# shellcheck disable=SC2086
		check "$what" live live$n $opts
	fi
done

# the schema has teeth: each of these one-place breaks is rejected
rejected() {	# WHAT FILE SED-SCRIPT
	sed "$3" "$2" >broken.xml &&
	if cmp -s "$2" broken.xml; then
		say "$1: the edit changed nothing"
		return 1
	fi
	if xmllint --noout --schema "$XSD" broken.xml 2>/dev/null; then
		say "$1: accepted"
		return 1
	fi
}
base=xml/basic.2.xml	# -d: details and code
cg=xml/callgraph.5.xml	# -c: callers and callees
thr=xml/threads.0.xml	# processes, threads and classes
teeth() {
	grep -q '^<bytes ' "$base" && grep -q '^<callees>' "$cg" &&
	grep -q '^<thread ' "$thr" || { say "a report to break lacks its part"; return 1; }
	rejected "another schema version" "$base" 's/schemaversion="3.1"/schemaversion="3.0"/' &&
	rejected "no <setup>" "$base" '/^<setup>$/,/^<\/setup>$/d' &&
	rejected "a zero count" "$base" '0,/^1834<\/count>$/s//0<\/count>/' &&
	rejected "an idref to no symbol" "$base" 's/idref="0"/idref="99"/' &&
	rejected "a symbol id given twice" "$base" 's/<symboldata  id="1"/<symboldata  id="0"/' &&
	rejected "an address with 0x" "$base" 's/startingaddr="\([0-9a-f]*\)"/startingaddr="0x\1"/' &&
	rejected "an odd number of code digits" "$base" '/^<bytes /{n;s/^./&0/}' &&
	rejected "a detailtable without its bytestable" "$base" '/^<bytestable>$/,/^<\/bytestable>$/d' &&
	rejected "an unknown element" "$base" 's/^<symboltable>$/<symbols\/>\n&/' &&
	rejected "counts after the symbols" "$base" '/^<\/binary>$/i<count>\n1834</count>' &&
	rejected "an empty binary" "$base" '/^<binary /,/^<\/binary>$/{/^<binary /!{/^<\/binary>$/!d}}' &&
	rejected "a class that does not exist" "$thr" '0,/class="c1">$/s//class="c7">/' &&
	rejected "a class name given twice" "$thr" 's/<class  name="c1"/<class  name="c0"/' &&
	rejected "callees without the self entry" "$cg" '/^<callees>$/,/^<\/callees>$/{/^<callees>$/!{/^<\/callees>$/!d}}' &&
	rejected "self on a symbol outside a call list" "$cg" '0,/^<symbol  idref="0">$/s//<symbol  idref="0" self="true">/' &&
	rejected "a process without threads" "$thr" '/^<thread /,/^<\/thread>$/d' &&
	rejected "no processor" "$base" '/^ processor="/d' &&
	rejected "a processor that is no XML name" "$base" 's/^ processor="/&5/' &&
	rejected "two <timersetup>" "$base" 's/^<setup>$/&\n<timersetup  rtcinterrupts="1"\/>\n<timersetup  rtcinterrupts="2"\/>/' &&
	rejected "an empty <symboltable>" "$base" '/^<symboltable>$/,/^<\/symboltable>$/{/^<symboltable>$/!{/^<\/symboltable>$/!d}}' &&
	rejected "no <binary>" "$base" '/^<binary /,/^<\/binary>$/d'
}
check "reports broken in one place each are rejected" teeth

# OProfile 1.4's schema as a second reader: every report, no exception
oprofile_valid() {
	bad=0
	while read -r f rest; do
		xmllint --noout --schema "$OPROFILE_XSD" "$f" 2>"$f.op-err" && continue
		grep -v -e ' validates$' -e ' fails to validate$' \
		     "$f.op-err" >"$f.op-other"
		if test -s "$f.op-other"; then
			say "$f ($rest):"
			sed 's/^/#   /' "$f.op-other"
			bad=1
		fi
	done <xml.list
	return $bad
}
what="every report validates against OProfile 1.4's schema"
if test -z "${OPROFILE_XSD:-}"; then
	skip "$what" "OPROFILE_XSD is not set (the path of OProfile 1.4's doc/opreport.xsd)"
elif ! test -r "$OPROFILE_XSD"; then
	skip "$what" "OPROFILE_XSD='$OPROFILE_XSD' cannot be read"
else
	check "$what" oprofile_valid
fi

done_testing
