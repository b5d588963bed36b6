"""Where the time of a run goes (``tests/breakdown.py``), and the order in
which ``make test`` hands out its files: the slowest recorded first."""

from __future__ import annotations

import subprocess
import sys
import time
from types import SimpleNamespace

from tests import breakdown


def test_cpu_counts_the_processes_a_test_starts():
    before = breakdown.tree_cpu()
    subprocess.run([sys.executable, "-c", "sum(i * i for i in range(3_000_000))"], check=True)
    spent = breakdown.tree_cpu() - before
    start = time.process_time()
    sum(i * i for i in range(3_000_000))
    alone = time.process_time() - start
    assert spent >= 0.5 * alone, (spent, alone)


def test_table_sums_each_file_and_each_worker():
    records = [["book/06_length.ipynb::Cell 1", "gw0", 0.0, 30.0, 29.0],
               ["book/06_length.ipynb::Cell 2", "gw0", 30.0, 20.0, 21.0],
               ["tests/unit/test_x.py::test_a", "gw1", 0.0, 1.0, 0.5],
               ["tests/unit/test_x.py::test_b", "gw1", 1.0, 1.5, 1.0]]
    lines = breakdown.table(records, 50.0, lines=1)
    assert any("50.0" in line and "book/06_length.ipynb" in line for line in lines)
    assert any("1 other files" in line and "2.5" in line for line in lines)
    assert any("worker gw0: busy 50 s (2 items, 50 s CPU)" in line for line in lines)
    assert breakdown.file_seconds(records) == {"book/06_length.ipynb": (50.0, 50.0),
                                              "tests/unit/test_x.py": (2.5, 1.5)}


def item(nodeid):
    return SimpleNamespace(nodeid=nodeid)


def test_the_slowest_file_goes_first_and_a_new_one_before_all():
    items = [item(n) for n in ("a.py::1", "b.ipynb::Cell 0", "a.py::2", "c.py::1",
                               "new.py::1", "b.ipynb::Cell 1")]
    seconds = {"a.py": 2.0, "b.ipynb": 60.0, "c.py": 10.0}
    order = [i.nodeid for i in breakdown.slowest_first(items, seconds)]
    assert order == ["new.py::1", "b.ipynb::Cell 0", "b.ipynb::Cell 1", "c.py::1",
                     "a.py::1", "a.py::2"]


def test_durations_are_written_slowest_first_and_read_back(tmp_path):
    path = tmp_path / "durations.json"
    assert breakdown.load_durations(path) == {}
    breakdown.write_durations(path, [["old.py::t", "gw0", 0, 5.0, 4.0]])
    breakdown.write_durations(path, [["x.py::t", "gw0", 0, 1.0, 1.0],
                                     ["y.ipynb::Cell 0", "gw1", 0, 9.0, 8.0]])
    assert list(breakdown.load_durations(path).items()) == [("y.ipynb", 9.0), ("old.py", 5.0),
                                                             ("x.py", 1.0)]
