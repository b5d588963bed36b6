r"""Positions and masks of a batch: padding, packing, sliding windows.

How a batch of several texts decides each token's position and what it may
attend to, next to the function of Hugging Face Transformers 5.24.0 that each
equals (``tests/unit/test_cache.py`` compares them through
``tests/fixtures/generation_reference.json``). Chapter 10 uses them with the
key-value cache of :mod:`posenc.cache`.

==========================  ============================================================
:func:`position_ids`        the position of each token of a left-padded batch,
                            ``cumsum(mask) - 1`` (generation's position ids)
:func:`padding_mask`        the causal mask of a padded batch (``sdpa_mask``)
:func:`packed_position_ids` positions that restart at every packed document
                            (``DataCollatorWithFlattening``)
:func:`document_ids`        which document each token of a packed row belongs to
                            (``find_packed_sequence_indices``)
:func:`packed_mask`         the block-diagonal causal mask of a packed row
:func:`sliding_window_mask` query ``i`` sees keys ``i - window + 1 .. i``
                            (``sliding_window_causal_mask_function``)
==========================  ============================================================
"""

from __future__ import annotations

import numpy as np

from . import _checks
from .attention import causal_mask

__all__ = [
    "position_ids",
    "padding_mask",
    "packed_position_ids",
    "document_ids",
    "packed_mask",
    "sliding_window_mask",
]


# --- padding --------------------------------------------------------------------


def _attention_mask(attention_mask):
    """A 0/1 mask of shape (batch, n) or (n,), as an int array; anything else refused by name."""
    try:
        arr = np.asarray(attention_mask)
    except (TypeError, ValueError):  # a ragged list, for example: the message below
        arr = None
    except Exception:  # noqa: BLE001 - its own __array__ failed (a torch tensor that requires grad)
        _checks.asarray("attention_mask", attention_mask)  # raises a TypeError naming it
    if arr is None or arr.dtype.kind not in "biuf" or arr.ndim not in (1, 2) or arr.size == 0:
        raise TypeError(
            "attention_mask must be a non-empty array of 0s and 1s (1 = a token, 0 = padding) of "
            f"shape (batch, n) or (n,), got {_checks.show(attention_mask)}")
    with np.errstate(invalid="ignore"):
        binary = np.isin(arr, (0, 1)).all()
    if not binary:
        raise ValueError(f"attention_mask must hold only 0 and 1 (1 = a token, 0 = padding), "
                         f"got {_checks.show(attention_mask)}")
    return arr.astype(np.int64)


def position_ids(attention_mask, *, pad_position=0):
    r"""The position of each token of a padded batch: ``cumsum(mask) - 1``.

    .. math::

        \mathrm{pos}_{b,i} = \sum_{j \le i} m_{b,j} - 1 \quad (m_{b,i} = 1),
        \qquad \mathrm{pos}_{b,i} = \text{pad\_position} \quad (m_{b,i} = 0)

    The first real token of every row gets position 0, however much padding
    comes before it. Transformers 5.24.0's
    ``GenerationMixin._prepare_position_ids_for_generation`` does this, with
    the padding set to 0; the ``prepare_inputs_for_generation`` of GPT-2
    and other models in Transformers 4 set it to 1 (``pad_position=1``).
    The padding's own positions never matter when it is masked.

    Parameters
    ----------
    attention_mask : array_like of 0/1, shape ``(batch, n)`` or ``(n,)``
        1 for a token, 0 for padding.
    pad_position : int, default 0

    Returns
    -------
    numpy.ndarray of int, the shape of ``attention_mask``

    Examples
    --------
    >>> position_ids([[0, 0, 1, 1, 1],
    ...               [1, 1, 1, 1, 1]])
    array([[0, 0, 0, 1, 2],
           [0, 1, 2, 3, 4]])
    """
    mask = _attention_mask(attention_mask)
    pad_position = _checks.integer("pad_position", pad_position, minimum=0, maximum=2**62)
    return np.where(mask == 1, np.cumsum(mask, axis=-1) - 1, pad_position)


def padding_mask(attention_mask):
    """The causal mask of a padded batch: query ``i`` sees key ``j`` if ``j <= i`` and ``j`` is a token.

    What Transformers 5.24.0's ``sdpa_mask`` builds from ``causal_mask_function``
    and a 2-D ``attention_mask``. A padding query before the first token
    (left padding) sees no key at all.

    Parameters
    ----------
    attention_mask : array_like of 0/1, shape ``(batch, n)`` or ``(n,)``

    Returns
    -------
    numpy.ndarray of bool, shape ``(batch, n, n)`` (or ``(n, n)``)

    Examples
    --------
    >>> padding_mask([0, 1, 1]).astype(int)
    array([[0, 0, 0],
           [0, 1, 0],
           [0, 1, 1]])
    """
    mask = _attention_mask(attention_mask).astype(bool)
    batch, n = (1, *mask.shape) if mask.ndim == 1 else mask.shape
    _checks.entries(f"2 * batch * n * n = 2 * {batch} * {n} * {n}", 2 * batch * n * n)  # mask, causal
    return causal_mask(mask.shape[-1]) & mask[..., None, :]


