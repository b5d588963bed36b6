r"""The book's two small tasks, and their balanced test sets.

Both tasks give sequences over a vocabulary of eight tokens
(``ORDER_VOCAB``): two markers, ``A`` and ``B``, and six fillers. In
both, every label has the same kind of bag of tokens, so a model without
a position signal cannot beat chance:

* the **order task** (:func:`order_task`, chapter 4): which of ``A`` and
  ``B`` comes first? An absolute question about two positions.
* the **look-back task** (:func:`lookback_task`, chapter 6): the sequence
  ends in ``B``; is the one ``A`` at most ``window`` places behind it? A
  relative question, asked from the last position, as a causal language
  model asks it.

Two more place the tokens on a grid of patches, read row by row (chapter
8): in the **left-of task** (:func:`left_of_task`) the label says whether
``A``'s column is left of ``B``'s; in the **above-or-left task**
(:func:`above_or_left_task`) whether ``A`` is above ``B`` in its column or
left of it in its row.

The test sets (:func:`order_test_set`, :func:`lookback_test_set`, and
:func:`left_of_test_set`, :func:`above_or_left_test_set`) are made
of pairs, a sequence and a copy with the opposite label and the same
tokens: a model that sees only the bag of tokens scores exactly 0.5 on
them, so any score above one half comes from positions.
"""

from __future__ import annotations

import numpy as np

from . import _checks

__all__ = ["ORDER_VOCAB", "order_task", "lookback_task", "order_test_set", "lookback_test_set",
           "left_of_task", "above_or_left_task", "left_of_test_set", "above_or_left_test_set"]

ORDER_VOCAB = ("A", "B", "c", "d", "e", "f", "g", "h")
"""Tokens of both tasks: the two markers ``A`` (id 0) and ``B`` (id 1), then six fillers."""


def order_task(n_examples, length, *, seed=0):
    """Sequences holding one ``A`` and one ``B`` among fillers; the label says which came first.

    Every sequence has ``A`` (token 0) and ``B`` (token 1) at two distinct
    random positions; the other positions hold filler tokens 2 to 7 drawn
    uniformly (see ``ORDER_VOCAB``). Both labels have the same bag of
    tokens, so only the order can tell them apart.

    Parameters
    ----------
    n_examples : int
        Number of sequences (the batch size).
    length : int
        Tokens per sequence, at least 2.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(n_examples, length)``
    labels : numpy.ndarray of int, shape ``(n_examples,)``
        0 if ``A`` comes first, 1 if ``B`` does.

    Examples
    --------
    >>> tokens, labels = order_task(2, 6, seed=0)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", "AB"[label], "first")
    h f B d d A -> B first
    c A d B f h -> A first
    """
    n_examples, length, rng = _validate_task("n_examples", n_examples, length, seed, per_token=3)
    tokens = rng.integers(2, len(ORDER_VOCAB), size=(n_examples, length))
    # two distinct random positions per row: the first two of a random permutation
    where = np.argsort(rng.random((n_examples, length)), axis=1)[:, :2]
    rows = np.arange(n_examples)
    tokens[rows, where[:, 0]] = 0  # A
    tokens[rows, where[:, 1]] = 1  # B
    labels = (where[:, 1] < where[:, 0]).astype(np.int64)
    return tokens, labels


def lookback_task(n_examples, length, *, window=2, seed=0):
    """Sequences that end in ``B`` and hold one ``A``; the label says whether ``A`` is close behind ``B``.

    The last token is ``B`` (token 1); one ``A`` (token 0) sits ``d`` places
    before it, at position ``length - 1 - d``; every other position holds a
    filler token 2 to 7 drawn uniformly (see ``ORDER_VOCAB``). Each
    label has probability 1/2; given the label, ``d`` is uniform over
    ``1, ..., window`` (near) or ``window + 1, ..., length - 1`` (far).

    Both labels have the same kind of bag of tokens and the same last token:
    only the distance from ``A`` to the end tells them apart, a relative
    position. A model that reads its answer at the last position, as a
    causal language model does, has to look back from ``B``.

    Parameters
    ----------
    n_examples : int
        Number of sequences (the batch size).
    length : int
        Tokens per sequence, at least ``window + 2`` (so that a far ``A``
        has room).
    window : int, default 2
        The largest distance that counts as near (at least 1).
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(n_examples, length)``
    labels : numpy.ndarray of int, shape ``(n_examples,)``
        1 ("near") if ``d <= window``, 0 ("far") otherwise.

    Examples
    --------
    >>> tokens, labels = lookback_task(4, 8, seed=3)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", ["far", "near"][label])
    g c d d d A h B -> near
    c c d e A e d B -> far
    g g c c A e h B -> far
    e e f f d g A B -> near
    """
    n_examples, length, rng, window = _validate_task("n_examples", n_examples, length, seed,
                                                     window=window, per_token=1)
    tokens = rng.integers(2, len(ORDER_VOCAB), size=(n_examples, length))
    labels = rng.integers(0, 2, size=n_examples)
    near = rng.integers(1, window + 1, size=n_examples)
    far = rng.integers(window + 1, length, size=n_examples)
    d = np.where(labels == 1, near, far)
    tokens[np.arange(n_examples), length - 1 - d] = 0  # A, d places before the end
    tokens[:, -1] = 1  # B
    return tokens, labels.astype(np.int64)


