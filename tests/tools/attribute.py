#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""attribute.py -- what an operf session says, read independently of our C
code: the sample-file names are parsed as oprofile-ng-formats(5), SAMPLE FILE NAMES, says,
the odb files with the struct module as section 3 says (and checked against
it, so this also tests the writer), and keys are mapped to symbols with
mksamples.py's implementation of opreport's rules (section 4.2).  The e2e
tests (tests/e2e/t01*-operf-*.sh) assert on its output with awk and grep.

USAGE
  attribute.py [--live] [--check-only] [--ignore-mtime] [--app APP]
               [--sub NAME] SESSION_DIR

  Reads SESSION_DIR/samples/NAME (default current).  --live reads a
  session operf is still writing: files that fail the checks are skipped
  and counted instead of being errors.  --check-only prints nothing and
  only checks every file.  --ignore-mtime does not compare the headers'
  mtime with the images (system-wide profiles of a machine where programs
  are rebuilt meanwhile).  --app APP reports the files of that application
  only (the others are still checked): symbol lookup in every image of a
  system-wide profile takes seconds.

Image paths in the names are unescaped as doc/operf.1 ("SAMPLE FILE
NAMES") says: %XX is the byte XX; a "/#long/HASH/NAME" path cannot be
undone, so its image reads as missing.

OUTPUT  one record per line, fields separated by one tab, larger counts
first within a kind.  APP and IMAGE are absolute paths for file-backed
images, the bare name for kernel images ({kern}/NAME), and
"{anon:NAME}/TGID.0xSTART.0xEND" for anonymous regions.

  total   N                           samples in all plain sample files
  arcs    N                           arcs in all {cg} files
  event   EVENT COUNT UMASK N         samples per event (from the file names)
  image   APP IMAGE N                 samples per application and image
  symbol  APP IMAGE SYMBOL N          samples per symbol
  thread  TGID TID APP IMAGE SYMBOL N per thread ("all" without -t)
  cpu     CPU N                       per cpu ("all" without -c)
  arc     APP FROM_IMAGE FROM_SYMBOL TO_IMAGE TO_SYMBOL N
  file    RELPATH N                   every sample file, relative to NAME/
  stat    NAME N                      each stats/ counter file
  throttled EVENT                     each stats/throttled/ entry
  skipped N                           --live only: files not readable yet

SYMBOL is the opreport symbol holding the key, or "(unattributed)" when
the key lies outside every symbol, "(no symbols)" for an ELF image with no
symbols opreport could use, "(missing)" when the image cannot be read,
"(kernel)" and "(anon)" for those images (no symbol lookup).

Exit status: 0, 1 when a file breaks the format (message on stderr), 2 on
usage errors.
"""

import argparse
import os
import re
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mksamples  # noqa: E402  (symbol rules, odb hash)

HEADER = struct.Struct("<4sIIIIIIIdQIIQQ")  # struct opd_header, x86-64
DESCR = struct.Struct("<II6I")
NODE = struct.Struct("<QII")
MAGIC = b"DAE\n"
VERSION = 0x13
assert HEADER.size == 72 and DESCR.size == 32 and NODE.size == 16


class FormatError(Exception):
    pass


def unescape(part):
    """undo operf's %XX escapes of one name component"""
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                  part)


class Image:
    """one IMG/CGIMG part of a sample-file path"""

    def __init__(self, kind, name, anon_start=0):
        self.kind = kind            # "root", "kern" or "anon"
        self.name = name            # label used in the output
        self.anon_start = anon_start

    @property
    def is_kernel(self):
        # a kernel image given as a path ({root}/proc/kallsyms, --vmlinux)
        # is also a kernel image; operf names those two only
        return self.kind == "kern" or self.name == "/proc/kallsyms"


