#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare opreport's views of one run with perf's of the same run.

usage: perf_oracle.py PERF_SCRIPT COMM SUMMARY SYMBOLS [TOLERANCE]

PERF_SCRIPT is the output of `perf script -F comm,ip,sym,dso` of a
`perf record -e cpu-clock -- operf ... COMMAND` run; COMM the command's
name (perf's samples of other commands, operf's own, are left out).
SUMMARY is `opreport -n` and SYMBOLS `opreport -l -n` of operf's session.

Checked, within TOLERANCE percentage points (default 1), or within four
standard deviations of the difference two independent samplers of these
sample counts show by chance, when that is wider (the two tools' timers
fire at different moments, so their shares differ by sampling noise: for
a 12% share of 14,000 samples each that deviation is 0.39 points):
  - each image's share of the command's samples (perf's dso; the kernel is
    perf's [kernel.kallsyms] and our no-vmlinux);
  - each of our ten largest named symbols (not gap rows, not PLT entries),
    against perf's samples of that symbol or of an alias at its address
    (the two tools may keep different aliases: nm and /proc/kallsyms say
    which names share an address).
Prints the figures of both tools; exits 1 when one differs by more.
"""
import collections
import math
import os
import re
import subprocess
import sys

KERNEL = "no-vmlinux"


def perf_samples(path, comm):
    """(dso base name, symbol or None) -> count, and the dsos' full paths"""
    counts = collections.Counter()
    paths = {}
    line_re = re.compile(r"^\s*(\S+)\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")
    for line in open(path, errors="replace"):
        m = line_re.match(line)
        if not m or m.group(1) != comm:
            continue
        sym, dso = m.group(2), m.group(3)
        if dso == "[kernel.kallsyms]" or dso.startswith("[kernel"):
            base = KERNEL
        else:
            base = os.path.basename(dso)
            paths[base] = dso
        if sym == "[unknown]" or not sym:
            sym = None
        else:
            sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
        counts[(base, sym)] += 1
    return counts, paths


def our_summary(path):
    lines = open(path).read().splitlines()
    total = int(lines[0].split()[0])
    images = {}
    for line in lines[1:]:
        if line.startswith("\t"):
            f = line.split(None, 2)
            images[f[2]] = int(f[0])
    if not images:
        images[lines[0].split(None, 2)[2]] = total
    return total, images


def our_symbols(path, images):
    names = sorted(images, key=len, reverse=True)
    rows = []
    for line in open(path).read().splitlines():
        c, _pct, rest = line.split(None, 2)
        img = next((n for n in names if rest.startswith(n + " ")), None)
        if img is None:
            if len(images) != 1:
                continue
            img, sym = names[0], rest
        else:
            sym = rest[len(img):].strip()
        rows.append((int(c), img, sym))
    return rows


def aliases(image, path, name):
    """the names sharing name's address in image (name itself at least)"""
    out = {name}
    try:
        if image == KERNEL:
            text = open("/proc/kallsyms").read().splitlines()
            by = collections.defaultdict(set)
            for line in text:
                f = line.split()
                if len(f) >= 3:
                    by[f[0]].add(f[2])
        else:
            by = collections.defaultdict(set)
            for opt in (["-D"], []):
                r = subprocess.run(["nm", "--defined-only"] + opt + [path],
                                   capture_output=True, text=True)
                for line in r.stdout.splitlines():
                    f = line.split()
                    if len(f) >= 3:
                        by[f[0]].add(re.sub(r"@.*$", "", f[2]))
        for names in by.values():
            if name in names:
                out |= names
    except OSError:
        pass
    return out


def allowed(tol, a, b, n1, n2):
    """the largest difference (points) between shares a and b (percent) of
    n1 and n2 samples that is not evidence of a disagreement"""
    p = (a + b) / 200.0
    sigma = 100.0 * math.sqrt(p * (1.0 - p) * (1.0 / n1 + 1.0 / n2))
    return max(tol, 4.0 * sigma)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    perf, paths = perf_samples(sys.argv[1], sys.argv[2])
    total, images = our_summary(sys.argv[3])
    rows = our_symbols(sys.argv[4], images)
    tol = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0
    perf_total = sum(perf.values())
    if not perf_total or not total:
        sys.exit("no samples: perf %d, opreport %d" % (perf_total, total))
    bad = 0
    print("# %d samples by perf, %d by operf" % (perf_total, total))
    perf_img = collections.Counter()
    for (img, _sym), c in perf.items():
        perf_img[img] += c
    ours_base = {n.split()[0] if not n.startswith("[") else n: c for n, c in images.items()}
    for img in sorted(set(perf_img) | set(ours_base),
                      key=lambda n: -(perf_img.get(n, 0) + ours_base.get(n, 0))):
        a = 100.0 * ours_base.get(img, 0) / total
        b = 100.0 * perf_img.get(img, 0) / perf_total
        if max(a, b) < 0.1:
            continue
        flag = abs(a - b) > allowed(tol, a, b, total, perf_total)
        bad += flag
        print("# image %-32s opreport %6.2f%%  perf %6.2f%%%s" % (img, a, b, "  DIFFERS" if flag else ""))
    # where the samples are: named symbols, gap rows, PLT entries (perf:
    # named, PLT, [unknown])
    o_gap = sum(r[0] for r in rows if r[2].startswith("["))
    o_plt = sum(r[0] for r in rows if r[2].endswith("@plt"))
    p_unk = sum(c for (_i, sym), c in perf.items() if sym is None)
    p_plt = sum(c for (_i, sym), c in perf.items() if sym and sym.endswith("@plt"))
    print("# named symbols: opreport %6.2f%%  perf %6.2f%%" %
          (100.0 * (total - o_gap - o_plt) / total,
           100.0 * (perf_total - p_unk - p_plt) / perf_total))
    print("# gaps / unknown: opreport %6.2f%%  perf %6.2f%%" %
          (100.0 * o_gap / total, 100.0 * p_unk / perf_total))
    print("# PLT entries:   opreport %6.2f%%  perf %6.2f%%" %
          (100.0 * o_plt / total, 100.0 * p_plt / perf_total))
    named = [r for r in rows if not r[2].startswith("[") and not r[2].endswith("@plt")]
    named.sort(key=lambda r: -r[0])
    for c, img, sym in named[:10]:
        base = img.split()[0]
        names = aliases(base, paths.get(base, ""), sym)
        pc = sum(perf.get((base, n), 0) for n in names)
        a = 100.0 * c / total
        b = 100.0 * pc / perf_total
        flag = abs(a - b) > allowed(tol, a, b, total, perf_total)
        bad += flag
        print("# symbol %-40s opreport %6.2f%%  perf %6.2f%%%s" %
              (base + ":" + sym, a, b, "  DIFFERS" if flag else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