def order_test_set(n_pairs, length, *, seed=0):
    """A test set of the order task made of pairs: each sequence, and its copy with ``A`` and ``B`` swapped.

    The two sequences of a pair hold the same tokens and have opposite
    labels, and a model without any position signal gives both the same
    answer (it sees only the bag of tokens): it is right on exactly one of
    each pair, so its accuracy is exactly 0.5. Any score above 0.5 comes
    from position information, any score below it from systematic errors.

    Parameters
    ----------
    n_pairs : int
        Number of pairs.
    length, seed
        As in :func:`order_task`.

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(2 * n_pairs, length)``
        The ``n_pairs`` sequences of :func:`order_task`, then their copies
        with ``A`` and ``B`` swapped, in the same order.
    labels : numpy.ndarray of int, shape ``(2 * n_pairs,)``

    Examples
    --------
    >>> tokens, labels = order_test_set(1, 6, seed=0)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", "AB"[label], "first")
    A f f d d B -> A first
    B f f d d A -> B first
    """
    n_pairs, length, rng = _validate_task("n_pairs", n_pairs, length, seed, per_token=4)
    tokens, labels = order_task(n_pairs, length, seed=rng)
    return _with_copies(tokens, labels, _swap_markers(tokens))


def lookback_test_set(n_pairs, length, *, window=2, seed=0):
    """A test set of the look-back task made of pairs: each sequence, and a copy with ``A`` moved across the window.

    In the copy, ``A`` trades places with the filler at a distance of the
    other label, drawn uniformly (``1, ..., window`` for *near*,
    ``window + 1, ..., length - 1`` for *far*): the same tokens, the same
    last token ``B``, the opposite label. A model without any position
    signal, read at the last position, sees only the bag of tokens before
    ``B`` and gives both the same answer, so its accuracy is exactly 0.5.
    Within each label the distances stay uniform, as in
    :func:`lookback_task`.

    Parameters
    ----------
    n_pairs : int
        Number of pairs.
    length, window, seed
        As in :func:`lookback_task`.

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(2 * n_pairs, length)``
        The ``n_pairs`` sequences of :func:`lookback_task`, then their
        copies with ``A`` moved across the window, in the same order.
    labels : numpy.ndarray of int, shape ``(2 * n_pairs,)``

    Examples
    --------
    >>> tokens, labels = lookback_test_set(2, 8, seed=3)
    >>> for row, label in zip(tokens, labels):
    ...     print(" ".join(ORDER_VOCAB[t] for t in row), "->", ["far", "near"][label])
    g c d d d g A B -> near
    c c d e f e A B -> near
    A c d d d g g B -> far
    c c A e f e d B -> far
    """
    n_pairs, length, rng, window = _validate_task("n_pairs", n_pairs, length, seed, window=window,
                                                  per_token=5)
    tokens, labels = lookback_task(n_pairs, length, window=window, seed=rng)
    far = rng.integers(window + 1, length, size=n_pairs)
    near = rng.integers(1, window + 1, size=n_pairs)
    new = length - 1 - np.where(labels == 1, far, near)  # where A goes: the other label
    old = (tokens == 0).argmax(axis=1)  # where A is
    rows, moved = np.arange(n_pairs), tokens.copy()
    moved[rows, old], moved[rows, new] = tokens[rows, new], 0
    return _with_copies(tokens, labels, moved)


# --- tasks on a grid (chapter 8) ------------------------------------------------------
#
# A grid of patches is read row by row, as a Vision Transformer reads an image:
# a sequence of ``length`` tokens on a grid of ``width`` columns has
# ``length // width`` rows, and token i is the patch in row i // width,
# column i % width.