def parse_image(parts, i):
    """(Image, next index) for the image starting at parts[i]"""
    if i >= len(parts):
        raise FormatError("path ends where an image should start")
    head = parts[i]
    if head == "{kern}":
        if i + 1 >= len(parts):
            raise FormatError("{kern} without a name")
        return Image("kern", unescape(parts[i + 1])), i + 2
    if head.startswith("{anon:") and head.endswith("}"):
        if i + 1 >= len(parts):
            raise FormatError("%s without a region" % head)
        region = parts[i + 1].split(".")
        if len(region) != 3 or not region[1].startswith("0x") \
                or not region[2].startswith("0x"):
            raise FormatError("bad anon region '%s'" % parts[i + 1])
        try:
            int(region[0])
            start, end = int(region[1], 16), int(region[2], 16)
        except ValueError:
            raise FormatError("bad anon region '%s'" % parts[i + 1])
        if end < start:
            raise FormatError("anon region ends before it starts")
        return Image("anon", unescape(head) + "/" + parts[i + 1], start), i + 2
    if head == "{root}":
        j = i + 1
        # a {root} path runs up to {dep}, {cg} or the SPEC component
        while j < len(parts) - 1 and parts[j] not in ("{dep}", "{cg}"):
            j += 1
        if j == i + 1:
            raise FormatError("{root} without a path")
        return Image("root", "/" + "/".join(unescape(p)
                                            for p in parts[i + 1:j])), j
    raise FormatError("'%s' is not {root}, {kern} or {anon:...}" % head)


def parse_spec(name):
    fields = name.split(".")
    if len(fields) != 6 or not all(fields):
        raise FormatError("'%s' is not EVENT.COUNT.UMASK.TGID.TID.CPU" % name)
    ev, count, um, tgid, tid, cpu = fields
    for what, v in (("count", count), ("unit mask", um)):
        if not v.isdigit():
            raise FormatError("%s '%s' is not decimal" % (what, v))
    for what, v in (("tgid", tgid), ("tid", tid), ("cpu", cpu)):
        if v != "all" and not v.isdigit():
            raise FormatError("%s '%s' is neither 'all' nor decimal" % (what, v))
    return ev, int(count), int(um), tgid, tid, cpu


def parse_path(rel):
    """app, image, callee image (or None), spec fields of a sample file"""
    parts = rel.split("/")
    if "" in parts:
        raise FormatError("empty path component")
    if parts[0] == "{kern}":
        app, i = Image("kern", unescape(parts[1])), 2
    elif parts[0] == "{root}":
        app, i = parse_image(parts, 0)
        if app.name == "/":
            raise FormatError("empty application path")
    else:
        raise FormatError("does not start with {root} or {kern}")
    if i >= len(parts) or parts[i] != "{dep}":
        raise FormatError("no {dep} after the application")
    image, i = parse_image(parts, i + 1)
    callee = None
    if i < len(parts) - 1 and parts[i] == "{cg}":
        callee, i = parse_image(parts, i + 1)
    if i != len(parts) - 1:
        raise FormatError("unexpected component '%s'" % parts[i])
    return app, image, callee, parse_spec(parts[-1])


