r"""Learned position tables: one trainable vector per position.

A learned absolute position table is a matrix :math:`P` with one trainable
row per position, as in BERT (512 rows) and GPT-2 (1024 rows). The forward
pass looks rows up; the backward pass adds each row's gradients back into
the table (a scatter-add):

.. math::

    \mathrm{out}_t = P[\mathrm{indices}_t], \qquad
    \frac{\partial L}{\partial P_r} = \sum_{t:\ \mathrm{indices}_t = r}
        \frac{\partial L}{\partial\, \mathrm{out}_t}

Token embeddings are a table too, looked up by token id instead of by
position. Chapter 4 (*Learned positions*) derives both passes; the tiny
model of ``posenc.model`` uses them.
"""

from __future__ import annotations

import numpy as np

from . import _checks

__all__ = ["init_table", "lookup", "lookup_backward"]


def init_table(n_rows, d_model, *, std=0.02, seed=0):
    r"""A table of ``n_rows`` trainable vectors, drawn from :math:`\mathcal{N}(0, \mathrm{std}^2)`.

    BERT draws its position table with ``std = 0.02`` (from a normal
    distribution truncated at two standard deviations); GPT-2 with
    ``std = 0.01``, and its token table with 0.02.

    Parameters
    ----------
    n_rows : int
        Number of rows: positions for a position table, tokens for an
        embedding table.
    d_model : int
        Width of each row.
    std : float, default 0.02
        Standard deviation of the initial entries (positive).
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    numpy.ndarray of shape ``(n_rows, d_model)``

    Examples
    --------
    >>> P = init_table(1024, 768, std=0.01)  # the table of the smallest GPT-2
    >>> P.shape, P.size
    ((1024, 768), 786432)
    >>> float(P.std().round(3))
    0.01
    """
    n_rows, d_model, std, rng = _validate_init_table(n_rows, d_model, std, seed)
    return rng.normal(0.0, std, size=(n_rows, d_model))


def _validate_init_table(n_rows, d_model, std, seed):
    """The checked sizes, ``std``, and the random generator of ``seed``."""
    n_rows = _checks.positive_int("n_rows", n_rows)
    d_model = _checks.positive_int("d_model", d_model)
    _checks.entries(f"n_rows * d_model = {_checks.show(n_rows)} * {_checks.show(d_model)}",
                    n_rows * d_model)
    std = _checks.real("std", std, positive=True)
    return n_rows, d_model, std, _checks.rng(seed)


def lookup(table, indices):
    """Rows of ``table`` at ``indices``: the forward pass of an embedding.

    Parameters
    ----------
    table : array_like of shape (n_rows, d_model)
        A float table keeps its dtype (float32 stays float32).
    indices : array_like of int, any shape
        Row numbers in ``[0, n_rows)``: positions or token ids. A learned
        position table has no row for a position it was not built for. An
        empty list looks up nothing (as ``t5_bucket([])`` buckets nothing).

    Returns
    -------
    numpy.ndarray of shape ``indices.shape + (d_model,)``

    Examples
    --------
    >>> P = np.arange(6.0).reshape(3, 2)
    >>> lookup(P, [2, 0])
    array([[4., 5.],
           [0., 1.]])
    """
    table, indices = _validate_lookup(table, indices)
    return table[indices]


def _validate_lookup(table, indices):
    """The checks of :func:`lookup`: a float table, row numbers inside it, and the cap."""
    table = _float_array("table", table, ndim=2)
    indices = _checks.integer_array("indices", indices, low=0, high=len(table),
                                    what=f"the table has {len(table)} rows")
    _checks.entries(f"indices.size * d_model = {indices.size} * {table.shape[1]}",
                    indices.size * table.shape[1])
    return table, indices


def lookup_backward(grad, indices, n_rows):
    r"""Gradient of a loss with respect to the table, given its gradient at the looked-up rows.

    Row ``r`` of the result is the sum of ``grad`` over every place where
    ``indices == r``; rows that were never looked up get exactly zero.

    Parameters
    ----------
    grad : array_like of shape ``indices.shape + (d_model,)``
        Gradient of the loss with respect to the output of :func:`lookup`.
    indices : array_like of int
        The indices given to :func:`lookup`.
    n_rows : int
        Number of rows of the table.

    Returns
    -------
    numpy.ndarray of shape ``(n_rows, d_model)``, in the dtype of ``grad``

    Examples
    --------
    >>> lookup_backward(np.ones((3, 2)), [0, 2, 0], n_rows=4)
    array([[2., 2.],
           [0., 0.],
           [1., 1.],
           [0., 0.]])
    """
    grad, indices, n_rows = _validate_lookup_backward(grad, indices, n_rows)
    out = np.zeros((n_rows, grad.shape[-1]), dtype=grad.dtype)
    np.add.at(out, indices.reshape(-1), grad.reshape(-1, grad.shape[-1]))  # the scatter-add
    return out


def _validate_lookup_backward(grad, indices, n_rows):
    """The checks of :func:`lookup_backward`: a gradient for every index, and the cap."""
    n_rows = _checks.positive_int("n_rows", n_rows)
    indices = _checks.integer_array("indices", indices, low=0, high=n_rows,
                                    what=f"the table has {n_rows} rows")
    grad = _float_array("grad", grad)
    if grad.ndim == 0 or grad.shape[:-1] != indices.shape:
        raise ValueError(
            f"grad must have shape indices.shape + (d_model,) = {indices.shape} + (d,), "
            f"got {grad.shape}"
        )
    _checks.entries(f"n_rows * d_model = {_checks.show(n_rows)} * {grad.shape[-1]}",
                    n_rows * grad.shape[-1])
    return grad, indices, n_rows


def _float_array(name, value, **shape):
    """Real numbers as floats, keeping a float dtype (integers become float64)."""
    arr = _checks.real_array(name, value, **shape, finite=True)
    return arr if arr.dtype.kind == "f" else arr.astype(np.float64)
