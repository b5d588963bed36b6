"""Where things are in the repository: shared by the tools and the tests."""

from __future__ import annotations

import pathlib
import platform

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
HTML = ROOT / "_build" / "html"
FIXTURES = ROOT / "tests" / "fixtures"

#: The arithmetic the stored outputs were made with. Training in float32 is
#: chaotic: a different rounding in one matrix product changes which seeds
#: converge. NumPy's matrix products run in OpenBLAS, which picks its kernels
#: by CPU (Haswell's AVX2 kernels, SkylakeX's AVX-512 ones...), and those
#: kernels round differently. Every x86-64 CPU with AVX2 (2013 on, Intel and
#: AMD) runs the Haswell kernels, so nbval (conftest.py), ``make
#: execute`` (tools/nbtools.py) and the Makefile pin them.
#:
#: NumPy's own loops are compiled several times too, and it runs the best
#: version its CPU can (``np._core._multiarray_umath.__cpu_targets_info__``
#: lists them): float64 ``exp`` and ``log``, among others, have an AVX-512
#: version (``X86_V4``) beside the AVX2 one, and those two round differently.
#: The float32 training does not see it, but float64 checks that print
#: differences of a few units in the last place do: on an AVX2 CPU, eight
#: cells stored on an Intel Xeon printed another last digit, and on an
#: AVX-512 CPU the same eight cells print the Xeon's digits unless the
#: AVX-512 code is off (``python -m tools.compare_arithmetic``). So NumPy's
#: AVX-512 versions are switched off (``NPY_DISABLE_CPU_FEATURES``; only on
#: x86-64, where those names exist): every x86-64 CPU with AVX2 then runs
#: the same code. On other CPUs (an ARM laptop) the notebooks still run, but
#: chaotic numbers may differ from the stored ones in their last digits or
#: in a seed's fate.
ARITHMETIC_ENV = {"OPENBLAS_CORETYPE": "Haswell"}
if platform.machine().lower() in ("x86_64", "amd64"):
    ARITHMETIC_ENV["NPY_DISABLE_CPU_FEATURES"] = "X86_V4 AVX512_ICL AVX512_SPR"


def notebooks():
    """Every chapter notebook under book/, in name order."""
    return sorted(BOOK.glob("*.ipynb"))


def toc():
    """The table of contents, ``_toc.yml``, read."""
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def toc_docs(entries):
    """The files of some entries of ``_toc.yml`` and of their sections, in order."""
    files = []
    for entry in entries or []:
        if "file" in entry:
            files.append(entry["file"])
        files += toc_docs(entry.get("sections")) + toc_docs(entry.get("chapters"))
    return files


def toc_files():
    """Every file named in ``_toc.yml``, in the book's order: paths relative to
    the root, without suffix."""
    contents = toc()
    parts = [toc_docs(part.get("chapters")) for part in contents.get("parts", [])]
    return [contents["root"], *(name for part in parts for name in part),
            *toc_docs(contents.get("chapters"))]
