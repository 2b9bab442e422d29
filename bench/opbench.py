# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers of the opreport benchmarks (bench/opreport, bench/opreport-manyfiles):
the build and OProfile's opreport from the command line, making sessions
with tests/tools/mksamples.py, and timing commands: wall seconds (medians
of several runs, the commands of a comparison taking turns so that they
share the machine's conditions: a busy machine slows them alike) and peak
RSS (one more run, through GNU time)."""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args(doc, extra=None):
    """BUILD_DIR and RUNS (positional, as the other benchmarks take them),
    --oprofile PATH (or $OPROFILE_OPREPORT): OProfile 1.4's opreport to
    measure in the same run; extra(parser) adds options"""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build", nargs="?", default=os.path.join(TOP, "build"),
                   help="the build directory (default: build/)")
    p.add_argument("runs", nargs="?", type=int, default=5, help="runs per command (default 5)")
    p.add_argument("--oprofile", metavar="PATH", default=os.environ.get("OPROFILE_OPREPORT"),
                   help="OProfile 1.4's opreport, measured in the same run "
                        "(default: $OPROFILE_OPREPORT; without it, not measured)")
    if extra:
        extra(p)
    a = p.parse_args()
    a.build = os.path.abspath(a.build)
    a.opreport = os.path.join(a.build, "pp", "opreport")
    if not os.access(a.opreport, os.X_OK):
        sys.exit("%s: no %s: build first" % (os.path.basename(sys.argv[0]), a.opreport))
    if a.oprofile and not os.access(a.oprofile, os.X_OK):
        sys.exit("%s: OProfile's opreport '%s' is not an executable" %
                 (os.path.basename(sys.argv[0]), a.oprofile))
    return a


class Scratch:
    """a temporary directory with a copy of tests/tools, removed at exit"""

    def __init__(self, prefix):
        self.dir = tempfile.mkdtemp(prefix=prefix)
        self.tools = os.path.join(self.dir, "tools")
        shutil.copytree(os.path.join(TOP, "tests", "tools"), self.tools)

    def session(self, spec_path, name):
        out = os.path.join(self.dir, name)
        subprocess.run([sys.executable, os.path.join(self.tools, "mksamples.py"), spec_path,
                        "--out", out, "--quiet"], check=True, cwd=self.tools)
        return out

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


GNU_TIME = "/usr/bin/time"


def run(cmd, ok=(0,), stderr_to=None):
    """wall seconds of one run of cmd; exits unless its status is in ok"""
    return run_cpu(cmd, ok, stderr_to)[0]


def run_cpu(cmd, ok=(0,), stderr_to=None):
    """(wall, cpu) seconds of one run of cmd, cpu being user + system time
    of cmd and every process it waited for (all of a shell pipeline)"""
    err = open(stderr_to, "w") if stderr_to else subprocess.DEVNULL
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - t0
    if stderr_to:
        err.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        sys.exit("%s: %s exited with %d" % (os.path.basename(sys.argv[0]), " ".join(cmd), code))
    return wall, usage.ru_utime + usage.ru_stime


def timed_peak(cmd, ok=(0,)):
    """(wall s, peak MB) of one run through GNU time, for long commands,
    where what GNU time adds to the wall (a millisecond) does not count"""
    t0 = time.perf_counter()
    mb = peak(cmd, ok)
    return time.perf_counter() - t0, mb


def peak(cmd, ok=(0,)):
    """peak RSS (MB) of one run of cmd.  A child forked from this Python
    process would report at least the parent's RSS (Linux keeps the
    high-water mark across exec), so GNU time, a small process, runs it;
    without GNU time that floor (about 15 MB) is in the figure."""
    if not os.access(GNU_TIME, os.X_OK):
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        return usage.ru_maxrss / 1024.0
    fd, out = tempfile.mkstemp(prefix="opbench.")
    os.close(fd)
    try:
        status = subprocess.run([GNU_TIME, "-f", "%x %M", "-o", out] + cmd,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        with open(out) as f:
            code, kb = f.read().split()[-2:]
    finally:
        os.unlink(out)
    if int(code) not in ok:
        sys.exit("%s: %s exited with %s" % (os.path.basename(sys.argv[0]), " ".join(cmd), code))
    return int(kb) / 1024.0


class Figure:
    """the runs of one command: median wall, the wall range, and its peak;
    the median cpu seconds when given"""

    def __init__(self, walls, peak_mb, cpus=None):
        self.walls = list(walls)
        self.wall = statistics.median(walls)
        self.lo, self.hi = min(walls), max(walls)
        self.peak = peak_mb
        self.cpus = list(cpus) if cpus else []
        self.cpu = statistics.median(cpus) if cpus else None

    def spread(self):
        """how far the runs were from each other, in % of the median"""
        return 100.0 * (self.hi - self.lo) / self.wall if self.wall else 0.0


def paired_ratio(a, b):
    """the median of a's wall over b's, run by run: Figures of commands
    that compare() ran in turn, so that each pair shared the machine's
    conditions (a drift in its speed cancels out)"""
    return statistics.median(x / y for x, y in zip(a.walls, b.walls))


def compare(cmds, runs, warmup=True, ok=(0,)):
    """a Figure per command of cmds (None: skipped), each run runs times,
    the commands taking turns, after one unmeasured warm-up round; the
    peak from one more run each (through GNU time, see peak())"""
    walls = [[] for _ in cmds]
    cpus = [[] for _ in cmds]
    for r in range(runs + (1 if warmup else 0)):
        for i, cmd in enumerate(cmds):
            if cmd is None:
                continue
            w, c = run_cpu(cmd, ok)
            if r or not warmup:
                walls[i].append(w)
                cpus[i].append(c)
    return [Figure(w, peak(cmd, ok), c) if cmd is not None else None
            for w, c, cmd in zip(walls, cpus, cmds)]
