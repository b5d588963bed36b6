"""Argument checks shared by every ``posenc`` module.

Each check raises a ``TypeError`` (wrong kind of value) or a ``ValueError``
(right kind, wrong value) whose message names the argument, shows the value
it got and says what is allowed. A learner who passes a bad argument should
read one line and know what to fix, instead of a numpy broadcasting error
from deep inside a function.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Sequence

import numpy as np

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 50
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 6


def show(value):
    """``repr(value)`` for a message, shortened if it is long.

    An integer of more than 20 digits is shown by its size, ``~1e+400``
    (``repr`` itself refuses integers of more than 4300 digits); long
    strings, lists and arrays are cut short by :mod:`reprlib`.

    >>> show(10**400), show(-(2**70)), show(12)
    ('~1e+400', '~-1.181e+21', '12')
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)):
        v = int(value)
        if abs(v) >= 10**20:
            exponent = math.log10(abs(v))  # math.log10 takes ints of any size
            mantissa = 10 ** (exponent - math.floor(exponent))
            return f"~{'-' if v < 0 else ''}{mantissa:.4g}e+{math.floor(exponent)}"
    try:
        return _REPR.repr(value)
    except Exception:  # a repr that fails, such as a list holding a huge int
        return f"<{type(value).__name__}>"


def integer(name, value, *, minimum=None, maximum=None):
    """Return ``value`` as a Python ``int``; reject bools, floats and strings."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be an integer, got {show(value)} of type {type(value).__name__}"
        )
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {show(minimum)}, got {show(value)}")
    if maximum is not None and value > maximum:
        allowed = f"<= {maximum}" if minimum is None else f"from {minimum} to {maximum}"
        raise ValueError(f"{name} must be an integer {allowed}, got {show(value)}")
    return value


def positive_int(name, value):
    """An integer >= 1 (a length, a width, a number of heads...)."""
    return integer(name, value, minimum=1)


def real(name, value, *, positive=False, greater_than=None, at_least=None, below=None):
    """Return ``value`` as a finite Python ``float``.

    ``at_least`` and ``below`` give a half-open interval ``[at_least, below)``
    (Adam's ``beta1`` lies in ``[0, 1)``).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a real number, got {show(value)} of type {type(value).__name__}"
        )
    try:
        value = float(value)
    except OverflowError:  # an int beyond float64, such as 10**400
        raise ValueError(f"{name} must be finite, got {show(value)}") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if positive and value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    if greater_than is not None and value <= greater_than:
        raise ValueError(f"{name} must be greater than {greater_than}, got {value}")
    if (at_least is not None and value < at_least) or (below is not None and value >= below):
        low = "(-inf" if at_least is None else f"[{at_least}"
        high = "inf)" if below is None else f"{below})"
        raise ValueError(f"{name} must be in {low}, {high}, got {value}")
    return value


def choice(name, value, allowed):
    """One of a fixed set of strings (a layout, a mode...)."""
    try:
        ok = isinstance(hash(value), int) and value in allowed
    except TypeError:  # an unhashable value, such as a list or an array
        ok = False
    if not ok:
        options = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {options}; got {show(value)}")
    return value


