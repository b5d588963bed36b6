"""Every chapter runs alone, in a fresh environment, under nbval.

A reader who downloads one chapter from the site, or opens it on Colab, has
the notebook and nothing else. Its bootstrap cell (``python -m tools.nbtools
bootstrap``) installs ``posenc`` with pip when it cannot be imported. So
``make test`` runs each chapter (the notebooks of the toc part "Chapters")
that way, and nbval compares every cell with its stored outputs there:

* a fresh virtual environment gets numpy, matplotlib and ipykernel only
  (pinned as in requirements.txt), and no posenc;
* posenc is built into a wheel from this repository (no network);
* the chapter is copied alone into an empty folder, and its kernel, in that
  environment, starts there with ``POSENC_SOURCE`` naming the wheel and pip
  kept off every index (``PIP_NO_INDEX=1``, no configuration file): the
  bootstrap cell takes the same code path as on Colab, with a local source
  in place of the repository's archive;
* posenc is uninstalled before each chapter, so each one installs it itself;
  after the last cell, the posenc that the kernel's environment holds must
  be the wheel's, and the bootstrap cell must have printed nothing.

One run of each chapter checks both that it runs alone and that it prints
what the book shows (until 2026-12-04 these were two runs, the second in
``make lab-check``). The appendices run in the book's environment, beside
their files (the fast-tables appendix reads ``data/bench_sinusoidal.json``).

The environment is made once per run (about 25 s of pip), by the first
worker that needs it (``fresh_first`` makes that ``test_alone.py``), while it holds a lock in the folder that the
workers of the run share; each worker copies it, links and all (a copy of a
new environment is a new environment: its ``python`` finds its own
site-packages from where it stands, and the bootstrap cell runs pip as
``sys.executable -m pip``).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbval.kernel import RunningKernel
from nbval.plugin import IPyNbFile

from tests.breakdown import scope
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


def build_wheel(out, scratch):
    """A wheel of posenc in ``out``, built from a copy of the package in
    ``scratch`` (so the build leaves nothing in the working tree) without
    build isolation (so without the network): setuptools comes from
    requirements.txt."""
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, scratch / name)
    shutil.copytree(ROOT / "posenc", scratch / "posenc",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(out), str(scratch)], env=offline_env())
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


class Fresh:
    """This worker's copy of the run's fresh environment: ``python``, the
    ``specs`` that find its kernel, the ``wheel`` of posenc (kept in the
    environment's folder, ``wheel/``), and ``wanted`` (the pins it was made
    with)."""

    def __init__(self, python, specs, wheel, wanted):
        self.python, self.specs, self.wheel, self.wanted = python, specs, wheel, wanted


_FRESH = {}


def fresh_environment(tmp_path_factory):
    """This worker's :class:`Fresh`, made on first use (see the module's
    docstring); ``tmp_path_factory`` is pytest's."""
    if "env" in _FRESH:
        return _FRESH["env"]
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    with open(shared / "fresh-venv.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        template = shared / "fresh-venv"
        if not (template / ".made").exists():
            shutil.rmtree(template, ignore_errors=True)
            wanted = make_fresh_venv(template)
            wheels = template / "wheel"
            wheels.mkdir()
            scratch = shared / "posenc-src"
            shutil.rmtree(scratch, ignore_errors=True)
            scratch.mkdir()
            build_wheel(wheels, scratch)
            (template / ".made").write_text(" ".join(wanted))
        wanted = (template / ".made").read_text().split()
    home = tmp_path_factory.mktemp("fresh")
    shutil.copytree(template, home / "venv", symlinks=True)
    python = home / "venv" / "bin" / "python"
    (wheel,) = (home / "venv" / "wheel").glob("posenc-*.whl")
    spec = home / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (numpy, matplotlib, ipykernel only)", "language": "python",
    }))
    specs = KernelSpecManager(kernel_dirs=[str(home / "kernels")])
    _FRESH["env"] = Fresh(python, specs, wheel, wanted)
    return _FRESH["env"]


