#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# opreport -l on real, stripped Debian programs (only .dynsym, no debug
# files): xz (liblzma), bzip2 (libbz2), as (a binary without a symbol of
# its own, and libbfd), sort (PLT entries).
#  - every image's rows in -l add up to its line of the image summary;
#  - every percentage is the row's share of all samples (none above it);
#  - the samples outside every named symbol are gap rows named by image
#    and range, and most of liblzma's and libbz2's are there;
#  - the header says how many samples are outside named symbols, and what
#    would name them, reading dpkg's file lists once for all images;
#  - PLT entries are rows named as objdump names them (memcmp@plt).
. "$top_srcdir/tests/lib.sh"
need_perf
test -x "$OPREPORT" || skip_all "opreport is not built"

# views SESSION: the summary (NAME.sum) and -l (NAME.l) of a session
views() {
	exits 0 "$1.sum" --session-dir="$1" -n &&
	exits 0 "$1.l" --session-dir="$1" -l -n &&
	exits 0 "$1.lh" --session-dir="$1" -l
}

# honest SESSION [IMAGE MIN_GAP_PERCENT]: -l's rows per image equal the
# summary's images, each share is of all samples; IMAGE's gap rows hold
# at least MIN_GAP_PERCENT of its samples
honest() {
	python3 - "$1.sum.out" "$1.l.out" "${2:-}" "${3:-0}" "$top_srcdir/tests/tools" <<'EOF'
import re, sys
sys.path.insert(0, sys.argv[5])
from perf_oracle import our_summary, our_symbols
want_img, min_gap = sys.argv[3], float(sys.argv[4])
total, images = our_summary(sys.argv[1])
sums = dict.fromkeys(images, 0)
gaps = dict.fromkeys(images, 0)
pct = [l.split()[1] for l in open(sys.argv[2]).read().splitlines()]
rows = our_symbols(sys.argv[2], images)
assert len(rows) == len(pct), "a row of -l of no image of the summary"
for (c, img, sym), p in zip(rows, pct):
    sums[img] += c
    share = 100.0 * c / total
    assert abs(float(p) - share) < 0.00006, "%s %s: %s%%, its share is %.6f%%" % (img, sym, p, share)
    base = img.split()[0]
    if re.fullmatch(r"\[" + re.escape(base) + r" 0x[0-9a-f]+-0x[0-9a-f]+\]", sym):
        gaps[img] += c
for img in images:
    assert sums[img] == images[img], "%s: %d in -l, %d in the summary" % (img, sums[img], images[img])
for img in sorted(images, key=lambda n: -images[n]):
    print("# %-30s %7d samples, %5.1f%% of them in gap rows" %
          (img, images[img], 100.0 * gaps[img] / images[img]))
if want_img:
    img = next(n for n in images if n.startswith(want_img))
    assert 100.0 * gaps[img] >= min_gap * images[img], "%s: too few in gaps" % img
EOF
}

# all_views SESSION: -d, -c and -X add up to the summary too: detail
# lines sum to their symbol, the [self] lines of -c and the <symbol>
# counts of each XML <module> (or <binary>) to the image's line
all_views() {
	exits 0 "$1.d" --session-dir="$1" -d -n &&
	exits 0 "$1.c" --session-dir="$1" -c -n &&
	exits 0 "$1.x" --session-dir="$1" -X &&
	python3 - "$1.sum.out" "$1.d.out" "$1.c.out" "$1.x.out" "$top_srcdir/tests/tools" <<'EOF'
import re, sys
import xml.etree.ElementTree as E
sys.path.insert(0, sys.argv[5])
from perf_oracle import our_summary
total, images = our_summary(sys.argv[1])
# -d: a symbol line (an address first), then its detail lines (indented)
sym, got, want = None, 0, 0
for l in open(sys.argv[2]).read().splitlines() + ["END"]:
    if l.startswith("  "):
        got += int(l.split()[1])
        continue
    assert got == want, "-d: details of %r sum to %d, not %d" % (sym, got, want)
    if l != "END":
        sym, got, want = l, 0, int(l.split()[1])
# -c: the [self] lines sum to all samples
selfs = sum(int(l.split()[0]) for l in open(sys.argv[3]) if l.rstrip().endswith("[self]"))
assert selfs == total, "-c: [self] lines sum to %d, not %d" % (selfs, total)
# -X: each module's symbols sum to its count; the counts to the summary's
root = E.parse(sys.argv[4]).getroot()
by_name = {}
for m in root.iter():
    if m.tag not in ("module", "binary") or m.find("count") is None:
        continue
    c = int(m.find("count").text)
    syms = sum(int(s.find("count").text) for s in m.findall("symbol"))
    assert syms == c, "-X: %s: symbols %d, count %d" % (m.get("name"), syms, c)
    by_name[m.get("name").rsplit("/", 1)[-1]] = c
for img, c in images.items():
    if img.startswith("["):
        continue    # an anonymous region: named by its range
    assert by_name.get(img) == c, "-X: %s: %s, the summary says %d" % (img, by_name.get(img), c)
EOF
}

# note SESSION: the header's note agrees with the gap rows of -l
note() {
	grep -q '^Note: [0-9]* of [0-9]* samples ([0-9.]*%) are outside every named symbol: shown as \[IMAGE 0xFIRST-0xLAST\], a row per gap between symbols$' "$1.lh.out"
}