def boolean(name, value):
    """A real ``True``/``False`` (not 0/1, not a string)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {show(value)}")
    return bool(value)


def float_dtype(name, value):
    """A numpy floating dtype such as ``np.float32`` or ``np.float64``.

    ``None`` is refused, although ``np.dtype(None)`` is float64: a caller
    who passes it means "no dtype", and would get float64 silently.
    """
    if value is None:
        raise TypeError(f"{name} must be a numpy floating dtype such as np.float32 or np.float64, "
                        "got None")
    try:
        dtype = np.dtype(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a numpy floating dtype, got {show(value)}") from None
    if dtype.kind != "f":
        raise TypeError(
            f"{name} must be a floating dtype such as np.float32 or np.float64, got {dtype}"
        )
    return dtype


# What an array holds when it is not numbers, by numpy's dtype kind.
_NOT_NUMBERS = {
    "b": "booleans",
    "U": "strings",
    "S": "byte strings",
    "O": "objects that are not all numbers",
    "M": "dates",
    "m": "time spans",
    "V": "raw or structured values",
}


def _ml_float(dtype):
    """True for the floating types of the ml_dtypes package (bfloat16, float8_e5m2...).

    NumPy has no bfloat16; ml_dtypes adds it, with dtype kind ``"V"``, the
    kind of raw bytes, although its values are real numbers that float64
    holds exactly.
    """
    return dtype.type.__module__.startswith("ml_dtypes") and "float" in dtype.name


# What a value that numpy cannot make an array of must be instead, by what is expected.
_CANNOT_READ = {
    "numbers": "{name} must be array-like of numbers, got {type} {shown}, which numpy cannot "
               "make an array of (are its rows of different lengths?)",
    "integers": "{name} must be integers of at most 64 bits (an int or array-like of ints), "
                "got {shown}",
    "booleans": "{name} must be a boolean array (True = may attend), got {shown}",
    "flags": "{name} must be booleans, one per seed, got {shown}",
}


def asarray(name, value, expected="numbers"):
    """``np.asarray(value)``, or a ``TypeError`` naming the argument.

    numpy raises ``TypeError`` or ``ValueError`` for a ragged list, and an
    object's own ``__array__`` may raise anything: a torch tensor that
    requires grad raises ``RuntimeError``. ``expected`` is ``"numbers"``,
    ``"integers"``, ``"booleans"`` (a mask) or ``"flags"`` (one per seed),
    for the message.
    """
    try:
        return np.asarray(value)
    except (TypeError, ValueError, OverflowError):  # a ragged list, for example
        message = _CANNOT_READ[expected].format(name=name, type=type(value).__name__, shown=show(value))
        raise TypeError(message) from None
    except Exception as error:  # noqa: BLE001 - the object's own __array__ failed
        raise TypeError(
            f"{name} must be array-like of {expected}, got {type(value).__name__}, which numpy "
            f"cannot read: {type(error).__name__}: {error}"
        ) from None


def _all_real(arr):
    """True if an object array holds only real numbers (no bool, str or None)."""
    return all(
        isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_)) for x in arr.flat
    )


def array(name, value, *, ndim=None, min_ndim=None, dtype=float, finite=True, empty=True):
    """Convert to a numpy array of ``dtype`` and check its number of axes.

    Only numbers are numbers: strings (``"1"``), booleans and ``None`` are
    refused with a ``TypeError``, although numpy would convert them to float.
    With ``dtype=None`` the array keeps its dtype, whatever it is, and the
    caller checks it (token ids must be integers, for example). Complex
    input is refused, not cast: numpy would drop the imaginary parts with
    nothing but a warning. With ``finite=False`` NaN and inf are let
    through, for a caller that allows some of them (logits may hold ``-inf``)
    and checks the rest itself. With ``empty=False`` an array without
    entries is refused (there is nothing to draw in it, for example).
    """
    arr = asarray(name, value)
    if arr.dtype.kind == "c":
        raise TypeError(
            f"{name} must hold real numbers, got complex values (dtype {arr.dtype}); "
            f"pass np.real({name}) if the imaginary parts are meant to be dropped"
        )
    numbers_only = (arr.dtype.kind in "iuf" or _ml_float(arr.dtype)
                    or (arr.dtype.kind == "O" and _all_real(arr)))
    if dtype is not None and not numbers_only:
        what = "None" if value is None else f"{_NOT_NUMBERS.get(arr.dtype.kind, arr.dtype)} {show(value)}"
        raise TypeError(f"{name} must be array-like of numbers, got {what}")
    try:
        arr = np.asarray(arr, dtype=dtype)
    except OverflowError:  # Python ints beyond float64
        raise ValueError(f"{name} holds a number too large for float64: {show(value)}") from None
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be array-like of numbers, got {show(value)}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {arr.shape}")
    if min_ndim is not None and arr.ndim < min_ndim:
        raise ValueError(
            f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}"
        )
    if not empty and arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if finite and arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite numbers (no NaN or inf)")
    return arr


def real_array(name, value, **shape):
    """An array of real numbers that keeps its dtype (float32 stays float32).

    :func:`array` converts to float64, which would lose a caller's float32;
    here integers and floats keep their dtype, and strings, booleans and
    complex numbers are refused by name. ``shape`` takes the keywords of
    :func:`array` (``ndim``, ``min_ndim``, ``finite``, ``empty``).
    """
    arr = array(name, value, dtype=None, finite=False)
    if _ml_float(arr.dtype):
        raise TypeError(f"{name} holds {arr.dtype} (ml_dtypes), which numpy cannot compute with: "
                        f"convert it with {name}.astype(np.float32)")
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers (integers or floats), got dtype {arr.dtype}")
    return array(name, arr, dtype=None, **shape)


def logits(name, value):
    """Scores before a softmax, as floats: ``-inf`` is kept (weight 0); NaN and ``+inf`` are refused."""
    arr = array(name, value, finite=False)
    if np.isnan(arr).any() or np.isposinf(arr).any():
        raise ValueError(f"{name} must not contain NaN or +inf (-inf is allowed: it gives weight 0)")
    return arr


def rng(seed, *, name="seed"):
    """A numpy random Generator: ``seed`` itself if it is one, else one seeded with the integer ``seed`` >= 0."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(integer(name, seed, minimum=0))


