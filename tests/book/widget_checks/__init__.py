"""What ``posenc`` says each interactive figure should show.

One module per chapter, named by its slug, as the figure files
(``book/_ext/static/widgets/figures/<slug>.js``): each defines
``CHECKS = {figure name: check(values)}``, where ``values`` is what
``PosencWidgets.values(figure)`` returns in the browser, and a check
recomputes the figure's numbers with ``posenc`` and compares them with
``assert_close`` (raising AssertionError if they differ by more than 1e-12).
``tests/book/test_widgets.py`` runs the check of every figure after every
move of every slider, and requires one check per figure on the site and a
figure on the site per check.
"""

from __future__ import annotations

import importlib
import pkgutil

import numpy as np

RTOL = 1e-12


def assert_close(got, want, what, *, signed=False):
    """``got`` equals ``want`` to RTOL: element by element, or, for values that
    cross zero (``signed``), relative to the largest of them."""
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, posenc {want.shape}"
    if signed:
        error = np.abs(got - want).max() / np.abs(want).max()
    else:
        error = (np.abs(got - want) / np.abs(want)).max()
    assert error <= RTOL, f"{what}: relative error {error:.2e} > {RTOL:g}"
    return error


def _collect():
    checks = {}
    for module in pkgutil.iter_modules(__path__):
        found = importlib.import_module(f"{__name__}.{module.name}").CHECKS
        clash = set(found) & set(checks)
        assert not clash, f"figures checked twice: {clash}"
        checks.update(found)
    return checks


CHECKS = _collect()
