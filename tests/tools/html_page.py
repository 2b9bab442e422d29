#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Reads opreport --format=html pages and what Chromium made of them
(tests/e2e/t0630-html.sh):

  html_page.py state FILE ATTR     attribute data-ATTR of #flame-state
  html_page.py errors FILE         the text of #errors (the page's errors)
  html_page.py text FILE ID        the text of the element of that id
  html_page.py rows FILE TABLE     the rows of table TABLE, cells by tabs
  html_page.py shown FILE TABLE    those not hidden (by the page's filter)
  html_page.py widest FILE         the frames listed in #flame-widest
  html_page.py outside FILE        every reference to outside the page:
                                   src=, href=, url(), http(s):// that are
                                   not '#' anchors or data: addresses
  html_page.py folded FILE         the #flame-data trie as folded stacks
                                   (root first; every node with samples of
                                   its own), then 'total N'
  html_page.py colours PNG         how many distinct colours the image has
  html_page.py stacks SESSION BINARY N
                                   a stack file of N distinct stacks for the
                                   session of the fixture binary BINARY
                                   (mksamples.py's callgraph fixture): stack
                                   k has 8 frames, the base-5 digits of k
                                   picking compute_alpha, compute_beta,
                                   compute_gamma, run_all or main, and
                                   k % 7 + 1 samples
"""
import os
import html.parser
import json
import re
import struct
import sys
import zlib


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.attrs = {}         # id -> attributes
        self.text = {}          # id -> text inside
        self.open_ids = []      # (tag, id) of elements with an id, open
        self.tables = {}        # id -> rows
        self.table = None
        self.row = None
        self.cell = None
        self.lis = {}           # id of an <ol> -> its items
        self.ol = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.attrs[a["id"]] = a
            self.text.setdefault(a["id"], "")
            self.open_ids.append((tag, a["id"]))
        if tag == "table" and "id" in a:
            self.table = self.tables.setdefault(a["id"], [])
        elif tag == "tr" and self.table is not None:
            self.row = []
            self.row_hidden = "hidden" in a
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "ol" and "id" in a:
            self.ol = self.lis.setdefault(a["id"], [])
        elif tag == "li" and self.ol is not None:
            self.ol.append("")

    def handle_endtag(self, tag):
        if self.open_ids and self.open_ids[-1][0] == tag:
            self.open_ids.pop()
        if tag == "table":
            self.table = None
        elif tag == "tr" and self.row is not None:
            if self.row and not self.row_is_head:
                self.table.append((self.row, self.row_hidden))
            self.row = None
        elif tag in ("td", "th") and self.cell is not None:
            self.row_is_head = tag == "th"
            self.row.append(self.cell)
            self.cell = None
        elif tag == "ol":
            self.ol = None

    def handle_data(self, data):
        for _tag, i in self.open_ids:
            self.text[i] += data
        if self.cell is not None:
            self.cell += data
        if self.ol is not None and self.ol:
            self.ol[-1] += data


def page(path):
    p = Page()
    p.row_is_head = False
    p.feed(open(path, encoding="utf-8", errors="replace").read())
    return p


def outside(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    refs = re.findall(r"""\b(?:src|href)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", text)
    refs += re.findall(r"url\(\s*([^)]*)\)", text)
    refs += re.findall(r"https?://[^\s\"'<>]*", text)
    for r in refs:
        v = r.strip("\"'")
        if not v.startswith("#") and not v.startswith("data:"):
            print(v)


def folded(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="flame-data">(.*?)</script>',
                  text, re.S)
    d = json.loads(m.group(1))
    nodes, names = d["nodes"], d["names"]
    path_of = []
    for i in range(0, len(nodes), 3):
        name, parent, own = nodes[i], nodes[i + 1], nodes[i + 2]
        p = names[name] if parent < 0 else path_of[parent] + ";" + names[name]
        path_of.append(p)
        if own:
            print("%s %d" % (p, own))
    print("total %d" % d["total"])


def colours(path):
    """distinct colours of an 8-bit RGB(A) PNG, every row unfiltered"""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "not 8-bit RGB(A)"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    seen = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        if y % 4 == 0:
            for i in range(0, stride, bpp * 2):
                seen.add(bytes(line[i:i + 3]))
        prev = line
    print(len(seen))


def stacks(session, binary, nr):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import mksamples
    cur = session + "/samples/current"
    app = ev = None
    for d, _dirs, files in os.walk(cur):
        for f in files:
            rel = os.path.relpath(os.path.join(d, f), cur)
            if "/{dep}/" in rel and "{cg}" not in rel:
                app = rel.split("/{dep}/", 1)[0]
                ev = ".".join(f.split(".")[:3])
    syms = [mksamples.symbol_range(binary, n)[0] for n in
            ("compute_alpha", "compute_beta", "compute_gamma", "run_all", "main")]

    def rec(t, body):
        body += b"\0" * (-(8 + len(body)) % 8)
        return struct.pack("=II", t, 8 + len(body)) + body
    recs = [rec(1, ev.encode() + b"\0"), rec(2, app.encode() + b"\0")]
    for k in range(nr):
        frames, n = [], k
        for _ in range(8):
            frames.append(struct.pack("=IIQ", 0, 0, syms[n % 5]))
            n //= 5
        recs.append(rec(3, struct.pack("=IIQ", 0, 8, k % 7 + 1) + b"".join(frames)))
    recs = b"".join(recs)
    hdr = b"OPSTACK\n" + struct.pack("=IIQQQ", 1, 1, len(recs), 256 << 20, 0) + b"\0" * 24
    with open(cur + "/stacks", "wb") as f:
        f.write(hdr + recs)


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "state":
        print(page(path).attrs.get("flame-state", {}).get("data-" + sys.argv[3], ""))
    elif cmd == "errors":
        print(page(path).text.get("errors", "MISSING #errors").strip())
    elif cmd == "text":
        sys.stdout.write(page(path).text.get(sys.argv[3], ""))
    elif cmd in ("rows", "shown"):
        for row, hidden in page(path).tables.get(sys.argv[3], []):
            if cmd == "rows" or not hidden:
                print("\t".join(c.strip() for c in row))
    elif cmd == "widest":
        for li in page(path).lis.get("flame-widest", []):
            print(li)
    elif cmd == "outside":
        outside(path)
    elif cmd == "folded":
        folded(path)
    elif cmd == "colours":
        colours(path)
    elif cmd == "stacks":
        stacks(path, sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