#: The cap on what one call of posenc builds: 2**27 numbers, 1 GiB of float64.
#: The book's computations need thousands of times fewer. Every public
#: function that allocates counts what it will build, its result and the
#: intermediates alive beside it (a complex number counts as two, a boolean
#: as one), and calls :func:`entries` with that count before it builds
#: anything. Beyond the cap numpy would fail with a MemoryError, take
#: gigabytes for seconds, or get the machine's process killed.
MAX_ENTRIES = 2**27


def entries(what, count, *, hint=None):
    """Refuse to build ``count`` numbers beyond :data:`MAX_ENTRIES`, before building anything.

    The one size check of the package. ``what`` names the arguments that
    make the count, with their values: ``"n_rows * d_model = 10**9 * 16"``.
    ``count`` is a Python int, of any size (``10**400`` gets the same
    message as ``2**27 + 1``): compute it from the checked integer
    arguments and the shapes of the arrays, never with numpy integers, which
    wrap round. ``hint`` says what to do instead, when there is a way.
    Returns ``count``.

    >>> entries("length * d_model = 3 * 4", 12)
    12
    >>> entries("length * d_model = 10**400 * 4", 4 * 10**400)
    Traceback (most recent call last):
        ...
    ValueError: length * d_model = 10**400 * 4 would need ~4e+400 numbers, more than the 134,217,728 (1 GiB of float64) that posenc allows for one call (posenc._checks.MAX_ENTRIES)
    """
    count = int(count)
    if count > MAX_ENTRIES:
        size = MAX_ENTRIES * 8 / 2**30
        raise ValueError(
            f"{what} would need {show(count)} numbers, more than the {MAX_ENTRIES:,} "
            f"({size:.3g} GiB of float64) that posenc allows for one call "
            f"(posenc._checks.MAX_ENTRIES){f'; {hint}' if hint else ''}"
        )
    return count


