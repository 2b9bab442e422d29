#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare two opreport views of one program sampled by two recorders.

usage: session_compare.py SUMMARY_A SYMBOLS_A SUMMARY_B SYMBOLS_B

SUMMARY_* are `opreport -n image:APP` and SYMBOLS_* `opreport -l -n
image:APP` of two sessions of the same run (for example operf's own and
the import of `perf record -- operf ...`).  Each image's share and each
of A's ten largest named symbols' shares must agree within one
percentage point, or within four standard deviations of two independent
samplers' noise when that is wider (perf_oracle.allowed).  Prints the
figures; exits 1 when one differs by more.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perf_oracle import allowed, our_summary, our_symbols  # noqa: E402


def shares(summary, symbols):
    total, images = our_summary(summary)
    rows = our_symbols(symbols, images)
    syms = {}
    for c, img, sym in rows:
        syms[(img.split()[0], sym)] = syms.get((img.split()[0], sym), 0) + c
    imgs = {n.split()[0]: c for n, c in images.items()}
    return total, imgs, syms


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    ta, ia, sa = shares(sys.argv[1], sys.argv[2])
    tb, ib, sb = shares(sys.argv[3], sys.argv[4])
    if not ta or not tb:
        sys.exit("no samples: %d and %d" % (ta, tb))
    print("# %d samples in A, %d in B" % (ta, tb))
    bad = 0
    for img in sorted(set(ia) | set(ib), key=lambda n: -ia.get(n, 0)):
        a, b = 100.0 * ia.get(img, 0) / ta, 100.0 * ib.get(img, 0) / tb
        if max(a, b) < 0.1:
            continue
        flag = abs(a - b) > allowed(1.0, a, b, ta, tb)
        bad += flag
        print("# image %-30s A %6.2f%%  B %6.2f%%%s" % (img, a, b, "  DIFFERS" if flag else ""))
    named = [k for k in sa if not k[1].startswith("[") and not k[1].endswith("@plt")]
    named.sort(key=lambda k: -sa[k])
    for key in named[:10]:
        a, b = 100.0 * sa[key] / ta, 100.0 * sb.get(key, 0) / tb
        flag = abs(a - b) > allowed(1.0, a, b, ta, tb)
        bad += flag
        print("# symbol %-40s A %6.2f%%  B %6.2f%%%s" %
              (key[0] + ":" + key[1], a, b, "  DIFFERS" if flag else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
