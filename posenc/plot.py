"""Pictures used across the book.

Every function draws on the ``ax`` it is given (or a new one), sets a title
and labelled axes, and returns the matplotlib ``Axes`` so that tests can
inspect what was drawn (``ax.images[0].get_array()``, ``ax.lines``...).
Colormaps are perceptually uniform or diverging around zero, and readable in
grey and by readers with colour-vision deficiency.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from . import _checks

__all__ = ["heatmap", "curves", "similarity", "attention_weights"]


def _axes(ax, figsize):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def heatmap(
    table,
    *,
    ax=None,
    title="Positional encodings",
    xlabel="dimension",
    ylabel="position",
    cmap="RdBu_r",
    symmetric=True,
    colorbar=True,
    figsize=(7, 4),
):
    """Draw a 2-D table as an image, rows top to bottom.

    Parameters
    ----------
    table : array_like of shape (rows, columns)
        For example ``sinusoidal(length, d_model)``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure is made if omitted.
    title, xlabel, ylabel : str
        Text of the title and axis labels.
    cmap : str, default "RdBu_r"
        A diverging colormap by default: red above zero, blue below.
    symmetric : bool, default True
        Centre the colour scale on zero (limits ``-m, m`` with ``m`` the
        largest absolute value), so white always means zero.
    colorbar : bool, default True
        Add a colour bar.
    figsize : tuple, default (7, 4)
        Size of a new figure.

    Returns
    -------
    matplotlib.axes.Axes
        The image is ``ax.images[0]``; its data is the table.
    """
    table = _checks.array("table", table, ndim=2)
    symmetric = _checks.boolean("symmetric", symmetric)
    ax = _axes(ax, figsize)
    limits = {}
    if symmetric:
        m = float(np.max(np.abs(table))) or 1.0
        limits = {"vmin": -m, "vmax": m}
    image = ax.imshow(table, aspect="auto", cmap=cmap, interpolation="nearest", **limits)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    if colorbar:
        ax.figure.colorbar(image, ax=ax)
    return ax


def curves(
    table,
    dims,
    *,
    positions=None,
    ax=None,
    title="Encoding value along the sequence",
    xlabel="position",
    ylabel="value",
    marker=None,
    figsize=(7, 3.5),
):
    """Plot chosen columns of a table against position, one line each.

    Parameters
    ----------
    table : array_like of shape (length, d_model)
    dims : sequence of int
        Columns to draw; each line is labelled ``dim <d>``.
    positions : array_like of shape (length,), optional
        Positions of the rows (default ``0, 1, ..., length - 1``).
    ax, title, xlabel, ylabel, figsize
        As in :func:`heatmap`.
    marker : str, optional
        A matplotlib marker, useful for short tables (``"o"``).

    Returns
    -------
    matplotlib.axes.Axes
        One line per requested dimension, in order, in ``ax.lines``.
    """
    table = _checks.array("table", table, ndim=2)
    dims = [_checks.integer("dims[...]", d, minimum=0) for d in dims]
    for d in dims:
        if d >= table.shape[1]:
            raise ValueError(f"dims contains {d}, but the table has {table.shape[1]} columns")
    if positions is None:
        positions = np.arange(table.shape[0])
    positions = _checks.array("positions", positions, ndim=1)
    if len(positions) != table.shape[0]:
        raise ValueError(
            f"positions has {len(positions)} entries but the table has {table.shape[0]} rows"
        )
    ax = _axes(ax, figsize)
    for d in dims:
        ax.plot(positions, table[:, d], marker=marker, label=f"dim {d}")
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3)
    return ax


def similarity(
    table,
    *,
    ax=None,
    title="Dot products between positions",
    normalize=False,
    cmap="viridis",
    figsize=(5, 4.2),
):
    r"""Draw the matrix of dot products :math:`S = PE\,PE^\top` between rows.

    Parameters
    ----------
    table : array_like of shape (length, d_model)
    ax, title, figsize
        As in :func:`heatmap`.
    normalize : bool, default False
        Divide by the norms first, giving cosine similarities in [-1, 1].
    cmap : str, default "viridis"

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is the (length, length) matrix.
    """
    table = _checks.array("table", table, ndim=2)
    normalize = _checks.boolean("normalize", normalize)
    if normalize:
        norms = np.linalg.norm(table, axis=1, keepdims=True)
        if np.any(norms == 0):
            raise ValueError("table has an all-zero row; cannot normalize")
        table = table / norms
    sim = table @ table.T
    ax = _axes(ax, figsize)
    image = ax.imshow(sim, cmap=cmap, interpolation="nearest")
    ax.set(title=title, xlabel="position", ylabel="position")
    ax.figure.colorbar(image, ax=ax)
    return ax


def attention_weights(
    weights,
    queries,
    keys=None,
    *,
    ax=None,
    title="Attention weights",
    annotate=True,
    cmap="viridis",
    colorbar=True,
    figsize=(4.2, 3.6),
):
    """Draw an attention-weight matrix with the tokens on its axes.

    Row ``i`` is query ``i`` (labelled on the left), column ``j`` is key
    ``j`` (labelled at the bottom). The colour scale is fixed to [0, 1], so
    two pictures drawn with this function can be compared cell by cell.

    Parameters
    ----------
    weights : array_like of shape (n_q, n_k)
        For example the second result of :func:`posenc.attention`.
    queries : sequence of str
        One label per row (the query tokens).
    keys : sequence of str, optional
        One label per column; defaults to ``queries`` (self-attention).
    ax, title, figsize
        As in :func:`heatmap`.
    annotate : bool, default True
        Write each weight, to two decimals, in its cell.
    cmap : str, default "viridis"
    colorbar : bool, default True

    Returns
    -------
    matplotlib.axes.Axes
        ``ax.images[0].get_array()`` is the matrix; the tick labels are the
        tokens; with ``annotate`` the cell texts are in ``ax.texts``, row by row.

    Raises
    ------
    ValueError
        If ``weights`` is not 2-D, or the labels do not match its shape.
    """
    weights = _checks.array("weights", weights, ndim=2)
    annotate = _checks.boolean("annotate", annotate)
    queries = [str(t) for t in queries]
    keys = queries if keys is None else [str(t) for t in keys]
    if len(queries) != weights.shape[0]:
        raise ValueError(
            f"queries has {len(queries)} labels but weights has {weights.shape[0]} rows"
        )
    if len(keys) != weights.shape[1]:
        raise ValueError(f"keys has {len(keys)} labels but weights has {weights.shape[1]} columns")
    ax = _axes(ax, figsize)
    image = ax.imshow(weights, cmap=cmap, vmin=0.0, vmax=1.0, interpolation="nearest")
    ax.set_xticks(range(len(keys)), keys)
    ax.set_yticks(range(len(queries)), queries)
    ax.set(title=title, xlabel="key", ylabel="query")
    if annotate:
        for i, row in enumerate(weights):
            for j, w in enumerate(row):
                # dark text on the bright end of the colormap, light text elsewhere
                colour = "black" if w > 0.6 else "white"
                ax.text(j, i, f"{w:.2f}", ha="center", va="center", color=colour, fontsize="small")
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label="weight")
    return ax
