"""Checkers for the exercises of the book, one module per chapter.

A checker takes the learner's answer, prints either ``Correct!`` with a
short confirmation or ``Not yet.`` with a hint that helps without giving the
answer away, and returns ``True`` or ``False``. In a notebook the check cell
reads ``assert posenc.exercises.check_<slug>_<name>(answer)``, so an
autograder (nbgrader, otter-grader) sees a wrong answer as a failed cell,
and a learner sees the hint first.

Checkers accept every correct answer: numbers within a tolerance, arrays of
the right shape and values, and equivalent forms (a list for an array, an int
for a float...). They never print the expected value, and never raise on a
learner's answer, whatever its type.

Every chapter has one *slug*, the name after its number: the notebook
``book/NN_<slug>.ipynb`` (``book/appendix_<slug>.ipynb`` for an appendix)
has its checkers in ``posenc/exercises/<slug>.py``, named ``check_<slug>_*``,
for the exercises labelled ``ex-<slug>-*``, tested in
``tests/exercises/test_<slug>.py``. This package finds the chapter modules
itself: a new chapter's module is picked up by adding its file. ``_common``
holds what every checker shares (the verdict, reading an answer).
"""

from __future__ import annotations

import importlib
import pkgutil

__all__ = []

#: The slug of every chapter that has exercises, in the order of the files.
SLUGS = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")))

for _slug in SLUGS:
    _module = importlib.import_module(f"{__name__}.{_slug}")
    globals()[_slug] = _module
    for _name in _module.__all__:
        if not _name.startswith(f"check_{_slug}_"):
            raise ImportError(f"posenc.exercises.{_slug}.{_name}: checkers are named check_{_slug}_*")
        globals()[_name] = getattr(_module, _name)
    __all__.extend(_module.__all__)
del _slug, _module, _name
