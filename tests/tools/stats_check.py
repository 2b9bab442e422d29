#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent checks of opreport's statistics (t0650), in Python's
standard library only: Wilson intervals from statistics.NormalDist, the
two-proportion tests (Fisher's from math.comb, the pooled z test from
math.erfc) and Holm's adjustment.

  stats_check.py text LEVEL TOTAL FILE     every "samples % low high"
      row of an opreport text report (-l, -d, the summary) against the
      Wilson interval of its samples of TOTAL (indented rows of -d: of the
      symbol line above); prints the rows checked
  stats_check.py callgraph LEVEL TOTAL FILE  every line of -c's blocks: a
      symbol's interval of TOTAL, a caller's or callee's of its list's sum
  stats_check.py xml LEVEL TOTAL FILE      every <count low high> of -X
  stats_check.py diff LEVEL N1 N2 FILE     every row of a differential:
      its adj. p and sig from the first counts given as "name=count"
      arguments after FILE (rows absent from them had 0)
"""
import math
import re
import statistics
import sys


def wilson(k, n, level):
    z = statistics.NormalDist().inv_cdf(1 - (1 - level) / 2)
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if k == 0 else max(0.0, c - h),
            1.0 if k == n else min(1.0, c + h))


def num(s):
    return float(s)


def close(got, want, digits):
    """got printed from want (a percentage): 4 decimals or 2 significant"""
    tol = max(0.5 * 10 ** -digits, abs(want) * 0.051 if want < 0.001 else 0)
    return abs(got - want) <= tol + 1e-12


def check_text(level, total, path):
    bad = checked = 0
    whole = total
    for line in open(path):
        f = line.split()
        if len(f) < 4 or not re.fullmatch(r'\d+', f[0] if not re.fullmatch(
                r'[0-9a-f]{8,16}', f[0]) or len(f) < 5 else f[1]):
            continue
        indented = line.startswith('  ')
        if re.fullmatch(r'[0-9a-f]{8,16}', f[0]) and len(f) >= 5:
            f = f[1:]
        try:
            k, lo, hi = int(f[0]), num(f[2]), num(f[3])
        except ValueError:
            continue
        n = whole if indented else total
        wl, wh = wilson(k, n, level)
        if not (close(lo, wl * 100, 4) and close(hi, wh * 100, 4)):
            print('# bad interval: %r: want %.4f %.4f' % (line, wl * 100, wh * 100))
            bad += 1
        checked += 1
        if not indented:
            whole = k
    print(checked)
    return bad == 0 and checked > 0


def check_callgraph(level, total, path):
    """opreport -c: in each block (between rules), the symbol line's share
    is of total, each caller's of all callers', each callee's (and
    [self]'s) of all callees'"""
    bad = checked = 0
    blocks, cur = [], None
    for line in open(path):
        if line.startswith('-----'):
            if cur is not None:
                blocks.append(cur)
            cur = []
            continue
        if line.startswith('Self and total'):
            break
        if cur is not None:
            cur.append(line)
    for b in blocks:
        rows = [(l.startswith('  '), l.split()) for l in b if l.strip()]
        main = [i for i, (ind, _) in enumerate(rows) if not ind]
        if len(main) != 1:
            continue
        m = main[0]
        callers, callees = rows[:m], rows[m + 1:]
        for group, whole in ((callers, sum(int(f[0]) for _, f in callers)),
                             (callees, sum(int(f[0]) for _, f in callees)),
                             ([rows[m]], total)):
            for _, f in group:
                k, lo, hi = int(f[0]), num(f[2]), num(f[3])
                wl, wh = wilson(k, whole, level)
                if not (close(lo, wl * 100, 4) and close(hi, wh * 100, 4)):
                    print('# bad interval: %r of %d: want %.4f %.4f'
                          % (' '.join(f), whole, wl * 100, wh * 100))
                    bad += 1
                checked += 1
    print(checked)
    return bad == 0 and checked > 0


def check_xml(level, total, path):
    bad = checked = 0
    text = open(path).read()
    for m in re.finditer(r'<count[^>]*low="([^"]+)" high="([^"]+)">\s*(\d+)</count>', text):
        lo, hi, k = float(m.group(1)), float(m.group(2)), int(m.group(3))
        wl, wh = wilson(k, total, level)
        if not (close(lo, wl * 100, 4) and close(hi, wh * 100, 4)):
            print('# bad interval: %s: want %g %g' % (m.group(0), wl * 100, wh * 100))
            bad += 1
        checked += 1
    print(checked)
    return bad == 0 and checked > 0


def fisher(k1, n1, k2, n2):
    K, N = k1 + k2, n1 + n2
    base = math.comb(N, n1)
    def pr(x):
        return math.comb(K, x) * math.comb(N - K, n1 - x) / base
    seen = pr(k1)
    return min(1.0, sum(pr(x) for x in range(max(0, K - n2), min(K, n1) + 1)
                        if pr(x) <= seen * (1 + 1e-7)))


def two_prop(k1, n1, k2, n2):
    if k1 + k2 == 0:
        return 1.0
    K, N = k1 + k2, n1 + n2
    cells = [K * n1 / N, K * n2 / N, (N - K) * n1 / N, (N - K) * n2 / N]
    if min(cells) < 10:
        return fisher(k1, n1, k2, n2)
    p = K / N
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return min(1.0, math.erfc(abs(k1 / n1 - k2 / n2) / se / math.sqrt(2)))


def check_diff(level, n1, n2, path, before):
    rows = []
    for line in open(path):
        f = line.split()
        # samples % [low high] diff adj.p sig name
        for i in (4, 6):
            if len(f) > i + 1 and re.fullmatch(r'\d+', f[0]) and f[i] in ('*', '~'):
                rows.append(f[:1] + f[1:2] + f[i - 2:])
                break
    firsts = dict(b.split('=') for b in before)
    tests = []
    for f in rows:
        name = f[-1]
        k = int(f[0])
        if f[1] == '---':
            tests.append((k, 0))
        else:
            tests.append((int(firsts.get(name, 0)), k))
    ps = [two_prop(a, n1, b, n2) for a, b in tests]
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, run = [0.0] * len(ps), 0.0
    for j, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - j) * ps[i]))
        adj[i] = run
    bad = 0
    for f, a in zip(rows, adj):
        got = float(f[3])
        sig = '*' if a <= 1 - level else '~'
        if abs(got - a) > max(0.00005, a * 0.051) or f[4] != sig:
            print('# bad test: %s: want p %.3g %s' % (' '.join(f), a, sig))
            bad += 1
    print(len(rows))
    return bad == 0 and rows


def main():
    what, level = sys.argv[1], float(sys.argv[2]) / 100
    if what == 'text':
        ok = check_text(level, int(sys.argv[3]), sys.argv[4])
    elif what == 'callgraph':
        ok = check_callgraph(level, int(sys.argv[3]), sys.argv[4])
    elif what == 'xml':
        ok = check_xml(level, int(sys.argv[3]), sys.argv[4])
    else:
        ok = check_diff(level, int(sys.argv[3]), int(sys.argv[4]), sys.argv[5],
                        sys.argv[6:])
    sys.exit(0 if ok else 1)


main()
