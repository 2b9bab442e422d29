#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""annotate_oracle.py -- what opannotate should print for a session, worked
out without our C code, and a checker of its output (tests/e2e/t03*).

The per-address counts are read from the session's sample files (with
attribute.py's reader, oprofile-ng-formats(5), SAMPLE FILES), keys are mapped to symbols
with mksamples.py's implementation of opreport's rules, to addresses
through the binary's PT_LOADs, and addresses to source lines with
binutils' addr2line (-i -f: the innermost line, then each call site of
an inlined function) and to instruction text with objdump.

USAGE
  annotate_oracle.py keys SESSION [--image IMG]...
      IMAGE VMA COUNT SYMBOL FILE:LINE of every sampled address
  annotate_oracle.py source SESSION OUTPUT [options]
      OUTPUT (opannotate --source) has, for every source file of the
      chosen images, exactly the expected count on every line (and no
      count on any other line), each line's text as in the file, the
      "NAME total:" comment on the line of each symbol's first address,
      the "NAME inlined here:" comment on each call site with the samples
      of the code inlined there, the file totals, the percentages, and
      the files in order of samples.
  annotate_oracle.py asm SESSION OUTPUT [options]
      OUTPUT (opannotate --assembly, or -s -a with --interleaved) lists
      for each chosen image exactly its sampled symbols, in order (--sort
      vma or samples), each at its address with its total, every
      instruction inside the symbol with the samples of its bytes, and
      (--objdump SYM) the text objdump gives for every instruction of SYM.
options
  --image IMG        only this image (repeatable; default every ELF image)
  --symbol NAME      only these symbols (repeatable; -i / -e tests)
  --total N          the denominator of the percentages (default: the
                     samples of every chosen symbol); 0: derive it from
                     the output's largest count (then a tolerance applies)
  --strict           no other file (source) or image (asm) in OUTPUT
  --threshold PCT    source: only files holding at least PCT percent
  --only-file GLOB   source: only files matching (path or base name)
  --src-path NAME=PATH  source: the text of file NAME is at PATH (-d, -b)
  --sort KEY         asm: "samples" (default) or "vma"
  --objdump SYM      asm: compare SYM's instructions with objdump's
  --objdump-opts O   asm: objdump -M O
  --interleaved      asm: -s -a, check the source line above each insn
