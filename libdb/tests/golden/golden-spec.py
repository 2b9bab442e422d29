#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print the mksamples.py spec of a golden sample file with N keys.

Keys and counts follow one formula, mirrored in test_odb_golden.c and
odb_golden_write.c:  key(i) = ((i * 0x9E3779B1) mod 2^32) | ((i mod 5) << 32),
count(i) = i mod 13 + 1, for i = 1..N, inserted in that order.  With
--big, key(1) gets 5000000000 instead (two nodes of one key).
usage: golden-spec.py N [--big] SESSION_DIR
"""
import json
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
n, out = int(args[0]), args[1]
big = "--big" in sys.argv
samples = {}
for i in range(1, n + 1):
    key = ((i * 0x9E3779B1) & 0xffffffff) | ((i % 5) << 32)
    samples["0x%x" % key] = 5000000000 if big and i == 1 else i % 13 + 1
spec = {
    "session_dir": out,
    "cpu_type": "i386/skylake",
    "cpu_speed": 2400.0,
    "abi": False,
    "operf_log": False,
    "events": [{"name": "cpu_clk_unhalted", "count": 100000, "unitmask": 0}],
    "profiles": [{"binary": "/golden/prog", "mtime": 1795264867,
                  "samples": samples}],
}
json.dump(spec, sys.stdout, indent=1)
