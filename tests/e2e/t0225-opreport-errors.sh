#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport's errors, their exact text on stderr and their exit status
# (2 for usage errors, 1 for runtime ones), with nothing on stdout: bad
# options and values, bad profile specifications (an unknown tag names the
# valid ones), no session directory, an empty session, and a
# specification that matches nothing, which is explained: the session
# directory searched, what it holds and which tag excluded everything.
. "$top_srcdir/tests/lib.sh"
use_fixtures

for s in basic callgraph threads; do
	check "mksamples.py writes the $s session" mksession $s
done
# one session directory with three sessions: current, previous and a
# saved one (per-thread and per-cpu files)
mkdir -p sd/samples && cp -R out/basic/samples/current sd/samples/current &&
	cp -R out/callgraph/samples/current sd/samples/previous &&
	cp -R out/threads/samples/current sd/samples/saved1 || exit 99

# the items of an "images:" line in sorted order: opreport sorts them by
# path, and where T (the test's directory, under $TMPDIR) sorts among
# /usr/lib depends on $TMPDIR
images_sorted() {
	python3 -c '
import sys
for line in sys.stdin:
    if line.startswith("images: "):
        line = "images: " + ", ".join(sorted(line[8:].rstrip("\n").split(", "))) + "\n"
    sys.stdout.write(line)'
}

# fails STATUS NAME ARGS...: opreport ARGS exits with STATUS, prints
# nothing on stdout, and its stderr (normalised) is the text on stdin
fails() {
	f_rc=$1 f_n=$2
	shift 2
	images_sorted >"$f_n.want" &&
	exits "$f_rc" "$f_n" "$@" &&
	norm "$f_n.err" | images_sorted >"$f_n.got" && compare "$f_n.want" "$f_n.got" &&
	{ test ! -s "$f_n.out" || { say "stdout not empty"; false; }; }
}

# nomatch NAME LAST ARGS...: exit 1, and the explanation of the session sd
# (one session searched, nothing separated) ending with the line LAST
nomatch() {
	n_name=$1 n_last=$2
	shift 2
	{ cat <<'EOF' && echo "$n_last"; } | fails 1 "$n_name" "$@"
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
searched: current (1 sample file)
events: cpu_clk_unhalted (count 100000)
applications: T/tools/fixtures/build/fixture_nopie
images: T/tools/fixtures/build/fixture_nopie
separation: cpu all; tgid all; tid all
EOF
}

# --- options ------------------------------------------------------------
check 'an unknown option: exit 2' fails 2 opt --session-dir=sd --frobnicate <<'EOF'
opreport: error: unknown option '--frobnicate'
hint: see 'opreport --help'
EOF
check 'an unknown short option: exit 2' fails 2 optshort --session-dir=sd -Z <<'EOF'
opreport: error: unknown option '-Z'
hint: see 'opreport --help'
EOF
check '--sort with an unknown key names the valid keys: exit 2' \
	fails 2 sort --session-dir=sd -l --sort=sample,size <<'EOF'
opreport: error: unknown --sort key 'size' (valid: sample, vma, symbol, debug, image, app-name)
hint: see 'opreport --help'
EOF
check '--merge with an unknown value names the valid ones: exit 2' \
	fails 2 merge --session-dir=sd --merge=tgid,thread <<'EOF'
opreport: error: unknown --merge value 'thread' (valid: lib, cpu, tid, tgid, unitmask, all)
hint: see 'opreport --help'
EOF
check 'an empty --sort list: exit 2' fails 2 sortempty --session-dir=sd -l --sort= <<'EOF'
opreport: error: empty --sort list (valid keys: sample, vma, symbol, debug, image, app-name)
hint: see 'opreport --help'
EOF
check 'an empty --merge list: exit 2' fails 2 mergeempty --session-dir=sd --merge= <<'EOF'
opreport: error: empty --merge list (valid: lib, cpu, tid, tgid, unitmask, all)
hint: see 'opreport --help'
EOF
check '--threshold that is not a number: exit 2' fails 2 thr1 --session-dir=sd --threshold=ten <<'EOF'
opreport: error: invalid numeric value '--threshold=ten'
hint: see 'opreport --help'
EOF
check '--threshold over 100: exit 2' fails 2 thr2 --session-dir=sd -t 101 <<'EOF'
opreport: error: --threshold must be a percentage from 0 to 100
hint: see 'opreport --help'
EOF
check '--threshold below 0: exit 2' fails 2 thr3 --session-dir=sd --threshold=-0.5 <<'EOF'
opreport: error: --threshold must be a percentage from 0 to 100
hint: see 'opreport --help'
EOF
check '--threshold nan: exit 2, not a silent default' fails 2 thrnan --session-dir=sd -t nan <<'EOF'
opreport: error: --threshold must be a percentage from 0 to 100
hint: see 'opreport --help'
EOF
check 'an empty --session-dir: exit 2' fails 2 sdempty --session-dir= <<'EOF'
opreport: error: --session-dir is empty: give a directory
hint: see 'opreport --help'
EOF
check '--demangle with an unknown mode: exit 2' fails 2 dem --session-dir=sd -l -D full <<'EOF'
opreport: error: unknown --demangle mode 'full' (none, normal or smart)
hint: see 'opreport --help'
EOF
check '--xml with --accumulated: exit 2' fails 2 xa --session-dir=sd --xml --accumulated <<'EOF'
opreport: error: --xml cannot be combined with --accumulated
hint: see 'opreport --help'
EOF
check '-X with -%: exit 2' fails 2 xg --session-dir=sd -X -% <<'EOF'
opreport: error: --xml cannot be combined with --global-percent
hint: see 'opreport --help'
EOF
check '--session-dir without its value: exit 2' fails 2 sdmiss --session-dir <<'EOF'
opreport: error: missing argument '--session-dir'
hint: see 'opreport --help'
EOF

