#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Call-graph arcs into and inside the kernel (operf --callgraph, opreport
# -c) on a syscall-heavy run of a real program (dd, one byte per read
# and write): the sample files keep 32 bits of each end, and opreport
# gives kernel addresses their high half back, so
#  - libc's read and write call named kernel functions;
#  - kernel functions call named kernel functions (ksys_write ->
#    vfs_write, ...), and nearly every kernel arc lands on a named symbol,
#    not a gap;
#  - no arc is reported as dropped;
#  - with --merge=lib or all each function is one entry, not one with
#    its samples and another with its callers;
#  - opannotate -s does not warn that kernel symbols have no lines;
#  - an archive's kernel symbols come from the archive only.
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"
command -v dd >/dev/null 2>&1 || skip_all "dd is not installed"

check 'operf --callgraph dd (a syscall per byte)' \
	profile dd --callgraph -d dd dd if=/dev/zero of=/dev/null bs=1 count=400000
grep -q ' samples (0 kernel' dd.err &&
	skip_all "no kernel samples here: $(tail -n 1 dd.err)"
test -r /proc/kallsyms && grep -q '^[0-9a-f]*[1-9a-f][0-9a-f]* [tT] ' /proc/kallsyms ||
	skip_all 'kernel symbols are hidden here (kptr_restrict)'
check 'opreport -c' exits 0 cg --session-dir=dd -c -n

# arcs.txt: "CALLER_IMAGE CALLER CALLEE_IMAGE CALLEE COUNT" from -c's
# blocks (image and symbol columns)
arcs() {
	python3 - cg.out >arcs.txt <<'EOF'
import re, sys
line_re = re.compile(r"^( *)(\d+)\s+[\d.]+\s+(\S+)\s+(.*?)( \[self\])?$")
callers, entry = [], None
for l in open(sys.argv[1]):
    l = l.rstrip("\n")
    if l.startswith("-"):
        callers, entry = [], None
        continue
    m = line_re.match(l)
    if not m:
        continue
    ind, cnt, img, sym, self_ = m.groups()
    if not ind:
        entry = (img, sym)
        for c in callers:
            print(c[0], c[1], img, sym, c[2], sep="\t")
    elif entry is None:
        callers.append((img, sym, cnt))
    elif not self_:
        print(entry[0], entry[1], img, sym, cnt, sep="\t")
EOF
}
check 'the arcs of -c, read back' arcs
say "$(wc -l <arcs.txt) arcs"
user_to_kernel() {
	awk -F '\t' '$1 ~ /^libc/ && ($2 == "read" || $2 == "write") &&
		$3 == "no-vmlinux" && $4 !~ /^\[/ { n++ } END { exit !(n > 0) }' arcs.txt
}
check 'libc read/write -> a named kernel function' user_to_kernel
inside() {
	awk -F '\t' '$1 == "no-vmlinux" && $3 == "no-vmlinux" && $2 !~ /^\[/ && $4 !~ /^\[/ &&
		$2 ~ /^(ksys|vfs|__x64_sys|do_syscall)_/ { n++ } END { exit !(n > 0) }' arcs.txt
}
check 'kernel -> kernel arcs between named functions (ksys_*, vfs_*, ...)' inside
named() {	# at least 95% of the calls between kernel ends are named
	awk -F '\t' '$1 == "no-vmlinux" && $3 == "no-vmlinux" {
		all += $5; if ($2 ~ /^\[no-vmlinux 0x/ || $4 ~ /^\[no-vmlinux 0x/) gap += $5 }
		END { printf "# %d of %d kernel calls touch a gap\n", gap, all
		      exit !(all > 0 && gap * 20 <= all) }' arcs.txt
}
check '... nearly every kernel arc between named functions, not gaps' named
check 'no arcs reported as dropped' sh -c '! grep -q "dropped" cg.err'
# --merge=lib and all: the images are applications; a kernel function
# called from libc is still one entry, with its samples and its callers
once() {	# MERGE: no (image, symbol) twice, whatever application it is of
	exits 0 "m$1" --session-dir=dd -c -n --merge="$1" &&
	awk '/^[0-9]/ { print $3, $NF }' "m$1.out" | sort | uniq -d >"m$1.twice" &&
	test ! -s "m$1.twice" &&
	grep -q '^[0-9].* no-vmlinux  *entry_SYSCALL_64' "m$1.out"
}
check '-c --merge=lib: each function one entry' once lib
check '-c --merge=all: the same' once all
# opannotate --source: kernel symbols never have line information; that
# is no news worth a warning on every run (dd and libc have their own)
quiet() {
	"$OPANNOTATE" --session-dir=dd -s >ann.out 2>ann.err
	! grep -q 'kallsyms' ann.err
}
check 'opannotate -s: no warning that kernel symbols have no lines' quiet
# an archive of the session without its kallsyms copy: the running
# kernel's symbols are another machine's to an archive, never used
arch=$T/arch$T_REAL
mkdir -p "$arch" && cp -R dd "$arch/dd" && rm "$arch/dd/samples/current/kernel/kallsyms" ||
	exit 99
archive_own() {
	exits 0 ar --session-dir="$T_REAL/dd" -l archive:"$T/arch" &&
	grep -q "no kernel symbols: the archive has no usable kernel/kallsyms" ar.err &&
	! grep -q 'ksys_write\|vfs_read' ar.out && grep -q ' /no-vmlinux$' ar.out
}
check 'archive: without kallsyms: no kernel names from the running machine' archive_own

done_testing
