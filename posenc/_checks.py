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

import numpy as np


def integer(name, value, *, minimum=None):
    """Return ``value`` as a Python ``int``; reject bools, floats and strings."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be an integer, got {value!r} of type {type(value).__name__}"
        )
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return value


def positive_int(name, value):
    """An integer >= 1 (a length, a width, a number of heads...)."""
    return integer(name, value, minimum=1)


def real(name, value, *, positive=False, greater_than=None):
    """Return ``value`` as a finite Python ``float``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a real number, got {value!r} of type {type(value).__name__}"
        )
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if positive and value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    if greater_than is not None and value <= greater_than:
        raise ValueError(f"{name} must be greater than {greater_than}, got {value}")
    return value


def choice(name, value, allowed):
    """One of a fixed set of strings (a layout, a mode...)."""
    if value not in allowed:
        options = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {options}; got {value!r}")
    return value


def boolean(name, value):
    """A real ``True``/``False`` (not 0/1, not a string)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def float_dtype(name, value):
    """A numpy floating dtype such as ``np.float32`` or ``np.float64``."""
    try:
        dtype = np.dtype(value)
    except TypeError:
        raise TypeError(f"{name} must be a numpy floating dtype, got {value!r}") from None
    if dtype.kind != "f":
        raise TypeError(
            f"{name} must be a floating dtype such as np.float32 or np.float64, got {dtype}"
        )
    return dtype


def array(name, value, *, ndim=None, min_ndim=None, dtype=float, finite=True):
    """Convert to a numpy array of ``dtype`` and check its number of axes.

    Complex input is refused, not cast: numpy would drop the imaginary parts
    with nothing but a warning. With ``finite=False`` NaN and inf are let
    through, for a caller that allows some of them (logits may hold ``-inf``)
    and checks the rest itself.
    """
    not_numbers = TypeError(f"{name} must be array-like of numbers, got {type(value).__name__}")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise not_numbers from None
    if arr.dtype.kind == "c":
        raise TypeError(
            f"{name} must hold real numbers, got complex values (dtype {arr.dtype}); "
            f"pass np.real({name}) if the imaginary parts are meant to be dropped"
        )
    try:
        arr = np.asarray(arr, dtype=dtype)
    except (TypeError, ValueError):
        raise not_numbers from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {arr.shape}")
    if min_ndim is not None and arr.ndim < min_ndim:
        raise ValueError(
            f"{name} must have at least {min_ndim} dimension(s), got shape {arr.shape}"
        )
    if finite and arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite numbers (no NaN or inf)")
    return arr