# --- profile specifications ---------------------------------------------
check 'an unknown tag names the valid tags: exit 2' fails 2 tag --session-dir=sd imgae:fixture_nopie <<'EOF'
opreport: error: unknown tag 'imgae' in 'imgae:fixture_nopie' (valid tags: archive, session, session-exclude, image, image-exclude, lib-image, lib-image-exclude, event, count, unit-mask, cpu, tgid, tid, time)
hint: see 'opreport --help'
EOF
check 'an empty value: exit 2' fails 2 empty --session-dir=sd event: <<'EOF'
opreport: error: empty event value in 'event:'
hint: see 'opreport --help'
EOF
check 'an empty item in a list: exit 2' fails 2 emptyitem --session-dir=sd tid:1,,2 <<'EOF'
opreport: error: empty tid value in 'tid:1,,2'
hint: see 'opreport --help'
EOF
check 'a tgid that is not a number: exit 2' fails 2 tgid --session-dir=sd tgid:init <<'EOF'
opreport: error: bad tgid 'init' in 'tgid:init' ('all' or a decimal number)
hint: see 'opreport --help'
EOF
check 'a negative cpu: exit 2' fails 2 cpu --session-dir=sd cpu:-1 <<'EOF'
opreport: error: bad cpu '-1' in 'cpu:-1' ('all' or a decimal number)
hint: see 'opreport --help'
EOF
check 'a count that is not a number: exit 2' fails 2 count --session-dir=sd count:1e5 <<'EOF'
opreport: error: bad count '1e5' in 'count:1e5' (a decimal number)
hint: see 'opreport --help'
EOF
check 'a bad unit mask: exit 2' fails 2 um --session-dir=sd unit-mask:0xg <<'EOF'
opreport: error: bad unit-mask '0xg' in 'unit-mask:0xg' (a decimal or 0x hex number)
hint: see 'opreport --help'
EOF

# --- sessions -------------------------------------------------------------
no_dir() {
	mkdir -p nowhere && cd nowhere &&
	fails 1 ../nodir <<EOF
opreport: error: no session directory: neither 'T/tools/nowhere/oprofile_data' nor '/var/lib/oprofile' exists
hint: profile with 'operf COMMAND' first, or give --session-dir
EOF
}
if test -e /var/lib/oprofile; then
	skip 'no ./oprofile_data and no /var/lib/oprofile: exit 1' '/var/lib/oprofile exists here'
else
	check 'no ./oprofile_data and no /var/lib/oprofile: exit 1' no_dir
fi
check '--session-dir that does not exist: exit 1' fails 1 sdnone --session-dir=none <<'EOF'
opreport: error: cannot use session directory 'T/tools/none': No such file or directory
hint: profile with 'operf COMMAND' first, or give --session-dir
EOF
mkdir -p empty/samples/current/stats nosamples
echo 5 >empty/samples/current/stats/lost_kernel
check 'a session without sample files says where it looked: exit 1' \
	fails 1 emptysess --session-dir=empty -l <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/empty
