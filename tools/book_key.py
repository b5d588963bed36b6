"""Is ``_build/html`` what a strict build of the current sources would make?

``make book`` builds from empty doctrees, strictly. Before it starts, it
records a key of everything the build can read (``start``); when the build
has succeeded, it seals the result (``seal``): the key and a hash of every
file it wrote, in ``_build/book.key``. ``make test`` (the ``built_book``
fixture of ``conftest.py``) reuses that build only when the key of the
sources now, and the hash of ``_build/html`` now, are those sealed
(``python -m tools.book_key check``); otherwise it builds the book again, so
that a page built from older sources can never stand in for a broken one.

The key covers every file of the repository that git tracks or would track
(``git ls-files --cached --others --exclude-standard``: edits not yet
committed, new files not yet added), except ``tests/``, which the build
never reads (``_config.yml`` excludes it from the sources, and no module the
build imports imports it: ``tests/book/test_book_key.py`` checks both);
the packages installed in the environment (its site-packages) and their
versions; and the Python version. Without git, there is no key, and the
book is always built.

    python -m tools.book_key start   # before a build: note the key of the sources
    python -m tools.book_key seal    # after it succeeded: write _build/book.key
    python -m tools.book_key check   # exit 0 if _build/html is that build, unchanged
    python -m tools.book_key key     # print the key of the sources now
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import subprocess
import sys
import sysconfig
from pathlib import Path

from tools.paths import HTML, ROOT

BUILD = ROOT / "_build"
PENDING = "book.started"  # in _build: the key of the sources a build in progress started from
SEALED = "book.key"  # in _build: the key and the hash of the build that succeeded
#: Folders of the repository that the build never reads.
NOT_READ = ("tests/",)


def source_files(root=ROOT):
    """The repository's files that the build may read, sorted; None without git."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    names = {name for name in listed.decode("utf-8", "surrogateescape").split("\0") if name}
    return sorted(name for name in names if not name.startswith(NOT_READ))


def inputs(root=ROOT):
    """A hash of every file the build may read (a deleted one counts as
    deleted), the installed packages and the Python version; None without git."""
    files = source_files(root)
    if files is None:
        return None
    digest = hashlib.sha256()
    for name in files:
        path = Path(root) / name
        content = path.read_bytes() if path.is_file() else b"<missing>"
        digest.update(f"{name}\0{len(content)}\0".encode("utf-8", "surrogateescape"))
        digest.update(content)
    # the environment's own folders, not sys.path: pytest puts the
    # repository on it, where posenc.egg-info would count as a package
    folders = sorted({sysconfig.get_paths()[kind] for kind in ("purelib", "platlib")})
    packages = sorted(f"{d.metadata['Name']}=={d.version}"
                      for d in importlib.metadata.distributions(path=folders))
    digest.update("\n".join(packages + [sys.version]).encode())
    return digest.hexdigest()


def output_hash(html=HTML):
    """A hash of every file under ``html``: its names and contents."""
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(html).rglob("*") if p.is_file()):
        content = path.read_bytes()
        digest.update(f"{path.relative_to(html).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def seal(html=HTML, build=BUILD):
    """Record that ``html`` was built, strictly and from scratch, from the
    sources whose key ``start`` noted when the build started."""
    pending = Path(build) / PENDING
    key = pending.read_text().strip() if pending.is_file() else ""
    pending.unlink(missing_ok=True)
    if key:
        (Path(build) / SEALED).write_text(
            json.dumps({"inputs": key, "html": output_hash(html)}) + "\n")


def check(html=HTML, build=BUILD, root=ROOT):
    """``(True, why)`` if ``html`` is the sealed build of the sources as they
    are now and no file of it has changed since; ``(False, why)`` otherwise."""
    sealed = Path(build) / SEALED
    if not sealed.is_file() or not (Path(html) / "index.html").is_file():
        return False, "no sealed build of `make book`"
    record = json.loads(sealed.read_text())
    now = inputs(root)
    if now is None:
        return False, "no key without git"
    if record.get("inputs") != now:
        return False, "the sources changed since `make book`"
    if record.get("html") != output_hash(html):
        return False, "_build/html changed since `make book`"
    return True, f"`make book`'s build of these sources (key {now[:12]})"


def start(build=BUILD, root=ROOT):
    """Before a build: forget the sealed one, note the key of the sources now."""
    build = Path(build)
    build.mkdir(exist_ok=True)
    (build / SEALED).unlink(missing_ok=True)
    key = inputs(root)
    if key:
        (build / PENDING).write_text(key + "\n")
    else:
        (build / PENDING).unlink(missing_ok=True)
    return key


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["start"]:
        if start() is None:
            print("no key (not a git checkout): make test will build the book again")
        return 0
    if argv == ["seal"]:
        seal()
        return 0
    if argv == ["key"]:
        print(inputs() or "no key (not a git checkout)")
        return 0
    if argv == ["check"]:
        ok, why = check()
        print(why)
        return 0 if ok else 1
    print("usage: python -m tools.book_key start|seal|check|key", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
