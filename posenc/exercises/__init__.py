"""Checkers for the exercises of the book, one module per chapter.

A checker takes the learner's answer, prints either ``Correct!`` with a
short confirmation or ``Not yet.`` with a hint that helps without giving the
answer away, and returns ``True`` or ``False``. In a notebook the check cell
reads ``assert posenc.exercises.check_xxx(answer)``, so an autograder
(nbgrader, otter-grader) sees a wrong answer as a failed cell, and a learner
sees the hint first.

Checkers accept every correct answer: numbers within a tolerance, arrays of
the right shape and values, and equivalent forms (a list for an array, an int
for a float...). They never print the expected value, and never raise on a
learner's answer, whatever its type.

One module per chapter, so that a teacher finds a chapter's checkers in one
short file:

* ``why``: chapter 1, why order matters (``check_why_*``);
* ``sinusoidal``: chapter 2, the sinusoidal formula (``check_sin_*``);
* ``cat``: chapter 3, the cat sat on the mat (``check_cat_*``);
* ``learned``: chapter 4, learned positional embeddings (``check_learned_*``);
* ``relative``: chapter 5, relative and rotary positions (``check_rel_*``);
* ``precision``: the appendix on positions in low precision (``check_prec_*``);
* ``_common``: what every checker shares (the verdict, reading an answer).
"""

from __future__ import annotations

from . import cat, learned, precision, relative, sinusoidal, why
from .cat import *  # noqa: F401,F403
from .learned import *  # noqa: F401,F403
from .precision import *  # noqa: F401,F403
from .relative import *  # noqa: F401,F403
from .sinusoidal import *  # noqa: F401,F403
from .why import *  # noqa: F401,F403

__all__ = [*why.__all__, *sinusoidal.__all__, *cat.__all__, *learned.__all__, *relative.__all__,
           *precision.__all__]
