"""Tests of the shared argument checks in posenc/_checks.py.

Complex input used to be cast to float, dropping the imaginary parts with a
warning only: ``rope(1j * np.ones((2, 4)))`` returned zeros. Every function
that takes an array through ``_checks.array`` must now refuse it with a
TypeError naming the argument.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import posenc
from posenc import _checks, model, plot, tables, tasks


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
    # attention's bias and softmax's logits used to have their own conversion:
    # a complex bias lost its imaginary part with a warning only, and softmax
    # said "got list" for a list of complex numbers
    (lambda: posenc.attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)),
                              bias=1j * np.ones((2, 2))), "bias"),
    (lambda: posenc.attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)),
                              bias=[[0, -np.inf], [1j, 0]]), "bias"),
    (lambda: posenc.softmax([1 + 2j, 0]), "x"),
    (lambda: posenc.softmax(np.zeros(3, dtype=complex)), "x"),
])
def test_public_functions_refuse_complex(call, name):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clear TypeError, not a ComplexWarning first
        with pytest.raises(TypeError, match=rf"^{name} must hold real numbers"):
            call()


def test_array_finite_false_lets_inf_through_for_the_caller():
    arr = _checks.array("x", [0.0, -np.inf, np.inf, np.nan], finite=False)
    assert np.isneginf(arr[1]) and np.isposinf(arr[2]) and np.isnan(arr[3])
    with pytest.raises(ValueError, match="x must contain only finite"):
        _checks.array("x", [0.0, -np.inf])
    with pytest.raises(TypeError, match="^x must hold real numbers"):
        _checks.array("x", [0.0, 1j], finite=False)


def test_logits_keep_minus_inf_and_refuse_nan_and_plus_inf():
    np.testing.assert_allclose(posenc.softmax([0.0, -np.inf]), [1.0, 0.0])
    q = k = v = np.eye(2)
    _, w = posenc.attention(q, k, v, bias=[[0.0, -np.inf], [0.0, 0.0]])
    assert w[0, 1] == 0.0
    with pytest.raises(ValueError, match=r"bias must not contain NaN or \+inf"):
        posenc.attention(q, k, v, bias=[[0.0, np.nan], [0.0, 0.0]])
    with pytest.raises(ValueError, match=r"x must not contain NaN or \+inf"):
        posenc.softmax([0.0, np.inf])


# --- integer_array (issue 24: the local validators of relative.py move here) ---


def test_integer_array_gives_int64():
    integer_array = _checks.integer_array
    out = integer_array("ids", [3, -1])
    assert out.dtype == np.int64 and out.tolist() == [3, -1]
    assert integer_array("ids", np.array([1, 2], dtype=np.uint8)).dtype == np.int64
    assert integer_array("ids", []).shape == (0,) and integer_array("ids", []).dtype == np.int64
    assert integer_array("ids", 7).shape == ()
    big = np.array([2**64 - 1], dtype=np.uint64)
    assert integer_array("ids", big, dtype=None).dtype == np.uint64  # dtype=None keeps the type
    with pytest.raises(ValueError, match="ids must be integers from -9223372036854775808"):
        integer_array("ids", big)


@pytest.mark.parametrize("value", [True, [True, False], 1.0, [1.0, 2.0], np.float32(3), "3", ["a"],
                                   None, 1j, 2**64, [[1], [1, 2]], {1: 2}, object()])
def test_integer_array_refuses_non_integers_by_name(value):
    with pytest.raises(TypeError, match="ids must be integers of at most 64 bits"):
        _checks.integer_array("ids", value)


def test_huge_values_are_abbreviated_in_messages():
    assert _checks.show(10**400) == "~1e+400"
    assert _checks.show(-(10**5000)) == "~-1e+5000"
    assert _checks.show(12345) == "12345"
    assert len(_checks.show("x" * 10_000)) < 80
    assert len(_checks.show(list(range(10_000)))) < 80
    with pytest.raises(ValueError, match=r"^offset must be finite, got ~1e\+400$"):
        posenc.rotation_matrix(10**400, 4)


@pytest.mark.parametrize("call, name", [
    (lambda: posenc.softmax(["1", "2"]), "x"),
    (lambda: posenc.softmax([True, False]), "x"),
    (lambda: posenc.softmax(None), "x"),
    (lambda: posenc.softmax(np.array([1, None])), "x"),
    (lambda: posenc.rope(np.ones((3, 2)), ["0", "1", "2"]), "positions"),
    (lambda: posenc.rope(np.ones((3, 2), dtype=bool)), "x"),
    (lambda: posenc.attention([[True]], [[1.0]], [[1.0]]), "q"),
    (lambda: posenc.attention([[1.0]], [[1.0]], [["1"]]), "v"),
    (lambda: posenc.attention([[1.0]], [[1.0]], [[1.0]], bias=[[b"1"]]), "bias"),
    (lambda: plot.heatmap([["a", "b"]]), "table"),
    (lambda: tables.lookup([["1"]], [0]), "table"),
])
def test_strings_bools_and_none_are_not_numbers(call, name):
    # "must hold real numbers" is the wording of rope's own check on another branch
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError, match=rf"^{name} must (be array-like of|hold real) numbers"):
            call()


def test_object_arrays_of_real_numbers_are_still_numbers():
    from fractions import Fraction
    np.testing.assert_allclose(posenc.softmax(np.array([Fraction(0), 0.0], dtype=object)), [0.5, 0.5])


@pytest.mark.parametrize("call, error, words", [
    (lambda: posenc.build_vocab(None), TypeError, "^tokens must be a list of str, got NoneType"),
    (lambda: posenc.encode(None, {"a": 0}), TypeError, "^tokens must be a list of str, got NoneType"),
    (lambda: plot.curves(np.ones((3, 3)), 3), TypeError, r"^dims must be a sequence of column numbers.*\[3\]"),
    (lambda: plot.bars(np.ones((1, 3)), 5), TypeError, "^labels must be a sequence"),
    (lambda: posenc.encode(["a"], {"a": 10**30}), ValueError,
     r"^vocab\['a'\] must be an integer from 0 to 9223372036854775807, got ~1e\+30"),
])
def test_odd_arguments_get_clear_errors(call, error, words):
    with pytest.raises(error, match=words):
        call()


@pytest.mark.parametrize("call, error, words", [
    (lambda: posenc.sinusoidal(2, 4, layout=np.ones((2, 3), dtype=bool)), ValueError,
     "^layout must be one of 'interleaved', 'halves'; got array"),
    (lambda: posenc.rope(np.ones((2, 4)), layout=["halves"]), ValueError, "^layout must be one of"),
    (lambda: model.init_model(np.array([])), ValueError, "^scheme must be one of"),
    (lambda: posenc.attention(np.eye(2), np.eye(2), np.eye(2), mask=[[True], [True, False]]), TypeError,
     r"^mask must be a boolean array \(True = may attend\), got \[\[True\], \[True, False\]\]"),
    (lambda: model.accuracy(model.init_model("none"), [[0, 1], [1, 0]], [[1], [1, 0]]), ValueError,
     r"^labels must be 2 integers \(one per sequence\), got \[\[1\], \[1, 0\]\]"),
    (lambda: tasks.lookback_task(3, 5, window=10**30), ValueError, r"^length must be an integer >= ~1e\+30, got 5$"),
])
def test_arrays_and_ragged_lists_where_a_choice_or_labels_belong(call, error, words):
    with pytest.raises(error, match=words):
        call()


# ---------------------------------------------------------------------------
# Issue 40: bfloat16 arrays, dtype=None, 0-d arrays, a raising __array__
# ---------------------------------------------------------------------------


def test_bfloat16_arrays_are_numbers_where_they_are_converted_to_float64():
    # round_to, the stats functions, softmax, attention and rope_angles said
    # "raw or structured values" of the ml_dtypes arrays the appendix uses
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([1.0, 257.0, 0.1], dtype=ml_dtypes.bfloat16)
    exact = x.astype(np.float64)
    np.testing.assert_array_equal(posenc.round_to(x, "bfloat16"), exact)  # already bfloat16
    np.testing.assert_array_equal(posenc.softmax(x), posenc.softmax(exact))
    np.testing.assert_array_equal(posenc.rope_angles(x, 4, compute="float32"),
                                  posenc.rope_angles(exact, 4, compute="float32"))
    assert posenc.stats.over_seeds(x).mean == posenc.stats.over_seeds(exact).mean
    q = np.eye(2).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(posenc.attention(q, q, q)[0], posenc.attention(np.eye(2), np.eye(2), np.eye(2))[0])
    # where the dtype is kept, the message says what to do
    with pytest.raises(TypeError, match=r"^x holds bfloat16 \(ml_dtypes\).*x\.astype\(np\.float32\)"):
        posenc.rope(np.ones((2, 4)).astype(ml_dtypes.bfloat16))


def test_dtype_none_is_refused_not_read_as_float64():
    # sinusoidal(dtype=None) gave float64 silently: np.dtype(None) is float64
    with pytest.raises(TypeError, match="^dtype must be a numpy floating dtype such as np.float32"):
        posenc.sinusoidal(3, 4, dtype=None)
    with pytest.raises(TypeError, match="^dtype must be a numpy floating dtype"):
        _checks.float_dtype("dtype", None)


@pytest.mark.parametrize("seed", [np.array(3), np.array([[1, 2]])[0, 0]])
def test_a_0d_array_is_not_a_list_of_seeds(seed):
    # "len() of unsized object" before; a numpy integer is still one seed
    if isinstance(seed, np.ndarray):
        with pytest.raises(TypeError, match="^seed must be an integer, a numpy Generator or a sequence"):
            _checks.seeds(seed, most=4)
    else:
        assert _checks.seeds(seed, most=4) is None


class _ArrayRaises:
    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad.")


@pytest.mark.parametrize("check", [lambda v: _checks.array("x", v), lambda v: _checks.real_array("x", v),
                                   lambda v: _checks.integer_array("x", v), lambda v: _checks.logits("x", v)])
def test_an_array_numpy_cannot_read_is_a_type_error_naming_the_argument(check):
    with pytest.raises(TypeError, match=r"^x must be .*, got _ArrayRaises, which numpy cannot read: "
                                        r"RuntimeError: Can't call numpy\(\)"):
        check(_ArrayRaises())