Exit status 0 when OUTPUT is right, 1 with the differences on stdout
(as "# ..." lines).
"""

import argparse
import fnmatch
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attribute  # noqa: E402
import mksamples  # noqa: E402

bad = []


def complain(msg):
    bad.append(msg)


# --- the session's samples ---------------------------------------------

def session_keys(session, images):
    """{image: {key: count}} of the plain sample files of ELF images"""
    top = os.path.join(session, "samples", "current")
    out = {}
    for rel in attribute.walk(top):
        _app, image, callee, _spec = attribute.parse_path(rel)
        if callee is not None or image.kind != "root":
            continue
        if images and image.name not in images:
            continue
        _hdr, items = attribute.read_odb(os.path.join(top, rel))
        per = out.setdefault(image.name, {})
        for key, value in items:
            per[key] = per.get(key, 0) + value
    return out


def extent(sym):
    """bytes of a symbol: its st_size when it has one (our rule, as
    opreport(1), SYMBOLS says: padding after a sized function belongs to
    nobody), else up to the next symbol (OProfile's)"""
    return min(sym.elf_size, sym.size) if sym.elf_size else sym.size


def offset_to_vma(elf, off):
    for vaddr, foff, filesz, _memsz in elf.segments:
        if foff <= off < foff + filesz:
            return vaddr + off - foff
    return None


class Sampled:
    """one sampled address"""
    __slots__ = ("image", "key", "vma", "count", "sym", "frames")


def addr2line(image, vmas):
    """{vma: [(function, file, line)]}, innermost first; [] without a line"""
    res = {}
    if not vmas:
        return res
    text = subprocess.run(["addr2line", "-e", image, "-i", "-f", "-a"] +
                          ["0x%x" % v for v in vmas], check=True,
                          capture_output=True, text=True).stdout
    cur, lines = None, text.split("\n")
    i = 0
    while i < len(lines):
        ln = lines[i]
        if re.fullmatch(r"0x[0-9a-f]+", ln):
            cur = int(ln, 16)
            res[cur] = []
            i += 1
            continue
        if not ln:
            i += 1
            continue
        func, loc = ln, lines[i + 1]
        i += 2
        loc = re.sub(r" \(discriminator \d+\)$", "", loc)
        f, _, l = loc.rpartition(":")
        if f == "??" or not l.isdigit() or int(l) == 0:
            continue
        res[cur].append((func, f, int(l)))
    return res


def load(args):
    """the chosen samples, and the chosen symbols with their counts"""
    keys = session_keys(args.session, args.image)
    samples, symbols = [], {}
    load.outside = {}
    for image in sorted(keys):
        syms = mksamples.image_symbols(image)
        elf = syms.elf
        mine = []
        for key, count in sorted(keys[image].items()):
            s = syms.lookup(key)
            if s is None or key >= s.filepos + extent(s):
                # outside every named symbol: a gap row of opannotate's
                # (its bounds are not modelled here, only its count)
                load.outside[image] = load.outside.get(image, 0) + count
                continue
            if args.symbol and s.name not in args.symbol:
                continue
            smp = Sampled()
            smp.image, smp.key, smp.count, smp.sym = image, key, count, s
            smp.vma = offset_to_vma(elf, key)
            mine.append(smp)
            e = symbols.setdefault((image, s.name), [s, 0])
            e[1] += count
        where = addr2line(image, [m.vma for m in mine] +
                          [e[0].vma for k, e in symbols.items() if k[0] == image])
        for m in mine:
            m.frames = where.get(m.vma, [])
        for k, e in symbols.items():
            if k[0] == image and len(e) == 2:
                e.append(where.get(e[0].vma, []))
        samples += mine
    return samples, symbols


# --- numbers as opannotate prints them -----------------------------------

def percent_text(count, total):
    """opreport's percent column: 7 wide, 4 decimals (3 for 100)"""
    v = 100.0 * count / total if total else 0.0
    if v == 0.0:
        return "%7s" % "0"
    if count == total:
        return "100.000"
    if abs(v) <= 0.001:
        return "%7.1e" % v
    t = "%7.4f" % v
    return t[:-1] if t.startswith("100.") else t


def width_ok(text):
    """a count column: 6 wide (or as wide as the number)"""
    return len(text) >= 6 and (len(text) == 6 or text[0] != " ")


# --- parsing opannotate's output -----------------------------------------

COLS = r"(?: {15}|( *\d+) ( *[0-9.e+-]+) )"
COL_LINE = re.compile("^" + COLS + ":(.*)$")
NOTE = re.compile(r" /\* (.+?) (total|inlined here): ( *\d+) ( *[0-9.e+-]+) \*/")


def parse_notes(rest):
    """[(name, kind, count, pct)] of the comments making up rest, or None"""
    notes = []
    while rest:
        m = NOTE.match(rest)
        if not m or not width_ok(m.group(3)):
            return None
        notes.append((m.group(1), m.group(2), int(m.group(3)), m.group(4)))
        rest = rest[m.end():]
    return notes


def parse_source(path):
    """[{name, total, pct, lines: [(label, count, pct, text)]}]"""
    lines = open(path, errors="replace", newline="").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    files, i = [], 0
    while i < len(lines):
        if lines[i] == "/* " and i + 1 < len(lines) and \
                lines[i + 1].startswith(" * Total samples for file : "):
            name = lines[i + 1][len(' * Total samples for file : "'):-1]
            m = re.match(r"^ \* ( *\d+) ( *[0-9.e+-]+)$", lines[i + 3])
            if not m or lines[i + 4] != " */" or lines[i + 5] or lines[i + 6]:
                complain("malformed header of file %s" % name)
                return files
            f = {"name": name, "total": int(m.group(1)), "pct": m.group(2),
                 "lines": [], "found": True}
            files.append(f)
            i += 7
            nr = 0
            while i < len(lines) and lines[i] != "/* ":
                ln = lines[i]
                i += 1
                if ln == "(source not found: the lines with samples follow)":
                    f["found"] = False
                    continue
                m = COL_LINE.match(ln)
                if not m:
                    complain("%s: unexpected line %r" % (name, ln))
                    continue
                if m.group(1) and not width_ok(m.group(1)):
                    complain("%s: count column %r not 6 wide" % (name, m.group(1)))
                count = int(m.group(1)) if m.group(1) else None
                lm = re.match(r"^<line (\d+)>(.*)$", m.group(3))
                if lm and (not f["found"] or int(lm.group(1)) > nr):
                    label, text, beyond = int(lm.group(1)), lm.group(2), True
                    f["beyond"] = f.get("beyond", 0) + 1
                else:
                    nr += 1
                    label, text, beyond = nr, m.group(3), False
                f["lines"].append((label, count, m.group(2), text, beyond))
            continue
        if lines[i] == "/* ":
            while i < len(lines) and lines[i] != " */":     # the info block
                i += 1
        i += 1
    return files


# --- source -----------------------------------------------------------------

def expect_source(samples, symbols):
    """per file: {line: count}, {line: [(name, kind, count)]}"""
    counts, notes = {}, {}
    for s in samples:
        if not s.frames:
            continue
        _fn, f, l = s.frames[0]
        c = counts.setdefault(f, {})
        c[l] = c.get(l, 0) + s.count
        # frame k (k >= 1) is the call site of the function of frame k-1
        for k in range(1, len(s.frames)):
            _fn, cf, cl = s.frames[k]
            counts.setdefault(cf, {})
            inl = notes.setdefault(cf, {}).setdefault(cl, {})
            name = s.frames[k - 1][0]
            inl[(name, "inlined here")] = inl.get((name, "inlined here"), 0) + s.count
    for (_image, name), (sym, count, where) in symbols.items():
        if not where:
            continue
        _fn, f, l = where[0]
        notes.setdefault(f, {}).setdefault(l, {})[(name, "total")] = count
        counts.setdefault(f, {})
    return counts, notes


def file_chosen(args, name, total, grand):
    if args.only_file and not any(
            fnmatch.fnmatch(name, g) or fnmatch.fnmatch(os.path.basename(name), g)
            for g in args.only_file):
        return False
    if args.threshold and 100.0 * total / grand < args.threshold:
        return False
    return True


def check_source(args):
    samples, symbols = load(args)
    counts, notes = expect_source(samples, symbols)
    grand = args.total if args.total is not None else \
        sum(c for _s, c, _w in symbols.values())
    got = parse_source(args.output)
    by_name = {}
    for f in got:
        if f["name"] in by_name:
            complain("file %s shown twice" % f["name"])
        by_name[f["name"]] = f
    want_files = []
    # a file is shown when it has samples, or a call site of inlined code
    # with samples, or the first line of a function with samples
    for name in counts:
        total = sum(counts[name].values())
        if (total or notes.get(name)) and file_chosen(args, name, total, grand or 1):
            want_files.append(name)
        elif name in by_name:
            complain("file %s (%d samples) should not be shown" % (name, total))
    if args.strict:
        for name in by_name:
            if name not in counts:
                complain("file %s is shown, no sample of the chosen "
                         "images is in it" % name)
    seen_pcts = []
    for name in want_files:
        f = by_name.get(name)
        if f is None:
            complain("file %s is missing" % name)
            continue
        want = counts[name]
        total = sum(want.values())
        if f["total"] != total:
            complain("%s: total %d, expected %d" % (name, f["total"], total))
        seen_pcts.append((f["total"], f["pct"]))
        src = None
        path = dict(m.split("=", 1) for m in args.src_path or []).get(name, name)
        if f["found"] and os.path.isfile(path):
            src = open(path, errors="replace", newline="").read().split("\n")
            if src and src[-1] == "":
                src.pop()
            shown = len(f["lines"]) - f.get("beyond", 0)
            if shown != len(src):
                complain("%s: %d lines shown, the file has %d" %
                         (name, shown, len(src)))
        gotlines = set()
        for label, count, pct, text, beyond in f["lines"]:
            line = label
            gotlines.add(line)
            exp = want.get(line)
            if count != exp:
                complain("%s:%d: count %s, expected %s" % (name, line, count, exp))
            if count is not None:
                seen_pcts.append((count, pct))
            rest = text
            if src is not None and beyond and line <= len(src):
                complain("%s: <line %d> shown, the file has that line" % (name, line))
            if src is not None and not beyond:
                if line > len(src):
                    complain("%s:%d: shown as a line of the file, which has %d" %
                             (name, line, len(src)))
                    continue
                if not text.startswith(src[line - 1]):
                    complain("%s:%d: text %r is not the file's %r" %
                             (name, line, text, src[line - 1]))
                    continue
                rest = text[len(src[line - 1]):]
            nl = parse_notes(rest)
            if nl is None:
                complain("%s:%d: cannot read the comments in %r" % (name, line, rest))
                continue
            got_notes = {}
            for n, kind, c, pc in nl:
                got_notes[(n, kind)] = c
                seen_pcts.append((c, pc))
            exp_notes = notes.get(name, {}).get(line, {})
            if got_notes != exp_notes:
                complain("%s:%d: comments %s, expected %s" %
                         (name, line, sorted(got_notes.items()),
                          sorted(exp_notes.items())))
        for line in sorted(set(want) | set(notes.get(name, {}))):
            if line not in gotlines:
                complain("%s:%d (expected %s) is not shown" %
                         (name, line, want.get(line)))
    order = [f["total"] for f in got]
    if order != sorted(order, reverse=True):
        complain("files are not in order of samples: %s" % order)
    check_percents(seen_pcts, grand)


def check_percents(pairs, total):
    if not pairs:
        return
    if total == 0:      # derived from the largest count
        c, p = max(pairs)
        total = 100.0 * c / float(p)
        for c, p in pairs:
            if abs(100.0 * c / total - float(p)) > 0.0002 + 1e-3 * float(p):
                complain("percent %s for %d, about %.4f expected" %
                         (p, c, 100.0 * c / total))
        return
    for c, p in pairs:
        if p != percent_text(c, total):
            complain("percent %s for %d of %d, expected %s" %
                     (p, c, total, percent_text(c, total)))


# --- assembly ---------------------------------------------------------------

INSN = re.compile("^" + COLS + r":  ([0-9a-f]+):\t(.*)$")
SYMLINE = re.compile(r"^([0-9a-f]+) <(.*)>: /\* (.*) total: ( *\d+) ( *[0-9.e+-]+) \*/$")
BLANK = " " * 15 + ":"


def parse_asm(path):
    """{image: [symbol dicts]} in output order"""
    out, image, sym, source = {}, None, None, None
    for ln in open(path, errors="replace", newline="").read().split("\n"):
        if ln.startswith(BLANK + "Disassembly of ") and ln.endswith(":"):
            image = ln[len(BLANK + "Disassembly of "):-1]
            out[image] = []
            sym = None
            continue
        m = SYMLINE.match(ln)
        if m and image is not None:
            sym = {"vma": int(m.group(1), 16), "name": m.group(2),
                   "total": int(m.group(4)), "pct": m.group(5), "insns": []}
            if m.group(3) != m.group(2):
                complain("symbol line %r: total of another name" % ln)
            out[image].append(sym)
            source = None
            continue
        m = INSN.match(ln)
        if m and sym is not None:
            sym["insns"].append({"vma": int(m.group(3), 16),
                                 "count": int(m.group(1)) if m.group(1) else None,
                                 "pct": m.group(2), "text": m.group(4),
                                 "source": source})
            continue
        if ln.startswith(BLANK) and sym is not None and ln != BLANK:
            source = ln[len(BLANK):]
    return out


def objdump(image, sym, opts):
    cmd = ["objdump", "-d", "--no-show-raw-insn",
           "--start-address=0x%x" % sym.vma,
           "--stop-address=0x%x" % (sym.vma + extent(sym))]
    if opts:
        cmd += ["-M", opts]
    text = subprocess.run(cmd + [image], check=True, capture_output=True,
                          text=True).stdout
    res = {}
    for ln in text.split("\n"):
        m = re.match(r"^ +([0-9a-f]+):\t(.*)$", ln)
        if m:
            res[int(m.group(1), 16)] = m.group(2)
    return res


def check_asm(args):
    samples, symbols = load(args)
    grand = args.total if args.total is not None else \
        sum(c for _s, c, _w in symbols.values())
    got = parse_asm(args.output)
    images = sorted({img for img, _n in symbols})
    if args.strict:
        for img in got:
            if img not in images:
                complain("image %s is shown, none was expected" % img)
    pcts = []
    for img in images:
        if img not in got:
            complain("image %s is not shown" % img)
            continue
        want = [(e[0], e[1]) for (i, _n), e in symbols.items() if i == img]
        if args.sort == "vma":
            want.sort(key=lambda t: t[0].vma)
        else:
            want.sort(key=lambda t: (-t[1], t[0].vma))
        gaps = sum(s["total"] for s in got[img] if s["name"].startswith("["))
        if gaps and not args.symbol and gaps != load.outside.get(img, 0):
            complain("%s: %d samples in gap rows, %d outside every named symbol"
                     % (img, gaps, load.outside.get(img, 0)))
        shown = [(s["name"], s["vma"], s["total"]) for s in got[img]
                 if not s["name"].startswith("[")]
        expect = [(s.name, s.vma, c) for s, c in want]
        if shown != expect:
            complain("%s: symbols %s, expected %s" % (img, shown, expect))
        mine = [s for s in samples if s.image == img]
        src_cache = {}
        for sym, count in want:
            gs = [s for s in got[img] if s["name"] == sym.name]
            if not gs:
                continue
            gs = gs[0]
            pcts.append((gs["total"], gs["pct"]))
            insns = gs["insns"]
            addrs = [x["vma"] for x in insns]
            if addrs != sorted(addrs) or len(set(addrs)) != len(addrs):
                complain("%s: instructions out of order" % sym.name)
            for x in insns:
                if not sym.vma <= x["vma"] < sym.vma + extent(sym):
                    complain("%s: instruction at 0x%x outside 0x%x..0x%x" %
                             (sym.name, x["vma"], sym.vma, sym.vma + extent(sym)))
            # each sample counts at the instruction holding its address
            per = {}
            for s in mine:
                if s.sym is not sym:
                    continue
                at = [a for a in addrs if a <= s.vma]
                if not at:
                    complain("%s: sample at 0x%x before every instruction" %
                             (sym.name, s.vma))
                    continue
                per[at[-1]] = per.get(at[-1], 0) + s.count
            for x in insns:
                if x["count"] != per.get(x["vma"]):
                    complain("%s: 0x%x: count %s, expected %s" %
                             (sym.name, x["vma"], x["count"], per.get(x["vma"])))
                if x["count"] is not None:
                    pcts.append((x["count"], x["pct"]))
            if sym.name in (args.objdump or []):
                od = objdump(img, sym, args.objdump_opts)
                mine_text = {x["vma"]: x["text"] for x in insns}
                if not od:
                    complain("%s: objdump shows no instruction" % sym.name)
                for a in sorted(set(od) | set(mine_text)):
                    if od.get(a) == mine_text.get(a):
                        continue
                    complain("%s: 0x%x: %r, objdump %r" %
                             (sym.name, a, mine_text.get(a), od.get(a)))
            if args.interleaved:
                where = addr2line(img, addrs)
                for x in insns:
                    fr = where.get(x["vma"])
                    if not fr:
                        continue
                    _fn, f, l = fr[0]
                    if f not in src_cache:
                        try:
                            src_cache[f] = open(f, errors="replace", newline="").read().split("\n")
                        except OSError:
                            src_cache[f] = None
                    text = src_cache[f][l - 1] if src_cache[f] else "%s:%d" % (f, l)
                    if x["source"] != text:
                        complain("%s: 0x%x: source line above is %r, expected "
                                 "%r (%s:%d)" % (sym.name, x["vma"],
                                                 x["source"], text, f, l))
    check_percents(pcts, grand)


def list_keys(args):
    samples, _symbols = load(args)
    for s in samples:
        fr = s.frames[0] if s.frames else ("", "??", 0)
        print("%s\t0x%x\t%d\t%s\t%s:%d" % (s.image, s.vma, s.count, s.sym.name,
                                           fr[1], fr[2]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("keys", "source", "asm"))
    ap.add_argument("session")
    ap.add_argument("output", nargs="?")
    ap.add_argument("--image", action="append")
    ap.add_argument("--symbol", action="append")
    ap.add_argument("--total", type=int)
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--threshold", type=float)
    ap.add_argument("--only-file", action="append")
    ap.add_argument("--src-path", action="append")
    ap.add_argument("--sort", default="samples", choices=("samples", "vma"))
    ap.add_argument("--objdump", action="append")
    ap.add_argument("--objdump-opts")
    ap.add_argument("--interleaved", action="store_true")
    args = ap.parse_args()
    if args.mode == "keys":
        list_keys(args)
        return 0
    if not args.output:
        ap.error("OUTPUT is needed")
    if args.mode == "source":
        check_source(args)
    else:
        check_asm(args)
    for b in bad:
        print("# " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
