#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Do the tests catch what they claim?  Put each one-line bug of
tests/mutations.txt into a scratch copy of the tree, one at a time, and
run the tests the entry names: a bug they catch is "killed", one they
miss "SURVIVED" (a missing test: write it).

The copy is a git worktree of HEAD (commit what you want checked) in a
temporary directory, configured and built once (the commands and their
output go to a log beside it, kept); each bug is applied, the
tree rebuilt incrementally, its tests run, and the file put back.  An
entry whose text is not found (the list is stale) or whose bug does not
build is an error of the list.  It takes a while (a build, then a few
minutes per bug): run it before resolving an issue, not in make check.

usage: tests/mutate.py [--keep] [--list FILE] [ID ...]
  ID ...      only these entries (default: all)
  --keep      leave the scratch tree (its path is printed)
  --list F    another list (default: tests/mutations.txt)
Exit status: 0 when every bug was killed, 1 otherwise, 2 on bad usage.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ("id", "file", "near", "from", "to", "why", "tests")
TEST_TIMEOUT = 1800


def parse(path):
    """the entries of a list: dicts of KEYS, each block checked"""
    entries, cur = [], {}
    with open(path) as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                missing = [k for k in KEYS if k != "near" and k not in cur]
                if missing:
                    sys.exit("%s: entry ending at line %d lacks %s" % (path, n, ", ".join(missing)))
                entries.append(cur)
                cur = {}
            continue
        key, sep, value = line.partition(":")
        if not sep or key.strip() not in KEYS:
            sys.exit("%s:%d: not KEY: VALUE with a key of %s" % (path, n, ", ".join(KEYS)))
        cur[key.strip()] = value.strip()
    ids = [e["id"] for e in entries]
    dups = {i for i in ids if ids.count(i) > 1}
    if dups:
        sys.exit("%s: ids given twice: %s" % (path, ", ".join(sorted(dups))))
    return entries


def mutated(text, e):
    """text with e's bug in it, or None when its line is not found once"""
    lines = text.split("\n")
    start = 0
    if e.get("near"):
        hits = [i for i, l in enumerate(lines) if e["near"] in l]
        if len(hits) != 1:
            return None
        start = hits[0]
    hits = [i for i in range(start, len(lines)) if e["from"] in lines[i]]
    if not hits or (not e.get("near") and len(hits) != 1):
        return None
    i = hits[0]
    lines[i] = lines[i].replace(e["from"], e["to"], 1)
    return "\n".join(lines)


def run(cmd, cwd, log, timeout=TEST_TIMEOUT):
    """run cmd in cwd, output appended to log; True when it exits 0"""
    with open(log, "a") as out:
        out.write("$ %s\n" % " ".join(cmd))
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=timeout).returncode == 0
        except subprocess.TimeoutExpired:
            out.write("(timed out after %d s)\n" % timeout)
            return False


def test_runs(spec):
    """'DIR[:TESTS], ...' -> [(DIR, TESTS or None)]"""
    runs = []
    for part in spec.split(","):
        d, sep, tests = part.strip().partition(":")
        runs.append((d, tests.strip() if sep else None))
    return runs


def make_tests(build, d, tests, log):
    cmd = ["make", "-j2", "check"]
    if tests:
        cmd.append("TESTS=" + tests)
    return run(cmd, os.path.join(build, d), log)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("ids", nargs="*")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--list", default=os.path.join(TOP, "tests", "mutations.txt"))
    a = p.parse_args()
    entries = parse(a.list)
    if a.ids:
        unknown = set(a.ids) - {e["id"] for e in entries}
        if unknown:
            p.error("no entries %s in %s" % (", ".join(sorted(unknown)), a.list))
        entries = [e for e in entries if e["id"] in a.ids]

    scratch = tempfile.mkdtemp(prefix="mutate.")
    tree = os.path.join(scratch, "tree")
    build = os.path.join(tree, "build")
    log = scratch + ".log"
    print("mutate: %d bugs; scratch tree %s (log: %s)" % (len(entries), tree, log), flush=True)
    tally = {"killed": 0, "survived": 0, "error": 0}
    try:
        if not run(["git", "-C", TOP, "worktree", "add", "--detach", tree, "HEAD"], TOP, log):
            sys.exit("mutate: cannot make the scratch tree (see %s)" % log)
        os.makedirs(build)
        t0 = time.time()
        for cmd, cwd in ((["autoreconf", "-fi"], tree),
                         (["../configure", "-q", "--enable-werror"], build),
                         (["make", "-j2"], build),
                         (["make", "-j2", "check", "TESTS="], build)):
            if not run(cmd, cwd, log):
                sys.exit("mutate: the unmutated tree does not build (see %s)" % log)
        print("mutate: built in %.0f s" % (time.time() - t0), flush=True)
        for e in entries:
            t0 = time.time()
            path = os.path.join(tree, e["file"])
            with open(path) as f:
                original = f.read()
            text = mutated(original, e)
            if text is None:
                print("ERROR %s: its line is not in %s once (the list is stale)"
                      % (e["id"], e["file"]), flush=True)
                tally["error"] += 1
                continue
            with open(path, "w") as f:
                f.write(text)
            try:
                with open(log, "a") as out:
                    out.write("\n=== %s: %s\n" % (e["id"], e["why"]))
                if not run(["make", "-j2"], build, log):
                    print("ERROR %s: does not build" % e["id"], flush=True)
                    tally["error"] += 1
                    continue
                killer = None
                for d, tests in test_runs(e["tests"]):
                    if not make_tests(build, d, tests, log):
                        killer = "%s%s" % (d, ":" + tests if tests else "")
                        break
                if killer:
                    print("killed %s (by %s, %.0f s)" % (e["id"], killer, time.time() - t0),
                          flush=True)
                    tally["killed"] += 1
                else:
                    print("SURVIVED %s: %s (ran %s)" % (e["id"], e["why"], e["tests"]),
                          flush=True)
                    tally["survived"] += 1
            finally:
                with open(path, "w") as f:
                    f.write(original)
        run(["make", "-j2"], build, log)
    finally:
        if a.keep:
            print("mutate: kept %s" % tree)
        else:
            run(["git", "-C", TOP, "worktree", "remove", "--force", tree], TOP, log)
            shutil.rmtree(scratch, ignore_errors=True)
    print("%d killed, %d survived, %d errors" % (tally["killed"], tally["survived"],
                                                 tally["error"]))
    return 0 if not tally["survived"] and not tally["error"] else 1


if __name__ == "__main__":
    sys.exit(main())
