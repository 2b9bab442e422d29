#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names people know: operf records the names of the processes and
# threads it profiles (the session's comms file), and the reports use them
#  - the header labels each thread's column with its name (the threads
#    workload names its threads "three" and "one");
#  - --comm shows an application with the name it ran as when that is not
#    its file's (a program started through a symlink, as gcc starts
#    x86_64-linux-gnu-as as "as");
#  - two different binaries with one base name are shown by whole path.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
split=$WORKLOADS/split
threads=$WORKLOADS/threads

check 'operf --separate-thread ./threads' profile th -d th --separate-thread "$threads"
check 'the session keeps the names' grep -q ' three ' th/samples/current/comms
labels() {
	exits 0 thr --session-dir=th --merge=cpu -n &&
	exits 0 thrh --session-dir=th --merge=cpu &&
	grep -q '^Processes with a thread ID of [0-9]* (three)$' thrh.out &&
	grep -q '^Processes with a thread ID of [0-9]* (one)$' thrh.out &&
	grep -q '^Processes with a thread ID of [0-9]* (threads)$' thrh.out
}
check 'opreport: each thread'"'"'s column labelled with its name' labels

ln -s "$split" short || exit 99
check 'operf ./short (a symlink to split)' profile sh -d sym ./short
comm() {
	exits 0 c1 --session-dir=sym -n &&
	exits 0 c2 --session-dir=sym -n --comm &&
	grep -q '^ *[0-9]* 100\.000 split$' c1.out &&
	grep -q '^ *[0-9]* 100\.000 split (short)$' c2.out
}
check '--comm: split (short), without it split' comm

mkdir a b && cp "$split" a/split && cp "$split" b/split || exit 99
check 'operf sh: a/split, then b/split' profile two -d two sh -c './a/split && ./b/split'
apart() {
	exits 0 two --session-dir=two -n &&
	grep -q " $T_REAL/a/split\$" two.out && grep -q " $T_REAL/b/split\$" two.out &&
	grep -q ' sh$\| dash$\| bash$' two.out
}
check 'two binaries named split: told apart by path, others by base name' apart

# names with control characters (a file name with a newline, a symbol
# with an escape sequence): written \xHH, never splitting a line or
# reaching the terminal
nl='
'
esc=$(printf '\033')
if command -v objcopy >/dev/null 2>&1 &&
   objcopy --redefine-sym "split_three=split${esc}[31mthree" "$split" "bad${nl}name" 2>/dev/null; then
	chmod +x "bad${nl}name" || exit 99
	check 'operf a program whose name holds a newline' profile bad -d bad "./bad${nl}name"
	escaped() {
		exits 0 bl --session-dir=bad -l -n &&
		grep -q '^[0-9][0-9]*  *[0-9.]*  *bad\\x0aname  *split\\x1b\[31mthree$' bl.out &&
		! grep -q "$esc" bl.out &&
		test "$(grep -vc '^[0-9][0-9]*  *[0-9.e+-]*  ' bl.out)" = 0
	}
	check 'opreport -l: \x0a in the image name, \x1b in the symbol, every line whole' escaped
	check '... and the summary' sh -c '"$0" --session-dir=bad -n | grep -q "bad\\\\x0aname\$"' "$OPREPORT"
else
	skip 'names with control characters' 'objcopy cannot write the test binary'
fi
done_testing