def read_odb(path):
    """(header tuple, [(key, value)]) after checking the file against
    oprofile-ng-formats(5), SAMPLE FILES, as our writer must produce it"""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < HEADER.size + DESCR.size:
        raise FormatError("%d bytes: shorter than header and descriptor"
                          % len(data))
    hdr = HEADER.unpack_from(data, 0)
    if hdr[0] != MAGIC:
        raise FormatError("bad magic %r" % hdr[0])
    if hdr[1] != VERSION:
        raise FormatError("version 0x%x, not 0x13" % hdr[1])
    if hdr[7] != 0 or hdr[11] != 0:
        raise FormatError("header padding is not zero")
    size, cur, *padding = DESCR.unpack_from(data, HEADER.size)
    if any(padding):
        raise FormatError("descriptor padding is not zero")
    if size < 128 or size & (size - 1):
        raise FormatError("table size %d is not a power of two >= 128" % size)
    nodes_at = HEADER.size + DESCR.size
    hash_at = nodes_at + NODE.size * size
    if len(data) != hash_at + 4 * size:
        raise FormatError("file size %d, table of %d slots needs %d"
                          % (len(data), size, hash_at + 4 * size))
    if not 1 <= cur <= size:
        raise FormatError("current_size %d outside 1..%d" % (cur, size))
    if data[nodes_at:nodes_at + NODE.size] != bytes(NODE.size):
        raise FormatError("node 0 is not zero")
    # the table OProfile has for these nodes, or the next one: a writer
    # grows the table before it adds the node that needs it, so one killed
    # (or read live) in between leaves the grown table without the node
    if size not in (mksamples.odb_table_size(cur - 1),
                    mksamples.odb_table_size(cur)):
        raise FormatError("%d used nodes in a table of %d slots, OProfile "
                          "would have %d" % (cur - 1, size,
                                             mksamples.odb_table_size(cur - 1)))
    items = []
    keys = set()
    for i in range(1, cur):
        key, value, nxt = NODE.unpack_from(data, nodes_at + NODE.size * i)
        if nxt >= cur:
            raise FormatError("node %d: next %d beyond the used nodes"
                              % (i, nxt))
        if value == 0:
            raise FormatError("node %d (key 0x%x) holds a zero count"
                              % (i, key))
        if key in keys:
            raise FormatError("key 0x%x is stored twice" % key)
        keys.add(key)
        items.append((key, value))
    seen = set()
    mask = size - 1
    for b in range(size):
        (i,) = struct.unpack_from("<I", data, hash_at + 4 * b)
        steps = 0
        while i:
            if i >= cur or i in seen:
                raise FormatError("bucket %d: bad or repeated node %d"
                                  % (b, i))
            seen.add(i)
            key = items[i - 1][0]
            if mksamples.odb_hash(key, mask) != b:
                raise FormatError("key 0x%x is in bucket %d, hashes to %d"
                                  % (key, b, mksamples.odb_hash(key, mask)))
            i = NODE.unpack_from(data, nodes_at + NODE.size * i)[2]
            steps += 1
    if len(seen) != cur - 1:
        raise FormatError("%d of %d nodes are in no hash chain"
                          % (cur - 1 - len(seen), cur - 1))
    return hdr, items


def check_header(hdr, image, callee, spec, check_mtime=True):
    (_m, _v, _cpu, _ev, um, count, is_kernel, _p, _speed, mtime,
     cg_to_is_kernel, _p2, anon_start, cg_to_anon_start) = hdr
    if count != spec[1]:
        raise FormatError("header count %d, file name says %d"
                          % (count, spec[1]))
    if um != spec[2]:
        raise FormatError("header unit mask %d, file name says %d"
                          % (um, spec[2]))
    if is_kernel != int(image.is_kernel):
        raise FormatError("is_kernel %d for image %s" % (is_kernel, image.name))
    if anon_start != image.anon_start:
        raise FormatError("anon_start 0x%x, the name says 0x%x"
                          % (anon_start, image.anon_start))
    want = int(callee.is_kernel) if callee else 0
    if cg_to_is_kernel != want:
        raise FormatError("cg_to_is_kernel %d, expected %d"
                          % (cg_to_is_kernel, want))
    want = callee.anon_start if callee else 0
    if cg_to_anon_start != want:
        raise FormatError("cg_to_anon_start 0x%x, expected 0x%x"
                          % (cg_to_anon_start, want))
    if check_mtime and image.kind == "root" and image.name != "/proc/kallsyms":
        try:
            st = os.stat(image.name)
        except OSError:
            return
        if mtime != int(st.st_mtime):
            raise FormatError("mtime %d, %s has %d"
                              % (mtime, image.name, int(st.st_mtime)))


def symbolizer():
    cache = {}

    def lookup(image, key):
        if image.kind == "kern":
            return "(kernel)"
        if image.kind == "anon":
            return "(anon)"
        if image.name == "/proc/kallsyms":
            return "(kernel)"
        if image.name not in cache:
            try:
                cache[image.name] = mksamples.image_symbols(image.name)
            except (OSError, ValueError, struct.error):
                cache[image.name] = None
        syms = cache[image.name]
        if syms is None:
            return "(missing)"
        if not syms.syms:
            return "(no symbols)"
        s = syms.lookup(key)
        return s.name if s else "(unattributed)"
    return lookup