# hints_once BIN...: a session (mksamples.py) with samples in the middle
# of the .text of each stripped BIN: opreport -l names each one's debug
# package in a hint, reading dpkg's file lists in one pass, not one per
# image (strace; no LeakSanitizer: it cannot run under ptrace)
hints_once() {
	python3 - "$@" >gaps.json <<'EOF' || return 1
import json, subprocess, sys
profiles = []
for b in sys.argv[1:]:
    out = subprocess.run(["readelf", "-SW", b], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == ".text":
            mid = int(f[4], 16) + int(f[5], 16) // 2
            profiles.append({"binary": b, "event": 0, "samples": {hex(mid): 40}})
print(json.dumps({"session_dir": "gaps", "cpu_type": "i386/skylake",
                  "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0}],
                  "profiles": profiles}))
EOF
	python3 "$MKSAMPLES" gaps.json --quiet &&
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=openat -o gaps.trace \
		"$OPREPORT" --session-dir=gaps -l >gaps.out 2>&1 &&
	test "$(grep -c '^Note: 40 of them in .*: install the debug symbols of package' gaps.out)" -eq $# &&
	test "$(grep -c '"/var/lib/dpkg/info", .*O_DIRECTORY' gaps.trace)" -eq 1
}

head -c 4000000 /dev/urandom | od -An -tx1 -v >data.txt || exit 99

# --- xz: liblzma keeps only its exported symbols -------------------------
if command -v xz >/dev/null 2>&1; then
	check 'operf xz -6' profile xz -d xz xz -6 -k -c data.txt
	check 'opreport: summary and -l of xz' views xz
	check '-l: rows add up to the summary per image, shares of all samples' \
		honest xz liblzma 50
	check '-l: the header notes the samples outside named symbols' note xz
	check '-d, -c and -X add up to the summary as well' all_views xz
	check '... and names liblzma'"'"'s debug package or build-id path' \
		grep -q '^Note: [0-9]* of them in liblzma[.0-9so]*: no debug information in' xz.lh.out
else
	skip 'xz: stripped liblzma' 'xz is not installed'
fi

# --- the hints of several images: dpkg's lists read once ------------------
if ! command -v strace >/dev/null 2>&1 || ! test -d /var/lib/dpkg/info; then
	skip 'the hints of xz, bzip2 and gzip read dpkg'"'"'s file lists once' \
		'needs strace and dpkg'
elif ! test -x /usr/bin/xz || ! test -x /bin/bzip2 || ! test -x /bin/gzip; then
	skip 'the hints of xz, bzip2 and gzip read dpkg'"'"'s file lists once' \
		'needs xz, bzip2 and gzip'
else
	check 'the hints of xz, bzip2 and gzip read dpkg'"'"'s file lists once' \
		hints_once /usr/bin/xz /bin/bzip2 /bin/gzip
fi

# --- bzip2: libbz2 -----------------------------------------------------
if command -v bzip2 >/dev/null 2>&1; then
	check 'operf bzip2 -9' profile bz -d bz bzip2 -9 -k -c data.txt
	check 'opreport: summary and -l of bzip2' views bz
	check '-l: rows add up to the summary per image, shares of all samples' \
		honest bz libbz2 30
	check '-l: the header notes the samples outside named symbols' note bz
	check '-d, -c and -X add up to the summary as well' all_views bz
else
	skip 'bzip2: stripped libbz2' 'bzip2 is not installed'
fi

# --- as: no symbol of its own (imports only), libbfd ---------------------
if command -v as >/dev/null 2>&1; then
	python3 -c '
for i in range(60000):
    print("\tmovq $%d, %%rax\n\taddq %%rbx, %%rcx\nL%d:\tjmp L%d" % (i, i, i))
' >big.s || exit 99
	check 'operf as' profile as -d as as -o big.o big.s
	check 'opreport: summary and -l of as' views as
	check '-l: as and its libraries add up, shares of all samples' honest as
	as_gap() {	# as's own rows: gaps, PLT entries, or what its .dynsym exports
		p=$(readlink -f "$(command -v as)") && a=${p##*/} &&
		nm -D --defined-only "$p" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >as.dynsym &&
		grep " $a " as.l.out | grep -v " $a  *\[$a 0x" | grep -v '@plt$' |
			awk '{ print $NF }' | sort -u >as.named &&
		comm -23 as.named as.dynsym >as.other &&
		grep -q " $a  *\[$a 0x" as.l.out &&
		{ test ! -s as.other || { sed 's/^/# neither a gap nor exported: /' as.other; false; }; }
	}
	check '... as itself: gap rows, PLT entries and its exports, not one line named after the image' as_gap
else
	skip 'as: a binary without symbols of its own' 'binutils is not installed'
fi

# --- sort: PLT entries ---------------------------------------------------
if command -v sort >/dev/null 2>&1 && command -v objdump >/dev/null 2>&1; then
	seq 1 1500000 | sort -R >lines.txt || exit 99
	check 'operf sort' profile sort -d sort sort -S 100M -o sorted.txt lines.txt
	check 'opreport: summary and -l of sort' views sort
	check '-l: rows add up to the summary per image, shares of all samples' honest sort
	plt() {	# the @plt rows of sort, each a name objdump gives in sort (the
		# PLT rows of libc, sampled in some runs, are libc's to name)
		s=$(readlink -f "$(command -v sort)") &&
		awk '$3 == "sort" && $NF ~ /@plt$/ { print $NF }' sort.l.out | sort -u >plt.got &&
		say "PLT rows: $(tr '\n' ' ' <plt.got)" && test -s plt.got &&
		objdump -d "$s" | sed -n 's/^[0-9a-f]* <\(.*@plt\)>:$/\1/p' | sort -u >plt.all &&
		test -z "$(comm -23 plt.got plt.all)"
	}
	check 'PLT entries are rows, named as objdump names them' plt
else
	skip 'sort: PLT entries' 'sort or objdump is not installed'
fi

done_testing