def left_of_task(n_examples, length, *, width, seed=0):
    """A grid of patches holding ``A`` and ``B`` in two different columns; the label says whether ``A`` is left of ``B``.

    The sequence is a grid of ``width`` columns and ``length // width`` rows,
    read row by row. ``A`` (token 0) and ``B`` (token 1) sit in two cells
    of different columns, drawn uniformly among all such pairs of cells
    (any rows); the other cells hold fillers 2 to 7. Each label has
    probability 1/2, and both labels have the same bag of tokens.

    Parameters
    ----------
    n_examples : int
    length : int
        Tokens per sequence, ``height * width``.
    width : int
        Columns of the grid, at least 2; it must divide ``length``.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(n_examples, length)``
    labels : numpy.ndarray of int, shape ``(n_examples,)``
        1 if ``A``'s column is left of ``B``'s, 0 if it is right of it.

    Examples
    --------
    >>> tokens, labels = left_of_task(1, 6, width=3, seed=1)
    >>> print(_show_grid(tokens[0], 3), "->", ["right of", "left of"][labels[0]])
    e B g / A c c -> left of
    """
    n_examples, length, width = _validate_grid_task("n_examples", n_examples, length, width)
    row, col = np.divmod(np.arange(length), width)
    right = col[:, None] > col[None, :]  # [a, b]: A right of B
    return _place_markers(_checks.rng(seed), n_examples, length, (right, right.T))


def above_or_left_task(n_examples, length, *, width, seed=0):
    """A grid of patches where ``A`` is above ``B`` in its column, or left of it in its row; the label says which.

    The sequence is a grid of ``width`` columns and ``length // width`` rows,
    read row by row. Each label has probability 1/2; given the label, the
    pair of cells is uniform. The other cells hold fillers 2 to 7. In both,
    ``A`` comes before ``B`` in the sequence.

    Parameters
    ----------
    n_examples : int
    length : int
        Tokens per sequence, ``height * width``, at least 2 rows.
    width, seed
        As in :func:`left_of_task`.

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(n_examples, length)``
    labels : numpy.ndarray of int, shape ``(n_examples,)``
        1 ("above"): ``A`` and ``B`` are in the same column, ``A`` in a
        higher row; 0 ("left"): they are in the same row, ``A`` in a column
        further left.

    Examples
    --------
    >>> tokens, labels = above_or_left_task(2, 9, width=3, seed=2)
    >>> for row, label in zip(tokens, labels):  # rows separated by "/"
    ...     print(_show_grid(row, 3), "->", ["left", "above"][label])
    h d c / d e g / A B e -> left
    f A g / h B h / c f d -> above
    """
    n_examples, length, width = _validate_grid_task("n_examples", n_examples, length, width,
                                                    minimum_rows=2)
    row, col = np.divmod(np.arange(length), width)
    left = (row[:, None] == row[None, :]) & (col[:, None] < col[None, :])
    above = (col[:, None] == col[None, :]) & (row[:, None] < row[None, :])
    return _place_markers(_checks.rng(seed), n_examples, length, (left, above))


def left_of_test_set(n_pairs, length, *, width, seed=0):
    """A test set of the left-of task made of pairs: each grid, and its copy with ``A`` and ``B`` swapped.

    The copy holds the same tokens with the opposite label, so a model
    without positions scores exactly 0.5 (as :func:`order_test_set`).

    Parameters
    ----------
    n_pairs : int
        Number of pairs.
    length, width, seed
        As in :func:`left_of_task`.

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(2 * n_pairs, length)``
        The ``n_pairs`` grids of :func:`left_of_task`, then their copies
        with ``A`` and ``B`` swapped, in the same order.
    labels : numpy.ndarray of int, shape ``(2 * n_pairs,)``

    Examples
    --------
    >>> tokens, labels = left_of_test_set(1, 6, width=3, seed=1)
    >>> for row, label in zip(tokens, labels):
    ...     print(_show_grid(row, 3), "->", ["right of", "left of"][label])
    e B g / A c c -> left of
    e A g / B c c -> right of
    """
    _validate_grid_task("n_pairs", n_pairs, length, width, copies=True)
    tokens, labels = left_of_task(n_pairs, length, width=width, seed=seed)
    return _with_copies(tokens, labels, _swap_markers(tokens))