sessions: current
searched: current (0 sample files, 1 other file)
no sample files in the sessions searched
hint: profile with operf first, or pick a session with session:NAME
EOF
check 'a session directory without samples/current: exit 1' fails 1 nocur --session-dir=nosamples <<'EOF'
opreport: error: session 'current' not found: 'T/tools/nosamples/samples/current': No such file or directory
session directory: T/tools/nosamples
sessions: none (no directory 'T/tools/nosamples/samples')
searched: current (no directory 'T/tools/nosamples/samples/current')
no sample files in the sessions searched
hint: profile with operf first, or pick a session with session:NAME
EOF
check 'a session that does not exist: exit 1' fails 1 nosess --session-dir=sd session:saved2 <<'EOF'
opreport: error: session 'saved2' not found: 'T/tools/sd/samples/saved2': No such file or directory
session directory: T/tools/sd
sessions: current, previous, saved1
searched: saved2 (no directory 'T/tools/sd/samples/saved2')
no sample files in the sessions searched
hint: profile with operf first, or pick a session with session:NAME
EOF

# --- nothing matches: the explanation --------------------------------------
check 'no application matches image:' \
	nomatch noimage \
		'excluded everything: image:fixture_pie (no application matches)' \
		--session-dir=sd image:fixture_pie
check 'a bare argument is image:' fails 1 bare --session-dir=sd session:previous fixture_nopie <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
searched: previous (4 sample files)
events: cpu_clk_unhalted (count 100000)
applications: T/tools/fixtures/build/fixture_pie
images: T/tools/fixtures/build/fixture_pie, /usr/lib/x86_64-linux-gnu/libc.so.6
separation: cpu all; tgid all; tid all
excluded everything: image:fixture_nopie (no application matches)
EOF
check 'no such event, over two sessions' fails 1 noevent --session-dir=sd session:current,previous event:CPU_CLK_UNHALTED <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
searched: current (1 sample file), previous (4 sample files)
events: cpu_clk_unhalted (count 100000)
applications: T/tools/fixtures/build/fixture_nopie, T/tools/fixtures/build/fixture_pie
images: T/tools/fixtures/build/fixture_nopie, T/tools/fixtures/build/fixture_pie, /usr/lib/x86_64-linux-gnu/libc.so.6
separation: cpu all; tgid all; tid all
excluded everything: event:CPU_CLK_UNHALTED (no such event)
hint: event names are case-sensitive: try event:cpu_clk_unhalted
EOF
check 'no image matches lib-image:' \
	nomatch nolib \
		'excluded everything: lib-image:*libc* (no image matches)' \
		--session-dir=sd 'lib-image:*libc*'
check 'image-exclude: excludes every application' \
	nomatch imgex \
		'excluded everything: image-exclude:fixture_nopie (it excludes every application)' \
		--session-dir=sd image-exclude:fixture_nopie
check 'session-exclude: excludes every session' fails 1 sessex --session-dir=sd session-exclude:current <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
excluded everything: session-exclude:current (it excludes every session of session:current)
EOF
check 'count: that no file has' \
	nomatch nocount \
		'excluded everything: count:100 (no file has that count)' \
		--session-dir=sd count:100
check 'tgid: on a session not separated by process says how to separate' \
	fails 1 notsep --session-dir=sd tgid:1234 <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
searched: current (1 sample file)
events: cpu_clk_unhalted (count 100000)
applications: T/tools/fixtures/build/fixture_nopie
images: T/tools/fixtures/build/fixture_nopie
separation: cpu all; tgid all; tid all
excluded everything: tgid:1234 (the profile is not separated by process: operf --separate-thread)
EOF
check 'cpu: that no file has lists the cpus there are' fails 1 nocpu --session-dir=sd session:saved1 cpu:7 <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
searched: saved1 (4 sample files)
events: cpu_clk_unhalted (count 100000)
applications: T/tools/fixtures/build/fixture_nopie
images: T/tools/fixtures/build/fixture_nopie, anon
separation: cpu 0, 1; tgid 1234, 2000; tid 1234, 1240, 2000
excluded everything: cpu:7 (no file of that cpu)
EOF
check 'two tags that exclude everything only together' \
	fails 1 together --session-dir=sd session:saved1 tgid:1234 tid:2000 <<'EOF'
opreport: error: no sample files match the profile specification
session directory: T/tools/sd
sessions: current, previous, saved1
searched: saved1 (4 sample files)
events: cpu_clk_unhalted (count 100000)
applications: T/tools/fixtures/build/fixture_nopie
images: T/tools/fixtures/build/fixture_nopie, anon
separation: cpu 0, 1; tgid 1234, 2000; tid 1234, 1240, 2000
no file matches all of: tgid:1234 (2 files), tid:2000 (2 files)
EOF
check 'a spec that matches: exit 0 (control)' \
	exits 0 ok --session-dir=sd session:saved1 tgid:1234 tid:1240 cpu:1
done_testing
