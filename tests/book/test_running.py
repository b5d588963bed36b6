"""Running the notebooks anywhere: the bootstrap cell, the exercise markup
tool, the Colab and Binder buttons, the Binder environment, `make lab`.

The slow checks of the same path, with real clients, are
``tests/book/check_lab.py`` (JupyterLab in headless Chromium; ``make
lab-check`` runs it) and nbval's run of each chapter alone in a fresh
environment (``tests/book/alone.py``, in ``make test``).
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
import tomllib
import urllib.parse

import nbformat
import pytest
import yaml

from tools import classroom, nbtools
from tools.paths import ROOT, notebooks


CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text())
FIXTURE = ROOT / "tests" / "fixtures" / "exercise_demo.ipynb"


def name(path):
    return str(path.relative_to(ROOT))


# --- the bootstrap cell --------------------------------------------------------


@pytest.mark.parametrize("path", notebooks(), ids=name)
def test_every_notebook_has_the_bootstrap_cell(path):
    problems = nbtools.bootstrap_problems(nbformat.read(path, as_version=4))
    assert not problems, f"{name(path)}:\n" + "\n".join(problems)


def _notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(s) if kind == "md" else nbformat.v4.new_code_cell(s)
                for kind, s in cells]
    return nb


def test_bootstrap_goes_right_before_the_first_code_cell_and_is_idempotent():
    nb = _notebook(("md", "# Title"), ("md", "Text."), ("code", "import posenc"), ("code", "x = 1"))
    assert nbtools.bootstrap_problems(nb)
    assert nbtools.add_bootstrap(nb) is True
    assert [nbtools.is_bootstrap(c) for c in nb.cells] == [False, False, True, False, False]
    assert nbtools.bootstrap_problems(nb) == []
    boot = nb.cells[2]
    assert boot.source == nbtools.bootstrap_source() and boot.metadata["tags"] == ["remove-cell"]
    boot.execution_count = 1
    before = copy.deepcopy(nb)
    assert nbtools.add_bootstrap(nb) is False and nb == before  # executed state kept


@pytest.mark.parametrize("damage, message", [
    (lambda nb: setattr(nb.cells[2], "source", nb.cells[2].source.replace("main.zip", "dev.zip")), "not the one"),
    (lambda nb: nb.cells.insert(4, nb.cells.pop(2)), "right before"),
    (lambda nb: nb.cells.append(copy.deepcopy(nb.cells[2])), "keep one"),
    (lambda nb: nb.cells[2].metadata.update(tags=[]), "tags"),
    (lambda nb: setattr(nb.cells[2], "outputs", [nbformat.v4.new_output("stream", text="hi\n")]), "output"),
], ids=["stale source", "moved", "duplicated", "shown in the HTML", "prints"])
def test_bootstrap_check_finds_each_departure_and_the_tool_repairs_the_source(damage, message):
    nb = _notebook(("md", "# Title"), ("md", "Text."), ("code", "import posenc"), ("code", "x = 1"))
    nbtools.add_bootstrap(nb)
    damage(nb)
    problems = nbtools.bootstrap_problems(nb)
    assert any(message in p for p in problems), problems
    if message != "output":  # stored output is for `make execute` to fix
        assert nbtools.add_bootstrap(nb) is True
        assert nbtools.bootstrap_problems(nb) == []
        assert [c.source for c in nb.cells if not nbtools.is_bootstrap(c)] == ["# Title", "Text.", "import posenc",
                                                                               "x = 1"]


def test_a_notebook_without_code_gets_no_bootstrap_cell():
    nb = _notebook(("md", "# Only text"))
    assert nbtools.add_bootstrap(nb) is False and len(nb.cells) == 1
    assert nbtools.bootstrap_problems(nb) == []


def test_bootstrap_source_comes_from_the_repository_in_the_config(tmp_path):
    repo, branch = CONFIG["repository"]["url"].rstrip("/"), CONFIG["repository"]["branch"]
    source = nbtools.bootstrap_source()
    assert f'repo = "{repo}"' in source and f"/archive/refs/heads/{branch}.zip" in source
    other = tmp_path / "_config.yml"
    other.write_text(yaml.safe_dump({"repository": {"url": "https://github.com/a/b", "branch": "dev"}}))
    assert 'repo = "https://github.com/a/b"' in nbtools.bootstrap_source(other)
    assert "/archive/refs/heads/dev.zip" in nbtools.bootstrap_source(other)
    compile(source, "bootstrap", "exec")
    assert max(len(line) for line in source.split("\n")) <= 79  # the page rule for code


def _run_bootstrap(monkeypatch, *, importable, returncode=0, env=None):
    """Execute the bootstrap cell's source with pip and find_spec replaced.
    Returns (the commands it ran, its namespace)."""
    import importlib.util
    import subprocess as real_subprocess

    calls = []

    def fake_run(cmd, **kwargs):
        calls.append(cmd)
        return real_subprocess.CompletedProcess(cmd, returncode, "", "ERROR: no such file")

    real_find_spec = importlib.util.find_spec

    def find_spec(module, *args):
        return None if module == "posenc" and not importable else real_find_spec(module, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    monkeypatch.setattr(real_subprocess, "run", fake_run)
    monkeypatch.delenv(nbtools.BOOTSTRAP_ENV, raising=False)
    for key, value in (env or {}).items():
        monkeypatch.setenv(key, value)
    namespace = {}
    exec(nbtools.bootstrap_source(), namespace)
    return calls, namespace


def test_bootstrap_does_nothing_where_posenc_imports(monkeypatch):
    calls, namespace = _run_bootstrap(monkeypatch, importable=True)
    assert calls == []
    assert set(namespace) - {"__builtins__"} == {"importlib"}  # the reader's namespace stays clean


def test_bootstrap_installs_from_the_repository_when_posenc_is_missing(monkeypatch):
    calls, _ = _run_bootstrap(monkeypatch, importable=False)
    repo, branch = CONFIG["repository"]["url"].rstrip("/"), CONFIG["repository"]["branch"]
    assert calls == [[sys.executable, "-m", "pip", "install", "--quiet",
                      f"posenc @ {repo}/archive/refs/heads/{branch}.zip"]]


def test_bootstrap_installs_from_POSENC_SOURCE_when_set(monkeypatch):
    calls, _ = _run_bootstrap(monkeypatch, importable=False, env={"POSENC_SOURCE": "/w/posenc-0.1.0-py3-none-any.whl"})
    assert calls == [[sys.executable, "-m", "pip", "install", "--quiet", "/w/posenc-0.1.0-py3-none-any.whl"]]


def test_bootstrap_says_what_failed_when_pip_fails(monkeypatch):
    with pytest.raises(RuntimeError, match=r"pip could not install posenc from /nowhere\.whl:\nERROR: no such file"):
        _run_bootstrap(monkeypatch, importable=False, returncode=1, env={"POSENC_SOURCE": "/nowhere.whl"})


def test_nbtools_bootstrap_command_writes_checks_and_leaves_alone(tmp_path, capsys):
    path = tmp_path / "nb.ipynb"
    nbformat.write(_notebook(("md", "# T"), ("code", "import posenc")), path)
    assert nbtools.main(["bootstrap", "--check", str(path)]) == 1
    assert not any(map(nbtools.is_bootstrap, nbformat.read(path, as_version=4).cells))  # --check writes nothing
    assert nbtools.main(["bootstrap", str(path)]) == 0
    written = path.read_bytes()
    assert nbtools.main(["bootstrap", "--check", str(path)]) == 0
    assert nbtools.main(["bootstrap", str(path)]) == 0 and path.read_bytes() == written
    assert "up to date" in capsys.readouterr().out


# --- the exercise markup --------------------------------------------------------


def _backticks(source):
    """The old form: colon-fenced exercise directives back to backticks."""
    return re.sub(r"^:::(?=\{(exercise|solution-start|solution-end)\})|^:::$", "```", source, flags=re.M)


def test_markup_rewrites_the_three_directives_with_colon_fences():
    old = ("```{exercise} Row norms\n:label: ex-a\n\nStore `norms`, with $x^2$.\n```\n\n"
           "```{note}\nNot an exercise directive: kept.\n```")
    new = nbtools.colon_fences(old)
    assert new == (":::{exercise} Row norms\n:label: ex-a\n\nStore `norms`, with $x^2$.\n\n:::\n\n"
                   "```{note}\nNot an exercise directive: kept.\n```")
    assert nbtools.colon_fences(new) == new
    assert nbtools.colon_fences("```{solution-start} ex-a\n:class: dropdown\n```") == (
        ":::{solution-start} ex-a\n:class: dropdown\n:::")
    assert nbtools.colon_fences("```{solution-end}\n```") == ":::{solution-end}\n:::"


def test_markup_keeps_code_blocks_and_nests_colon_fences():
    old = "````{exercise} T\n:label: ex-a\n\n```python\nx = 1\n```\n\n:::{hint}\nH\n:::\n````"
    new = nbtools.colon_fences(old)
    assert new == "::::{exercise} T\n:label: ex-a\n\n```python\nx = 1\n```\n\n:::{hint}\nH\n:::\n\n::::"
    (d,) = [d for d in classroom.directives(new) if d.name == "exercise"]
    assert d.options == {"label": "ex-a"} and d.body.endswith(":::{hint}\nH\n:::")


def test_markup_of_the_old_fixture_gives_the_fixture(tmp_path):
    nb = nbformat.read(FIXTURE, as_version=4)
    old = copy.deepcopy(nb)
    for cell in old.cells:
        if cell.cell_type == "markdown":
            cell.source = _backticks(cell.source).replace("\n\n```", "\n```")
    _, problems = classroom.find_exercises(old, module="demo_checks")
    assert any("colon fences" in p for p in problems), problems
    assert nbtools.markup_notebook(old) is True
    assert [c.source for c in old.cells] == [c.source for c in nb.cells]
    assert nbtools.markup_notebook(old) is False


def test_nbtools_markup_command_is_idempotent(tmp_path):
    path = tmp_path / "nb.ipynb"
    nbformat.write(_notebook(("md", "```{exercise} T\n:label: ex-t\n\nDo it.\n```"), ("code", "1")), path)
    assert nbtools.main(["markup", "--check", str(path)]) == 1
    assert nbtools.main(["markup", str(path)]) == 0
    written = path.read_bytes()
    assert nbtools.main(["markup", "--check", str(path)]) == 0
    assert nbtools.main(["markup", str(path)]) == 0 and path.read_bytes() == written


# --- the built book: bootstrap hidden, Colab and Binder buttons -----------------


def _chapter_pages(built_book):
    for path in notebooks():
        yield path, built_book / "book" / (path.stem + ".html")


def test_the_bootstrap_cell_is_left_out_of_the_html_but_kept_in_the_download(built_book):
    for path, page in _chapter_pages(built_book):
        html = page.read_text(encoding="utf-8")
        assert "find_spec" not in html and nbtools.BOOTSTRAP_ENV not in html, (
            f"{page.name} shows the bootstrap cell")
        download = nbformat.read(built_book / "_sources" / "book" / path.name, as_version=4)
        assert not nbtools.bootstrap_problems(download), f"the download of {path.name} lacks the bootstrap cell"


def test_every_chapter_page_has_a_colab_button(built_book):
    colab = CONFIG["launch_buttons"]["colab_url"].rstrip("/")
    repo, branch = CONFIG["repository"]["url"].rstrip("/"), CONFIG["repository"]["branch"]
    owner_repo = urllib.parse.urlsplit(repo).path.strip("/")
    for path, page in _chapter_pages(built_book):
        url = f"{colab}/github/{owner_repo}/blob/{branch}/book/{path.name}"
        assert f'href="{url}"' in page.read_text(encoding="utf-8"), f"{page.name}: no Colab button to {url}"
    assert (built_book / "_static" / "images" / "logo_colab.png").is_file()  # the icon is served locally


# --- Binder: repo2docker's conventions ------------------------------------------

# What repo2docker reads from a binder/ folder (its docs, "Configuration
# files"): with the folder present, it ignores these files at the top level.
REPO2DOCKER_FILES = {"environment.yml", "requirements.txt", "runtime.txt", "setup.py", "Project.toml",
                     "REQUIRE", "install.R", "apt.txt", "DESCRIPTION", "postBuild", "start", "default.nix",
                     "Dockerfile", "pixi.toml"}
BOOK_TOOLCHAIN = {"jupyter-book", "sphinx", "sphinx-exercise", "sphinx-mathjax-offline", "nbval", "pytest",
                  "hypothesis", "playwright", "nbclient"}


def _requirements(path, follow=True):
    """(name, pin or None, line) for each requirement of the file; ``-r``
    lines are followed (or, with ``follow=False``, kept as lines); comments
    and blank lines are skipped."""
    found = []
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r ") and follow:
            found.extend(_requirements(path.parent / line[3:].strip()))
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", line)
        found.append((m[1].lower().replace("_", "-"), m[2], line) if m else (None, None, line))
    return found


def _pins(path):
    return {n: v for n, v, _ in _requirements(path) if n}


def test_binder_folder_is_what_repo2docker_reads():
    binder = ROOT / "binder"
    assert binder.is_dir() and not (ROOT / ".binder").exists(), "repo2docker refuses both binder/ and .binder/"
    files = {p.name for p in binder.iterdir()}
    assert {"requirements.txt", "runtime.txt"} <= files <= REPO2DOCKER_FILES, files
    # With binder/ present repo2docker ignores top-level config: keep none that would mislead.
    assert not (ROOT / "runtime.txt").exists(), "runtime.txt at the top is ignored by repo2docker: move it to binder/"
    runtime = (binder / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-3\.(\d+)", runtime)
    assert m, f"binder/runtime.txt should read python-3.N, not {runtime!r}"
    needed = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert int(m[1]) >= int(re.search(r">=\s*3\.(\d+)", needed)[1]), (runtime, needed)


def test_binder_environment_is_lean_and_pinned_like_the_book():
    reqs = _requirements(ROOT / "binder" / "requirements.txt")
    names = {n for n, _, _ in reqs if n}
    assert {"numpy", "matplotlib", "jupyterlab", "jupyterlab-myst"} <= names, names
    assert not names & BOOK_TOOLCHAIN and not any(n.startswith("sphinx") for n in names), names & BOOK_TOOLCHAIN
    local = [line for n, _, line in reqs if n is None]
    # posenc from the repository: a local reference, which makes repo2docker
    # copy the whole repository before it runs pip (from the repository's root)
    assert local == ["-e ."], f"binder/requirements.txt should install posenc with `-e .`, has {local}"
    book = {**_pins(ROOT / "requirements.txt"), **_pins(ROOT / "requirements-lab.txt")}
    for n, v, line in reqs:
        if n:
            assert book.get(n) == v, f"binder pins {line}, the book {n}=={book.get(n)}"


def test_lab_requirements_add_jupyterlab_to_the_book_environment():
    own = _requirements(ROOT / "requirements-lab.txt", follow=False)
    assert own[0][2] == "-r requirements.txt", "requirements-lab.txt starts from the book's environment"
    book = _pins(ROOT / "requirements.txt")
    names = {n for n, _, _ in own[1:]}
    assert None not in names, f"every requirement is pinned with ==: {[line for n, _, line in own if not n]}"
    assert {"jupyterlab", "jupyterlab-myst"} <= names, names
    assert not names & book.keys(), f"requirements-lab.txt repins packages of requirements.txt: {names & book.keys()}"


# --- the commands ------------------------------------------------------------------


def _dry_run(target):
    result = subprocess.run(["make", "--no-print-directory", "-n", "-B", target], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_lab_installs_the_lab_requirements_and_opens_book():
    commands = _dry_run("lab")
    assert "-r requirements.txt" in commands and "-r requirements-lab.txt" in commands
    lab = [line for line in commands.splitlines() if " lab " in f" {line} " and "jupyter" in line]
    assert lab and "lab/tree/book" in lab[-1], commands


def test_make_lab_check_runs_the_real_client_checks():
    commands = _dry_run("lab-check")
    assert "-r requirements-lab.txt" in commands
    assert "tests/book/check_lab.py" in commands


def test_ci_runs_make_test_then_the_browser_and_lab_checks():
    # The README's two commands first, exactly as it tells a newcomer to type
    # them (`make book`, then `make test`); then the checks that need the
    # system's browser tools, and the slower ones (the graders' check is
    # tests/book/test_graders.py's concern)
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## The two commands\n.*?```bash\n(.*?)```", readme, re.S)[1]
    typed = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert typed == ["make book", "make test"], typed
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.strip().startswith("make ")]
    assert lines[:4] == [*typed, "make browser-check", "make lab-check"], lines


def test_make_test_leaves_out_only_the_browser_and_classroom_tests():
    """`make test` deselects the tests marked "browser" and "classroom", and
    `make browser-check` runs the "browser" ones, with a missing browser an
    error; nothing else is left out."""
    test = _dry_run("test")
    assert '-m "not classroom and not browser" book tests posenc' in test, test
    browser = _dry_run("browser-check")
    assert "POSENC_REQUIRE_BROWSER=1" in browser and "-m browser tests/book" in browser, browser