def add(table, key, n):
    table[key] = table.get(key, 0) + n


def walk(top):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, top)
        if rel_dir == "stats" or rel_dir.startswith("stats/"):
            continue
        for name in sorted(filenames):
            # NAME.tmp: a sample file being made (libdb renames it into
            # place once whole); a writer killed meanwhile leaves it, and
            # the report tools do not read it
            if name.endswith(".tmp"):
                continue
            rel = name if rel_dir == "." else rel_dir + "/" + name
            if rel.startswith("{root}/") or rel.startswith("{kern}/"):
                yield rel


def emit(kind, table):
    for key, n in sorted(table.items(), key=lambda kv: (-kv[1], kv[0])):
        print("\t".join([kind] + [str(k) for k in key] + [str(n)]))


def read_stats(top):
    stats, throttled = {}, []
    sdir = os.path.join(top, "stats")
    if not os.path.isdir(sdir):
        return stats, throttled
    for name in sorted(os.listdir(sdir)):
        p = os.path.join(sdir, name)
        if name == "throttled" and os.path.isdir(p):
            throttled = sorted(os.listdir(p))
        elif os.path.isfile(p):
            with open(p) as f:
                text = f.read().strip()
            stats[(name,)] = int(text) if text.isdigit() else text
    return stats, throttled


def main():
    ap = argparse.ArgumentParser(description="attribute an operf session")
    ap.add_argument("session")
    ap.add_argument("--sub", default="current")
    ap.add_argument("--live", action="store_true")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--ignore-mtime", action="store_true")
    ap.add_argument("--app")
    a = ap.parse_args()
    top = os.path.join(a.session, "samples", a.sub)
    if not os.path.isdir(top):
        sys.stderr.write("attribute.py: error: no directory '%s'\n" % top)
        return 1
    lookup = symbolizer()
    tables = {k: {} for k in ("event", "image", "symbol", "thread", "cpu",
                              "arc", "file")}
    total = arcs = skipped = 0
    bad = False
    for rel in walk(top):
        path = os.path.join(top, rel)
        try:
            app, image, callee, spec = parse_path(rel)
            hdr, items = read_odb(path)
            check_header(hdr, image, callee, spec, not a.ignore_mtime)
        except (FormatError, OSError) as e:
            if a.live:
                skipped += 1
                continue
            sys.stderr.write("attribute.py: error: %s: %s\n" % (rel, e))
            bad = True
            continue
        if a.check_only or (a.app is not None and app.name != a.app):
            continue
        ev, count, um, tgid, tid, cpu = spec
        n = sum(v for _k, v in items)
        add(tables["file"], (rel,), n)
        if callee is not None:
            arcs += n
            for key, v in items:
                add(tables["arc"], (app.name, image.name,
                                    lookup(image, key >> 32), callee.name,
                                    lookup(callee, key & 0xffffffff)), v)
            continue
        total += n
        add(tables["event"], (ev, count, um), n)
        add(tables["image"], (app.name, image.name), n)
        add(tables["cpu"], (cpu,), n)
        for key, v in items:
            sym = lookup(image, key)
            add(tables["symbol"], (app.name, image.name, sym), v)
            add(tables["thread"], (tgid, tid, app.name, image.name, sym), v)
    if a.check_only:
        return 1 if bad else 0
    print("total\t%d" % total)
    print("arcs\t%d" % arcs)
    for kind in ("event", "image", "symbol", "thread", "cpu", "arc", "file"):
        emit(kind, tables[kind])
    stats, throttled = read_stats(top)
    emit("stat", stats)
    for ev in throttled:
        print("throttled\t%s" % ev)
    if a.live:
        print("skipped\t%d" % skipped)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
