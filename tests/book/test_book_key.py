"""The key that lets ``make test`` reuse ``make book``'s build
(``tools/book_key.py``): it changes with every source the build can read, and
a build is reused only when nothing of it has changed."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys

import pytest
import yaml

from tools import book_key
from tools.paths import ROOT


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    """A small git checkout: a chapter, a module, a test, an ignored build."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = tmp_path / "repo"
    for name, text in {"book/01_a.md": "# A\n", "posenc/x.py": "X = 1\n",
                       "tests/test_x.py": "def test(): pass\n", ".gitignore": "_build/\n",
                       "_build/html/index.html": "<html></html>\n"}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    return root


def test_the_key_follows_every_source_but_not_the_tests(repo):
    key = book_key.inputs(repo)
    assert key and book_key.inputs(repo) == key
    (repo / "tests" / "test_x.py").write_text("def test(): assert 0\n")
    (repo / "_build" / "html" / "index.html").write_text("changed")
    assert book_key.inputs(repo) == key, "the tests and the build's output are not sources"
    changes = [
        lambda: (repo / "book" / "01_a.md").write_text("# A, edited and not committed\n"),
        lambda: (repo / "book" / "02_b.md").write_text("# B, new and not added\n"),
        lambda: (repo / "posenc" / "x.py").unlink(),
    ]
    seen = {key}
    for change in changes:
        change()
        now = book_key.inputs(repo)
        assert now not in seen, "a change to the sources left the key as it was"
        seen.add(now)


def test_a_sealed_build_is_reused_only_while_nothing_changed(repo):
    build, html = repo / "_build", repo / "_build" / "html"
    assert book_key.check(html, build, repo)[0] is False, "nothing was sealed"
    book_key.start(build, repo)
    assert book_key.check(html, build, repo)[0] is False, "a build in progress is not sealed"
    book_key.seal(html, build)
    assert book_key.check(html, build, repo) == (True, book_key.check(html, build, repo)[1])
    (html / "index.html").write_text("<html>edited by hand</html>\n")
    assert book_key.check(html, build, repo) == (False, "_build/html changed since `make book`")
    book_key.start(build, repo)
    book_key.seal(html, build)
    assert book_key.check(html, build, repo)[0] is True
    (repo / "book" / "01_a.md").write_text("# A, edited after the build\n")
    assert book_key.check(html, build, repo) == (False, "the sources changed since `make book`")
    book_key.start(build, repo)  # a build that fails after starting is never sealed
    assert book_key.check(html, build, repo)[0] is False


def test_a_build_started_without_git_is_never_reused(tmp_path):
    build, html = tmp_path / "_build", tmp_path / "_build" / "html"
    html.mkdir(parents=True)
    (html / "index.html").write_text("<html></html>")
    assert book_key.start(build, tmp_path) is None
    book_key.seal(html, build)
    assert book_key.check(html, build, tmp_path)[0] is False


def test_the_key_is_the_same_in_make_book_and_in_pytest():
    """``make book`` notes the key from the command line, the fixture checks
    it under pytest, whose sys.path holds the repository (and so the
    project's own posenc.egg-info): the two must agree."""
    shown = subprocess.run([sys.executable, "-m", "tools.book_key", "key"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert shown == book_key.inputs()


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def test_the_build_never_reads_the_tests():
    """What the key leaves out, the build cannot read: Sphinx's sources
    exclude tests/, and no module of the package, the book's extensions or
    the tools imports from tests."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert "tests" in config["exclude_patterns"]
    assert book_key.NOT_READ == ("tests/",)
    found = []
    for folder in ("posenc", "book/_ext", "tools"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" in path.parts:
                continue
            found += [f"{path.relative_to(ROOT)} imports {m}" for m in imported_modules(path)
                      if m == "tests" or m.startswith("tests.")]
    assert not found, "\n".join(found)