def above_or_left_test_set(n_pairs, length, *, width, seed=0):
    """A test set of the above-or-left task made of pairs: each grid, and its transpose.

    Transposing a square grid (row ``r``, column ``c`` to row ``c``, column
    ``r``) turns "``A`` above ``B``" into "``A`` left of ``B``" and back,
    and keeps the tokens: a model without positions scores exactly 0.5.

    Parameters
    ----------
    n_pairs : int
        Number of pairs.
    length, width, seed
        As in :func:`above_or_left_task`; the grid must be square
        (``length == width ** 2``), so that its transpose has its shape.

    Returns
    -------
    tokens : numpy.ndarray of int, shape ``(2 * n_pairs, length)``
        The ``n_pairs`` grids of :func:`above_or_left_task`, then their
        transposes, in the same order.
    labels : numpy.ndarray of int, shape ``(2 * n_pairs,)``

    Examples
    --------
    >>> tokens, labels = above_or_left_test_set(1, 9, width=3, seed=0)
    >>> for row, label in zip(tokens, labels):
    ...     print(_show_grid(row, 3), "->", ["left", "above"][label])
    h f f / A d c / B c d -> above
    h A B / f d c / f c d -> left
    """
    n_pairs, length, width = _validate_grid_task("n_pairs", n_pairs, length, width, minimum_rows=2,
                                                 square=True, copies=True)
    tokens, labels = above_or_left_task(n_pairs, length, width=width, seed=seed)
    transposed = tokens.reshape(n_pairs, width, width).transpose(0, 2, 1).reshape(n_pairs, length)
    return _with_copies(tokens, labels, transposed)


def _swap_markers(tokens):
    """``A`` and ``B`` swapped, the fillers kept: the label of the order and left-of tasks flips."""
    return np.where(tokens < 2, 1 - tokens, tokens)


def _with_copies(tokens, labels, copies):
    """A test set of pairs: the originals, then their copies, which have the opposite labels."""
    return np.concatenate([tokens, copies]), np.concatenate([labels, 1 - labels])


def _validate_task(name, n, length, seed, *, per_token, window=None):
    """The checked sizes of an order or look-back task (or test set), its generator, and ``window``.

    ``per_token`` is how many numbers the call builds per token, for the cap.
    """
    n = _checks.positive_int(name, n)
    if window is not None:
        window = _checks.positive_int("window", window)
    length = _checks.integer("length", length, minimum=2 if window is None else window + 2)
    _checks.entries(f"{name} * length = {_checks.show(n)} * {_checks.show(length)}",
                    per_token * n * length + 5 * n)
    rng = _checks.rng(seed)
    return (n, length, rng) if window is None else (n, length, rng, window)


def _validate_grid_task(name, n, length, width, *, minimum_rows=1, square=False, copies=False):
    """The checked sizes of a grid task (or, with ``copies``, of its test set): ``width`` divides ``length``."""
    n = _checks.positive_int(name, n)
    width = _checks.integer("width", width, minimum=2)
    length = _checks.integer("length", length, minimum=width)
    if length % width:
        raise ValueError(f"length must be a whole number of rows of width {width} "
                         f"(height * width), got {_checks.show(length)}")
    if length // width < minimum_rows:
        raise ValueError(f"length must give the grid at least 2 rows (length >= 2 * width), "
                         f"got length={length} for width={width}")
    if square and length != width * width:
        raise ValueError(f"the grid must be square, length == width ** 2, so that its transpose "
                         f"has the same shape; got length={_checks.show(length)} for width={width}")
    # _place_markers draws a random number for every pair of cells of every grid
    _checks.entries(f"{name} * length**2 = {_checks.show(n)} * {_checks.show(length)}**2",
                    3 * n * length**2 + 4 * length**2 + (4 if copies else 1) * n * length)
    return n, length, width


def _place_markers(rng, n_examples, length, cells):
    """Fillers, with ``A`` and ``B`` at a pair of cells drawn uniformly among those of a random label.

    ``cells[label]`` is a ``(length, length)`` boolean array: ``[a, b]`` is
    True where ``A`` at cell ``a`` and ``B`` at cell ``b`` have that label.
    """
    tokens = rng.integers(2, len(ORDER_VOCAB), size=(n_examples, length))
    labels = rng.integers(0, 2, size=n_examples)
    allowed = np.stack(cells).reshape(2, -1)[labels]  # (n_examples, length * length)
    pick = np.argmax(rng.random(allowed.shape) * allowed, axis=1)  # uniform among the allowed
    a, b = np.divmod(pick, length)
    rows = np.arange(n_examples)
    tokens[rows, a] = 0  # A
    tokens[rows, b] = 1  # B
    return tokens, labels.astype(np.int64)


def _show_grid(tokens, width):
    """A grid of tokens as text, rows separated by ``/``."""
    rows = np.asarray(tokens).reshape(-1, width)
    return " / ".join(" ".join(ORDER_VOCAB[t] for t in row) for row in rows)
