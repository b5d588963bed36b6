"""Unit tests of posenc.explain_entry: every step against a hand computation."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import posenc
from posenc import explain_entry, sinusoidal


def steps(text):
    """The numbers of each step, keyed by the step's name."""
    lines = text.splitlines()
    out = {"head": lines[0]}
    for line in lines[1:]:
        name, rest = line.split(maxsplit=1)
        out[name] = rest
    return out


def test_document_entries_by_hand():
    # d_model = 4: pair 0 has divisor 1, pair 1 has divisor 10000 ** (2/4) = 100
    s = steps(explain_entry(3, 2, 4))
    assert s["head"] == "PE(pos=3, dim=2) for d_model=4, base=10000"
    assert s["pair"] == "dim 2 is even, so a sine; i = 2 // 2 = 1"
    assert s["exponent"] == "2i/d_model = 2*1/4 = 0.5"
    assert s["divisor"] == "10000^0.5 = 100"
    assert s["angle"] == "pos/divisor = 3/100 = 0.03 rad"
    assert s["value"] == "sin(0.03) = 0.0300"  # sin(0.03) = 0.029995...

    s = steps(explain_entry(2, 1, 4))
    assert s["pair"] == "dim 1 is odd, so a cosine; i = 1 // 2 = 0"
    assert s["divisor"] == "10000^0 = 1"
    assert s["angle"] == "pos/divisor = 2/1 = 2 rad"
    assert s["value"] == "cos(2) = -0.4161"  # cos 2 = -0.41614...


def test_d512_entry_and_other_base():
    # dim 301 is the cosine of pair 150: angle 5 / 10000 ** (300/512)
    s = steps(explain_entry(5, 301, 512))
    angle = 5 / 10000 ** (300 / 512)
    assert s["value"] == f"cos({angle:.6g}) = {math.cos(angle):.4f}"
    assert s["exponent"] == "2i/d_model = 2*150/512 = 0.585938"
    # base 100, d_model 2: the divisor of pair 0 is 1 whatever the base
    s = steps(explain_entry(7, 0, 2, base=100))
    assert s["head"].endswith("base=100")
    assert s["value"] == f"sin(7) = {math.sin(7):.4f}"


def test_precision_and_odd_width():
    assert explain_entry(1, 0, 4, precision=8).endswith(f"= {math.sin(1):.8f}")
    # odd d_model: the last column is the sine of the next pair
    s = steps(explain_entry(1, 4, 5))
    assert s["pair"].startswith("dim 4 is even, so a sine; i = 4 // 2 = 2")
    assert s["exponent"] == "2i/d_model = 2*2/5 = 0.8"


@settings(deadline=None)  # a loaded shared machine must not make this flaky
@given(
    d_model=st.integers(1, 64),
    pos=st.integers(-50, 200),
    data=st.data(),
)
def test_agrees_with_the_table(d_model, pos, data):
    dim = data.draw(st.integers(0, d_model - 1))
    value = float(re.search(r"= (-?\d+\.\d+)$", explain_entry(pos, dim, d_model, precision=10)).group(1))
    table = sinusoidal(1, d_model, start=pos)
    assert abs(value - table[0, dim]) <= 0.5e-10 + 1e-12


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"pos": 1.0, "dim": 0, "d_model": 4}, TypeError, "pos must be an integer"),
        ({"pos": 1, "dim": "0", "d_model": 4}, TypeError, "dim must be an integer"),
        ({"pos": 1, "dim": -1, "d_model": 4}, ValueError, "dim must be an integer >= 0"),
        ({"pos": 1, "dim": 4, "d_model": 4}, ValueError, r"dim must be in 0 \.\. d_model - 1 = 3, got 4"),
        ({"pos": 1, "dim": 0, "d_model": 0}, ValueError, "d_model must be an integer >= 1"),
        ({"pos": 1, "dim": 0, "d_model": True}, TypeError, "d_model"),
        ({"pos": 1, "dim": 0, "d_model": 4, "base": 0}, ValueError, "base must be greater than 1"),
        # issue 28, item 19: a base <= 1 was accepted, which sinusoidal refuses
        ({"pos": 1, "dim": 0, "d_model": 4, "base": 1}, ValueError, "base must be greater than 1"),
        ({"pos": 1, "dim": 2, "d_model": 4, "base": 0.5}, ValueError, "base must be greater than 1"),
        ({"pos": 1, "dim": 0, "d_model": 4, "base": float("inf")}, ValueError, "base must be finite"),
        ({"pos": 1, "dim": 0, "d_model": 4, "base": "10000"}, TypeError, "base"),
        ({"pos": 1, "dim": 0, "d_model": 4, "precision": 0}, ValueError, "precision"),
        ({"pos": 1, "dim": 0, "d_model": 4, "precision": 16}, ValueError, "at most 15"),
        ({"pos": 1, "dim": 0, "d_model": 4, "precision": 2.0}, TypeError, "precision"),
    ],
)
def test_bad_input(kwargs, error, words):
    with pytest.raises(error, match=words):
        explain_entry(**kwargs)


@pytest.mark.parametrize("base", [0.5, 1, 1.0000001, 2, 10000])
def test_refuses_the_bases_that_sinusoidal_refuses(base):
    try:
        sinusoidal(1, 4, base=base)
    except ValueError:
        with pytest.raises(ValueError, match="base"):
            explain_entry(1, 2, 4, base=base)
    else:
        assert explain_entry(1, 2, 4, base=base)


def test_numpy_integers_are_accepted():
    assert explain_entry(np.int64(3), np.int32(2), np.int64(4)) == explain_entry(3, 2, 4)


def test_explain_entry_has_the_limit_of_sinusoidal():
    assert posenc.explain_entry(2**53, 0, 2).startswith("PE(pos=9007199254740992, dim=0)")
    with pytest.raises(ValueError, match=r"^pos must be an integer from -9007199254740992 to 9007199254740992, got ~1e\+400$"):
        posenc.explain_entry(10**400, 0, 4)
