"""Every exercise checker, fed anything a learner might type (issue 21, item 8).

A checker must answer every answer: print ``Correct! ...`` or ``Not yet.
...`` and return a bool, never raise and never warn, whatever the type of
the answer. The checkers are found, not listed: the property test runs over
``posenc.exercises.__all__``, and :func:`test_all_lists_every_checker`
makes sure that a checker added to any module of ``posenc/exercises/`` is in
``__all__`` (and so is tested here) without anyone touching this file.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import pkgutil
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import posenc.exercises

CHECKERS = list(posenc.exercises.__all__)


def _checker_modules():
    for info in pkgutil.iter_modules(posenc.exercises.__path__):
        yield importlib.import_module(f"{posenc.exercises.__name__}.{info.name}")


def test_all_lists_every_checker():
    found = {}
    for module in _checker_modules():
        for name, f in vars(module).items():
            if name.startswith("check_") and inspect.isfunction(f) and f.__module__ == module.__name__:
                found[name] = (module, f)
                assert name in getattr(module, "__all__", ()), f"{module.__name__}.__all__ misses {name}"
    assert found, "no checker found in posenc/exercises/"
    assert len(CHECKERS) == len(set(CHECKERS)), "posenc.exercises.__all__ lists a name twice"
    assert set(CHECKERS) == set(found), (
        f"posenc.exercises.__all__ misses {sorted(set(found) - set(CHECKERS))}, "
        f"or lists what is not a checker: {sorted(set(CHECKERS) - set(found))}"
    )
    for name, (module, f) in found.items():
        assert getattr(posenc.exercises, name) is f, f"posenc.exercises.{name} is not {module.__name__}.{name}"


# --- anything a learner might pass -------------------------------------------

# 10**400 and beyond: more than float64 holds (and 10**4000 is near the 4300
# digits beyond which repr() itself fails, so it is built, not written out)
_huge = st.sampled_from([400, -400, 4000, 63.0, 64.0, 1024.0]).map(
    lambda e: 2 ** int(e) if isinstance(e, float) else (10 ** abs(e)) * (1 if e > 0 else -1)
)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    _huge,
    st.floats(),  # nan, inf, -0.0, subnormals included
    st.complex_numbers(),
    st.text(max_size=8),
    st.sampled_from(["786432", "0.95", "1e400", "nan", "True", "ab", "a, b", "", " "]),
    st.binary(max_size=4),
    hnp.from_dtype(np.dtype(np.float32)),
    hnp.from_dtype(np.dtype(np.int8)),
    hnp.from_dtype(np.dtype(np.uint64)),
    hnp.from_dtype(np.dtype(np.bool_)),
    st.sampled_from([Ellipsis, NotImplemented, object(), type, np.float64, slice(1, 2), range(3)]),
)

_dtypes = st.one_of(
    hnp.scalar_dtypes(),  # bool, ints, uints, floats, complex, datetime64, timedelta64
    hnp.unicode_string_dtypes(max_len=4),
    hnp.byte_string_dtypes(max_len=4),
    st.just(np.dtype(object)),
)

_arrays = _dtypes.flatmap(lambda dtype: hnp.arrays(
    dtype,
    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=11),
    elements=st.none() if dtype == np.dtype(object) else None,
))


# arrays of the shapes the exercises ask for, so that the answer gets past the
# shape check and into the arithmetic: extreme floats (1e308, nan, inf...)
_SHAPES = [(), (1,), (4,), (5,), (6,), (8,), (10,), (4, 6), (6, 6)]
_shaped = st.sampled_from(_SHAPES).flatmap(lambda shape: st.one_of(
    hnp.arrays(np.float64, shape, elements=st.floats()),
    hnp.arrays(np.int64, shape),
    hnp.arrays(np.float64, shape, elements=st.floats()).map(lambda a: a.tolist()),
))


def _filling(value):
    """A function that returns an array of the shape its caller probably wants, full of ``value``."""
    def answer(*args, **kwargs):
        first = args[0] if args else 0
        shape = np.shape(first) if np.ndim(first) else tuple(a for a in args[:2] if isinstance(a, int))
        return np.full(shape, value)
    return answer


def _returning(obj):
    def answer(*args, **kwargs):
        return obj
    return answer


def _raising(*args, **kwargs):
    raise RuntimeError("the learner's function failed")


_functions = st.one_of(
    st.sampled_from([len, abs, max, str, np.sum, np.zeros, _raising, lambda: 0]),
    st.builds(_returning, _scalars | _arrays | _shaped),
    st.builds(_filling, st.floats() | st.integers(-(2**63), 2**63 - 1)),
)

answers = st.recursive(
    _scalars | _arrays | _shaped | _functions,
    lambda inner: st.one_of(
        st.lists(inner, max_size=10),  # nested and ragged lists
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.frozensets(st.integers() | st.text(max_size=2), max_size=5),
        st.sets(st.integers(-3, 12), max_size=8),
    ),
    max_leaves=12,
)


def _verdict(checker, args):
    """Call the checker quietly; return what it returned and what it printed."""
    out = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning printed under the exercise is a failure too
        with contextlib.redirect_stdout(out):
            result = checker(*args)
    return result, out.getvalue()


def _n_answers(checker):
    params = inspect.signature(checker).parameters.values()
    return sum(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


@pytest.mark.parametrize("name", CHECKERS)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_checker_answers_any_answer(name, data):
    checker = getattr(posenc.exercises, name)
    args = [data.draw(answers, label=f"answer {i}") for i in range(_n_answers(checker))]
    result, text = _verdict(checker, args)
    assert type(result) is bool, f"{name} returned {result!r}"
    verdict = "Correct! " if result else "Not yet. "
    assert text.startswith(verdict), f"{name} printed {text!r} and returned {result}"
    assert text.count("Correct! ") + text.count("Not yet. ") == 1, f"{name} printed two verdicts: {text!r}"


# --- the cases of the issue, by hand -------------------------------------------------


@pytest.mark.parametrize("name, args", [
    ("check_why_causal_swap", ([[2], [3, 4]],)),  # ragged: used to raise ValueError
    ("check_learned_causal_none", (True,)),  # a bool is not an accuracy: used to pass
    ("check_learned_gpt2_params", ("786432",)),  # a string is not a count: used to pass
    ("check_cat_vocab_sizes", (10**400, 10**400)),  # used to raise OverflowError
    ("check_cat_vocab_sizes", ("6", "5")),
    ("check_cat_most_changed", ("0", "0")),
    ("check_sines_longest_wavelength", (f"{2 * np.pi * 10000.0 ** (62 / 64)!r}",)),
    ("check_sines_rotation", (np.full((6, 6), 1e308),)),  # used to warn: overflow
    ("check_rel_rope_matrix", (np.full((6, 6), 1e308),)),
    ("check_rel_shaw_index", (np.full((4, 6), 10**30, dtype=object),)),
    ("check_why_bag_of_words", ([True, True, True, True, True],)),
])
def test_the_answers_of_the_issue_get_not_yet(name, args):
    result, text = _verdict(getattr(posenc.exercises, name), args)
    assert result is False and text.startswith("Not yet. "), text


# --- exotic answers (issue 28, items 9 and 11) ------------------------------------

# a float32 signalling NaN: a cast to float64 flags "invalid", which numpy
# reports as a RuntimeWarning (an error under this repository's settings)
_SNAN32 = np.array([0x7FA00000], dtype=np.uint32).view(np.float32)[0]


class _ArrayRaises:
    """Like a torch tensor that requires grad: numpy cannot read it."""

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad.")


def _snan_answers():
    yield _SNAN32
    for shape in _SHAPES:
        yield np.full(shape, _SNAN32)
    yield _returning(np.full((4, 6), _SNAN32))
    yield _filling(_SNAN32)


@pytest.mark.parametrize("name", CHECKERS)
def test_a_signalling_nan_gets_a_verdict_without_a_warning(name):
    checker = getattr(posenc.exercises, name)
    for answer in _snan_answers():
        result, text = _verdict(checker, [answer] * _n_answers(checker))
        assert result is False and text.startswith("Not yet. "), f"{name}: {text!r}"


# issue 28, item 11: every checker, not only those of chapters 1 to 3
@pytest.mark.parametrize("name", CHECKERS)
@pytest.mark.parametrize("answer", [_ArrayRaises(), [_ArrayRaises()], _returning(_ArrayRaises()),
                                    _returning((_ArrayRaises(), None))],
                         ids=["object", "list", "function-returning-it", "function-returning-a-pair"])
def test_an_answer_numpy_cannot_read_gets_a_verdict(name, answer):
    checker = getattr(posenc.exercises, name)
    result, text = _verdict(checker, [answer] * _n_answers(checker))
    assert result is False and text.startswith("Not yet. "), f"{name}: {text!r}"


def test_inf_is_not_a_column_number():
    # issue 28, item 11: this warned ("invalid value encountered in cast")
    import math

    result, text = _verdict(posenc.exercises.check_sines_layout_permutation, [[math.inf] * 10])
    assert result is False and "column numbers" in text


# --- issue 40, LOW 6: what escapes "except Exception" ------------------------------


def _exits(*args, **kwargs):
    raise SystemExit("the learner's function called sys.exit()")


class _RaisingStr(str):
    """A string whose methods raise: a checker must use str's own."""

    def _raise(self, *args, **kwargs):
        raise RuntimeError("this str's methods fail")

    lower = upper = strip = split = replace = casefold = isdigit = isalpha = __iter__ = _raise
    __contains__ = __eq__ = __hash__ = __format__ = __str__ = __repr__ = _raise


@pytest.mark.parametrize("name", CHECKERS)
@pytest.mark.parametrize("answer", [_exits, _RaisingStr("ab")], ids=["sys-exit", "raising-str"])
def test_a_function_that_exits_or_a_str_that_raises_gets_a_verdict(name, answer):
    checker = getattr(posenc.exercises, name)
    result, text = _verdict(checker, [answer] * _n_answers(checker))
    assert result is False and text.startswith("Not yet. "), f"{name}: {text!r}"
