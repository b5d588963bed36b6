"""Where the time of a test run goes: ``make test`` prints it at the end.

For each file of tests (a notebook under nbval, a test module, a module's
doctests) the wall-clock seconds its items took, and the CPU seconds (user +
system) that the worker running them and every process it started (nbval's
kernels, Chromium, ``make pdf``) spent meanwhile, with the worker it ran on;
then how busy each worker was. CPU time is what to compare between runs on
a shared machine: others' load stretches wall time, not CPU time. One
blind spot: Chromium's processes that outlive the browser's own reaping
(its zygote and renderers, which the kernel then hands to init) take their
CPU with them, so a browser check's CPU seconds are a lower bound.

``make test-profile`` (and ``make browser-profile``, for the tests marked
"browser") prints every file (``make test`` the slowest) and
pytest's own list of the slowest setups and calls (``--durations``), and
records each file's time in ``tests/durations.json``
(``--breakdown-record``), the table by which ``conftest.py`` starts
the longest files first.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections import defaultdict
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _children(pid):
    """The live child processes of ``pid`` (Linux: /proc/<pid>/task/*/children)."""
    found = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    except OSError:
        pass
    return found


def _live_cpu(pid):
    """CPU seconds of a live process, of the children it has waited for, and of
    its live descendants."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # fields[11:15] are utime, stime, cutime, cstime (stat's fields 14-17)
    own = sum(int(x) for x in fields[11:15]) / TICKS
    return own + sum(_live_cpu(child) for child in _children(pid))


def tree_cpu():
    """CPU seconds (user + system) used so far by this process and by every
    process it started, finished or still running."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = me.ru_utime + me.ru_stime + done.ru_utime + done.ru_stime
    return total + sum(_live_cpu(child) for child in _children(os.getpid()))


def scope(nodeid):
    """The file an item belongs to: ``book/06_length.ipynb::Cell 9`` -> ``book/06_length.ipynb``."""
    return nodeid.split("::", 1)[0]


class Breakdown:
    """Records each item's wall and CPU time where it runs; the controller
    (or the only process, without xdist) prints the table."""

    def __init__(self, config, lines, record=None):
        self.config = config
        self.lines = lines  # how many files to list; 0: all
        self.record = record  # where to write each file's seconds, or None
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "-")
        self.records = []  # [nodeid, worker, start (epoch s), wall s, CPU s]
        self.started = time.time()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item):
        start, wall, cpu = time.time(), time.perf_counter(), tree_cpu()
        yield
        self.records.append([item.nodeid, self.worker, start, time.perf_counter() - wall,
                             tree_cpu() - cpu])

    def pytest_sessionfinish(self, session):
        workeroutput = getattr(self.config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: the controller prints
            workeroutput["posenc_breakdown"] = self.records

    @pytest.hookimpl(optionalhook=True)  # an xdist hook: there without xdist too
    def pytest_testnodedown(self, node, error):
        self.records += getattr(node, "workeroutput", {}).get("posenc_breakdown", [])

    def pytest_terminal_summary(self, terminalreporter):
        if getattr(self.config, "workeroutput", None) is not None or not self.records:
            return
        records = [[n, w, start - self.started, wall, cpu]
                   for n, w, start, wall, cpu in self.records]
        for line in table(records, time.time() - self.started, self.lines):
            terminalreporter.write_line(line)
        if self.record:
            write_durations(self.record, records)
            terminalreporter.write_line(f"each file's time recorded in {self.record}")


def file_seconds(records):
    """Each file's wall and CPU seconds: ``{file: (wall, cpu)}``."""
    seconds = defaultdict(lambda: [0.0, 0.0])
    for nodeid, _worker, _start, wall, cpu in records:
        seconds[scope(nodeid)][0] += wall
        seconds[scope(nodeid)][1] += cpu
    return {name: (round(w, 1), round(c, 1)) for name, (w, c) in seconds.items()}


def write_durations(path, records):
    """``tests/durations.json``: the files of this run, the slowest first,
    with their wall and CPU seconds (a file this run did not meet is kept
    with its old times)."""
    try:
        old = json.loads(Path(path).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError):
        old = {}
    files = {**old, **file_seconds(records)}
    ranked = dict(sorted(files.items(), key=lambda kv: (-kv[1][0], kv[0])))
    about = ("Wall and CPU seconds of each file of tests in one profiled run (tests/breakdown.py): "
             "`make test-profile` writes tests/durations.json, `make browser-profile` "
             "tests/durations-browser.json; conftest.py starts the slowest files first.")
    lines = [f"  {json.dumps(name)}: [{wall}, {cpu}]" for name, (wall, cpu) in ranked.items()]
    Path(path).write_text('{"about": %s,\n "files": {\n%s\n}}\n'
                          % (json.dumps(about), ",\n".join(lines)), encoding="utf-8")


def load_durations(path):
    """``{file: wall seconds}`` from ``tests/durations.json``; {} if there is none."""
    try:
        files = json.loads(Path(path).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError):
        return {}
    return {name: times[0] for name, times in files.items()}


def slowest_first(items, seconds):
    """``items`` reordered file by file, the slowest recorded file first; a
    file with no recorded time (new since the table was made) goes before
    them all, since it may be slow. Items keep their order within a file."""
    rank = {}
    for item in items:
        name = scope(item.nodeid)
        rank.setdefault(name, -seconds.get(name, float("inf")))
    return sorted(items, key=lambda item: rank[scope(item.nodeid)])


def table(records, elapsed, lines=0, min_wall=2.0):
    """The breakdown's lines: one per file (the ``lines`` slowest, or every
    file of at least ``min_wall`` s when ``lines`` is 0), the rest summed, then
    each worker's busy time."""
    files = defaultdict(lambda: {"wall": 0.0, "cpu": 0.0, "items": 0, "workers": set(),
                                 "start": None})
    workers = defaultdict(lambda: {"busy": 0.0, "cpu": 0.0, "end": 0.0, "items": 0})
    for nodeid, worker, start, wall, cpu in records:
        f = files[scope(nodeid)]
        f["wall"] += wall
        f["cpu"] += cpu
        f["items"] += 1
        f["workers"].add(worker)
        f["start"] = start if f["start"] is None else min(f["start"], start)
        w = workers[worker]
        w["busy"] += wall
        w["cpu"] += cpu
        w["items"] += 1
        w["end"] = max(w["end"], start + wall)
    ranked = sorted(files.items(), key=lambda kv: -kv[1]["wall"])
    shown = ranked[:lines] if lines else [kv for kv in ranked if kv[1]["wall"] >= min_wall]
    rest = ranked[len(shown):]
    out = ["", f"{' where the time went ':=^79}",
           f"{'wall s':>7} {'CPU s':>7} {'items':>6} {'worker':>7} {'starts at':>9}  file"]
    for name, f in shown:
        out.append(f"{f['wall']:7.1f} {f['cpu']:7.1f} {f['items']:6d} "
                   f"{','.join(sorted(f['workers'])):>7} {f['start']:8.0f}s  {name}")
    if rest:
        out.append(f"{sum(f['wall'] for _, f in rest):7.1f} {sum(f['cpu'] for _, f in rest):7.1f} "
                   f"{sum(f['items'] for _, f in rest):6d} {'':>7} {'':>9}  "
                   f"{len(rest)} other files")
    total_cpu = sum(w["cpu"] for w in workers.values())
    out.append(f"{len(records)} items in {elapsed:.0f} s wall; {total_cpu:.0f} s CPU "
               "(user + system: the workers and every process they started)")
    for name, w in sorted(workers.items()):
        out.append(f"  worker {name}: busy {w['busy']:.0f} s ({w['items']} items, "
                   f"{w['cpu']:.0f} s CPU), last item ended at {w['end']:.0f} s")
    return out