def rounded(values, dtype, what, name, given):
    """``values``, computed in float64, rounded to ``dtype``; refused by name where they overflow it.

    A result too large for its dtype would be returned as ``inf`` (or NaN),
    silently: this says instead what overflowed (``what``), how large the
    argument ``name`` was (``given``), and what to do.

    >>> rounded(np.array([1.5, 70000.0]), np.float16, "x doubled", "x", [0.75, 35000.0])
    Traceback (most recent call last):
        ...
    ValueError: x doubled does not fit in float16 (x holds entries up to 3.5e+04 in size; the largest float16 is 6.55e+04): scale x down or pass it in a wider dtype
    """
    dtype = np.dtype(dtype)
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below
        out = values.astype(dtype, copy=False)
    if np.isfinite(out).all():
        return out
    raise ValueError(
        f"{what} does not fit in {dtype} ({name} holds entries up to {np.abs(given).max():.3g} "
        f"in size; the largest {dtype} is {np.finfo(dtype).max:.3g}): scale {name} down or "
        "pass it in a wider dtype"
    )


def integer_array(name, value, *, dtype=np.int64, low=None, high=None, what=None):
    """Convert to a numpy array of integers: ``int64`` unless ``dtype`` says otherwise.

    Only integers are integers: booleans, floats (``2.0`` too), complex
    numbers, strings and ``None`` are refused with a ``TypeError``, where
    numpy would turn ``True`` into 1 or cut ``2.5`` to 2. An empty list is
    an empty array. Values that do not fit in ``dtype`` get a
    ``ValueError``; with ``dtype=None`` the array keeps its integer type,
    whatever it is (``uint64`` included). ``low`` and ``high`` bound the
    values to ``[low, high)``; ``what`` says why, for the message (``"the
    table has 8 rows"``).

    >>> integer_array("ids", [3, 1])
    array([3, 1])
    >>> integer_array("ids", [1.0])
    Traceback (most recent call last):
        ...
    TypeError: ids must be integers of at most 64 bits (an int or array-like of ints), got [1.0] (dtype float64)
    """
    arr = asarray(name, value, "integers")
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)  # np.asarray([]) is float64, but holds no float
    if arr.dtype.kind not in "iu":  # bools, floats, strings, objects (ints beyond 64 bits)
        raise TypeError(
            f"{name} must be integers of at most 64 bits (an int or array-like of ints), "
            f"got {show(value)} (dtype {arr.dtype})"
        )
    if arr.size and ((low is not None and arr.min() < low) or (high is not None and arr.max() >= high)):
        bounds = f"[{'-inf' if low is None else low}, {'inf' if high is None else high})"
        raise ValueError(
            f"{name} must lie in {bounds}{f' ({what})' if what else ''}, "
            f"got values from {arr.min()} to {arr.max()}"
        )
    if dtype is None:
        return arr
    limits = np.iinfo(dtype)
    if arr.size and (arr.min() < limits.min or arr.max() > limits.max):
        raise ValueError(
            f"{name} must be integers from {limits.min} to {limits.max} ({limits.dtype}), "
            f"got {show(value)}"
        )
    return arr.astype(dtype, copy=False)


def is_sequence(value):
    """True for a list, a tuple, a range or an array with at least one axis.

    A string is not a sequence of items here, and neither is a 0-d array,
    which has no length (``len(np.array(3))`` raises).

    >>> is_sequence([2, 3]), is_sequence(np.array([2, 3])), is_sequence(np.array(3)), is_sequence("ab")
    (True, True, False, False)
    """
    if isinstance(value, np.ndarray):
        return value.ndim >= 1
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def seeds(seed, *, most):
    """``None`` for one seed (an int or a Generator), else the list of at most ``most`` seeds of a stack."""
    if isinstance(seed, (numbers.Integral, np.random.Generator)):
        return None
    if not is_sequence(seed):
        raise TypeError(
            f"seed must be an integer, a numpy Generator or a sequence of integers "
            f"(one per model of a stack), got {show(seed)}"
        )
    if len(seed) > most:
        raise ValueError(f"seed must hold at most {most} seeds (one model each), got {len(seed)}")
    listed = [integer(f"seed[{i}]", s, minimum=0) for i, s in enumerate(seed)]
    if not listed:
        raise ValueError("seed must hold at least one seed, got an empty sequence")
    return listed
