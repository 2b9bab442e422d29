#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A stack file of known stacks beside the callgraph fixture session.

    fixture_stacks.py SESSION_DIR FIXTURE_PIE [VERSION [MANY [WIDE]]]

Writes SESSION_DIR/samples/current/stacks (oprofile-ng-session(5)) with
frames at fixture_pie's symbols (mksamples.py's own lookup), one frame of
an image the profile does not have and one stack of an application it
does not have; in VERSION 2 (the default) the nodes of the stacks' prefix
tree, in version 1 a STACK record per stack.  As folded stacks:

    fixture_pie;[libx.so];compute_beta 1
    fixture_pie;main;printf 4
    fixture_pie;main;run_all;compute_alpha 9
    fixture_pie;main;run_all;compute_alpha;compute_gamma;compute_alpha 3

MANY (default 0) more stacks of one sample each, all distinct and all
main;run_all;compute_alpha at other addresses in those functions: their
line is then "fixture_pie;main;run_all;compute_alpha" 9 + MANY (a big
stack file, such as readers split between threads).

WIDE (default 0): 1 adds three stacks of one sample each whose leaves
are far apart: in fixture_pie at 2^64 - 16 and in libc at 0x10 and at
0x7fff0000, under main (addresses that no symbol covers: between them,
the images' offsets span more than 64 bits).
"""
import os, struct, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mksamples
cur, binary = sys.argv[1] + "/samples/current", sys.argv[2]
version = int(sys.argv[3]) if len(sys.argv) > 3 else 2
many = int(sys.argv[4]) if len(sys.argv) > 4 else 0
wide = int(sys.argv[5]) if len(sys.argv) > 5 else 0
app = libc = ev = None
for d, _dirs, files in os.walk(cur):
    for f in files:
        rel = os.path.relpath(os.path.join(d, f), cur)
        if "/{dep}/" not in rel or "{cg}" in rel:
            continue
        a, rest = rel.split("/{dep}/", 1)
        img = rest.rsplit("/", 1)[0]
        ev = ".".join(f.split(".")[:3])
        app = a
        if img.endswith("libc.so.6"):
            libc = img
def sym(name, path=binary):
    return mksamples.symbol_range(path, name)[0]
images = [app, libc, "{root}/opt/none/libx.so", "{root}/bin/other"]
A, L, X, O = 0, 1, 2, 3
stacks = [
    (A, [(A, sym("compute_alpha")), (A, sym("run_all")), (A, sym("main"))], 7),
    (A, [(A, sym("compute_alpha")), (A, sym("compute_gamma")),
         (A, sym("compute_alpha") + 1), (A, sym("run_all")), (A, sym("main"))], 3),
    (A, [(A, sym("compute_alpha") + 1), (A, sym("run_all")), (A, sym("main"))], 2),
    (A, [(L, sym("printf", "/usr/lib/x86_64-linux-gnu/libc.so.6")), (A, sym("main"))], 4),
    (A, [(A, sym("compute_beta")), (X, 0x10)], 1),
    (O, [(O, 0x10)], 100),
]
alpha, run_all, main = (mksamples.symbol_range(binary, n) for n in
                        ("compute_alpha", "run_all", "main"))
seen = {tuple(f) for _a, f, _n in stacks}
k, want = 0, len(seen) + many
assert many <= (alpha[1] - 2) * (run_all[1] - 2) * (main[1] - 2), "too many stacks"
while len(seen) < want:
    i = k
    frames = []
    for start, length in (alpha, run_all, main):
        frames.append((A, start + 2 + i % (length - 2)))   # off the starts above
        i //= length - 2
    k += 1
    if tuple(frames) in seen:
        continue
    seen.add(tuple(frames))
    stacks.append((A, frames, 1))
if wide:
    for im, off in ((A, (1 << 64) - 16), (L, 0x10), (L, 0x7fff0000)):
        stacks.append((A, [(im, off), (A, sym("main"))], 1))
def rec(t, body):
    body += b"\0" * (-(8 + len(body)) % 8)
    return struct.pack("=II", t, 8 + len(body)) + body
recs = rec(1, ev.encode() + b"\0")
for i in images:
    recs += rec(2, i.encode() + b"\0")
nodes, index = [], {}
def node(parent, image, offset):
    if (parent, image, offset) not in index:
        index[parent, image, offset] = len(nodes)
        nodes.append([parent, image, offset, 0])
    return index[parent, image, offset]
for a, frames, n in stacks:
    if version == 1:
        recs += rec(3, struct.pack("=IIQ", a, len(frames), n) +
                    b"".join(struct.pack("=IIQ", im, 0, off) for im, off in frames))
        continue
    p = node(0xffffffff, a, 0)          # the root: the application
    for im, off in reversed(frames):    # outermost caller first
        p = node(p, im, off)
    nodes[p][3] += n
for parent, image, offset, n in nodes:
    recs += struct.pack("=IIQQ", 4 | image << 8, parent, offset, n)
hdr = b"OPSTACK\n" + struct.pack("=IIQQQ", version, 1, len(recs), max(1 << 20, 2 * len(recs)),
                                  0) + b"\0" * 24
open(cur + "/stacks", "wb").write(hdr + recs)
