"""A chapter runs on its own (``make lab-check``).

Not part of ``make test`` (its file name does not start with ``test_``): it
makes a virtual environment and runs every chapter once more, three to six
minutes on two cores.

A reader who downloads one chapter from the site, or opens it on Colab, has
the notebook and nothing else. Its bootstrap cell (``python -m tools.nbtools
bootstrap``) installs ``posenc`` with pip when it cannot be imported. Here:

* a fresh virtual environment gets numpy, matplotlib and ipykernel only
  (pinned as in requirements.txt), and no posenc;
* posenc is built into a wheel from this repository (no network);
* each chapter is copied alone into an empty folder and run top to bottom
  in a kernel of that environment, with ``POSENC_SOURCE`` naming the wheel
  and pip kept off every index (``PIP_NO_INDEX=1``, no configuration file):
  the bootstrap cell takes the same code path as on Colab, with a local
  source in place of the repository's archive;
* posenc is uninstalled before each chapter, so each one installs it itself.

Each chapter must run to the end, its bootstrap cell must print nothing, and
its text outputs must equal the stored ones. The appendices are left out:
they may read files beside them (the fast-tables appendix reads
``data/bench_sinusoidal.json``), so they do not run alone.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time

import nbformat
import pytest
import yaml
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from tests.breakdown import load_durations
from tools import nbtools
from tools.paths import ROOT


RUNTIME = ("numpy", "matplotlib", "ipykernel")  # all the fresh environment gets
KERNEL = "posenc-alone"


def chapters():
    """The notebooks of the toc part "Chapters"."""
    parts = yaml.safe_load((ROOT / "_toc.yml").read_text()).get("parts", [])
    files = [c["file"] for p in parts if p.get("caption") == "Chapters" for c in p["chapters"]]
    return [ROOT / f"{f}.ipynb" for f in files if (ROOT / f"{f}.ipynb").is_file()]


def pins():
    """The ``name==version`` lines of requirements.txt (a constraints file
    cannot hold its ``-e .``)."""
    return [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()
            if re.match(r"^[A-Za-z0-9_.-]+==", line.strip())]


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{cmd} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


def offline_env(**extra):
    """The environment of the fresh kernel: pip sees no index and no
    configuration file, and nothing points at the book's .venv."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV", "JUPYTER", "CONDA"))}
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """A wheel of posenc, built from a copy of the package (so the build
    leaves nothing in the working tree) without build isolation (so without
    the network): setuptools comes from requirements-lab.txt."""
    src = tmp_path_factory.mktemp("posenc-src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "posenc", src / "posenc", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(out), str(src)], env=offline_env())
    (found,) = out.glob("posenc-*.whl")
    return found


def make_fresh_venv(venv):
    """``python -m venv`` at ``venv``, then pip installs numpy, matplotlib and
    ipykernel (from the package index, pinned as in requirements.txt)."""
    run([sys.executable, "-m", "venv", str(venv)])
    constraints = venv / "constraints.txt"
    constraints.write_text("\n".join(pins()) + "\n")
    wanted = [p for p in pins() if p.split("==")[0].lower() in RUNTIME]
    assert len(wanted) == len(RUNTIME), f"requirements.txt should pin {RUNTIME}: {wanted}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-c", str(constraints), *wanted],
        env=env)
    return wanted


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """A new virtual environment with numpy, matplotlib and ipykernel, and a
    kernelspec for it. Returns (its python, a KernelSpecManager that finds
    the kernelspec).

    Each worker of the run (``-n auto``) uninstalls and installs posenc in
    its own environment, so each has one; the first worker makes it while
    holding a lock (``make_fresh_venv``: about a minute of pip), and every
    worker copies that one, links and all: a copy of a new environment is a
    new environment (its ``python`` finds its own site-packages from where
    it stands; the bootstrap cell runs pip as ``sys.executable -m pip``).
    One pip install instead of one per worker: less CPU, though the other
    worker waits for it (in one run the stage took as long as before)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    started = time.monotonic()
    with open(shared / "fresh-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        template = shared / "fresh-venv"
        if not (template / ".made").exists():
            shutil.rmtree(template, ignore_errors=True)
            wanted = make_fresh_venv(template)
            (template / ".made").write_text(" ".join(wanted))
        wanted = (template / ".made").read_text().split()
    home = tmp_path_factory.mktemp("fresh")
    shutil.copytree(template, home / "venv", symlinks=True)
    python = home / "venv" / "bin" / "python"
    print(f"\nfresh environment with {', '.join(wanted)} in {time.monotonic() - started:.0f} s")
    spec = home / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (numpy, matplotlib, ipykernel only)", "language": "python",
    }))
    return python, KernelSpecManager(kernel_dirs=[str(home / "kernels")])


def installed(python):
    """The version of posenc that ``python`` can import, or None."""
    result = subprocess.run([str(python), "-c", "import posenc, importlib.metadata as m; "
                             "print(m.version('posenc'), posenc.__file__)"],
                            capture_output=True, text=True, cwd="/", env=offline_env())
    return result.stdout.strip() if result.returncode == 0 else None


def execute_alone(path, folder, fresh, env):
    """Copy the notebook alone into ``folder`` and run it in the fresh kernel."""
    python, specs = fresh
    folder.mkdir()
    target = folder / path.name
    shutil.copy(path, target)
    nb = nbformat.read(target, as_version=4)
    km = KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
    client = NotebookClient(nb, km=km, timeout=600, record_timing=False,
                            resources={"metadata": {"path": str(folder)}})
    client.execute(env=env, cleanup_kc=True)  # cleanup_kc: shut the kernel down after
    return nb


def text_outputs(cell):
    """What nbval compares, without images: printed text and plain results."""
    found = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            found.append((out.name, out.text))
        elif out.output_type in ("execute_result", "display_data") and "text/plain" in out.data:
            if not any(k.startswith("image/") for k in out.data):
                found.append(("text/plain", re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", out.data["text/plain"])))
    merged = []
    for kind, text in found:  # a stream may arrive in several pieces
        if merged and merged[-1][0] == kind and kind != "text/plain":
            merged[-1] = (kind, merged[-1][1] + text)
        else:
            merged.append((kind, text))
    return merged


def test_the_fresh_environment_has_no_posenc(fresh):
    python, _ = fresh
    run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "posenc"], env=offline_env())
    assert installed(python) is None


def test_the_chapters_part_is_not_empty():
    assert len(chapters()) >= 4, chapters()


def slowest_first(paths):
    """The chapters, the slowest under nbval first (its times in
    tests/durations.json; a chapter not timed yet first of all): xdist hands
    them out in this order, so the two workers end together instead of one
    starting chapter 8 when the other has nothing left."""
    seconds = load_durations(ROOT / "tests" / "durations.json")
    return sorted(paths, key=lambda p: -seconds.get(f"book/{p.name}", float("inf")))


def test_the_slowest_chapters_run_first():
    order = [p.name for p in slowest_first(chapters())]
    assert sorted(order) == sorted(p.name for p in chapters())
    seconds = load_durations(ROOT / "tests" / "durations.json")
    timed = [seconds[f"book/{name}"] for name in order if f"book/{name}" in seconds]
    assert timed == sorted(timed, reverse=True) and len(timed) >= 4, (order, timed)


@pytest.mark.parametrize("path", slowest_first(chapters()), ids=lambda p: p.name)
def test_a_chapter_runs_alone(path, wheel, fresh, tmp_path):
    python, _ = fresh
    run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "posenc"], env=offline_env())
    assert installed(python) is None, "posenc is still importable before the chapter runs"
    started = time.monotonic()
    nb = execute_alone(path, tmp_path / "alone", fresh, offline_env(**{nbtools.BOOTSTRAP_ENV: str(wheel)}))
    print(f"\n{path.name} ran alone in {time.monotonic() - started:.0f} s (wall)")
    (boot,) = [c for c in nb.cells if nbtools.is_bootstrap(c)]
    assert boot.outputs == [], f"the bootstrap cell printed {boot.outputs}; it must be quiet"
    version = installed(python)
    assert version and version.split()[0] == wheel.name.split("-")[1], (
        f"the bootstrap cell did not install the wheel {wheel.name}: {version}")
    stored = nbformat.read(path, as_version=4)
    assert [c.source for c in stored.cells] == [c.source for c in nb.cells]
    for i, (a, b) in enumerate(zip(stored.cells, nb.cells)):
        if a.cell_type == "code":
            assert text_outputs(b) == text_outputs(a), f"{path.name}, cell {i + 1}: output differs"


def test_a_bad_source_fails_with_a_clear_message(fresh, tmp_path):
    """The bootstrap cell's failure path: pip cannot install from the source."""
    python, _ = fresh
    run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "posenc"], env=offline_env())
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": "alone", "language": "python"}
    nb.cells = [nbtools.bootstrap_cell(), nbformat.v4.new_code_cell("import posenc")]
    path = tmp_path / "probe.ipynb"
    nbformat.write(nb, path)
    missing = tmp_path / "posenc-0.0.0-py3-none-any.whl"
    from nbclient.exceptions import CellExecutionError

    with pytest.raises(CellExecutionError, match="pip could not install posenc from"):
        execute_alone(path, tmp_path / "alone", fresh, offline_env(**{nbtools.BOOTSTRAP_ENV: str(missing)}))
