"""pytest's configuration of every run: the arithmetic pin, the strictly
built book, the system's Chromium for the browser checks, each chapter run
alone in a fresh environment (``tests/book/alone.py``), the order of the
files and the breakdown of the time. It lies at the root of the repository,
so that a run of one notebook (``pytest book/06_length.ipynb``) gets it
too."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess

import pytest

from tests.book import alone
from tests.breakdown import Breakdown, load_durations, slowest_first
from tools import book_key
from tools.headless import INSTALL_HINT, find_chromium
from tools.paths import ARITHMETIC_ENV, HTML, ROOT

# The kernels that nbval starts inherit this environment: the notebooks run
# with the arithmetic their stored outputs were made with (tools/paths.py).
os.environ.update(ARITHMETIC_ENV)

# tests/fixtures holds a demo notebook that is not part of the book: pytest
# must not collect it (nbval would re-run it) nor its checker module.
collect_ignore = ["tests/fixtures"]


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """Build the book exactly as ``make book`` does and return _build/html.

    The build is strict (warnings are errors, nitpicky) and starts from empty
    doctrees, so a page that breaks fails here. A build that ``make book``
    sealed is used as it is when it is provably what building now would
    give: the key of every source it read, and the hash of every file it
    wrote, are unchanged (``tools/book_key.py``); otherwise the book is built.

    ``make test`` runs the suite on several processes (pytest-xdist); the
    first one to need the book builds it while holding a lock, and the others
    wait for it and reuse its result, so the book is built once per run.
    """
    # Under xdist each worker's basetemp is <run folder>/popen-gwN: the run
    # folder is shared by the workers of this run and by no other run.
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with open(shared / "built_book.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        record = shared / "built_book.json"
        if not record.exists():
            sealed, why = book_key.check()
            if sealed:
                result = subprocess.CompletedProcess([], 0, f"reused {why}", "")
            else:
                result = subprocess.run(
                    ["make", "--no-print-directory", "book"],
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                )
            record.write_text(json.dumps({
                "returncode": result.returncode,
                "log": (result.stdout + result.stderr)[-6000:],
            }))
        built = json.loads(record.read_text())
    assert built["returncode"] == 0, f"`make book` failed:\n{built['log']}"
    assert (HTML / "index.html").is_file(), (
        f"no _build/html/index.html after `make book`:\n{built['log']}")
    return HTML


@pytest.fixture(scope="session")
def chromium():
    """Path of the system's Chromium. Without one, a test that needs it is
    skipped with a message saying so, unless ``POSENC_REQUIRE_BROWSER=1``
    (set by ``.ci/run``), which makes that an error."""
    path = find_chromium()
    if path is None:
        message = f"Chromium is not installed, so the browser checks cannot run: {INSTALL_HINT}"
        if os.environ.get("POSENC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (POSENC_REQUIRE_BROWSER=1 makes this an error)", pytrace=False)
        pytest.skip(message)
    return path


DURATIONS = ROOT / "tests" / "durations.json"
BROWSER_DURATIONS = ROOT / "tests" / "durations-browser.json"

# The tests that drive the system's Chromium (and, for the PDF, pdftoppm and
# the pinned axe-core): marked "browser", run by `make browser-check`, not by
# `make test` (README, "The browser check"). A test is one of them when it
# asks for one of these fixtures, directly or through another fixture.
BROWSER_FIXTURES = {"chromium", "book_pdf"}


def pytest_addoption(parser):
    parser.addoption("--breakdown", type=int, default=25, metavar="N",
                     help="list the N slowest files at the end, with their wall and CPU "
                          "time (tests/breakdown.py); 0 lists every file over 2 s")
    parser.addoption("--breakdown-record", metavar="PATH", default=None,
                     help="write each file's wall and CPU seconds to PATH "
                          "(make test-profile: tests/durations.json)")


def pytest_configure(config):
    config.pluginmanager.register(
        Breakdown(config, config.getoption("breakdown"), config.getoption("breakdown_record")),
        "posenc-breakdown")


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path, parent):
    """nbval runs each chapter alone, in a fresh environment
    (``tests/book/alone.py``); the appendices as nbval does by itself."""
    nodes = yield
    if file_path.suffix == ".ipynb" and alone.is_chapter(file_path):
        return [alone.AloneNotebook.from_parent(parent, path=file_path)
                if isinstance(node, alone.IPyNbFile) else node for node in nodes]
    return nodes


def pytest_itemcollected(item):
    """Mark "browser" each test that needs the system's browser tools."""
    if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.browser)


def pytest_collection_modifyitems(session, config, items):
    """The slowest files first (``tests/durations.json`` for ``make test``,
    ``tests/durations-browser.json`` for the tests marked "browser"), so that
    under ``-n auto --dist loadfile --no-loadscope-reorder`` (xdist hands out
    whole files in this order) no long file starts last while the other
    worker sits idle; and, in ``make test``, the file that makes the fresh
    environment of the chapters first, beside the slowest file that does
    not need it (``tests/book/alone.py``, ``fresh_first``)."""
    browser = [item for item in items if item.get_closest_marker("browser")]
    rest = [item for item in items if not item.get_closest_marker("browser")]
    seconds = load_durations(DURATIONS)
    items[:] = (alone.fresh_first(slowest_first(rest, seconds), seconds)
                + slowest_first(browser, load_durations(BROWSER_DURATIONS)))