# --- packing --------------------------------------------------------------------


def _lengths(lengths):
    lengths = _checks.integer_array("lengths", lengths, low=1, what="every document has a token")
    if lengths.ndim != 1 or lengths.size == 0:
        raise ValueError(f"lengths must be a non-empty list of document lengths, got shape {lengths.shape}")
    total = sum(int(n) for n in lengths)  # Python ints: numpy's sum could wrap round
    _checks.entries(f"3 * sum(lengths) = 3 * {_checks.show(total)}", 3 * total)  # ids, starts, arange
    return lengths


def packed_position_ids(lengths):
    """Positions that restart at 0 at every document packed into one row.

    What Transformers 5.24.0's ``DataCollatorWithFlattening`` returns as
    ``position_ids`` (with its default ``position_ids_start=0``).

    Parameters
    ----------
    lengths : array_like of int
        The length of each document, in the order they are packed.

    Returns
    -------
    numpy.ndarray of int, shape ``(sum(lengths),)``

    Examples
    --------
    >>> packed_position_ids([3, 2, 4])
    array([0, 1, 2, 0, 1, 0, 1, 2, 3])
    """
    lengths = _lengths(lengths)
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(lengths.sum()) - starts


def document_ids(position_ids):
    """Which document each token of a packed row belongs to, found from the position ids.

    A document starts wherever the position does not grow by exactly 1,
    as in Transformers 5.24.0's ``find_packed_sequence_indices``.

    Parameters
    ----------
    position_ids : array_like of int, shape ``(n,)``

    Returns
    -------
    numpy.ndarray of int, shape ``(n,)``: 0 for the first document, 1 for the next...

    Examples
    --------
    >>> document_ids([0, 1, 2, 0, 1, 0, 1, 2, 3])
    array([0, 0, 0, 1, 1, 2, 2, 2, 2])
    """
    ids = _checks.integer_array("position_ids", position_ids)
    if ids.ndim != 1 or ids.size == 0:
        raise ValueError(f"position_ids must be a non-empty 1-D array, got shape {ids.shape}")
    return np.cumsum(np.diff(ids, prepend=ids[0] - 1) != 1)


def packed_mask(lengths):
    """The block-diagonal causal mask of documents packed into one row.

    Query ``i`` sees key ``j`` if ``j <= i`` and both belong to the same
    document: what Transformers 5.24.0 builds from
    ``packed_sequence_mask_function`` and ``causal_mask_function``, and what
    flash-attention's variable-length kernels compute from the documents'
    boundaries (``cu_seqlens``).

    Parameters
    ----------
    lengths : array_like of int

    Returns
    -------
    numpy.ndarray of bool, shape ``(n, n)`` with ``n = sum(lengths)``

    Examples
    --------
    >>> packed_mask([2, 3]).astype(int)
    array([[1, 0, 0, 0, 0],
           [1, 1, 0, 0, 0],
           [0, 0, 1, 0, 0],
           [0, 0, 1, 1, 0],
           [0, 0, 1, 1, 1]])
    """
    lengths = _lengths(lengths)
    n = sum(int(length) for length in lengths)
    _checks.entries(f"3 * sum(lengths)**2 = 3 * {n}**2", 3 * n * n)  # causal, same document, both
    document = np.repeat(np.arange(len(lengths)), lengths)
    return causal_mask(n) & (document[:, None] == document[None, :])


# --- windows and chunks -----------------------------------------------------------


def _length_and(n, name, value):
    n = _checks.positive_int("n", n)
    _checks.entries(f"3 * n * n = 3 * {_checks.show(n)} * {_checks.show(n)}", 3 * n * n)
    return n, _checks.integer(name, value, minimum=1, maximum=2**62)


def sliding_window_mask(n, window):
    r"""Query ``i`` sees the last ``window`` keys: :math:`i - \text{window} < j \le i`.

    Transformers 5.24.0's ``sliding_window_causal_mask_function(window)``
    (Mistral's and Gemma's sliding layers), on ``n`` queries and keys.

    Parameters
    ----------
    n : int
    window : int, at least 1

    Returns
    -------
    numpy.ndarray of bool, shape ``(n, n)``

    Examples
    --------
    >>> sliding_window_mask(5, 3).astype(int)
    array([[1, 0, 0, 0, 0],
           [1, 1, 0, 0, 0],
           [1, 1, 1, 0, 0],
           [0, 1, 1, 1, 0],
           [0, 0, 1, 1, 1]])
    """
    n, window = _length_and(n, "window", window)
    offset = np.arange(n)[:, None] - np.arange(n)[None, :]  # i - j
    return (offset >= 0) & (offset < window)
