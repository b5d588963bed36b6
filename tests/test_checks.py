"""Tests of the shared argument checks in posenc/_checks.py.

Complex input used to be cast to float, dropping the imaginary parts with a
warning only: ``rope(1j * np.ones((2, 4)))`` returned zeros. Every function
that takes an array through ``_checks.array`` must now refuse it with a
TypeError naming the argument.
"""

from __future__ import annotations

import numpy as np
import pytest

import posenc
from posenc import _checks


@pytest.mark.parametrize("value", [
    1j * np.ones((2, 4)),
    np.ones((2, 4), dtype=complex),  # imaginary parts all zero: still refused
    [[1, 2, 3, 4j], [1, 2, 3, 4]],
    np.ones((2, 4), dtype=np.complex64),
])
def test_array_refuses_complex(value):
    with pytest.raises(TypeError, match=r"^x must hold real numbers.*complex"):
        _checks.array("x", value)


def test_array_still_converts_real_input():
    arr = _checks.array("x", [[1, 2], [3, 4]])
    assert arr.dtype == np.float64 and arr.shape == (2, 2)
    tokens = _checks.array("tokens", np.array([[1, 2]], dtype=np.int8), dtype=None)
    assert tokens.dtype == np.int8
    with pytest.raises(TypeError, match="x must be array-like of numbers"):
        _checks.array("x", [[1, 2], [3]])
    with pytest.raises(TypeError, match="x must be array-like of numbers"):
        _checks.array("x", "abc")


@pytest.mark.parametrize("call, name", [
    (lambda: posenc.rope(1j * np.ones((2, 4))), "x"),
    (lambda: posenc.rope(np.ones((2, 4)), positions=[0, 1j]), "positions"),
    (lambda: posenc.attention(np.ones((2, 2)), 1j * np.ones((2, 2)), np.ones((2, 2))), "k"),
    (lambda: posenc.plot.heatmap(1j * np.ones((2, 2))), "table"),
])
def test_public_functions_refuse_complex(call, name):
    with pytest.raises(TypeError, match=rf"^{name} must hold real numbers"):
        call()