def installed(python):
    """The version of posenc that ``python`` can import and where from, or None."""
    result = subprocess.run([str(python), "-c", "import posenc, importlib.metadata as m; "
                             "print(m.version('posenc'), posenc.__file__)"],
                            capture_output=True, text=True, cwd="/", env=offline_env())
    return result.stdout.strip() if result.returncode == 0 else None


def uninstall_posenc(python):
    run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "posenc"], env=offline_env())


class AloneKernel(RunningKernel):
    """nbval's kernel, started from the fresh environment's kernelspec, in
    ``cwd``, with the environment ``env`` (nbval's own start_new_kernel
    takes neither a kernelspec manager nor an environment)."""

    def __init__(self, specs, cwd, env, startup_timeout=60):
        self.km = KernelManager(kernel_name=KERNEL, kernel_spec_manager=specs)
        self.km.start_kernel(stderr=open(os.devnull, "w"), cwd=cwd, env=env)
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=startup_timeout)
        except RuntimeError:
            self.kc.stop_channels()
            self.km.shutdown_kernel()
            raise
        self._ensure_iopub_up()


class AloneNotebook(IPyNbFile):
    """A chapter under nbval, run alone in the fresh environment (the
    module's docstring), with one more item after its cells: the checks of
    what the bootstrap cell did."""

    def setup(self):
        fresh = fresh_environment(self.config._tmp_path_factory)  # what tmp_path_factory returns
        uninstall_posenc(fresh.python)
        assert installed(fresh.python) is None, "posenc is still importable before the chapter runs"
        folder = self.config._tmp_path_factory.mktemp(f"alone-{self.path.stem}")
        shutil.copy(self.path, folder / self.path.name)
        self.fresh = fresh
        self.kernel = AloneKernel(
            fresh.specs, cwd=str(folder),
            env=offline_env(**{nbtools.BOOTSTRAP_ENV: str(fresh.wheel)}),
            startup_timeout=self.config.option.nbval_kernel_startup_timeout,
        )
        self.setup_sanitize_files()

    def collect(self):
        cells = list(super().collect())
        yield from cells
        yield BootstrapCheck.from_parent(self, name="bootstrap installed the wheel", cells=cells)


class BootstrapCheck(pytest.Item):
    """After the chapter's last cell: the bootstrap cell ran and printed
    nothing, and the fresh environment now holds a posenc of the wheel's
    version, installed in that environment (pip saw no index, so the wheel
    was its only source)."""

    def __init__(self, *, cells, **kwargs):
        super().__init__(**kwargs)
        self.cells = cells

    def runtest(self):
        (boot,) = [c for c in self.cells if nbtools.is_bootstrap(c.cell)]
        assert boot.test_outputs == [], f"the bootstrap cell printed {boot.test_outputs}; it must be quiet"
        fresh = self.parent.fresh
        version = installed(fresh.python)
        assert version, "posenc is not installed in the fresh environment after the chapter ran"
        number, where = version.split(maxsplit=1)
        assert number == fresh.wheel.name.split("-")[1], (
            f"the bootstrap cell did not install the wheel {fresh.wheel.name}: {version}")
        assert where.startswith(str(fresh.python.parent.parent)), (
            f"posenc is imported from outside the fresh environment: {where}")

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::{self.name}"


def is_chapter(path):
    return path.resolve() in {p.resolve() for p in chapters()}


MAKER = "tests/book/test_alone.py"  # the first file of make test: it makes the environment


def fresh_first(items, seconds):
    """``items`` (in the order of their files) reordered so that no worker
    waits for the fresh environment: the tests of ``MAKER`` first (the first
    of them makes it, in about 25 s), then the slowest file that does not need
    it (by ``seconds``, tests/durations.json), so that the other worker has
    work meanwhile, then the rest in the order they came."""
    files = list(dict.fromkeys(scope(item.nodeid) for item in items))
    free = [f for f in files if f != MAKER and not (f.endswith(".ipynb") and is_chapter(ROOT / f))]
    if MAKER not in files or not free:
        return items
    second = max(free, key=lambda f: seconds.get(f, 0.0))
    order = [MAKER, second] + [f for f in files if f not in (MAKER, second)]
    rank = {f: i for i, f in enumerate(order)}
    return sorted(items, key=lambda item: rank[scope(item.nodeid)])
