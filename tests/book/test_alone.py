"""The chapters run alone, in a fresh environment (``tests/book/alone.py``).

nbval runs each chapter that way in ``make test``; here, what that rests
on: the fresh environment starts without posenc, the bootstrap cell fails
with a clear message when pip cannot install posenc, and nbval's run of
each chapter (and of no appendix) is the run alone.
"""

from __future__ import annotations

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbval.plugin import IPyNbCell

from tests.book import alone
from tools import nbtools
from tools.paths import ROOT


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    return alone.fresh_environment(tmp_path_factory)


def test_the_chapters_part_is_not_empty():
    assert len(alone.chapters()) >= 4, alone.chapters()


def test_the_fresh_environment_has_the_runtime_and_none_of_the_books_packages(fresh):
    alone.uninstall_posenc(fresh.python)
    assert alone.installed(fresh.python) is None
    listed = alone.run([str(fresh.python), "-m", "pip", "list", "--format=freeze"],
                       env=alone.offline_env()).stdout
    names = {line.split("==")[0].lower() for line in listed.split()}
    assert {p.split("==")[0].lower() for p in fresh.wanted} <= names
    assert not names & {"nbval", "pytest", "jupyter-book", "posenc"}, names


def test_a_bad_source_fails_with_a_clear_message(fresh, tmp_path):
    """The bootstrap cell's failure path: pip cannot install from the source."""
    alone.uninstall_posenc(fresh.python)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbtools.bootstrap_cell(), nbformat.v4.new_code_cell("import posenc")]
    missing = tmp_path / "posenc-0.0.0-py3-none-any.whl"
    km = KernelManager(kernel_name=alone.KERNEL, kernel_spec_manager=fresh.specs)
    client = NotebookClient(nb, km=km, timeout=120, record_timing=False,
                            resources={"metadata": {"path": str(tmp_path)}})
    with pytest.raises(CellExecutionError, match="pip could not install posenc from"):
        client.execute(env=alone.offline_env(**{nbtools.BOOTSTRAP_ENV: str(missing)}), cleanup_kc=True)


def test_nbval_runs_every_chapter_alone_and_no_appendix(request):
    """What pytest's collection hook (nbval's, with conftest.py's
    wrapper) makes of each notebook: a chapter's cells under the run alone,
    then its check of the bootstrap cell; an appendix's under plain nbval."""
    notebooks = sorted((ROOT / "book").glob("*.ipynb"))
    chapters = set(alone.chapters())
    assert chapters and chapters < set(notebooks)
    for path in notebooks:
        (node,) = [n for n in request.config.hook.pytest_collect_file(file_path=path, parent=request.session)
                   if isinstance(n, alone.IPyNbFile)]
        items = list(node.collect())
        cells = [i for i in items if isinstance(i, IPyNbCell)]
        assert cells, path.name
        if path in chapters:
            assert type(node) is alone.AloneNotebook, path.name
            assert isinstance(items[-1], alone.BootstrapCheck) and len(items) == len(cells) + 1, path.name
        else:
            assert type(node) is alone.IPyNbFile and len(items) == len(cells), path.name


class _Item:
    def __init__(self, nodeid):
        self.nodeid = nodeid


def test_the_environment_is_made_first_beside_the_slowest_file_that_needs_none():
    names = ["book/08_grids.ipynb::Cell 0", "book/08_grids.ipynb::Cell 1", "tests/unit/test_a.py::t",
             "tests/unit/test_b.py::t", alone.MAKER + "::t1", "book/appendix_fast.ipynb::Cell 0",
             alone.MAKER + "::t2"]
    seconds = {"tests/unit/test_a.py": 3.0, "tests/unit/test_b.py": 9.0, "book/appendix_fast.ipynb": 7.0}
    order = [i.nodeid for i in alone.fresh_first([_Item(n) for n in names], seconds)]
    assert order == [alone.MAKER + "::t1", alone.MAKER + "::t2", "tests/unit/test_b.py::t",
                     "book/08_grids.ipynb::Cell 0", "book/08_grids.ipynb::Cell 1", "tests/unit/test_a.py::t",
                     "book/appendix_fast.ipynb::Cell 0"]
    # without the file that makes the environment (classroom-check's run), nothing moves
    rest = [_Item(n) for n in names if not n.startswith(alone.MAKER)]
    assert alone.fresh_first(rest, seconds) == rest
